#include "gateway/prompt.h"

#include "gateway/move_extraction.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace arena::gateway {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

absl::StatusOr<TurnPosition> Initial(const engine::Game& game, const std::string& variant,
                                     bool show) {
  auto v = engine::Variant::Parse(variant);
  if (!v.ok()) return v.status();
  auto state = game.NewInitialState(*v);
  if (!state.ok()) return state.status();
  // Walk past chance nodes to a seat's decision.
  for (int i = 0; i < 8 && (*state)->ToMove() == engine::kChanceSeat; ++i) {
    auto outcomes = (*state)->ChanceOutcomes();
    if (outcomes.empty() || !(*state)->Apply(outcomes[0].action).ok()) break;
  }
  return LoadTurnPosition(std::string(game.Id()), variant, (*state)->Serialize(),
                          (*state)->ToMove(), {"e2e4", "e7e5"}, show);
}

// Every registered game gets a prompt whose position markers carry a parseable position, and
// a JSON answer naming any legal move is accepted as that move.
TEST(PromptTest, EveryGameGetsAPromptTheMockCanReadBack) {
  for (const engine::Game* game : engine::AllGames()) {
    for (const std::string& variant : game->ExampleVariants()) {
      SCOPED_TRACE(std::string(game->Id()) + " " + variant);
      auto turn = Initial(*game, variant, true);
      if (!turn.ok()) continue;  // e.g. a variant whose first decision is not a seat's
      std::string prompt = BuildTurnPrompt(*turn);
      EXPECT_THAT(prompt, HasSubstr(kPositionBegin));
      EXPECT_THAT(prompt, HasSubstr("Legal moves"));
      EXPECT_THAT(prompt, HasSubstr("1.e2e4 2.e7e5"));
      auto found = FindPromptedPosition(prompt);
      ASSERT_TRUE(found.ok());
      EXPECT_EQ(found->game_id, game->Id());
      auto v = engine::Variant::Parse(found->variant);
      ASSERT_TRUE(v.ok());
      auto reparsed = game->Parse(found->position, *v);
      ASSERT_TRUE(reparsed.ok()) << reparsed.status();
      EXPECT_EQ((*reparsed)->LegalActions(), turn->legal);
      const std::string& move = turn->legal.back();
      Extraction x =
          ExtractMove("{\"move\": \"" + move + "\", \"reasoning\": \"r\"}", "stop", *turn);
      EXPECT_EQ(x.label, ReplyLabel::kOk);
      EXPECT_EQ(x.move, move);
    }
  }
}

class ChessPromptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    game_ = engine::FindGame("chess");
    if (game_ == nullptr) GTEST_SKIP() << "chess is not registered in this build";
    auto t = Initial(*game_, "", false);
    ASSERT_TRUE(t.ok()) << t.status();
    turn_ = *std::move(t);
  }
  const engine::Game* game_ = nullptr;
  TurnPosition turn_;
};

TEST_F(ChessPromptTest, PromptHasRulesPositionTurnAndFormat) {
  std::string prompt = BuildTurnPrompt(turn_);
  EXPECT_THAT(prompt, HasSubstr("standard chess"));
  EXPECT_THAT(prompt, HasSubstr("UCI"));
  EXPECT_THAT(prompt, HasSubstr("You play White (seat 0)"));
  EXPECT_THAT(prompt, HasSubstr("You owe: your move"));
  EXPECT_THAT(prompt, HasSubstr("{\"move\""));
  EXPECT_THAT(prompt, Not(HasSubstr("Legal moves")));  // not a beginner table
  turn_.show_legal_moves = true;
  EXPECT_THAT(BuildTurnPrompt(turn_), HasSubstr("e2e4"));
}

TEST_F(ChessPromptTest, LoadRefusesTheWrongSeatAndBadPositions) {
  EXPECT_EQ(LoadTurnPosition("chess", "", turn_.state->Serialize(), 1, {}, false).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(LoadTurnPosition("chess", "", "garbage", 0, {}, false).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(LoadTurnPosition("no-such-game", "", "x", 0, {}, false).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(PromptBriefTest, EveryGameHasABriefWithAGenericFallback) {
  EXPECT_THAT(RulesBrief("chess"), HasSubstr("chess"));
  EXPECT_THAT(RulesBrief("chestonia-chess"), HasSubstr("hexagonal"));
  EXPECT_THAT(RulesBrief("hex-checkers"), HasSubstr("turn-based board game"));
  EXPECT_EQ(TruncateUtf8("abc", 10), "abc");
  EXPECT_EQ(TruncateUtf8("a\xc3\xa9", 2), "a");
}

}  // namespace
}  // namespace arena::gateway
