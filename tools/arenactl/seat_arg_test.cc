#include "tools/arenactl/seat_arg.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arena::arenactl {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(SeatArgTest, EveryForm) {
  EXPECT_EQ(ParseSeatArg("me")->kind, SeatArg::Kind::kMe);
  EXPECT_EQ(ParseSeatArg("open")->kind, SeatArg::Kind::kOpen);
  auto bot = ParseSeatArg("bot:3");
  ASSERT_TRUE(bot.ok());
  EXPECT_EQ(bot->kind, SeatArg::Kind::kBot);
  EXPECT_EQ(bot->bot_level, 3);
  auto sf = ParseSeatArg("stockfish:1500");
  ASSERT_TRUE(sf.ok());
  EXPECT_EQ(sf->stockfish_elo, 1500);
  auto donated = ParseSeatArg("model:mock-competent");
  ASSERT_TRUE(donated.ok());
  EXPECT_EQ(donated->kind, SeatArg::Kind::kModel);
  EXPECT_EQ(donated->model_id, "mock-competent");
  EXPECT_EQ(donated->own_key_file, "");
  auto explicit_donated = ParseSeatArg("model:gpt-4o-mini:donated");
  ASSERT_TRUE(explicit_donated.ok());
  EXPECT_EQ(explicit_donated->model_id, "gpt-4o-mini");
  EXPECT_EQ(explicit_donated->own_key_file, "");
  auto own = ParseSeatArg("model:route-llm:/home/me/abacus.key");
  ASSERT_TRUE(own.ok());
  EXPECT_EQ(own->model_id, "route-llm");
  EXPECT_EQ(own->own_key_file, "/home/me/abacus.key");
}

TEST(SeatArgTest, BadSeatsSayWhatExists) {
  for (const char* bad : {"", "bots:2", "bot:", "bot:x", "bot:-1", "stockfish:0",
                          "model:", "model:x:", "human", "me:2"}) {
    auto seat = ParseSeatArg(bad);
    ASSERT_FALSE(seat.ok()) << bad;
    EXPECT_EQ(seat.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(seat.status().message(), HasSubstr(std::string("--seat=") + bad)) << bad;
  }
  EXPECT_THAT(ParseSeatArg("human").status().message(), HasSubstr("me, open, bot:LEVEL"));
}

TEST(SeatArgTest, RepeatedFlagKeepsEveryValueInOrder) {
  std::vector<std::string> args = {"arenactl", "table", "create", "chess", "--seat=me",
                                   "--seat",   "bot:2", "--x=1",  "--",    "--seat=late"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  EXPECT_THAT(RepeatedFlagValues(static_cast<int>(argv.size()), argv.data(), "seat"),
              ElementsAre("me", "bot:2"));
}

}  // namespace
}  // namespace arena::arenactl
