// Chestonia Go's levels: only those its ladder earned (docs/bots.md, "Chestonia Go": every step,
// its score and games). Level 0 random, 1 greedy, then RAVE MCTS on these node budgets (applied
// board actions, tree and playouts).
#pragma once

#include "bots/core/level_scale.h"

namespace arena::bots {

inline constexpr LevelScale kLevels_chestonia_go{
    .game_id = "chestonia-go",
    // 1 vs 0 90.0%, 2 vs 1 100%, 3 vs 2 97.5%, 4 vs 3 95.0%, 5 vs 4 97.5%, 6 vs 5 100%, 6 vs 1
    // 100%; 40 games each. Higher levels were not run yet.
    .two_seats = {1'000, 3'000, 9'000, 27'000, 81'000},
    // 1 vs 0 94.0%, 2 vs 1 92.9%, 3 vs 2 66.7%, 3 vs 1 96.4%; 42 games each.
    .three_seats = {1'000, 5'000},
    .more_seats = {},  // the game has two and three seats
};

}  // namespace arena::bots
