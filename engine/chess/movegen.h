// Legal move generation and perft.
//
// The generator produces only legal moves, without trying them: it computes the squares the
// enemy attacks with our king lifted off the board (for king moves and castling), the check
// mask (the squares a non-king move must land on while in check) and the pinned pieces (which
// may move only along the line through their king). En-passant captures, the one move whose
// legality these masks cannot capture (two pawns leave a rank at once), are tested directly.
// CountLegal() runs the same code but only counts, with popcounts instead of a move list;
// perft uses it at the last ply ("bulk counting").
#pragma once

#include <cstdint>

#include "engine/chess/position.h"
#include "engine/chess/types.h"

namespace arena::engine::chess {

// A fixed array of moves: no allocation on the hot path.
class MoveList {
 public:
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  Move* data() { return moves_; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](int i) const { return moves_[i]; }
  void set_size(int n) { size_ = n; }
  bool contains(Move m) const {
    for (Move x : *this) {
      if (x == m) return true;
    }
    return false;
  }

 private:
  Move moves_[kMaxMoves];
  int size_ = 0;
};

// Fills `list` with every legal move of the side to move (in generation order).
void GenerateLegal(const Position& pos, MoveList& list);
// Quiescence moves: when the side to move is not in check, the legal captures (en passant
// included; a capture that promotes promotes to a queen) and queen promotions by a push; in
// check, every legal move (all evasions), as GenerateLegal.
void GenerateTactical(const Position& pos, MoveList& list);
// The number of legal moves, without building the list.
int CountLegal(const Position& pos);
// Leaf nodes of the legal move tree `depth` plies deep; 1 at depth 0.
uint64_t Perft(Position& pos, int depth);

}  // namespace arena::engine::chess
