// Three-player chess's levels: only those its ladder earned (docs/bots.md, "Three-player chess
// level ladder": every step, its score and games). Level 0 random, 1 greedy, then paranoid
// alpha-beta on these node budgets. The game always has three seats.
#pragma once

#include "bots/core/level_scale.h"

namespace arena::bots {

inline constexpr LevelScale kLevels_three_player_chess{
    .game_id = "three-player-chess",
    .two_seats = {},
    // 2 vs 1 78.6%, 3 vs 2 75.0%, 4 vs 3 (25,000 against 5,000) 82.7%; 42 games each. The top
    // scores 79.8% against level 1, short of 95% (docs/bots.md).
    .three_seats = {1'000, 5'000, 25'000},
    .more_seats = {},
};

}  // namespace arena::bots
