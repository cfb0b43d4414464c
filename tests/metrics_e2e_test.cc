// Every server's /metrics over real HTTP (issue 27, Deliver 5): a chess table of a bot and a
// mock model plays on the real servers, and each server's metrics then show what happened —
// gRPC calls per method and code, games live, committed events, AI turns, searches, model
// turns and spend, streams and HTTP answers of the edge — and no secret.
#include <map>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "arena/v1/arena.grpc.pb.h"
#include "common/grpc_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/arena_client.h"
#include "tests/support/web_deployment.h"

namespace arena::testing {
namespace {

using Stub = v1::ArenaService::Stub;
using ::testing::HasSubstr;
using ::testing::Not;

// One scrape: every sample by its full name with labels (`name{a="b"}`).
std::map<std::string, double> Scrape(int port, std::string* text = nullptr) {
  HttpReply r = HttpCall(port, "GET", "/metrics");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_THAT(r.headers["content-type"], HasSubstr("text/plain; version=0.0.4"));
  std::map<std::string, double> samples;
  for (absl::string_view line : absl::StrSplit(r.body, '\n')) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.rfind(' ');
    double v = 0;
    EXPECT_TRUE(absl::SimpleAtod(line.substr(space + 1), &v)) << line;
    samples[std::string(line.substr(0, space))] = v;
  }
  if (text != nullptr) *text = r.body;
  return samples;
}

double Handled(const std::map<std::string, double>& m, const std::string& method,
               const std::string& code = "OK") {
  auto it =
      m.find("arena_grpc_server_handled_total{method=\"" + method + "\",code=\"" + code + "\"}");
  return it == m.end() ? 0 : it->second;
}

double Get(const std::map<std::string, double>& m, const std::string& key) {
  auto it = m.find(key);
  return it == m.end() ? -1 : it->second;
}

TEST(MetricsE2eTest, EveryServerShowsWhatAGameDid) {
  WebDeployment d;
  ASSERT_TRUE(d.ok()) << d.Logs().substr(0, 4000);
  std::map<std::string, int> port;
  for (const char* s :
       {"arena", "arena-game-state", "arena-bot", "arena-llm-gateway", "arena-web"}) {
    port[s] = d.MetricsPort(s);
    ASSERT_GT(port[s], 0) << s << " serves no metrics";
    EXPECT_EQ(HttpCall(port[s], "GET", "/healthz").body, "ok\n");
    EXPECT_EQ(HttpCall(port[s], "GET", "/other").status, 404);
  }
  // Before any game: nothing live.
  EXPECT_EQ(Get(Scrape(port["arena-game-state"]), "arena_game_state_games_live"), 0);

  auto stub = d.Arena();
  v1::SignUpRequest up;
  up.set_name("mona");
  up.set_password("mona-password-1");
  v1::SessionToken mona;
  ASSERT_TRUE(CallAs(*stub, &Stub::SignUp, As{}, up, &mona).ok());
  v1::ArenaCreateTableRequest req;
  req.mutable_settings()->set_engine_game("chess");
  req.mutable_settings()->set_is_public(true);
  req.mutable_settings()->set_move_cap(8);
  req.mutable_settings()->mutable_clock()->set_per_move_ms(30000);
  v1::ArenaSeat* model = req.add_seats();
  model->mutable_spec()->set_kind(v1::SEAT_KIND_MODEL);
  model->mutable_spec()->set_model_id("mock-competent");
  model->mutable_spec()->set_funding(v1::FUNDING_OWN_KEY);
  model->set_own_api_key(std::string(kWebPlatformKey));  // the one key the mock upstream knows
  v1::ArenaSeat* bot = req.add_seats();
  bot->mutable_spec()->set_kind(v1::SEAT_KIND_BOT);
  bot->mutable_spec()->set_bot_level(2);
  v1::ArenaCreateTableResponse table;
  grpc::Status s = CallAs(*stub, &Stub::CreateTable, As{mona.token()}, req, &table);
  ASSERT_TRUE(s.ok()) << s.error_message();

  // A browser follows the game through the edge while it plays.
  SseReader stream(d.web_port(), "/api/games/" + table.game_id() + "/events");
  EXPECT_EQ(HttpCall(d.web_port(), "GET", "/healthz").status, 200);
  bool saw_live = false, saw_stream = false;
  auto gs = d.GameState();
  for (absl::Time end = absl::Now() + absl::Minutes(3); absl::Now() < end;) {
    saw_live =
        saw_live || Get(Scrape(port["arena-game-state"]), "arena_game_state_games_live") == 1;
    saw_stream = saw_stream || Get(Scrape(port["arena-web"]), "arena_web_sse_streams_open") == 1;
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(20));
    v1::GetGameRequest get;
    get.set_game_id(table.game_id());
    v1::GameView view;
    if (gs->GetGame(&ctx, get, &view).ok() && view.status() != v1::GAME_STATUS_ACTIVE &&
        view.status() != v1::GAME_STATUS_WAITING) {
      break;
    }
    absl::SleepFor(absl::Milliseconds(100));
  }
  EXPECT_TRUE(saw_live) << "the game was never counted live";
  EXPECT_TRUE(saw_stream) << "the browser's stream was never counted";

