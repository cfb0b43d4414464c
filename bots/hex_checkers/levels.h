// Hex checkers' levels: only those its ladder earned (docs/bots.md, "Measurements (hex
// checkers)": every step, its score and games). Level 0 random, 1 greedy (one ply, forced capture
// replies resolved), then alpha-beta (two seats) or BRS+ (three or more) on these node budgets.
#pragma once

#include "bots/core/level_scale.h"

namespace arena::bots {

inline constexpr LevelScale kLevels_hex_checkers{
    .game_id = "hex-checkers",
    // 2 vs 1 67.5%, 3 vs 2 (9,000 against 1,000) 70.0%, 4 vs 3 (81,000 against 9,000) 70.0%,
    // 4 vs 1 96.2%; 40 games each. 3,000 nodes scored 55.0% against 1,000: no level.
    .two_seats = {1'000, 9'000, 81'000},
    // 2 vs 1 91.7%, 3 vs 2 (25,000 against 1,000) 66.1%, 3 vs 1 97.0%; 42 games each (BRS+).
    // 5,000 nodes scored 59.5% against 1,000: no level.
    .three_seats = {1'000, 25'000},
    // With the melee terms (hex_search.h): 2 vs 1 99.2% with four seats (40 games), 96.9% with
    // five (40), 90.2% with six (48; 91.6% over 480), short of 95%; 1 vs 0 70.0%, 69.7%, 64.8%
    // (66.8% over 96). At six seats 25,000 nodes scored 55.9% against 1,000: no step; and
    // against level 1 25,000 nodes scored 93.2% (480 games), 125,000 92.2% (240).
    .more_seats = {1'000},
};

}  // namespace arena::bots
