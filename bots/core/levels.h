// Bot levels: which levels a game has and what each one searches. arena-bot plays them; the
// arena includes this header to refuse, when a table or league is made, a bot seat at a level the
// game does not have (header only, so the arena does not link the searchers).
//
// A level is a node budget, never a time, so it plays the same move for the same position and
// seed on any machine and stays a stable rating anchor. Level 0 plays a random legal move, level
// 1 the greedy one-ply move, and the levels above search:
//   * two seats: levels 2..8, 1,000 nodes at level 2 and three times more per level (level 8:
//     729,000);
//   * three or more seats: levels 2..4 with 1,000, 5,000 and 125,000 nodes. Past about 10^5
//     nodes today's three-seat search gains little (in the ladder 625,000 nodes scored 50% and
//     3.1 million 62.9% against 125,000, short of the 65% a level step must make), so no
//     higher three-seat level would make its step; docs/bots.md has the measurements.
//     Levels can be added on top once a stronger three-seat search earns them; the existing ones
//     keep their meaning.
#pragma once

#include <cstdint>

namespace arena::bots {

inline constexpr int kMaxLevel = 8;  // the highest level of any game

// The highest level of a game with `seats` players.
constexpr int MaxLevel(int seats) {
  return seats > 2 ? 4 : kMaxLevel;
}

// The node budget of `level` (0 and 1 search none). Levels above MaxLevel(seats) get the top
// level's budget; requests for them are refused before any search.
constexpr int64_t LevelNodeBudget(int level, int seats = 2) {
  if (level <= 1) return 0;
  if (seats > 2) {
    constexpr int64_t kBudgets[] = {0, 0, 1'000, 5'000, 125'000};
    return kBudgets[level < MaxLevel(seats) ? level : MaxLevel(seats)];
  }
  int64_t n = 1'000;
  for (int l = 2; l < level && l < kMaxLevel; ++l) n *= 3;
  return n;
}

}  // namespace arena::bots
