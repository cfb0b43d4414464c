// The hex checkers player through the bot dispatch: every level and algorithm plays legal
// turns for two to six seats, the search takes a winning chain, and answers are deterministic.
#include <string>
#include <vector>

#include "bots/core/bot.h"
#include "bots/core/levels.h"
#include "engine/core/game.h"
#include "gtest/gtest.h"

namespace arena::bots {
namespace {

std::unique_ptr<engine::State> NewState(const std::string& variant) {
  auto v = engine::Variant::Parse(variant);
  EXPECT_TRUE(v.ok());
  auto s = engine::FindGame("hex-checkers")->NewInitialState(*v);
  EXPECT_TRUE(s.ok()) << s.status();
  return std::move(*s);
}

void PlayOut(const std::string& variant, int level, int actions, const std::string& alg = "") {
  auto s = NewState(variant);
  for (int i = 0; i < actions && !s->IsTerminal(); ++i) {
    BotRequest req;
    req.game = "hex-checkers";
    req.variant = variant;
    req.seat = s->ToMove();
    req.level = level;
    req.seed = static_cast<uint64_t>(i);
    req.algorithm = alg;
    auto a = ChooseBotMoveForState(*s, req);
    ASSERT_TRUE(a.ok()) << a.status();
    ASSERT_TRUE(s->Apply(a->result.move).ok()) << a->result.move << " in " << s->Serialize();
  }
}

TEST(HexCheckersBot, EveryLevelPlaysLegallyForTwoToSixSeats) {
  for (int players = 2; players <= 6; ++players) {
    const std::string variant = "players=" + std::to_string(players);
    for (int level = 0; level <= MaxLevel("hex-checkers", players); ++level) {
      PlayOut(variant, level, 12);
    }
  }
  PlayOut("players=3", 2, 12, "brs");
  PlayOut("players=6,radius=8", 2, 12, "brs");
  PlayOut("players=4", 2, 12, "mcts");
}

TEST(HexCheckersBot, TakesTheChainThatWins) {
  // Blue can step 3,-1 or jump twice and take white's last two men.
  auto s = engine::FindGame("hex-checkers")
               ->Parse("hex-checkers players=2 turn=b pieces=bM1,-4;bM-3,0;wM1,-3;wM1,-1",
                       engine::Variant());
  ASSERT_TRUE(s.ok()) << s.status();
  for (int level : {1, 2, 4}) {
    BotRequest req;
    req.game = "hex-checkers";
    req.level = level;
    req.seed = 3;
    auto a = ChooseBotMoveForState(**s, req);
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_EQ(a->result.move, "1,-4:1,-2:1,0") << level;
  }
}

TEST(HexCheckersBot, DeterministicForTheSameRequest) {
  auto s = NewState("players=6");
  BotRequest req;
  req.game = "hex-checkers";
  req.level = MaxLevel("hex-checkers", 6);
  req.node_budget = 5'000;
  req.seed = 11;
  auto a = ChooseBotMoveForState(*s, req);
  auto b = ChooseBotMoveForState(*s, req);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->result.move, b->result.move);
  EXPECT_EQ(a->result.nodes, b->result.nodes);
  req.algorithm = "maxn";
  EXPECT_EQ(ChooseBotMoveForState(*s, req).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace arena::bots
