#include "services/arena/ratings/bradley_terry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "gtest/gtest.h"

namespace arena::ratings {
namespace {

TEST(BradleyTerryTest, EvenResultsGiveEqualRatings) {
  std::vector<BtParticipant> people(2);
  std::vector<PairResult> results = {{0, 1, 1.0}, {0, 1, 0.0}, {1, 0, 0.5}};
  auto fit = FitBradleyTerry(people, results);
  ASSERT_TRUE(fit.ok());
  EXPECT_NEAR((*fit)[0].rating, (*fit)[1].rating, 1e-6);
  EXPECT_LT((*fit)[0].low95, (*fit)[0].rating);
  EXPECT_GT((*fit)[0].high95, (*fit)[0].rating);
  EXPECT_EQ((*fit)[0].games, 3);
}

TEST(BradleyTerryTest, AnchorsStayFixedAndSetTheScale) {
  std::vector<BtParticipant> people = {{1200.0}, {1800.0}, {}};
  // Participant 2 scores 50% against each anchor: it sits between them.
  std::vector<PairResult> results;
  for (int i = 0; i < 20; ++i) {
    results.push_back({2, 0, i % 4 == 0 ? 0.0 : 1.0});
    results.push_back({2, 1, i % 4 == 0 ? 1.0 : 0.0});
  }
  auto fit = FitBradleyTerry(people, results);
  ASSERT_TRUE(fit.ok());
  EXPECT_EQ((*fit)[0].rating, 1200.0);
  EXPECT_EQ((*fit)[1].rating, 1800.0);
  EXPECT_EQ((*fit)[0].low95, 1200.0);
  EXPECT_GT((*fit)[2].rating, 1200.0);
  EXPECT_LT((*fit)[2].rating, 1800.0);
}

TEST(BradleyTerryTest, IntervalsCoverTheTruthAboutNinetyFivePercentOfTheTime) {
  // Three anchors and two unknowns; simulate leagues from true ratings and count how often the
  // fitted 95% interval contains the truth.
  std::vector<double> truth = {1000, 1400, 1800, 1550, 1250};
  std::vector<BtParticipant> people = {{1000.0}, {1400.0}, {1800.0}, {}, {}};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  int covered = 0, intervals = 0;
  double abs_error = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<PairResult> results;
    for (int g = 0; g < 1500; ++g) {
      int a = static_cast<int>(rng() % 5), b = static_cast<int>(rng() % 5);
      if (a == b) continue;
      double p = 1 / (1 + std::pow(10.0, (truth[b] - truth[a]) / 400));
      results.push_back({a, b, u(rng) < p ? 1.0 : 0.0});
    }
    auto fit = FitBradleyTerry(people, results);
    ASSERT_TRUE(fit.ok());
    for (int i : {3, 4}) {
      ++intervals;
      covered += (*fit)[i].low95 < truth[i] && truth[i] < (*fit)[i].high95;
      abs_error += std::abs((*fit)[i].rating - truth[i]);
    }
  }
  double coverage = static_cast<double>(covered) / intervals;
  EXPECT_GT(coverage, 0.87);
  EXPECT_LT(abs_error / intervals, 40.0);
}

// The design of tests/chess_anchor_league_test.cc: a model of true rating 1500 against anchors
// 1350 and 2100, the production prior N(1725, 400²) (the anchors' mean), 2 × `per_seating` games
// against each anchor, wins and losses only. Its coverage and widths, which that test and
// docs/leagues.md quote, come from the fit itself.
TEST(BradleyTerryTest, TheAnchorLeagueDesignGivesAnInformativeIntervalThatCoversTheTruth) {
  const double truth = 1500;
  const std::vector<BtParticipant> people = {{1350.0}, {2100.0}, {}};
  BtOptions options;
  options.prior_rating = 1725;
  std::mt19937_64 rng(19);
  std::uniform_real_distribution<double> u(0, 1);
  for (int per_seating : {4, 6, 8}) {
    const int trials = 2000;
    int covered = 0;
    std::vector<double> widths;
    for (int trial = 0; trial < trials; ++trial) {
      std::vector<PairResult> results;
      for (int anchor : {0, 1}) {
        const double p = 1 / (1 + std::pow(10.0, (*people[anchor].anchor - truth) / 400));
        for (int g = 0; g < 2 * per_seating; ++g) {
          results.push_back({2, anchor, u(rng) < p ? 1.0 : 0.0});
        }
      }
      auto fit = FitBradleyTerry(people, results, options);
      ASSERT_TRUE(fit.ok());
      covered += (*fit)[2].low95 <= truth && truth <= (*fit)[2].high95;
      widths.push_back((*fit)[2].high95 - (*fit)[2].low95);
    }
    std::sort(widths.begin(), widths.end());
    const double coverage = static_cast<double>(covered) / trials;
    std::printf("%d a seating: coverage %.3f, width median %.0f, max %.0f\n", per_seating, coverage,
                widths[trials / 2], widths.back());
    // Never as wide as the 750 between the anchors (the prior alone is 1568 wide).
    EXPECT_LT(widths.back(), 750);
    if (per_seating == 8) {
      EXPECT_GT(coverage, 0.94);
      EXPECT_LT(widths[trials / 2], 380);
    }
  }
}

TEST(BradleyTerryTest, UnbeatenPlayerStaysFinite) {
  std::vector<BtParticipant> people = {{1500.0}, {}};
  std::vector<PairResult> results(10, {1, 0, 1.0});
  auto fit = FitBradleyTerry(people, results);
  ASSERT_TRUE(fit.ok());
  EXPECT_TRUE(std::isfinite((*fit)[1].rating));
  EXPECT_GT((*fit)[1].rating, 1700);
}

TEST(BradleyTerryTest, ZeroWinsGivesAFiniteRatingBelowTheAnchorBeaten) {
  // Today's demo league: a model that lost every game to the level-1 bot.
  std::vector<BtParticipant> people = {{950.0}, {}};
  std::vector<PairResult> results(12, {1, 0, 0.0});
  auto fit = FitBradleyTerry(people, results);
  ASSERT_TRUE(fit.ok()) << fit.status();
  const BtRating& r = (*fit)[1];
  EXPECT_TRUE(std::isfinite(r.rating) && std::isfinite(r.low95) && std::isfinite(r.high95));
  EXPECT_LT(r.rating, 950.0);
  EXPECT_LT(r.low95, r.rating);
  EXPECT_GT(r.high95, r.rating);
  EXPECT_EQ(r.games, 12);
  // Plain maximum likelihood has no answer here, and says so.
  EXPECT_EQ(FitBradleyTerry(people, results, {.prior_sd = 0}).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(BradleyTerryTest, ZeroLossesGivesAFiniteRatingAboveTheAnchorBeaten) {
  std::vector<BtParticipant> people = {{2000.0}, {}, {}};
  std::vector<PairResult> results;
  for (int i = 0; i < 8; ++i) results.push_back({1, 0, 1.0});  // 1 beats the anchor 8 times
  for (int i = 0; i < 8; ++i) results.push_back({2, 0, i < 4 ? 1.0 : 0.0});  // 2 scores 50%
  auto fit = FitBradleyTerry(people, results);
  ASSERT_TRUE(fit.ok()) << fit.status();
  EXPECT_TRUE(std::isfinite((*fit)[1].rating));
  EXPECT_GT((*fit)[1].rating, 2000.0);
  EXPECT_GT((*fit)[1].rating, (*fit)[2].rating);
  EXPECT_TRUE(std::isfinite((*fit)[1].high95));
  EXPECT_EQ(FitBradleyTerry(people, results, {.prior_sd = 0}).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(BradleyTerryTest, OneGameMovesTheWinnerUpAndTheLoserDownByTheSameAmount) {
  std::vector<BtParticipant> people(2);
  auto fit = FitBradleyTerry(people, {{0, 1, 1.0}}, {.prior_rating = 1500, .prior_sd = 400});
  ASSERT_TRUE(fit.ok()) << fit.status();
  EXPECT_GT((*fit)[0].rating, 1500.0);
  EXPECT_LT((*fit)[1].rating, 1500.0);
  EXPECT_NEAR((*fit)[0].rating - 1500.0, 1500.0 - (*fit)[1].rating, 1e-6);
  // One game says little: the intervals are nearly as wide as the prior's (±784).
  EXPECT_GT((*fit)[0].high95 - (*fit)[0].low95, 2 * 1.96 * 300.0);
  EXPECT_LT((*fit)[0].high95 - (*fit)[0].low95, 2 * 1.96 * 400.0 + 1e-6);
}

TEST(BradleyTerryTest, DisconnectedComparisonGraphsStillRateEveryone) {
  // {anchor 0, model 1} never met {model 2, model 3}; model 4 never played at all.
  std::vector<BtParticipant> people = {{1400.0}, {}, {}, {}, {}};
  std::vector<PairResult> results = {{1, 0, 1.0}, {1, 0, 0.5}, {1, 0, 1.0},
                                     {2, 3, 1.0}, {2, 3, 1.0}, {3, 2, 0.5}};
  auto fit = FitBradleyTerry(people, results, {.prior_rating = 1400, .prior_sd = 400});
  ASSERT_TRUE(fit.ok()) << fit.status();
  for (const BtRating& r : *fit) {
    EXPECT_TRUE(std::isfinite(r.rating) && std::isfinite(r.low95) && std::isfinite(r.high95));
  }
  EXPECT_GT((*fit)[1].rating, 1400.0);
  EXPECT_GT((*fit)[2].rating, (*fit)[3].rating);
  // The anchorless pair is placed by the prior alone: symmetric about its mean.
  EXPECT_NEAR(((*fit)[2].rating + (*fit)[3].rating) / 2, 1400.0, 1e-6);
  // Whoever never played sits at the prior with the prior's interval.
  EXPECT_NEAR((*fit)[4].rating, 1400.0, 1e-9);
  EXPECT_NEAR((*fit)[4].high95 - (*fit)[4].rating, 1.96 * 400.0, 1e-6);
  EXPECT_EQ((*fit)[4].games, 0);
  // The anchorless pair has no maximum-likelihood location at all.
  EXPECT_EQ(FitBradleyTerry(people, results, {.prior_sd = 0}).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(BradleyTerryTest, AgreesWithPlainMaximumLikelihoodWhenThatExists) {
  // One free participant against one anchor has a closed form: r = a + 400·log10(s / (n - s)).
  {
    std::vector<BtParticipant> people = {{1500.0}, {}};
    std::vector<PairResult> results;
    for (int i = 0; i < 40; ++i) results.push_back({1, 0, i < 30 ? 1.0 : 0.0});
    double closed_form = 1500.0 + 400.0 * std::log10(30.0 / 10.0);
    auto ml = FitBradleyTerry(people, results, {.prior_sd = 0});
    ASSERT_TRUE(ml.ok()) << ml.status();
    EXPECT_NEAR((*ml)[1].rating, closed_form, 1e-4);
    auto map = FitBradleyTerry(people, results);
    ASSERT_TRUE(map.ok());
    // The weak prior pulls towards 1500 by a small fraction of the standard error.
    double se = ((*ml)[1].high95 - (*ml)[1].rating) / 1.96;
    EXPECT_LT(std::abs((*map)[1].rating - closed_form), 0.1 * se);
    EXPECT_LT((*map)[1].rating, closed_form);
  }
  // A league with every result mixed: the posterior's maximum lies within a tenth of a
  // standard error of the likelihood's, and the likelihood's maximum is a stationary point
  // (each free participant's expected score equals its actual score).
  std::vector<double> truth = {1000, 1400, 1800, 1550, 1250};
  std::vector<BtParticipant> people = {{1000.0}, {1400.0}, {1800.0}, {}, {}};
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<PairResult> results;
  for (int g = 0; g < 2000; ++g) {
    int a = static_cast<int>(rng() % 5), b = static_cast<int>(rng() % 5);
    if (a == b) continue;
    double p = 1 / (1 + std::pow(10.0, (truth[b] - truth[a]) / 400));
    results.push_back({a, b, u(rng) < p ? 1.0 : 0.0});
  }
  auto ml = FitBradleyTerry(people, results, {.prior_sd = 0});
  auto map = FitBradleyTerry(people, results);
  ASSERT_TRUE(ml.ok() && map.ok());
  for (int i : {3, 4}) {
    double expected = 0, actual = 0;
    for (const PairResult& r : results) {
      if (r.a != i && r.b != i) continue;
      double ri = (*ml)[i].rating, rj = (*ml)[r.a == i ? r.b : r.a].rating;
      expected += 1 / (1 + std::pow(10.0, (rj - ri) / 400));
      actual += r.a == i ? r.score : 1 - r.score;
    }
    EXPECT_NEAR(expected, actual, 1e-4);
    double se = ((*ml)[i].high95 - (*ml)[i].rating) / 1.96;
    EXPECT_LT(std::abs((*map)[i].rating - (*ml)[i].rating), 0.1 * se);
  }
}

TEST(BradleyTerryTest, RefusesBadInput) {
  std::vector<BtParticipant> people(2);
  EXPECT_EQ(FitBradleyTerry(people, {{0, 2, 1.0}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FitBradleyTerry(people, {{0, 0, 1.0}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FitBradleyTerry(people, {{0, 1, 1.5}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FitBradleyTerry(people, {}, {.prior_sd = -1}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace arena::ratings
