#include "common/log.h"

#include "gtest/gtest.h"

namespace arena::common {
namespace {

TEST(LogTest, OneJsonObjectPerLine) {
  std::string line = FormatLogLine(LogLevel::kWarning, "arena-bot", "slow search",
                                   {{"nodes", 42}, {"game", "chess"}}, "2026-01-01T00:00:00.000Z");
  EXPECT_EQ(line.find('\n'), std::string::npos);
  auto parsed = nlohmann::json::parse(line);
  EXPECT_EQ(parsed["level"], "warning");
  EXPECT_EQ(parsed["service"], "arena-bot");
  EXPECT_EQ(parsed["msg"], "slow search");
  EXPECT_EQ(parsed["nodes"], 42);
  EXPECT_EQ(parsed["ts"], "2026-01-01T00:00:00.000Z");
}

TEST(LogTest, FieldsCannotOverwriteTheEnvelope) {
  std::string line =
      FormatLogLine(LogLevel::kInfo, "arena", "m", {{"level", "error"}, {"msg", "x"}}, "t");
  auto parsed = nlohmann::json::parse(line);
  EXPECT_EQ(parsed["level"], "info");
  EXPECT_EQ(parsed["msg"], "m");
}

TEST(LogTest, InvalidUtf8DoesNotThrow) {
  std::string bad = "caf\xc3";
  std::string line = FormatLogLine(LogLevel::kInfo, "arena", bad, {{"k", bad}}, "t");
  EXPECT_NO_THROW(nlohmann::json::parse(line));
}

TEST(LogTest, ParsesLevels) {
  LogLevel l;
  ASSERT_TRUE(ParseLogLevel("debug", &l));
  EXPECT_EQ(l, LogLevel::kDebug);
  EXPECT_FALSE(ParseLogLevel("loud", &l));
}

}  // namespace
}  // namespace arena::common
