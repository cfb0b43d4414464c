// A deliberately simple second move generator, for tests only. It walks the board with plain
// (segment, row, column) arithmetic straight from the frame rules (no tables), follows every
// branch of a line one step at a time, and decides legality by playing each move on a copy of
// the board and asking whether any piece of another player could then move onto the king. It
// shares nothing with geometry.cc or movegen.cc but the Position's fields.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/three_player_chess/position.h"

namespace arena::engine::three_player_chess::naive {

std::vector<Move> LegalMoves(const Position& pos);
// Leaf count using LegalMoves at every node and Position::ApplyMove between them.
uint64_t Perft(const Position& pos, int depth);

}  // namespace arena::engine::three_player_chess::naive
