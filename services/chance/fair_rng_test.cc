// FairDraw: the HMAC message layout, the bytes-to-outcome rules and the commitment, checked
// against libsodium computed independently here and against exact arithmetic.
#include "services/chance/fair_rng.h"

#include <sodium.h>

#include <set>

#include "gtest/gtest.h"

namespace arena::game_state {
namespace {

TEST(FairDrawTest, DrawIsHmacOfSeatSeedsPurposeAndCounter) {
  ASSERT_GE(sodium_init(), 0);
  std::string seed(32, '\x07');
  FairDraw draw(seed, {"ab", ""});
  // Message: len(2) "ab" len(0) "chance" 0 counter(5).
  std::string msg = std::string("\0\0\0\x02", 4) + "ab" + std::string("\0\0\0\0", 4) + "chance" +
                    std::string(1, '\0') + std::string("\0\0\0\0\0\0\0\x05", 8);
  unsigned char want[32];
  crypto_auth_hmacsha256_state st;
  crypto_auth_hmacsha256_init(&st, reinterpret_cast<const unsigned char*>(seed.data()),
                              seed.size());
  crypto_auth_hmacsha256_update(&st, reinterpret_cast<const unsigned char*>(msg.data()),
                                msg.size());
  crypto_auth_hmacsha256_final(&st, want);
  DrawBytes got = draw.Draw("chance", 5);
  EXPECT_EQ(0, memcmp(got.data(), want, 32));
  // Any change of seat seed, purpose or counter changes the bytes.
  EXPECT_NE(draw.Draw("chance", 6), got);
  EXPECT_NE(draw.Draw("leader", 5), got);
  EXPECT_NE(FairDraw(seed, {"ac", ""}).Draw("chance", 5), got);
  EXPECT_NE(FairDraw(seed, {"a", "b"}).Draw("chance", 5), got);  // length prefixes separate seeds
}

TEST(FairDrawTest, CommitmentIsSha256Hex) {
  // SHA-256("abc") is a published test vector.
  EXPECT_EQ(FairDraw::Commitment("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  std::string s1 = FairDraw::NewSecretSeed(), s2 = FairDraw::NewSecretSeed();
  EXPECT_EQ(s1.size(), 32u);
  EXPECT_NE(s1, s2);
}

TEST(FairDrawTest, UniformFromBytesUsesTop53Bits) {
  DrawBytes b{};
  EXPECT_EQ(UniformFromBytes(b), 0.0);
  b[0] = 0x80;
  EXPECT_EQ(UniformFromBytes(b), 0.5);
  b.fill(0xff);
  EXPECT_LT(UniformFromBytes(b), 1.0);
  EXPECT_GT(UniformFromBytes(b), 0.999999);
}

TEST(FairDrawTest, InverseCdfPicksByRunningSum) {
  std::vector<engine::ChanceOutcome> o = {{"a", 0.25}, {"b", 0.5}, {"c", 0.25}};
  EXPECT_EQ(PickByInverseCdf(o, 0.0), 0);
  EXPECT_EQ(PickByInverseCdf(o, 0.2499), 0);
  EXPECT_EQ(PickByInverseCdf(o, 0.25), 1);
  EXPECT_EQ(PickByInverseCdf(o, 0.7499), 1);
  EXPECT_EQ(PickByInverseCdf(o, 0.75), 2);
  EXPECT_EQ(PickByInverseCdf(o, 0.99999), 2);
  EXPECT_EQ(PickByInverseCdf({}, 0.5), -1);
  EXPECT_EQ(PickUniform(3, 0.0), 0);
  EXPECT_EQ(PickUniform(3, 0.34), 1);
  EXPECT_EQ(PickUniform(3, 0.9999), 2);
}

TEST(FairDrawTest, DrawsAreRoughlyUniform) {
  FairDraw draw(FairDraw::NewSecretSeed(), {"x", "y", "z"});
  int counts[3] = {0, 0, 0};
  for (uint64_t i = 0; i < 3000; ++i)
    counts[PickUniform(3, UniformFromBytes(draw.Draw("leader", i)))]++;
  for (int c : counts) {
    EXPECT_GT(c, 850);  // mean 1000, sd ~26
    EXPECT_LT(c, 1150);
  }
}

TEST(FairDrawTest, HexRoundTrip) {
  std::string out;
  ASSERT_TRUE(FromHex(ToHex(std::string("\x00\xff\x10", 3)), &out));
  EXPECT_EQ(out, std::string("\x00\xff\x10", 3));
  EXPECT_FALSE(FromHex("abc", &out));
  EXPECT_FALSE(FromHex("zz", &out));
}

}  // namespace
}  // namespace arena::game_state
