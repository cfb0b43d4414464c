// Turn generation for Chestonia checkers: every legal whole turn of the seat to move.
//
// A turn is a quiet move (a man's one- or two-cell step, a king's flight) or a whole capture
// chain, written as the path of cells it stands on: the origin, then every landing. The rules
// folded in here:
//   * a man steps one or two cells along its four straight directions (forward and sideways);
//     a two-cell step needs an empty destination and at least one route whose middle cell is
//     empty (the destination may also be reached by a second route, or be a one-step target);
//   * a man captures along all twelve lines: an enemy on the neighbouring cell of the line
//     (straight or diagonal) with the next cell of the line empty;
//   * a king flies along the twelve lines until something is in the way, and captures the first
//     piece of a line when it is an enemy with empty cells beyond, landing on any of them;
//   * captured pieces leave the board hop by hop (the mover's origin is empty during its own
//     chain), so a chain may cross its own path;
//   * captures are compulsory, and so is continuing with the piece that has just taken; a man
//     landing on another seat's back row is crowned and its turn ends there;
//   * enemies are pieces of other seats still in; frozen pieces block and are never taken.
// Generation walks the precomputed tables of hex::Grid (rays, steps) and a per-seat table of
// the man's steps with their routes.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

#include "engine/chestonia_checkers/position.h"

namespace arena::engine::chestonia_checkers {

// One turn as a view into a TurnList: path[0] is the origin, path[len - 1] where the piece
// ends; len >= 2.
struct Turn {
  const uint8_t* path = nullptr;
  int len = 0;
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
    return Turn{cells.data() + starts[i], static_cast<int>(starts[i + 1] - starts[i])};
  }
};

// What a turn does: the piece on `from` ends on `to` and the pieces on `taken` leave the board.
// Two capture routes with the same result are the same turn (listed once, by the first route
// the generator finds; Apply accepts either).
struct TurnKey {
  int from = -1;
  int to = -1;
  CellSet taken;
  friend bool operator==(const TurnKey&, const TurnKey&) = default;
};

// The result of a path on pos, checking each hop on its own (it follows a line, lands on an
// empty cell, takes exactly one opponent's piece, a man only the next one); whether the whole
// turn is legal is for the caller to check against GenerateTurns. FAILED_PRECONDITION when a
// hop is impossible.
absl::StatusOr<TurnKey> ReplayTurn(const Position& pos, const uint8_t* path, int len);

// The legal turns of pos.turn, in cell order of the moving piece, then of generation; one per
// distinct result.
// With a positive `budget`, the capture search stops after visiting that many chain points
// (cell and pieces taken so far) of one piece and returns false: the list then holds legal
// turns but not all of them (random players and tests use this; a rare king amid many enemies
// can have hundreds of thousands of distinct turns). Returns true when the list is complete.
bool GenerateTurns(const Position& pos, TurnList& list, int64_t budget = 0);
// Whether the path is a legal turn of pos.turn (any route to a legal result), without listing
// every turn: each hop is checked, then that the chain cannot go on, or for a quiet move that
// nothing can be taken.
bool IsLegalTurn(const Position& pos, const uint8_t* path, int len);
bool HasLegalTurn(const Position& pos);
// Whether pos.turn may capture (then only captures are legal).
bool CanCapture(const Position& pos);

// Perft: leaf count of the tree of whole turns (darts off), copy-make.
uint64_t Perft(const Position& pos, int depth);

}  // namespace arena::engine::chestonia_checkers
