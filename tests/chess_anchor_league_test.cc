// The Stockfish-anchored chess leaderboard places a model of known strength where it belongs
// (issue 19, "Done when"), on every real service and PostgreSQL.
//
// The model of known behaviour is the mock Abacus's `mock-stockfish-1500`: every chess prompt is
// answered with the move Stockfish 15.1 plays at UCI_LimitStrength / UCI_Elo 1500 and 100 ms —
// exactly what an arena-bot `stockfish:1500` seat plays from the same position
// (services/mock_abacus/stockfish_model.h). Its true rating on the Stockfish-anchored scale is
// therefore 1500 — as far as Stockfish's levels keep their UCI_Elo spacing at 100 ms a move,
// which is what anchoring on them assumes and what this test checks. A round-robin league pits it
// against the anchors `stockfish:1350` and `stockfish:2100`, which bracket the truth and are fixed
// in the Bradley–Terry fit.
//
// Nothing in the fit knows the truth: the leaderboard is read through the production RPC, whose
// prior on every non-anchor is the one a new participant gets — N(mean of the game's anchors,
// 400²) (services/arena/rating_store.cc), here N(1725, 400²), 225 Elo above the truth. The test
// checks that the leaderboard says so.
//
// Asserted:
// - the model's 95% interval contains 1500;
// - the interval is informative: narrower than the 750 Elo between the anchors. The prior alone
//   gives a width of 2 × 1.96 × 400 = 1568, so a width under the bracket's means the games, not
//   the prior, placed the model, and it cannot hold both anchors;
// - the model played only Stockfish's moves (no illegal or unparsable answer, no forfeit), so its
//   behaviour is the known one.
// Eight games per seating (each colour): the model plays 32 games, 16 against each anchor.
// Simulated at the true strengths with the production fit (services/arena/ratings/
// bradley_terry_test.cc, TheAnchorLeagueDesign...), that gives a median width of about 350 and
// covers 1500 about 96% of the time; 6 a seating would cover only about 93% (the results are few
// and discrete) and 4 gives widths near 480. A miss of the first assertion alone is therefore not
// yet evidence of a bug: about one run in thirty misses by design; rerun, with more games if need
// be. Label `slow`; ARENA_ANCHOR_GAMES_PER_SEATING sets the games per seating. Figures of a run:
// docs/leagues.md, "Ratings".
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>

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
constexpr char kModel[] = "model:mock-stockfish-1500";
constexpr double kTrueElo = 1500;
constexpr int kLowAnchor = 1350;   // Stockfish 15.1's lowest UCI_Elo
constexpr int kHighAnchor = 2100;  // the suggested ladder's (docs/bots.md)
// The production prior's centre: the mean of the game's anchors (rating_store.cc).
constexpr int kPriorCentre = (kLowAnchor + kHighAnchor) / 2;
static_assert(kPriorCentre != static_cast<int>(kTrueElo), "the prior must not know the truth");

