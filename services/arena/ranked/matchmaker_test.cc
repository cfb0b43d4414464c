#include "services/arena/ranked/matchmaker.h"

#include <map>
#include <random>
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arena::ranked {
namespace {

const absl::Time kNoon =
    absl::FromCivil(absl::CivilSecond(2026, 12, 4, 12, 0, 0), absl::UTCTimeZone());

QueueEntry Waiting(const std::string& id, double rating, absl::Duration waited,
                   const std::string& city = "tallinn", TimeControl tc = TimeControl::k5Plus0) {
  return {id, city, tc, rating, kNoon - waited};
}

int NeverMet(const std::string&, const std::string&) {
  return 0;
}

// The pairs as "a-b" with the first (longest-waiting) player first.
std::vector<std::string> Names(const std::vector<Pairing>& pairings) {
  std::vector<std::string> out;
  for (const Pairing& p : pairings) out.push_back(p.first.player_id + "-" + p.second.player_id);
  return out;
}

TEST(RatingWindowTest, StartsAt100AndWidensBy25Every10SecondsTo250) {
  EXPECT_EQ(RatingWindow(absl::ZeroDuration()), 100);
  EXPECT_EQ(RatingWindow(absl::Seconds(-30)), 100);  // clocks that disagree: no wait
  EXPECT_EQ(RatingWindow(absl::Milliseconds(9999)), 100);
  EXPECT_EQ(RatingWindow(absl::Seconds(10)), 125);
  EXPECT_EQ(RatingWindow(absl::Seconds(25)), 150);
  EXPECT_EQ(RatingWindow(absl::Seconds(59)), 225);
  EXPECT_EQ(RatingWindow(absl::Seconds(60)), 250);
  EXPECT_EQ(RatingWindow(absl::Hours(5)), 250);
  EXPECT_EQ(RatingWindow(absl::InfiniteDuration()), 250);
  EXPECT_EQ(CurrentWindow(Waiting("a", 1500, absl::Seconds(31)), kNoon), 175);
}

TEST(MatchmakerTest, PairsWithinTheInitialWindowAndNotBeyondIt) {
  EXPECT_THAT(Names(FindPairings({Waiting("a", 1500, absl::ZeroDuration()),
                                  Waiting("b", 1600, absl::ZeroDuration())},
                                 kNoon, NeverMet)),
              ::testing::ElementsAre("a-b"));  // exactly 100 apart: within
  EXPECT_THAT(FindPairings({Waiting("a", 1500, absl::ZeroDuration()),
                            Waiting("b", 1600.5, absl::ZeroDuration())},
                           kNoon, NeverMet),
              ::testing::IsEmpty());
}

TEST(MatchmakerTest, APairMustBeWithinBothWindows) {
  // a has waited long (±250), b has just arrived (±100): 200 apart is beyond b's window.
  auto entries = std::vector<QueueEntry>{Waiting("a", 1500, absl::Minutes(5)),
                                         Waiting("b", 1700, absl::ZeroDuration())};
  EXPECT_THAT(FindPairings(entries, kNoon, NeverMet), ::testing::IsEmpty());
  EXPECT_FALSE(Acceptable(entries[0], entries[1], kNoon, 0));
  // 40 s later b's window is ±200 and the pair is made.
  EXPECT_THAT(Names(FindPairings(entries, kNoon + absl::Seconds(40), NeverMet)),
              ::testing::ElementsAre("a-b"));
}

TEST(MatchmakerTest, OnlySameCityAndTimeControl) {
  std::vector<QueueEntry> entries = {
      Waiting("a", 1500, absl::Seconds(3), "tallinn", TimeControl::k5Plus0),
      Waiting("b", 1500, absl::Seconds(2), "tartu", TimeControl::k5Plus0),
      Waiting("c", 1500, absl::Seconds(1), "tallinn", TimeControl::k3Plus2),
  };
  EXPECT_THAT(FindPairings(entries, kNoon, NeverMet), ::testing::IsEmpty());
  entries.push_back(Waiting("d", 1550, absl::ZeroDuration(), "tartu", TimeControl::k5Plus0));
  EXPECT_THAT(Names(FindPairings(entries, kNoon, NeverMet)), ::testing::ElementsAre("b-d"));
}

TEST(MatchmakerTest, NeverPairsTwoPlayersWhoMetSixTimesToday) {
  std::vector<QueueEntry> entries = {Waiting("a", 1500, absl::Seconds(5)),
                                     Waiting("b", 1500, absl::Seconds(4))};
  for (int met = 0; met <= 7; ++met) {
    auto counts = [met](const std::string&, const std::string&) { return met; };
    EXPECT_EQ(FindPairings(entries, kNoon, counts).size(), met < 6 ? 1u : 0u) << met;
  }
  // The cap is per pair: a third player is still a fine opponent.
  entries.push_back(Waiting("c", 1580, absl::Seconds(3)));
  auto a_and_b_capped = [](const std::string& x, const std::string& y) {
    return std::set<std::string>{x, y} == std::set<std::string>{"a", "b"} ? 6 : 0;
  };
  EXPECT_THAT(Names(FindPairings(entries, kNoon, a_and_b_capped)), ::testing::ElementsAre("a-c"));
}

TEST(MatchmakerTest, LongestWaitingIsServedFirstWithTheClosestRating) {
  // a waited longest and gets c (10 away) rather than b (50 away), although b waited longer
  // than c; b then has nobody within its window.
  std::vector<QueueEntry> entries = {Waiting("c", 1510, absl::Seconds(1)),
                                     Waiting("b", 1550, absl::Seconds(2)),
                                     Waiting("a", 1500, absl::Seconds(3))};
  EXPECT_THAT(Names(FindPairings(entries, kNoon, NeverMet)), ::testing::ElementsAre("a-c"));
}

TEST(MatchmakerTest, EqualGapsGoToTheLongerWaitThenTheSmallerId) {
  std::vector<QueueEntry> entries = {
      Waiting("a", 1500, absl::Seconds(9)), Waiting("low", 1450, absl::Seconds(1)),
      Waiting("high", 1550, absl::Seconds(2)),  // same gap as low, waited longer
  };
  EXPECT_THAT(Names(FindPairings(entries, kNoon, NeverMet)), ::testing::ElementsAre("a-high"));
  // Same wait and gap: the smaller id.
  entries = {Waiting("a", 1500, absl::Seconds(9)), Waiting("y", 1450, absl::Seconds(1)),
             Waiting("x", 1550, absl::Seconds(1))};
  EXPECT_THAT(Names(FindPairings(entries, kNoon, NeverMet)), ::testing::ElementsAre("a-x"));
  // Same join time: the smaller id is served first.
  entries = {Waiting("q", 1500, absl::Seconds(1)), Waiting("p", 1500, absl::Seconds(1)),
             Waiting("r", 1500, absl::Seconds(1)), Waiting("s", 1500, absl::Seconds(1))};
  EXPECT_THAT(Names(FindPairings(entries, kNoon, NeverMet)), ::testing::ElementsAre("p-q", "r-s"));
}

TEST(MatchmakerTest, APlayerListedTwiceIsPairedOnceAndNeverWithThemselves) {
  std::vector<QueueEntry> entries = {Waiting("a", 1500, absl::Seconds(5), "tallinn"),
                                     Waiting("a", 1500, absl::Seconds(4), "tallinn"),
                                     Waiting("a", 1500, absl::Seconds(3), "tartu"),
                                     Waiting("b", 1500, absl::Seconds(2), "tartu"),
                                     Waiting("c", 1500, absl::Seconds(1), "tallinn")};
  EXPECT_THAT(Names(FindPairings(entries, kNoon, NeverMet)), ::testing::ElementsAre("a-c"));
}

TEST(MatchmakerTest, RatingsThatAreNotNumbersAreNeverPaired) {
  std::vector<QueueEntry> entries = {Waiting("a", std::nan(""), absl::Seconds(5)),
                                     Waiting("b", 1500, absl::Seconds(4)),
                                     Waiting("c", HUGE_VAL, absl::Seconds(3))};
  EXPECT_THAT(FindPairings(entries, kNoon, NeverMet), ::testing::IsEmpty());
}

TEST(MatchmakerTest, ThePairingRecordsTheNarrowerWindow) {
  auto pairings =
      FindPairings({Waiting("a", 1500, absl::Seconds(45)), Waiting("b", 1620, absl::Seconds(21))},
                   kNoon, NeverMet);
  ASSERT_EQ(pairings.size(), 1u);
  EXPECT_EQ(pairings[0].window, 150);
  EXPECT_EQ(pairings[0].first.player_id, "a");
}

// Random queues: every pairing is acceptable, nobody is paired twice, the input order does not
// matter, and nobody is left waiting beside an acceptable partner who is also left waiting.
TEST(MatchmakerTest, RandomQueuesKeepEveryRule) {
  std::mt19937 rng(26);
  for (int round = 0; round < 200; ++round) {
    std::vector<QueueEntry> entries;
    const int n = 1 + static_cast<int>(rng() % 60);
    for (int i = 0; i < n; ++i) {
      entries.push_back(Waiting("p" + std::to_string(i), 1200 + static_cast<double>(rng() % 600),
                                absl::Milliseconds(rng() % 90000), rng() % 2 ? "tallinn" : "tartu",
                                kTimeControls[rng() % 3]));
    }
    std::map<std::pair<std::string, std::string>, int> met;
    for (int k = 0; k < n; ++k) {
      std::string x = "p" + std::to_string(rng() % n), y = "p" + std::to_string(rng() % n);
      if (x > y) std::swap(x, y);
      met[{x, y}] = static_cast<int>(rng() % 8);
    }
    auto counts = [&met](const std::string& a, const std::string& b) {
      auto it = met.find(a < b ? std::pair(a, b) : std::pair(b, a));
      return it == met.end() ? 0 : it->second;
    };
    std::vector<Pairing> pairings = FindPairings(entries, kNoon, counts);
    std::set<std::string> paired;
    for (const Pairing& p : pairings) {
      EXPECT_TRUE(
          Acceptable(p.first, p.second, kNoon, counts(p.first.player_id, p.second.player_id)));
      EXPECT_TRUE(paired.insert(p.first.player_id).second);
      EXPECT_TRUE(paired.insert(p.second.player_id).second);
    }
    std::vector<QueueEntry> shuffled = entries;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    EXPECT_EQ(Names(FindPairings(shuffled, kNoon, counts)), Names(pairings));
    for (const QueueEntry& a : entries) {
      for (const QueueEntry& b : entries) {
        if (paired.count(a.player_id) || paired.count(b.player_id)) continue;
        EXPECT_FALSE(Acceptable(a, b, kNoon, counts(a.player_id, b.player_id)))
            << a.player_id << " and " << b.player_id << " were both left waiting";
      }
    }
  }
}

}  // namespace
}  // namespace arena::ranked
