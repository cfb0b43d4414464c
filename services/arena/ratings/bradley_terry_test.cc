#include "services/arena/ratings/bradley_terry.h"

#include <cmath>
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

TEST(BradleyTerryTest, UnbeatenPlayerStaysFinite) {
  std::vector<BtParticipant> people = {{1500.0}, {}};
  std::vector<PairResult> results(10, {1, 0, 1.0});
  auto fit = FitBradleyTerry(people, results);
  ASSERT_TRUE(fit.ok());
  EXPECT_TRUE(std::isfinite((*fit)[1].rating));
  EXPECT_GT((*fit)[1].rating, 1700);
}

TEST(BradleyTerryTest, RefusesBadInput) {
  std::vector<BtParticipant> people(2);
  EXPECT_EQ(FitBradleyTerry(people, {{0, 2, 1.0}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FitBradleyTerry(people, {{0, 0, 1.0}}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(FitBradleyTerry(people, {{0, 1, 1.5}}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace arena::ratings
