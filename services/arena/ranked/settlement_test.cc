#include "services/arena/ranked/settlement.h"

#include <random>

#include "absl/numeric/int128.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arena::ranked {
namespace {

int64_t Sum(const Settlement& s) {
  int64_t sum = 0;
  for (const EscrowPayout& p : s.payouts) sum += p.amount;
  return sum;
}

int64_t To(const Settlement& s, Payee payee) {
  int64_t sum = 0;
  for (const EscrowPayout& p : s.payouts) {
    if (p.to == payee) sum += p.amount;
  }
  return sum;
}

TEST(SettlementTest, TheWinnerTakesThePotMinusTheFee) {
  // 5 credits each, 5% fee: pot 10, fee 0.5, winner 9.5.
  auto s = Settle(5'000'000, 500, StakedGameEnd::kSecondWins);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->pot, 10'000'000);
  EXPECT_EQ(s->fee, 500'000);
  EXPECT_EQ(To(*s, Payee::kSecond), 9'500'000);
  EXPECT_EQ(To(*s, Payee::kFirst), 0);
  EXPECT_EQ(To(*s, Payee::kFees), 500'000);
}

TEST(SettlementTest, DrawsAndAbortsRefundBothStakesWithNoFee) {
  for (StakedGameEnd end : {StakedGameEnd::kDraw, StakedGameEnd::kAborted}) {
    auto s = Settle(1'234'567, 750, end);
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(s->fee, 0);
    EXPECT_EQ(To(*s, Payee::kFirst), 1'234'567);
    EXPECT_EQ(To(*s, Payee::kSecond), 1'234'567);
    EXPECT_EQ(To(*s, Payee::kFees), 0);
  }
}

TEST(SettlementTest, AFractionOfAMicroCreditIsNeverCharged) {
  // Pot 3 micro-credits at 50%: 1.5 rounds down to 1; the winner gets 2.
  auto s = Settle(1, 5000, StakedGameEnd::kFirstWins);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->fee, 1);
  EXPECT_EQ(To(*s, Payee::kFirst), 1);
  s = Settle(1, 2500, StakedGameEnd::kFirstWins);  // 0.5 -> 0: no fee payout at all
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->fee, 0);
  EXPECT_THAT(s->payouts, ::testing::SizeIs(1));
  EXPECT_EQ(To(*s, Payee::kFirst), 2);
}

TEST(SettlementTest, NoFeeAndAllFee) {
  auto none = Settle(7, 0, StakedGameEnd::kFirstWins);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(To(*none, Payee::kFirst), 14);
  EXPECT_EQ(none->payouts.size(), 1u);
  auto all = Settle(7, kMaxFeeBasisPoints, StakedGameEnd::kFirstWins);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(To(*all, Payee::kFees), 14);
  EXPECT_EQ(all->payouts.size(), 1u);
}

TEST(SettlementTest, TheLargestPotDoesNotOverflow) {
  auto s = Settle(kMaxStake, 9999, StakedGameEnd::kFirstWins);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->pot, 2 * kMaxStake);
  EXPECT_EQ(s->fee, 2 * kMaxStake / 10000 * 9999);  // 2e15 is a multiple of 10000
  EXPECT_EQ(Sum(*s), s->pot);
}

TEST(SettlementTest, RefusesStakesAndFeesOutOfRange) {
  for (int64_t stake : {int64_t{0}, int64_t{-5}, kMaxStake + 1}) {
    EXPECT_EQ(Settle(stake, 100, StakedGameEnd::kDraw).status().code(),
              absl::StatusCode::kInvalidArgument)
        << stake;
  }
  for (int fee : {-1, kMaxFeeBasisPoints + 1}) {
    EXPECT_EQ(Settle(100, fee, StakedGameEnd::kFirstWins).status().code(),
              absl::StatusCode::kInvalidArgument)
        << fee;
  }
}

// Every amount leaves escrow exactly: payouts are positive and sum to the pot; the fee is the
// exact floor (checked in 128-bit arithmetic).
TEST(SettlementTest, ThePotAlwaysLeavesEscrowExactly) {
  std::mt19937_64 rng(26);
  const StakedGameEnd ends[] = {StakedGameEnd::kFirstWins, StakedGameEnd::kSecondWins,
                                StakedGameEnd::kDraw, StakedGameEnd::kAborted};
  for (int i = 0; i < 100000; ++i) {
    const int64_t stake = 1 + static_cast<int64_t>(rng() % (i % 2 ? 1000 : kMaxStake));
    const int bps = static_cast<int>(rng() % (kMaxFeeBasisPoints + 1));
    const StakedGameEnd end = ends[rng() % 4];
    auto s = Settle(stake, bps, end);
    ASSERT_TRUE(s.ok()) << s.status();
    ASSERT_EQ(Sum(*s), s->pot);
    for (const EscrowPayout& p : s->payouts) ASSERT_GT(p.amount, 0);
    const bool decisive = end == StakedGameEnd::kFirstWins || end == StakedGameEnd::kSecondWins;
    const absl::int128 exact = absl::int128(2 * stake) * bps / kMaxFeeBasisPoints;
    ASSERT_EQ(s->fee, decisive ? static_cast<int64_t>(exact) : int64_t{0});
    ASSERT_EQ(To(*s, Payee::kFees), s->fee);
  }
}

}  // namespace
}  // namespace arena::ranked
