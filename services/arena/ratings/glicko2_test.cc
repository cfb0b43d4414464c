#include "services/arena/ratings/glicko2.h"

#include "gtest/gtest.h"

namespace arena::ratings {
namespace {

// The worked example of Glickman's paper: a 1500/200/0.06 player beats a 1400/30 player and
// loses to 1550/100 and 1700/300, with tau = 0.5.
TEST(Glicko2Test, GlickmansWorkedExample) {
  Glicko2Rating player{1500, 200, 0.06};
  std::vector<Glicko2Result> games = {
      {{1400, 30, 0.06}, 1.0},
      {{1550, 100, 0.06}, 0.0},
      {{1700, 300, 0.06}, 0.0},
  };
  Glicko2Rating updated = Glicko2Update(player, games, {.tau = 0.5});
  EXPECT_NEAR(updated.rating, 1464.06, 0.01);
  EXPECT_NEAR(updated.deviation, 151.52, 0.01);
  EXPECT_NEAR(updated.volatility, 0.05999, 0.00001);
}

TEST(Glicko2Test, IdlePeriodOnlyWidensDeviation) {
  Glicko2Rating player{1700, 50, 0.06};
  Glicko2Rating after = Glicko2Update(player, {});
  EXPECT_EQ(after.rating, 1700);
  EXPECT_GT(after.deviation, 50);
  EXPECT_LE(Glicko2Update({1500, 349, 0.5}, {}).deviation, 350);
}

TEST(Glicko2Test, WinsRaiseAndLossesLower) {
  Glicko2Rating player{1500, 200, 0.06};
  Glicko2Rating opp{1500, 200, 0.06};
  EXPECT_GT(Glicko2Update(player, {{opp, 1.0}}).rating, 1500);
  EXPECT_LT(Glicko2Update(player, {{opp, 0.0}}).rating, 1500);
  EXPECT_NEAR(Glicko2Update(player, {{opp, 0.5}}).rating, 1500, 1e-9);
}

TEST(PairwiseTest, DecomposesRanks) {
  // Seat 1 won, seats 0 and 2 shared second place.
  auto pairs = PairwiseResults({1, 0, 1});
  ASSERT_EQ(pairs.size(), 3u);
  ASSERT_EQ(pairs[0].size(), 2u);
  EXPECT_EQ(pairs[0][0].opponent, 1);
  EXPECT_EQ(pairs[0][0].score, 0.0);
  EXPECT_EQ(pairs[0][1].opponent, 2);
  EXPECT_EQ(pairs[0][1].score, 0.5);
  EXPECT_EQ(pairs[1][0].score, 1.0);
  EXPECT_EQ(pairs[1][1].score, 1.0);
  double total = 0;
  for (const auto& seat : pairs) {
    for (const auto& p : seat) total += p.score;
  }
  EXPECT_DOUBLE_EQ(total, 3.0);  // one point per unordered pair
}

}  // namespace
}  // namespace arena::ratings
