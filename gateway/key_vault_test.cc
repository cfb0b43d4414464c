#include "gateway/key_vault.h"

#include "gtest/gtest.h"

namespace arena::gateway {
namespace {

TEST(KeyVaultTest, HandlesAreBoundToGameAndSeat) {
  KeyVault vault;
  auto h = vault.Register("g1", 0, "sk-test-123");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->find("sk-test"), std::string::npos);
  auto key = vault.Lookup(*h, "g1", 0);
  ASSERT_TRUE(key.ok());
  EXPECT_EQ(std::string((*key)->data(), (*key)->size()), "sk-test-123");
  EXPECT_EQ(vault.Lookup(*h, "g2", 0).status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(vault.Lookup(*h, "g1", 1).status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(vault.Lookup("kh_nope", "g1", 0).status().code(),
            absl::StatusCode::kFailedPrecondition);
  auto h2 = vault.Register("g1", 0, "sk-test-123");
  ASSERT_TRUE(h2.ok());
  EXPECT_NE(*h, *h2);
}

TEST(KeyVaultTest, ReleaseWipesAndRefusesBadKeys) {
  KeyVault vault;
  auto h = vault.Register("g1", 0, "sk-a");
  auto h2 = vault.Register("g1", 1, "sk-b");
  auto h3 = vault.Register("g2", 0, "sk-c");
  ASSERT_TRUE(h.ok() && h2.ok() && h3.ok());
  EXPECT_EQ(vault.Release(*h, "g2").code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(vault.Release(*h, "g1").ok());
  EXPECT_EQ(vault.Release(*h, "").code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(vault.ReleaseGame("g1"), 1);
  EXPECT_EQ(vault.size(), 1u);
  EXPECT_EQ(vault.Lookup(*h2, "g1", 1).status().code(), absl::StatusCode::kFailedPrecondition);
  for (const char* bad : {"", "has space", "line\nbreak"}) {
    auto r = vault.Register("g", 0, bad);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    if (std::string(bad).size() > 0) {
      EXPECT_EQ(std::string(r.status().message()).find(bad), std::string::npos);
    }
  }
  EXPECT_FALSE(vault.Register("", 0, "k").ok());
  EXPECT_FALSE(vault.Register("g", -1, "k").ok());
}

}  // namespace
}  // namespace arena::gateway
