// A game's level scale: the node budget of each searched level, per seat count. A game declares
// its own in bots/<game>/levels.h (see bots/core/levels.h for how they are found); a game that
// declares none plays the default scale below.
//
// Levels 0 (random) and 1 (greedy) search no nodes and every game has them; a seat count's
// searched levels are 2..MaxLevel(), each with more nodes than the one below, and a game keeps a
// level only while its ladder earns it (docs/bots.md has every step measured).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace arena::bots {

inline constexpr int kMaxLevel = 8;  // the highest level any game may have

// The searched levels of one seat count: the node budgets of levels 2, 3, ... in order. An empty
// list is a seat count with the levels 0 and 1 only. Declaring more than kMaxLevel - 1 budgets
// does not compile.
class LevelBudgets {
 public:
  constexpr LevelBudgets() = default;
  constexpr LevelBudgets(std::initializer_list<int64_t> searched) {
    for (int64_t nodes : searched) nodes_[count_++] = nodes;
  }

  // The highest level (1 when none searches).
  constexpr int MaxLevel() const { return 1 + count_; }
  // The node budget of `level`: 0 for levels 0 and 1, the top level's above MaxLevel() (requests
  // for those are refused before any search).
  constexpr int64_t Nodes(int level) const {
    if (level <= 1 || count_ == 0) return 0;
    return nodes_[(level < MaxLevel() ? level : MaxLevel()) - 2];
  }

 private:
  std::array<int64_t, kMaxLevel - 1> nodes_{};
  int count_ = 0;
};

// The levels of one game (its engine id, engine/core/game.h) for two, three and four or more seats.
struct LevelScale {
  std::string_view game_id;
  LevelBudgets two_seats;
  LevelBudgets three_seats;
  LevelBudgets more_seats;

  constexpr const LevelBudgets& ForSeats(int seats) const {
    return seats <= 2 ? two_seats : seats == 3 ? three_seats : more_seats;
  }
};

// The scale of every game that declares none (chess and Chestonia chess keep it). Two seats:
// 1,000 nodes at level 2 and three times more per level up to 729,000 at level 8, each step
// 71-78% in the Chestonia chess ladder. Three or more seats: 1,000, 5,000 and 125,000 nodes;
// past about 10^5 nodes the Chestonia chess three-seat search gains too little for a further
// step (625,000 nodes scored 50% and 3.1 million 62.9% against 125,000).
inline constexpr LevelScale kDefaultLevels{
    .game_id = "",
    .two_seats = {1'000, 3'000, 9'000, 27'000, 81'000, 243'000, 729'000},
    .three_seats = {1'000, 5'000, 125'000},
    .more_seats = {1'000, 5'000, 125'000},
};

}  // namespace arena::bots
