#include "common/config.h"

#include "gtest/gtest.h"

namespace arena::common {
namespace {

TEST(ConfigTest, EnvNameIsPrefixedUpperCase) {
  EXPECT_EQ(EnvNameForFlag("database_url"), "ARENA_DATABASE_URL");
  EXPECT_EQ(EnvNameForFlag("port"), "ARENA_PORT");
}

TEST(ConfigTest, PortRange) {
  EXPECT_TRUE(ValidatePort(0, "port").ok());
  EXPECT_TRUE(ValidatePort(65535, "port").ok());
  absl::Status s = ValidatePort(70000, "port");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("--port=70000"), std::string::npos);
  EXPECT_FALSE(ValidatePort(-1, "port").ok());
}

}  // namespace
}  // namespace arena::common
