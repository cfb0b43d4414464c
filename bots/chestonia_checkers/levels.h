// Chestonia checkers' levels: only those its ladder earned (docs/bots.md, "Chestonia checkers
// level ladders": every step, its score and games). Level 0 random, 1 greedy (one ply, forced
// capture replies resolved), then alpha-beta (paranoid with three seats, by the race standing) on
// these node budgets.
#pragma once

#include "bots/core/level_scale.h"

namespace arena::bots {

inline constexpr LevelScale kLevels_chestonia_checkers{
    .game_id = "chestonia-checkers",
    // 2 vs 1 70.0%, 3 vs 2 71.2%, 4 vs 3 66.2%, 5 vs 4 (81,000 against 9,000) 77.5%, 5 vs 1
    // 97.5%; 40 games each. 27,000 nodes scored only 61.2% against 9,000, so it is no level.
    .two_seats = {1'000, 3'000, 9'000, 81'000},
    // With the race standing (checkers_search.cc) 2 vs 1 90.5% (42 games; 92.3% over 252), short
    // of 95% (docs/bots.md); 25,000 nodes scored 60.1% against 1,000 and 5,000 56.5%, so one
    // searched level. Before it: 2 vs 1 69.6% (84 games).
    .three_seats = {25'000},
    .more_seats = {},  // the game has two and three seats
};

}  // namespace arena::bots
