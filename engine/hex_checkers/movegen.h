// Turn generation for hex checkers: every legal whole turn of the seat to move.
//
// A turn is a quiet step or a whole capture chain, written as the path of cells the piece
// stands on: the origin, then every landing. The rules folded in here (seed text and
// RULES-NOTES):
//   * a man steps one cell in its four directions (two forward, two lateral: never back
//     toward its own edge); a king steps one cell in all six straight directions;
//   * a capture is a short jump in those same directions over an adjacent enemy piece onto
//     the empty cell just beyond; the taken piece leaves the board at once, and the mover's
//     origin is empty during its own chain, so a chain may cross its own path;
//   * capturing is compulsory (any jump of any piece rules out every quiet step), and a piece
//     that has jumped keeps jumping while it can — except that a man landing on the centre
//     cell 0,0 is promoted and its turn ends there, even mid-chain (a king passing the centre
//     goes on);
//   * a man whose quiet step ends on the centre is promoted too.
// Each distinct path is one turn (with short jumps the path fixes which pieces are taken).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

#include "engine/hex_checkers/position.h"

namespace arena::engine::hex_checkers {

// The directions (hex::kDirections indices) piece `p` steps and jumps in: a man's four (its
// seat's, Layout::man_dirs), a king's six. For the rules, and for players that read threats.
struct PieceDirs {
  std::array<int, 6> dirs{};
  int count = 0;
};
PieceDirs DirsOf(const Position& pos, Piece p);

// One turn as a view into a TurnList: path[0] is the origin, path[len - 1] where the piece
// ends; len >= 2. Consecutive cells of a capture are two cells apart (the taken piece between).
struct Turn {
  const uint8_t* path = nullptr;
  int len = 0;
  bool capture = false;
  int from() const { return path[0]; }
  int to() const { return path[len - 1]; }
};

// The legal turns of one position. Every turn in it is a capture, or none is.
struct TurnList {
  std::vector<uint8_t> cells;    // the paths, back to back
  std::vector<uint32_t> starts;  // where each path begins in `cells`; one extra at the end
  bool captures = false;

  void Clear() {
    cells.clear();
    starts.assign(1, 0);
    captures = false;
  }
  int size() const { return static_cast<int>(starts.size()) - 1; }
  Turn operator[](int i) const {
    return Turn{cells.data() + starts[i], static_cast<int>(starts[i + 1] - starts[i]), captures};
  }
};

// The legal turns of pos.turn, by origin cell, then directions in hex::kDirections order.
void GenerateTurns(const Position& pos, TurnList& list);
bool HasLegalTurn(const Position& pos);
// Whether pos.turn may capture (then only captures are legal).
bool CanCapture(const Position& pos);
// Whether the path is a legal turn of pos.turn.
bool IsLegalTurn(const Position& pos, const uint8_t* path, int len);

// What a legal turn does: the cells of the pieces it takes, in hop order, and whether the
// mover is promoted.
struct TurnEffect {
  std::vector<int> captured;
  bool promotes = false;
};
TurnEffect EffectOf(const Position& pos, const Turn& t);

// Perft: leaf count of the tree of whole turns (skipped seats are no ply; a finished game is
// a leaf), copy-make.
uint64_t Perft(const Position& pos, int depth);

}  // namespace arena::engine::hex_checkers
