// Text forms of Chestonia chess: cells, moves and other actions, whole positions, and the
// board drawing. docs/rules/chestonia-chess.md describes every form with examples.
//
// Position text is one line of space-separated key=value fields after the word
// "chestonia-chess", e.g.
//   chestonia-chess players=2 board=plain darts=off reverse=off movecap=0 first=b
//   turn=b phase=move pieces=bR0,-7;bN1,-7;...;wP*-3,5 out=- moves=0 noprogress=0
//   rounds=0 dartround=0 checks=0/0 skips=0 aim=- reward=0 actions=0 result=-
// Pieces are <seat letter><piece letter>[*]<q>,<r> joined by ';' in cell order ('*' marks a
// pawn that has moved). Serialize always writes every field in this order; Parse accepts the
// fields in any order, fills missing ones from the variant and defaults, and also accepts
// phase=start ("begin the turn of `turn` now"), which is how hand-made positions are entered.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/chestonia_chess/position.h"

namespace arena::engine::chestonia_chess {

std::string CellName(int cell);                            // "q,r"
absl::StatusOr<int> ParseCell(std::string_view text);      // INVALID_ARGUMENT off the board
char PieceLetter(int type);                                // P N B R Q K
int PieceTypeFromLetter(char letter);                      // kEmpty if none

// Moves: "<from>:<to>", e.g. "3,-6:3,-3" (the colon keeps negative numbers unambiguous).
std::string MoveText(Move m);
absl::StatusOr<Move> ParseMoveText(std::string_view text);

std::string SerializePosition(const Position& pos);
// `defaults` supplies the variant fields the text leaves out.
absl::StatusOr<Position> ParsePosition(std::string_view text, const Rules& defaults);

// The board in hex rows, the `perspective` seat's edge at the bottom. Each cell is two
// characters: seat letter and piece letter (lower-case piece letter for a frozen army), ".."
// for an empty cell. With `coordinates`, each row ends with the q,r of its first and last
// cells.
std::string RenderBoard(const Position& pos, int perspective, bool coordinates);

}  // namespace arena::engine::chestonia_chess
