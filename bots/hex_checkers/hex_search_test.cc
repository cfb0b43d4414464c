// The hex checkers player through the bot dispatch: every level and algorithm plays legal
// turns for two to six seats, the search takes a winning chain, and answers are deterministic.
#include <string>
#include <vector>

#include "bots/core/bot.h"
#include "bots/core/levels.h"
#include "bots/hex_checkers/hex_search.h"
#include "engine/core/game.h"
#include "engine/hex_checkers/notation.h"
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

engine::hex_checkers::Position ParseHex(const std::string& text) {
  auto pos = engine::hex_checkers::ParsePosition(text, engine::hex_checkers::Rules{});
  EXPECT_TRUE(pos.ok()) << pos.status();
  return pos.ok() ? *pos : engine::hex_checkers::Position();
}

// The change the melee terms make to blue's value.
int MeleeTerms(const engine::hex_checkers::Position& pos, const HexCheckersEvalWeights& w) {
  return HexCheckersValueFor(pos, 0, w) - HexCheckersValueFor(pos, 0, HexCheckersEvalWeights{});
}

TEST(HexCheckersEval, HangingCountsEachJumpAnOpponentHasNow) {
  const HexCheckersEvalWeights w{.hanging = 40};
  // White's man at 1,2 can jump blue's at 1,1 (landing on 1,0), and blue's can jump it back:
  // only the jumps on blue count against blue.
  EXPECT_EQ(MeleeTerms(ParseHex("hex-checkers players=2 turn=b pieces=bM1,1;wM1,2"), w), -40);
  // A second white man at 2,1 jumps it sideways (landing on 0,1): two jumps.
  EXPECT_EQ(MeleeTerms(ParseHex("hex-checkers players=2 turn=b pieces=bM1,1;wM1,2;wM2,1"), w), -80);
  // With the cell behind it taken, the forward jump is gone; a king jumps in six directions,
  // backwards too.
  EXPECT_EQ(MeleeTerms(ParseHex("hex-checkers players=2 turn=b pieces=bM1,1;bM1,0;wM1,2"), w), 0);
  EXPECT_EQ(MeleeTerms(ParseHex("hex-checkers players=2 turn=b pieces=bM1,1;wK1,0"), w), -40);
  EXPECT_EQ(MeleeTerms(ParseHex("hex-checkers players=2 turn=b pieces=bM1,1;wM1,0"), w), 0);
}

TEST(HexCheckersEval, EndgameTermsDriveTheStrongerSeatAtTheLoneKing) {
  // Two seats left, blue two kings against white's one: the same material either way.
  const auto far = ParseHex("hex-checkers players=2 turn=w pieces=bK-4,0;bK-4,1;wK3,1");
  const auto near = ParseHex("hex-checkers players=2 turn=w pieces=bK1,1;bK2,-1;wK3,1");
  const auto cornered = ParseHex("hex-checkers players=2 turn=w pieces=bK1,1;bK2,-1;wK5,-5");
  const HexCheckersEvalWeights plain;
  EXPECT_EQ(HexCheckersValueFor(far, 0, plain), HexCheckersValueFor(near, 0, plain));
  EXPECT_GT(HexCheckersValueFor(near, 0, kHexMeleeWeights),
            HexCheckersValueFor(far, 0, kHexMeleeWeights));
  // The lone king has three steps in the corner, six in the open.
  EXPECT_EQ(MeleeTerms(cornered, HexCheckersEvalWeights{.endgame_mobility = 15}), -45);
  EXPECT_EQ(MeleeTerms(near, HexCheckersEvalWeights{.endgame_mobility = 15}), -90);
  // Behind, closeness is not asked for: white's value has no closeness term.
  EXPECT_EQ(HexCheckersValueFor(near, 1, HexCheckersEvalWeights{.endgame_closeness = 20}),
            HexCheckersValueFor(near, 1, plain));
}

}  // namespace
}  // namespace arena::bots
