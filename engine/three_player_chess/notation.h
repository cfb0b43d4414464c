// Text forms of three-player chess: moves in long form and the FEN-like position text.
// docs/rules/three-player-chess.md describes both with examples.
//
// Moves: "<from><to>[=<Q|R|B|N>]", e.g. "E2E4", "D7D8=Q"; castling is the king's two-cell
// move ("E1G1"). Parsing accepts lower case.
//
// Position text: seven space-separated fields,
//   <board> <turn> <owners> <castling> <en passant> <no-progress> <moves> <out>
// e.g. the start:
//   wRwNwBwQwKwBwNwR/wPwPwPwPwPwPwPwP/8/8/bR.../bP.../8/8/rR.../rP.../8/8 w wbr wKwQbKbQrKrQ - 0 0
//   -
// <board> is 12 rows joined by '/': White's segment rows r = 0..3 (rows 1..4), then Black's
// (8..5), then Red's (12..9), each row from c = 0 to 7 in its own frame; a piece is its colour
// letter and piece letter (wP, bK, rQ), a digit 1-8 counts empty cells. <turn> is w, b or r.
// <owners> gives the player moving the white, black and red armies ("wwr": White has taken
// over Black's army). <castling> lists rights as colour + K (short) or Q (long), or "-".
// <en passant> lists the cells passed by the double steps still open, joined by ',' (the
// player who may not take there is the pawn's owner), or "-". <no-progress> counts moves since a
// capture or pawn move, <moves> all moves played, <out> the players out in the order they
// went out ("b", "br") or "-".
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/three_player_chess/position.h"

namespace arena::engine::three_player_chess {

char PieceLetter(int type);       // P N B R Q K
int PieceTypeFromLetter(char c);  // kEmpty if none (either case)

std::string MoveText(Move m);
// The squares and promotion of a move (its flag is left kNormal: look the move up in the legal
// list). INVALID_ARGUMENT for text that is not a move of this board.
absl::StatusOr<Move> ParseMoveText(std::string_view text);

std::string PositionText(const Position& pos);
// INVALID_ARGUMENT for malformed text or an impossible position (a player in without a king,
// two kings of a colour, a pawn on a promotion cell, a castling right without its pieces).
// The status is settled (Position::Settle) so a finished or skipped turn reads as played.
absl::StatusOr<Position> ParsePositionText(std::string_view text);

// The board as the 12 x 12 letter grid (row 12 at the top, missing cells blank): each cell is
// the colour letter and piece letter, ".." when empty. With `coordinates`, rows and columns are
// labelled.
std::string RenderBoard(const Position& pos, bool coordinates);

}  // namespace arena::engine::three_player_chess
