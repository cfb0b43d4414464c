#include "services/arena/league/schedule.h"

#include <map>
#include <set>

#include "gtest/gtest.h"

namespace arena::league {
namespace {

TEST(RoundRobinTest, TwoPlayersMeetWithBothColours) {
  auto games = RoundRobin(4, 2, 1);
  ASSERT_TRUE(games.ok());
  EXPECT_EQ(games->size(), 12u);  // 6 pairs x 2 colours
  std::map<std::pair<int, int>, int> seen;
  for (const Pairing& p : *games) {
    ASSERT_EQ(p.order.size(), 2u);
    ++seen[{p.order[0], p.order[1]}];
  }
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      if (a == b) continue;
      EXPECT_EQ((seen[{a, b}]), 1) << a << " leads against " << b;
    }
  }
}

TEST(RoundRobinTest, ThreePlayersMeetInEverySeatingOrderAndLeadEqually) {
  auto games = RoundRobin(4, 3, 2);
  ASSERT_TRUE(games.ok());
  EXPECT_EQ(games->size(), 4u * 6u * 2u);  // C(4,3) groups x 3! orders x 2
  std::map<int, int> led;
  std::map<int, std::map<int, int>> seat_count;
  std::set<std::vector<int>> distinct;
  for (const Pairing& p : *games) {
    ++led[p.order[0]];
    for (int s = 0; s < 3; ++s) ++seat_count[p.order[s]][s];
    distinct.insert(p.order);
  }
  EXPECT_EQ(distinct.size(), 24u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(led[i], 12);
    EXPECT_EQ(seat_count[i][1], 12);
    EXPECT_EQ(seat_count[i][2], 12);
  }
}

TEST(RoundRobinTest, FourToSixSeatsMeetInTheirRotationsAndSitEverywhere) {
  for (int seats = 4; seats <= 6; ++seats) {
    const int participants = seats + 1;
    auto games = RoundRobin(participants, seats, 1);
    ASSERT_TRUE(games.ok()) << seats;
    // C(seats + 1, seats) = seats + 1 groups, each in its `seats` rotations.
    EXPECT_EQ(games->size(), static_cast<size_t>(participants * seats)) << seats;
    std::map<int, std::map<int, int>> seat_count;
    std::set<std::vector<int>> distinct;
    for (const Pairing& p : *games) {
      ASSERT_EQ(static_cast<int>(p.order.size()), seats);
      for (int s = 0; s < seats; ++s) ++seat_count[p.order[s]][s];
      distinct.insert(p.order);
    }
    EXPECT_EQ(distinct.size(), games->size());
    // Each participant is in `seats` of the groups and sits in every seat once per group.
    for (int i = 0; i < participants; ++i) {
      for (int s = 0; s < seats; ++s) EXPECT_EQ(seat_count[i][s], seats) << seats;
    }
  }
}

TEST(RoundRobinTest, RefusesImpossibleLeagues) {
  EXPECT_FALSE(RoundRobin(2, 3, 1).ok());
  EXPECT_FALSE(RoundRobin(4, 1, 1).ok());
  EXPECT_FALSE(RoundRobin(4, 2, 0).ok());
}

TEST(SwissTest, PairsNeighboursAvoidsRematchesAndGivesByes) {
  const int n = 5;
  std::vector<SwissStanding> standings;
  for (int i = 0; i < n; ++i) standings.push_back({i, static_cast<double>(n - i)});
  std::vector<std::vector<int>> met(n, std::vector<int>(n, 0));
  met[0][1] = met[1][0] = 1;  // the top two already met
  std::vector<int> led(n, 0);
  auto round = PairSwissRound(1, 2, standings, met, led, 42);
  ASSERT_TRUE(round.ok());
  ASSERT_EQ(round->byes.size(), 1u);
  EXPECT_EQ(round->byes[0], 4);  // the lowest gets the bye
  ASSERT_EQ(round->games.size(), 2u);
  std::set<int> first(round->games[0].order.begin(), round->games[0].order.end());
  EXPECT_EQ(first, (std::set<int>{0, 2}));  // 0 skips 1, already met
  std::set<int> everyone;
  for (const auto& g : round->games) everyone.insert(g.order.begin(), g.order.end());
  EXPECT_EQ(everyone.size(), 4u);
}

TEST(SwissTest, LeastLedLeadsAndPairingIsDeterministic) {
  std::vector<SwissStanding> standings = {{0, 1}, {1, 1}, {2, 1}};
  std::vector<std::vector<int>> met(3, std::vector<int>(3, 0));
  std::vector<int> led = {3, 0, 1};
  auto a = PairSwissRound(2, 3, standings, met, led, 9);
  auto b = PairSwissRound(2, 3, standings, met, led, 9);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->games.size(), 1u);
  EXPECT_EQ(a->games[0].order[0], 1);
  EXPECT_EQ(a->games[0].order, b->games[0].order);
}

}  // namespace
}  // namespace arena::league
