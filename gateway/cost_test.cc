#include "gateway/cost.h"

#include <functional>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace arena::gateway {
namespace {

TEST(CostTest, RatesParseFromNumbersAndStrings) {
  EXPECT_EQ(*ParseRatePico(nlohmann::json(0.000003)), 3'000'000);
  EXPECT_EQ(*ParseRatePico(nlohmann::json("0.000003")), 3'000'000);
  EXPECT_EQ(*ParseRatePico(nlohmann::json("1.5e-7")), 150'000);
  EXPECT_EQ(*ParseRatePico(nlohmann::json()), 0);
  EXPECT_FALSE(ParseRatePico(nlohmann::json("cheap")).ok());
  EXPECT_FALSE(ParseRatePico(nlohmann::json(-1e-6)).ok());
  EXPECT_FALSE(ParseRatePico(nlohmann::json::array()).ok());
}

TEST(CostTest, CostIsRoundedUpToAMicroCredit) {
  TokenRates rates{1'000'000, 2'000'000};  // 1e-6 and 2e-6 USD per token
  EXPECT_EQ(CostMicro(100, 50, rates), 200);
  TokenRates tiny{150'000, 600'000};     // 0.15 and 0.6 micro-credits per token
  EXPECT_EQ(CostMicro(1, 0, tiny), 1);   // 0.15 -> 1
  EXPECT_EQ(CostMicro(10, 0, tiny), 2);  // 1.5 -> 2
  EXPECT_EQ(CostMicro(20, 0, tiny), 3);  // 3.0 -> 3
  EXPECT_EQ(CostMicro(0, 0, tiny), 0);
  EXPECT_EQ(CostMicro(-5, -5, tiny), 0);
  // Saturates rather than wrapping.
  TokenRates huge{std::numeric_limits<int64_t>::max() / 2, 1};
  EXPECT_GT(CostMicro(1'000'000, 0, huge), 0);
}

TEST(CostTest, PromptBoundCoversBytesAndFraming) {
  EXPECT_EQ(PromptTokenBound({}), kTokensPerRequestOverhead);
  EXPECT_EQ(PromptTokenBound({"abcd", "\xc3\xa9"}),
            kTokensPerRequestOverhead + 4 + 2 + 2 * kTokensPerMessageOverhead);
}

TEST(CostTest, MaxTokensFitsTheBudget) {
  TokenRates rates{1'000'000, 2'000'000};
  // 1000 micro: prompt 100 tokens = 100 micro; 900 left / 2 per token = 450.
  EXPECT_EQ(MaxTokensWithin(1000, 100, rates, 4096), 450);
  EXPECT_LE(CostMicro(100, MaxTokensWithin(1000, 100, rates, 4096), rates), 1000);
  EXPECT_GT(CostMicro(100, MaxTokensWithin(1000, 100, rates, 4096) + 1, rates), 1000);
  EXPECT_EQ(MaxTokensWithin(1000, 100, rates, 64), 64);
  EXPECT_LT(MaxTokensWithin(50, 100, rates, 4096), 0);
  EXPECT_EQ(MaxTokensWithin(1000, 100, TokenRates{1'000'000, 0}, 77), 77);
  // Fractional rates: the bound still never overshoots.
  TokenRates odd{333'333, 777'777};
  for (int64_t budget : {1, 7, 100, 12345}) {
    int64_t m = MaxTokensWithin(budget, 3, odd, 1 << 20);
    if (m >= 0) {
      EXPECT_LE(CostMicro(3, m, odd), budget);
    }
  }
}

// 1e-6 USD per prompt token, 2e-6 per completion token.
constexpr TokenRates kRates{1'000'000, 2'000'000};

CallSize HonestCall() {
  CallSize c;
  c.usage_present = true;
  c.prompt_bytes = 3200;
  c.prompt_bound = 3200 + 24;
  c.prompt_tokens = 800;
  c.reply_bytes = 120;
  c.completion_tokens = 30;
  c.max_tokens = 1024;
  return c;
}

TEST(CostTest, PlausibleUsageIsChargedAsReported) {
  CallCharge c = ChargeFor(HonestCall(), kRates);
  EXPECT_EQ(c.microcredits, CostMicro(800, 30, kRates));
  EXPECT_FALSE(c.estimated);
  EXPECT_FALSE(c.disputed);
}

TEST(CostTest, MissingUsageIsChargedTheUpperEstimateNeverZero) {
  CallSize call = HonestCall();
  call.usage_present = false;
  call.prompt_tokens = 0;
  call.completion_tokens = 0;
  CallCharge c = ChargeFor(call, kRates);
  EXPECT_TRUE(c.estimated);
  EXPECT_FALSE(c.disputed);
  EXPECT_EQ(c.microcredits, CostMicro(call.prompt_bound, call.max_tokens, kRates));
  EXPECT_GT(c.microcredits, CostMicro(800, 30, kRates));
}

TEST(CostTest, UsageThatDisagreesWithTheSizeIsChargedAtTheLarger) {
  const int64_t estimate = CostMicro(3224, 1024, kRates);
  // Too few prompt tokens for the bytes sent; all zeros; too few for the reply.
  for (auto tweak : std::vector<std::function<void(CallSize&)>>{
           [](CallSize& c) { c.prompt_tokens = 1; },
           [](CallSize& c) { c.prompt_tokens = c.completion_tokens = 0; },
           [](CallSize& c) { c.reply_bytes = 5000; }}) {
    CallSize call = HonestCall();
    tweak(call);
    CallCharge c = ChargeFor(call, kRates);
    EXPECT_TRUE(c.disputed);
    EXPECT_TRUE(c.estimated);
    EXPECT_EQ(c.microcredits, estimate);
  }
  // More completion tokens than the call allowed: the reported figure is the larger.
  CallSize over = HonestCall();
  over.completion_tokens = 100'000;
  CallCharge c = ChargeFor(over, kRates);
  EXPECT_TRUE(c.disputed);
  EXPECT_FALSE(c.estimated);
  EXPECT_EQ(c.microcredits, CostMicro(800, 100'000, kRates));
  // Right at the bound is still plausible: 3200 bytes may be 100 tokens of 32 bytes.
  CallSize edge = HonestCall();
  edge.prompt_tokens = 100;
  EXPECT_FALSE(ChargeFor(edge, kRates).disputed);
  edge.prompt_tokens = 99;
  EXPECT_TRUE(ChargeFor(edge, kRates).disputed);
}

}  // namespace
}  // namespace arena::gateway
