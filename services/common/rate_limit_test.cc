#include "services/common/rate_limit.h"

#include "gtest/gtest.h"

namespace arena::common {
namespace {

const absl::Time kT0 = absl::FromUnixSeconds(1700000000);

TEST(RateLimiterTest, BurstThenRefillPerKey) {
  RateLimiter r({3, 0.5});  // 3 at once, then one every 2 s
  EXPECT_TRUE(r.Take("a", kT0));
  EXPECT_TRUE(r.Take("a", kT0));
  EXPECT_TRUE(r.Take("a", kT0));
  EXPECT_FALSE(r.Take("a", kT0));
  EXPECT_TRUE(r.Take("b", kT0));  // another key is not slowed
  EXPECT_FALSE(r.Take("a", kT0 + absl::Seconds(1)));
  EXPECT_TRUE(r.Take("a", kT0 + absl::Seconds(2)));
  EXPECT_FALSE(r.Take("a", kT0 + absl::Seconds(2)));
  // Never more than the burst, however long idle.
  absl::Time later = kT0 + absl::Hours(5);
  int taken = 0;
  while (r.Take("a", later)) ++taken;
  EXPECT_EQ(taken, 3);
}

TEST(RateLimiterTest, CheckSaysWhenToRetry) {
  RateLimiter r({1, 0.1});
  EXPECT_TRUE(r.Check("k", "too many", kT0).ok());
  absl::Status s = r.Check("k", "too many sign-ups from this address", kT0);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(std::string(s.message()), "too many sign-ups from this address; retry in 10 s");
}

TEST(RateLimiterTest, HasAndChargeCountFailuresOnly) {
  RateLimiter r({2, 0.01});
  EXPECT_TRUE(r.Has("n", kT0));
  EXPECT_TRUE(r.Has("n", kT0));  // looking takes nothing
  r.Charge("n", kT0);
  r.Charge("n", kT0);
  EXPECT_FALSE(r.Has("n", kT0));
  r.Charge("n", kT0);  // stays at zero
  EXPECT_TRUE(r.Has("n", kT0 + absl::Seconds(100)));
}

TEST(RateLimiterTest, ForgetsIdleKeysFirstWhenFull) {
  RateLimiter r({1, 1}, /*max_keys=*/2);
  EXPECT_TRUE(r.Take("a", kT0));
  EXPECT_TRUE(r.Take("b", kT0 + absl::Seconds(5)));  // a is full again by now
  EXPECT_TRUE(r.Take("c", kT0 + absl::Seconds(5)));  // evicts a, not b
  EXPECT_FALSE(r.Take("b", kT0 + absl::Seconds(5)));
}

TEST(RateLimiterTest, PeerAddressDropsThePort) {
  EXPECT_EQ(PeerAddressOf("ipv4:127.0.0.1:50123"), "127.0.0.1");
  EXPECT_EQ(PeerAddressOf("ipv6:[::1]:443"), "::1");
  EXPECT_EQ(PeerAddressOf("unix:/tmp/s"), "unix:/tmp/s");
}

}  // namespace
}  // namespace arena::common
