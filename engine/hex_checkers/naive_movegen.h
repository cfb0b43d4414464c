// A deliberately simple second turn generator, for tests only. It works on axial coordinates
// with plain arithmetic (no hex::Grid tables), derives each seat's face and directions itself
// from the rule text (round(6 i / n) with halves up in floating point, face 0's vectors turned
// by (q, r, s) -> (-r, -s, -q) per sixth), keeps the board in a std::map from (q, r) to piece
// and finds capture chains by copying that map at every hop. It shares nothing with
// movegen.cc but the Position's fields and Position::ApplyTurn.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/hex_checkers/position.h"

namespace arena::engine::hex_checkers::naive {

// Every legal turn of pos.turn as paths of dense cell indices, sorted.
std::vector<std::vector<int>> LegalTurns(const Position& pos);
// The army cells of `seat` at the start, by the rule text alone, sorted by dense index.
std::vector<int> StartCells(int players, int radius, int seat);
// Leaf count using LegalTurns at every node and Position::ApplyTurn between them.
uint64_t Perft(const Position& pos, int depth);

}  // namespace arena::engine::hex_checkers::naive
