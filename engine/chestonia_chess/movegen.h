// Move generation and attack detection for Chestonia chess.
//
// The generator walks the precomputed rays and knight tables of hex::Grid over the dense
// board of a Position. Legality outside reverse chess is "own king not attacked by any seat
// still in afterwards"; a move of a piece that is not the king, made while not in check, from
// a cell on none of the king's twelve lines cannot expose the king, so it skips the test. The
// rules folded in here: kings are never captured (except in reverse chess), frozen pieces
// block but neither attack nor can be captured, captures are compulsory in reverse chess, and
// on the plain, circles and target boards the queen and bishops may not capture on a back row
// on the game's first move.
#pragma once

#include <array>

#include "engine/chestonia_chess/position.h"

namespace arena::engine::chestonia_chess {

// Enough for any reachable position (a queen has at most 84 moves; see movegen.cc).
inline constexpr int kMaxMoves = 4096;

struct MoveList {
  std::array<Move, kMaxMoves> moves;
  int size = 0;
  void Add(int from, int to) {
    moves[size++] = Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to)};
  }
  const Move* begin() const { return moves.data(); }
  const Move* end() const { return moves.data() + size; }
};

// Every move of `seat`'s pieces by their movement rules, ignoring the safety of its own king
// (kings are never captured outside reverse chess; frozen pieces are never captured).
void GeneratePseudoMoves(const Position& pos, int seat, MoveList& list);
// The legal moves of pos.turn (in cell order of the moving piece, then of the ray walk).
// With `in_check`, also reports whether pos.turn's king is attacked now.
void GenerateLegalMoves(const Position& pos, MoveList& list, bool* in_check = nullptr);
// The legal moves of pos.turn that capture, in the order GenerateLegalMoves gives them (the
// same list as filtering its result; quiescence search uses it to skip proving quiet king moves).
void GenerateLegalCaptures(const Position& pos, MoveList& list);
int CountLegalMoves(const Position& pos);
// With `in_check`, also reports whether pos.turn's king is attacked now.
bool HasLegalMove(const Position& pos, bool* in_check = nullptr);

// Whether `cell` is attacked by a piece of any seat in `attackers` (a bit mask).
bool IsAttacked(const Position& pos, int cell, unsigned attackers);
// Whether `seat`'s king is attacked by any other seat still in (always false in reverse).
bool InCheck(const Position& pos, int seat);

// Perft: leaf count of the move tree (darts off), copy-make.
uint64_t Perft(const Position& pos, int depth);

}  // namespace arena::engine::chestonia_chess
