#include "services/mock_abacus/mock_api.h"

#include "engine/core/game.h"
#include "gateway/prompt.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace arena::mock_abacus {
namespace {

using nlohmann::json;

std::string ChessBody(const std::string& model, const std::string& clue = "") {
  const engine::Game* chess = engine::FindGame("chess");
  auto state = chess->NewInitialState(engine::Variant());
  auto turn = gateway::LoadTurnPosition("chess", "", (*state)->Serialize(), 0, {}, true);
  EXPECT_TRUE(turn.ok());
  turn->clue_move = clue;
  turn->clue_level = clue.empty() ? 0 : 4;
  return json({{"model", model},
               {"max_tokens", 256},
               {"messages",
                {{{"role", "system"}, {"content", gateway::SystemPrompt()}},
                 {{"role", "user"}, {"content", gateway::BuildTurnPrompt(*turn)}}}}})
      .dump();
}

// The parse of a body seen before is reused: same answer, and every call is still charged.
TEST(MockAbacusTest, RepeatedBodiesAnswerAlikeAndAreEachCharged) {
  auto mock = MockAbacus::Make("k1:1000000", {});
  ASSERT_TRUE(mock.ok());
  std::string body = ChessBody("mock-competent");
  MockResponse a = mock->Handle("POST", "/v1/chat/completions", "Bearer k1", body);
  MockResponse b = mock->Handle("POST", "/v1/chat/completions", "Bearer k1", body);
  ASSERT_EQ(a.status, 200) << a.body;
  ASSERT_EQ(b.status, 200) << b.body;
  json ja = json::parse(a.body);
  json jb = json::parse(b.body);
  EXPECT_EQ(ja["choices"][0]["message"]["content"], jb["choices"][0]["message"]["content"]);
  EXPECT_EQ(ja["usage"], jb["usage"]);
  json move = json::parse(ja["choices"][0]["message"]["content"].get<std::string>());
  EXPECT_FALSE(move["move"].get<std::string>().empty());
  int64_t cost = ja["usage"]["compute_points_used"].get<int64_t>();
  ASSERT_GT(cost, 0);
  // 1,000,000 micro-USD less two calls: a third call still answers, the balance is per call.
  auto broke = MockAbacus::Make("k1:" + std::to_string(cost), {});
  ASSERT_TRUE(broke.ok());
  EXPECT_EQ(broke->Handle("POST", "/v1/chat/completions", "Bearer k1", body).status, 200);
  EXPECT_EQ(broke->Handle("POST", "/v1/chat/completions", "Bearer k1", body).status, 400);
}

// A competent model says in its reasoning which clue its prompt carried (and none without).
TEST(MockAbacusTest, CompetentReasoningNamesThePromptsClue) {
  auto mock = MockAbacus::Make("k1:1000000", {});
  ASSERT_TRUE(mock.ok());
  auto reasoning = [&](const std::string& clue) {
    MockResponse r = mock->Handle("POST", "/v1/chat/completions", "Bearer k1",
                                  ChessBody("mock-competent", clue));
    EXPECT_EQ(r.status, 200) << r.body;
    json content =
        json::parse(json::parse(r.body)["choices"][0]["message"]["content"].get<std::string>());
    return content["reasoning"].get<std::string>();
  };
  EXPECT_EQ(reasoning("").find("clue"), std::string::npos);
  EXPECT_NE(reasoning("g1f3").find("My prompt's clue: g1f3 (level 4)."), std::string::npos);
}

// History-dependent behaviour is decided per call, not cached with the parse.
TEST(MockAbacusTest, RateLimitedOnceStillLimitsOnceWithTheCache) {
  auto mock = MockAbacus::Make("k1:1000000", {});
  ASSERT_TRUE(mock.ok());
  std::string body = ChessBody("mock-429-then-ok");
  EXPECT_EQ(mock->Handle("POST", "/v1/chat/completions", "Bearer k1", body).status, 429);
  EXPECT_EQ(mock->Handle("POST", "/v1/chat/completions", "Bearer k1", body).status, 200);
  EXPECT_EQ(mock->Handle("POST", "/v1/chat/completions", "Bearer k1", body).status, 200);
  EXPECT_EQ(mock->Handle("POST", "/v1/chat/completions", "Bearer k1", "{not json").status, 400);
  EXPECT_EQ(mock->Handle("POST", "/v1/chat/completions", "Bearer k1", "{not json").status, 400);
  EXPECT_EQ(mock->Handle("POST", "/v1/chat/completions", "Bearer nope", body).status, 401);
}

// The replies real models give: no usage block, usage that cannot be right, prose answers;
// each still charges the key what the call cost.
TEST(MockAbacusTest, UsageAndProseBehaviours) {
  auto mock = MockAbacus::Make("k1:1000000", {});
  ASSERT_TRUE(mock.ok());
  auto content = [](const json& reply) {
    return reply["choices"][0]["message"]["content"].get<std::string>();
  };
  MockResponse none =
      mock->Handle("POST", "/v1/chat/completions", "Bearer k1", ChessBody("mock-no-usage"));
  ASSERT_EQ(none.status, 200) << none.body;
  json jn = json::parse(none.body);
  EXPECT_FALSE(jn.contains("usage"));
  EXPECT_FALSE(json::parse(content(jn))["move"].get<std::string>().empty());

  MockResponse under =
      mock->Handle("POST", "/v1/chat/completions", "Bearer k1", ChessBody("mock-underreports"));
  json ju = json::parse(under.body);
  EXPECT_EQ(ju["usage"]["prompt_tokens"], 1);
  EXPECT_EQ(ju["usage"]["completion_tokens"], 1);
  EXPECT_GT(ju["usage"]["compute_points_used"].get<int64_t>(), 1);

  MockResponse prose =
      mock->Handle("POST", "/v1/chat/completions", "Bearer k1", ChessBody("mock-prose"));
  json jp = json::parse(prose.body);
  std::string text = content(jp);
  size_t final_at = text.rfind("**Final Answer:** ");
  ASSERT_NE(final_at, std::string::npos) << text;
  std::string move = text.substr(final_at + 18);
  MockResponse competent =
      mock->Handle("POST", "/v1/chat/completions", "Bearer k1", ChessBody("mock-competent"));
  EXPECT_EQ(move, json::parse(content(json::parse(competent.body)))["move"]);
  EXPECT_NE(text.find("One idea is "), std::string::npos);  // another legal move, named first
  EXPECT_EQ(jp["choices"][0]["finish_reason"], "stop");
}

std::string BodyAt(const std::string& game_id, const std::string& variant,
                   const engine::State& state, const std::string& model) {
  auto turn =
      gateway::LoadTurnPosition(game_id, variant, state.Serialize(), state.ToMove(), {}, true);
  EXPECT_TRUE(turn.ok()) << turn.status();
  if (!turn.ok()) return "";
  return json({{"model", model},
               {"max_tokens", 256},
               {"messages",
                {{{"role", "system"}, {"content", gateway::SystemPrompt()}},
                 {{"role", "user"}, {"content", gateway::BuildTurnPrompt(*turn)}}}}})
      .dump();
}

std::string MoveOf(const MockResponse& r) {
  json reply = json::parse(r.body);
  return json::parse(reply["choices"][0]["message"]["content"].get<std::string>())["move"];
}

// Chestonia Go: blue has the only stone, white passed; blue's pass counts the board and wins, so
// the competent mock passes (it used to place a stone picked at random among 170 actions, so its
// games ran to the move cap). Where a pass would lose it plays on.
TEST(MockAbacusTest, CompetentPassesInGoWhenThePassWins) {
  auto mock = MockAbacus::Make("k1:1000000", {});
  ASSERT_TRUE(mock.ok());
  const engine::Game* go = engine::FindGame("chestonia-go");
  ASSERT_NE(go, nullptr);
  const std::string variant = "players=2,darts=off";
  auto state = go->NewInitialState(*engine::Variant::Parse(variant));
  ASSERT_TRUE(state.ok()) << state.status();
  ASSERT_TRUE((*state)->Apply("0,0").ok());
  ASSERT_TRUE((*state)->Apply("pass").ok());
  MockResponse blue = mock->Handle("POST", "/v1/chat/completions", "Bearer k1",
                                   BodyAt("chestonia-go", variant, **state, "mock-competent"));
  ASSERT_EQ(blue.status, 200) << blue.body;
  EXPECT_EQ(MoveOf(blue), "pass");

  // Reverse (the lower score wins): after blue's pass, white's pass would count the board
  // with blue on 0 and white on its komi, and lose; white plays on.
  const std::string reverse = "players=2,darts=off,reverse=on";
  auto behind = go->NewInitialState(*engine::Variant::Parse(reverse));
  ASSERT_TRUE(behind.ok());
  ASSERT_TRUE((*behind)->Apply("pass").ok());
  ASSERT_EQ((*behind)->ToMove(), 1);
  MockResponse white = mock->Handle("POST", "/v1/chat/completions", "Bearer k1",
                                    BodyAt("chestonia-go", reverse, **behind, "mock-competent"));
  ASSERT_EQ(white.status, 200) << white.body;
  EXPECT_NE(MoveOf(white), "pass");
}

}  // namespace
}  // namespace arena::mock_abacus
