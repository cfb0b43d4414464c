// Move generation and attack detection for three-player chess.
//
// The generator walks the precomputed tables of geometry.h over the mailbox of a Position.
// A player moves every piece of every army it controls; a move is legal when afterwards its
// own king is attacked by no piece of another player. Kings are never captured and a player's
// pieces never capture each other. En passant captures the pawn that passed the target cell
// (ep in position.h); castling follows standard chess in the owner's frame and is generated
// only when the king is not in check and does not pass or land on an attacked cell.
#pragma once

#include <array>
#include <cstdint>

#include "engine/three_player_chess/position.h"

namespace arena::engine::three_player_chess {

// Far more than any position needs: two armies of at most 16 pieces each, none with more
// than 40 targets.
inline constexpr int kMaxMoves = 1024;

struct MoveList {
  std::array<Move, kMaxMoves> moves;
  int size = 0;
  void Add(Move m) { moves[size++] = m; }
  const Move* begin() const { return moves.data(); }
  const Move* end() const { return moves.data() + size; }
};

// The cell of the pawn that passed over `passed` with a double step.
constexpr int EnPassantPawnCell(int passed) {
  return CellAt(SegmentOf(passed), 3, ColumnOf(passed));
}

// Every move of `player`'s pieces by their movement rules, ignoring its own king's safety
// (castling excepted, which is generated only when legal).
void GeneratePseudoMoves(const Position& pos, int player, MoveList& list);
// The legal moves of `player` (pos.turn by default).
void GenerateLegalMoves(const Position& pos, int player, MoveList& list);
inline void GenerateLegalMoves(const Position& pos, MoveList& list) {
  GenerateLegalMoves(pos, pos.turn, list);
}
bool HasLegalMove(const Position& pos, int player);

// Moves the pieces of `m` (capture, en passant victim, castling rook, promotion) and nothing
// else: no counters, rights or turn.
void MovePieces(Position& pos, Move m);

// Whether `cell` is attacked by a piece of any player in the bit mask `attackers`.
bool IsAttacked(const Position& pos, int cell, unsigned attackers);
// The players other than `player` as a bit mask.
constexpr unsigned OthersThan(int player) {
  return 7u & ~(1u << player);
}
// Whether `player`'s king is attacked by another player's piece.
bool InCheck(const Position& pos, int player);

// Leaf count of the move tree to `depth` plies (copy-make, bulk counting at the last ply).
uint64_t Perft(const Position& pos, int depth);

}  // namespace arena::engine::three_player_chess