int GamesPerSeating() {
  const char* env = std::getenv("ARENA_ANCHOR_GAMES_PER_SEATING");
  return env ? std::max(1, std::atoi(env)) : 8;
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

  // The league as production runs one: round-robin in both colours, the default move cap
  // (600 moves, adjudicated by full-strength Stockfish), a clock no seat comes near.
  const std::string low = "stockfish:" + std::to_string(kLowAnchor);
  const std::string high = "stockfish:" + std::to_string(kHighAnchor);
  v1::CreateLeagueRequest create;
  create.set_name("chess anchors");
  create.mutable_settings()->set_engine_game("chess");
  create.mutable_settings()->mutable_clock()->set_per_move_ms(30000);
  for (const std::string& p : {low, high, std::string(kModel)}) {
    *create.add_participants() = Participant(p);
  }
  create.set_games_per_pairing(GamesPerSeating());
  // Three games at once: every move is a fixed 100 ms of Stockfish, so latency, not CPU,
  // bounds a game.
  create.set_concurrency(3);
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
  std::printf("league: %d games finished, %d voided, %d abandoned, %.0f s\n",
              standings.league().games_finished(), standings.league().games_voided(),
              standings.league().games_abandoned(), absl::ToDoubleSeconds(absl::Now() - start));

  // Every pairing's results (the anchors' game against each other shows how far their UCI_Elo
  // spacing holds at 100 ms), and how the games ended.
  v1::ListMatchesRequest lm;
  lm.set_league_id(league.league_id());
  lm.set_limit(1000);
  v1::ListMatchesResponse matches;
  ASSERT_TRUE(CallAs(*stub, &Stub::ListMatches, admin, lm, &matches).ok());
  struct Wdl {
    int w = 0, d = 0, l = 0;
  };
  std::map<std::pair<std::string, std::string>, Wdl> pairings;  // from the first's side
  std::map<std::string, int> reasons;
  for (const v1::MatchSummary& m : matches.matches()) {
    if (m.state() != "finished") continue;
    ++reasons[m.reason()];
    if (m.participants_size() != 2 || m.ranks_size() != 2) continue;
    // From the side of the name that sorts first: the model, then the lower anchor.
    const int first = m.participants(0) < m.participants(1) ? 0 : 1;
    Wdl& r = pairings[{m.participants(first), m.participants(1 - first)}];
    const int mine = m.ranks(first), theirs = m.ranks(1 - first);
    (mine < theirs ? r.w : mine == theirs ? r.d : r.l)++;
  }
  for (const auto& [pair, r] : pairings) {
    std::printf("%s vs %s: +%d =%d -%d\n", pair.first.c_str(), pair.second.c_str(), r.w, r.d, r.l);
  }
  for (const auto& [reason, n] : reasons) std::printf("ended by %s: %d\n", reason.c_str(), n);

  v1::LeaderboardRequest req;
  req.set_engine_game("chess");
  v1::LeaderboardResponse board;
  ASSERT_TRUE(CallAs(*stub, &Stub::GetLeaderboard, As{}, req, &board).ok());
  std::printf("%s\n", board.scale().c_str());
  // The prior is production's, centred on the anchors' mean, not on the truth.
  EXPECT_NE(board.scale().find("prior N(" + std::to_string(kPriorCentre) + ","), std::string::npos)
      << board.scale();
  const v1::Rating* model = nullptr;
  for (const v1::Rating& r : board.ratings()) {
    std::printf("%-28s %6.0f [%6.0f, %6.0f] games %d adjudicated %d\n", r.participant().c_str(),
                r.bt_rating(), r.bt_low95(), r.bt_high95(), r.games(), r.adjudicated_games());
    if (r.participant() == low || r.participant() == high) {
      EXPECT_TRUE(r.anchor()) << r.participant();
      EXPECT_DOUBLE_EQ(r.bt_rating(), std::stod(r.participant().substr(10)));
    }
    if (r.participant() == kModel) model = &r;
  }
  ASSERT_NE(model, nullptr);
  EXPECT_EQ(model->games(), 4 * GamesPerSeating());
  EXPECT_LE(model->bt_low95(), kTrueElo);
  EXPECT_GE(model->bt_high95(), kTrueElo);
  EXPECT_LT(model->bt_high95() - model->bt_low95(), kHighAnchor - kLowAnchor)
      << "the interval is not informative";

  // Known behaviour: every move the model made was Stockfish's, answered first time.
  v1::ModelStatsRequest msr;
  msr.set_model_id("mock-stockfish-1500");
  msr.set_engine_game("chess");
  v1::ModelStatsResponse stats;
  ASSERT_TRUE(CallAs(*stub, &Stub::GetModelStats, admin, msr, &stats).ok());
  ASSERT_EQ(stats.models_size(), 1);
  std::printf("model: %lld moves in %lld games, %.0f ms a move\n",
              static_cast<long long>(stats.models(0).moves()),
              static_cast<long long>(stats.models(0).games()),
              stats.models(0).latency_ms_per_move());
  EXPECT_EQ(stats.models(0).illegal_per_1000_moves(), 0);
  EXPECT_EQ(stats.models(0).unparsable_per_1000_moves(), 0);
  EXPECT_EQ(stats.models(0).forfeits(), 0);
}

}  // namespace
}  // namespace arena::testing
