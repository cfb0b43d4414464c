// A deliberately simple second move generator, for tests only. It loops over the cells,
// steps along directions with plain coordinate arithmetic (no precomputed tables), and
// decides legality by applying each move to a copy of the board and looking for any attack
// on the mover's king. It shares nothing with movegen.cc but the Position's fields.
#pragma once

#include <vector>

#include "engine/chestonia_chess/position.h"

namespace arena::engine::chestonia_chess::naive {

std::vector<Move> LegalMoves(const Position& pos);
// Leaf count using LegalMoves at every node and Position::ApplyMove between them.
uint64_t Perft(const Position& pos, int depth);

}  // namespace arena::engine::chestonia_chess::naive
