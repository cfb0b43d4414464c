// A deliberately simple second turn generator, for tests only. It works on axial coordinates
// with plain arithmetic (no precomputed tables), keeps the board in a std::map from cell to
// piece, and finds capture chains by copying that map at every hop, remembering in a std::set
// which (cell, pieces taken) points it has already been at. It shares nothing with movegen.cc
// but the Position's fields and Position::ApplyTurn.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/chestonia_checkers/position.h"

namespace arena::engine::chestonia_checkers::naive {

struct NaiveTurn {
  // What the turn does, comparable across generators: origin, final cell, the cells of the
  // pieces taken in ascending order.
  int from = -1;
  int to = -1;
  std::vector<int> taken;
  // One route to it (origin, then every landing).
  std::vector<uint8_t> path;
  auto Key() const { return std::tie(from, to, taken); }
};

// Every legal turn of pos.turn, one per distinct result, sorted by result.
std::vector<NaiveTurn> LegalTurns(const Position& pos);
// Leaf count using LegalTurns at every node and Position::ApplyTurn between them.
uint64_t Perft(const Position& pos, int depth);

}  // namespace arena::engine::chestonia_checkers::naive