  const auto game_state = Scrape(port["arena-game-state"]);
  EXPECT_EQ(Get(game_state, "arena_game_state_games_live"), 0);
  EXPECT_GE(Get(game_state, "arena_game_state_games_in_memory"), 1);
  EXPECT_GE(Get(game_state, "arena_game_state_events_committed_total{type=\"action\"}"), 8);
  EXPECT_GE(Handled(game_state, "/arena.v1.GameStateService/SubmitAction"), 8);
  EXPECT_GE(Handled(game_state, "/arena.v1.GameStateService/CreateTable"), 1);

  const auto bots = Scrape(port["arena-bot"]);
  EXPECT_GE(Get(bots, "arena_bot_searches_total{game=\"chess\",kind=\"choose\"}"), 4);
  EXPECT_GT(Get(bots, "arena_bot_search_nodes_total{game=\"chess\"}"), 0);
  EXPECT_GE(Handled(bots, "/arena.v1.BotService/ChooseMove"), 4);
  EXPECT_GE(Get(bots, "arena_bot_queue_seconds_count"), 4);
  // arena's move judge asks about model moves after they are played (EvaluateMove).
  double evaluated = 0;
  for (absl::Time end = absl::Now() + absl::Seconds(30); absl::Now() < end && evaluated < 1;) {
    evaluated = Get(Scrape(port["arena-bot"]),
                    "arena_bot_searches_total{game=\"chess\",kind=\"evaluate\"}");
    if (evaluated < 1) absl::SleepFor(absl::Milliseconds(200));
  }
  EXPECT_GE(evaluated, 1);

  const auto gateway = Scrape(port["arena-llm-gateway"]);
  EXPECT_GE(Get(gateway, "arena_gateway_model_turns_total{outcome=\"ok\"}"), 4);
  EXPECT_GE(Get(gateway, "arena_gateway_model_attempts_total"), 4);
  EXPECT_GT(Get(gateway, "arena_gateway_model_spend_microcredits_total"), 0);

  std::string arena_text;
  const auto arena = Scrape(port["arena"], &arena_text);
  EXPECT_GE(Get(arena, "arena_ai_turns_total{kind=\"bot\",outcome=\"ok\"}"), 4);
  EXPECT_GE(Get(arena, "arena_ai_turns_total{kind=\"model\",outcome=\"ok\"}"), 4);
  EXPECT_GT(Get(arena, "arena_model_spend_microcredits_total"), 0);
  // Each table it made, it claimed the lease of and drove.
  EXPECT_GE(Get(arena, "arena_driver_leases_total{event=\"claimed\"}"), 1);
  EXPECT_LE(Get(arena, "arena_driver_leases_total{event=\"lost\"}"), 0);  // none (or absent)
  EXPECT_GE(Get(arena, "arena_driven_tables"), 0);
  EXPECT_GE(Handled(arena, "/arena.v1.ArenaService/CreateTable"), 1);
  EXPECT_GE(Handled(arena, "/arena.v1.ArenaService/SignUp"), 1);
  // A call refused for its caller is counted under its code.
  {
    v1::ArenaCreateTableResponse refused;
    EXPECT_EQ(CallAs(*stub, &Stub::CreateTable, As{"not-a-token"}, req, &refused).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
    EXPECT_EQ(
        Handled(Scrape(port["arena"]), "/arena.v1.ArenaService/CreateTable", "UNAUTHENTICATED"), 1);
  }
  // The histogram's +Inf bucket and count agree.
  EXPECT_EQ(Get(arena,
                "arena_grpc_server_handling_seconds_bucket{method=\"/arena.v1."
                "ArenaService/SignUp\",le=\"+Inf\"}"),
            Get(arena,
                "arena_grpc_server_handling_seconds_count{method=\"/arena.v1."
                "ArenaService/SignUp\"}"));

  const auto web = Scrape(port["arena-web"]);
  EXPECT_GE(Get(web, "arena_web_http_responses_total{code=\"200\"}"), 1);
  EXPECT_GE(Get(web, "arena_web_connections_open"), 0);

  // No key, password or token in any server's metrics.
  for (const auto& [name, p] : port) {
    std::string text;
    Scrape(p, &text);
    EXPECT_THAT(text, Not(HasSubstr(kWebPlatformKey))) << name;
    EXPECT_THAT(text, Not(HasSubstr("mona-password-1"))) << name;
    EXPECT_THAT(text, Not(HasSubstr(mona.token()))) << name;
  }
}

}  // namespace
}  // namespace arena::testing
