// Three-player chess's levels: only those its ladder earned (docs/bots.md, "Level ladders per
// game", three-player chess: every step, its score and games). Level 0 random, 1 greedy, then
// BRS+ (with quiescence) on these node budgets. The game always has three seats.
#pragma once

#include "bots/core/level_scale.h"

namespace arena::bots {

inline constexpr LevelScale kLevels_three_player_chess{
    .game_id = "three-player-chess",
    .two_seats = {},
    // 2026-12-05 (BRS+ with quiescence, 42 games each): 2 vs 1 (1,000 nodes against greedy)
    // 96.4%, 3 vs 2 (25,000 against 1,000) 83.3%; the top scores 95.2% against level 1 in
    // each of two runs (84 games). A 5,000-node level between them scored 63.1% against 1,000,
    // short of 65%, so it is not a level.
    .three_seats = {1'000, 25'000},
    .more_seats = {},
};

}  // namespace arena::bots
