// Bot levels: which levels a game has and what each one searches. arena-bot plays them; the
// arena includes this header to refuse, when a table or league is made, a bot seat at a level the
// game does not have (header only, so the arena does not need the searchers).
//
// A level is a node budget, never a time, so it plays the same move for the same position and
// seed on any machine and stays a stable rating anchor. Level 0 plays a random legal move, level
// 1 the greedy one-ply move, and the levels above search. A game has only the levels its ladder
// earns (each level scores at least 65% against the one below, the top at least 95% against
// level 1): bots/<game>/levels.h, when it exists, declares the game's own scale
//   namespace arena::bots { inline constexpr LevelScale kLevels_<game>{...}; }
// (bots/core/level_scale.h), and bots/CMakeLists.txt collects those headers into the generated
// bots/all_levels.h, the way it finds RegisteredBot_<game>. A game without one plays
// kDefaultLevels: two seats 2..8 at 1,000 × 3^(level−2) nodes, three or more seats 2..4 at
// 1,000 / 5,000 / 125,000 (chess and Chestonia chess, whose ladders hold it). Today Chestonia
// checkers, Chestonia Go, three-player chess and hex checkers declare their own, some with as few
// as one searched level; docs/bots.md has every game's table, every ladder step measured, and
// the tops that are still short of 95% against level 1.
// Levels can be added on top when a stronger search earns them; the existing ones keep their
// meaning.
#pragma once

#include <cstdint>
#include <string_view>

#include "bots/all_levels.h"  // generated: kGameLevelScales
#include "bots/core/level_scale.h"

namespace arena::bots {

// The level scale of a game: its own, or kDefaultLevels when it declares none.
constexpr const LevelScale& LevelScaleOf(std::string_view game_id) {
  for (const LevelScale* scale : kGameLevelScales) {
    if (scale != nullptr && scale->game_id == game_id) return *scale;
  }
  return kDefaultLevels;
}

// The highest level of `game_id` with `seats` players (at least 1).
constexpr int MaxLevel(std::string_view game_id, int seats) {
  return LevelScaleOf(game_id).ForSeats(seats).MaxLevel();
}

// The node budget of `level` of `game_id` with `seats` players (0 for levels 0 and 1). Levels
// above MaxLevel get the top level's budget; requests for them are refused before any search.
constexpr int64_t LevelNodeBudget(std::string_view game_id, int level, int seats) {
  return LevelScaleOf(game_id).ForSeats(seats).Nodes(level);
}

}  // namespace arena::bots
