// The Stockfish-anchored chess leaderboard places a model of known strength where it belongs
// (issue 19, "Done when"): a league of `model:mock-stockfish-1800` — a mock model that answers
// with the move Stockfish plays at UCI_Elo 1800 — against the anchors `stockfish:1500` and
// `stockfish:2100`, on every real service and PostgreSQL, and the model's 95% interval on the
// leaderboard must contain 1800. Label `slow` (several minutes); ARENA_ANCHOR_GAMES_PER_PAIRING
// (default 4) sets the games per seating.
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "arena/v1/arena.grpc.pb.h"
#include "gtest/gtest.h"
#include "tests/support/arena_client.h"
#include "tests/support/server_process.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace arena::testing {
namespace {

using Stub = v1::ArenaService::Stub;

constexpr char kMockKey[] = "plat-SECRET-anchor-5c1e";

int GamesPerPairing() {
  const char* env = std::getenv("ARENA_ANCHOR_GAMES_PER_PAIRING");
  return env ? std::max(1, std::atoi(env)) : 4;
}

v1::LeagueParticipant Participant(const std::string& name) {
  v1::LeagueParticipant p;
  if (name.rfind("stockfish:", 0) == 0) {
    p.mutable_spec()->set_kind(v1::SEAT_KIND_BOT);
    p.mutable_spec()->set_stockfish_elo(std::stoi(name.substr(10)));
  } else {
    p.mutable_spec()->set_kind(v1::SEAT_KIND_MODEL);
    p.mutable_spec()->set_model_id(name.substr(6));
    p.mutable_spec()->set_funding(v1::FUNDING_DONATED_CREDITS);
  }
  return p;
}

TEST(ChessAnchorLeagueTest, MockModelOfKnownStrengthLandsInsideItsInterval) {
  if (access("/usr/games/stockfish", X_OK) != 0) GTEST_SKIP() << "no stockfish installed";
  TestDatabase db;
  ASSERT_TRUE(db.ok());
  std::string dir = MakeTempDir("anchor-league");
  Subprocess mock({ARENA_MOCK_ABACUS_BIN, "--port=0", "--port_file=" + dir + "/port",
                   std::string("--keys=") + kMockKey + ":1000000000"});
  const int mock_port = WaitForPortFile(dir + "/port", absl::Seconds(30));
  ASSERT_GT(mock_port, 0);
  std::ofstream(dir + "/key") << kMockKey << "\n";
  ServerProcess game_state(ARENA_GAME_STATE_BIN,
                           {"--database_url=" + db.url(), "--log_level=warning"});
  ServerProcess bot(ARENA_BOT_BIN, {"--log_level=warning"});
  ServerProcess gateway(ARENA_GATEWAY_BIN,
                        {"--abacus_base_url=http://127.0.0.1:" + std::to_string(mock_port) + "/v1",
                         "--abacus_api_key_file=" + dir + "/key", "--log_level=warning"});
  ASSERT_TRUE(game_state.ok() && bot.ok() && gateway.ok());
  std::vector<std::string> flags = ArenaFlags(db.url());
  flags.push_back("--game_state_addr=" + game_state.address());
  flags.push_back("--bot_addr=" + bot.address());
  flags.push_back("--gateway_addr=" + gateway.address());
  flags.push_back("--league_tick_ms=100");
  ServerProcess arena(ARENA_ARENA_BIN, flags);
  ASSERT_TRUE(arena.ok());
  auto stub = v1::ArenaService::NewStub(arena.channel());

  // The admin funds the donation pool and allows itself enough for the league's model turns.
  v1::SignInRequest in;
  in.set_name(kAdminName);
  in.set_password(kAdminPassword);
  v1::SessionToken token;
  ASSERT_TRUE(CallAs(*stub, &Stub::SignIn, As{}, in, &token).ok());
  const As admin{token.token()};
  v1::WhoAmIResponse me;
  ASSERT_TRUE(CallAs(*stub, &Stub::WhoAmI, admin, v1::WhoAmIRequest(), &me).ok());
  v1::AdminGrantRequest grant;
  grant.set_account_id(me.account_id());
  grant.set_amount_microcredits(200'000'000);
  grant.set_reason("anchor league");
  v1::TransferResponse tr;
  ASSERT_TRUE(CallAs(*stub, &Stub::AdminGrant, admin, grant, &tr).ok());
  v1::DonateRequest donate;
  donate.set_amount_microcredits(100'000'000);
  ASSERT_TRUE(CallAs(*stub, &Stub::Donate, admin, donate, &tr).ok());
  v1::SetAllowanceRequest allowance;
  allowance.set_account_id(me.account_id());
  allowance.set_daily_microcredits(100'000'000);
  allowance.set_reason("anchor league");
  v1::SetAllowanceResponse ar;
  ASSERT_TRUE(CallAs(*stub, &Stub::AdminSetAllowance, admin, allowance, &ar).ok());

  v1::CreateLeagueRequest create;
  create.set_name("chess anchors");
  create.mutable_settings()->set_engine_game("chess");
  create.mutable_settings()->mutable_clock()->set_per_move_ms(30000);
  for (const char* p : {"stockfish:1500", "stockfish:2100", "model:mock-stockfish-1800"}) {
    *create.add_participants() = Participant(p);
  }
  create.set_games_per_pairing(GamesPerPairing());
  create.set_concurrency(2);
  create.mutable_policy()->set_turn_cost_cap_microcredits(50'000);
  v1::League league;
  grpc::Status s = CallAs(*stub, &Stub::CreateLeague, admin, create, &league);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::LeagueRef ref;
  ref.set_league_id(league.league_id());
  ASSERT_TRUE(CallAs(*stub, &Stub::StartLeague, admin, ref, &league).ok());

  v1::StandingsResponse standings;
  const absl::Time start = absl::Now();
  while (absl::Now() - start < absl::Minutes(60)) {
    if (CallAs(*stub, &Stub::GetStandings, As{}, ref, &standings).ok() &&
        standings.league().state() == "finished") {
      break;
    }
    absl::SleepFor(absl::Seconds(1));
  }
  ASSERT_EQ(standings.league().state(), "finished");
  std::printf("league: %d games finished, %d voided, %.0f s\n", standings.league().games_finished(),
              standings.league().games_voided(), absl::ToDoubleSeconds(absl::Now() - start));

  v1::LeaderboardRequest req;
  req.set_engine_game("chess");
  v1::LeaderboardResponse board;
  ASSERT_TRUE(CallAs(*stub, &Stub::GetLeaderboard, As{}, req, &board).ok());
  std::printf("%s\n", board.scale().c_str());
  const v1::Rating* model = nullptr;
  for (const v1::Rating& r : board.ratings()) {
    std::printf("%-28s %6.0f [%6.0f, %6.0f] games %d adjudicated %d\n", r.participant().c_str(),
                r.bt_rating(), r.bt_low95(), r.bt_high95(), r.games(), r.adjudicated_games());
    if (r.participant() == "model:mock-stockfish-1800") model = &r;
  }
  ASSERT_NE(model, nullptr);
  EXPECT_LT(model->bt_low95(), 1800.0);
  EXPECT_GT(model->bt_high95(), 1800.0);
  EXPECT_EQ(model->games(), 4 * GamesPerPairing());
}

}  // namespace
}  // namespace arena::testing
