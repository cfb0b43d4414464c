// The page's rules questions answered from a position the caller sends (engine_actions.h).
#include "services/web/engine_actions.h"

#include <string>

#include "engine/core/game.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace arena::web {
namespace {

using nlohmann::json;

// Three players, long set-up, from random play: blue's king on 5,2 has about 1.8 million
// distinct turns (engine/chestonia_checkers/rules_test.cc, kKingAmidEnemies). Anyone may send
// such a position; a click on the king is answered from that piece's bounded listing instead
// of every turn of the position (which took 16 s and gigabytes).
constexpr char kKingAmidEnemies[] =
    "chestonia-checkers players=3 setup=long board=plain darts=off reverse=off movecap=0 first=b "
    "turn=b phase=move pieces=bM0,-7;bM2,-7;bM3,-7;bM4,-7;bM5,-7;bM6,-7;bM7,-7;bM-1,-6;bM2,-6;"
    "bM4,-6;bM0,-5;bM3,-4;bM7,-4;bM-1,-3;bM2,-3;bK-7,0;wM-2,0;kM5,0;wM-6,1;kM4,1;kM6,1;wM-6,2;"
    "wM-5,2;wM-4,2;kM3,2;kM4,2;bK5,2;wM-7,3;wM-5,3;wM-4,3;kM3,3;kM4,3;wM-7,4;wM-6,4;wM-4,4;kM3,4;"
    "wM-6,5;wM-5,5;kM1,5;kM2,5;wM-6,6;kM-1,6;kM0,6;kM1,6;wM-6,7;wM-4,7;kM-1,7;kM0,7 out=- "
    "moves=93 noprogress=0 rounds=0 dartround=0 aim=- reward=0 actions=93";

TEST(EngineActionsTest, AClickOnAKingAmidMillionsOfTurnsIsAnsweredFromItsOwnTurns) {
  const engine::Game* game = engine::FindGame("chestonia-checkers");
  auto state = game->Parse(kKingAmidEnemies, engine::Variant());
  ASSERT_TRUE(state.ok()) << state.status();
  const std::vector<std::string> king = engine::PieceActions(**state, "5,2");
  ASSERT_FALSE(king.empty());
  auto facts = (*state)->DescribeAction(king.front());
  ASSERT_TRUE(facts.ok());
  const std::string to = facts->cells.back();
  json body = {{"engine_game", "chestonia-checkers"},
               {"variant_text", "players=3,setup=long"},
               {"position", kKingAmidEnemies},
               {"from", "5,2"},
               {"to", to}};
  absl::StatusOr<std::string> answer = ActionForJson(body.dump());
  ASSERT_TRUE(answer.ok()) << answer.status();
  json j = json::parse(*answer);
  const std::string action = j["action"];
  EXPECT_EQ(action.rfind("5,2:", 0), 0u) << action;
  EXPECT_EQ(action.substr(action.size() - to.size()), to);
  EXPECT_TRUE((*state)->Clone()->Apply(action).ok()) << action;
  // A click from an empty cell names nothing.
  body["from"] = "0,0";
  EXPECT_EQ(ActionForJson(body.dump()).status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace arena::web
