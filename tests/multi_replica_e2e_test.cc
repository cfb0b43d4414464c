// End to end with replicas (issue 27 item 4): two arena-game-state and two arena processes on
// one PostgreSQL run a league of bots and mock models. Once both game-state replicas own live
// games and both arena replicas drive tables, one game-state replica and the *other* arena
// replica are killed (SIGKILL) and not restarted. The survivors must take over: game-state
// adopts the dead replica's games from their logs, arena claims the dead replica's tables and
// resumes their turns from the ai_turns rows. Then every game has finished, no action or charge
// was doubled or lost, and the books balance.
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "tests/support/arena_client.h"
#include "tests/support/deployment.h"

namespace arena::testing {
namespace {

using Stub = v1::ArenaService::Stub;

// Active games per owner: arena replica (driven_tables.driver) or game-state replica
// (game.game_leases.owner).
std::map<std::string, int> ActiveBy(pqxx::connection& c, const std::string& query) {
  pqxx::work w(c);
  std::map<std::string, int> out;
  for (const auto& row : w.exec(query)) out[row[0].as<std::string>()] = row[1].as<int>();
  return out;
}

constexpr char kDrivenBy[] =
    "SELECT coalesce(driver, ''), count(*) FROM arena.driven_tables WHERE state = 'active' "
    "GROUP BY 1";
constexpr char kOwnedBy[] =
    "SELECT l.owner, count(*) FROM game.game_leases l JOIN game.games g USING (game_id) "
    "WHERE g.status = 'active' GROUP BY 1";

TEST(MultiReplicaE2eTest, ALeagueFinishesAfterLosingOneGameStateAndTheOtherArena) {
  Deployment d({}, {}, /*replicas=*/2);
  ASSERT_TRUE(d.ok());
  auto stub = d.Arena("arena");
  const std::string admin = AdminToken(*stub);
  FundPool(*stub, admin, "replicas e2e funding");

  v1::CreateLeagueRequest create;
  create.set_name("replicas");
  *create.mutable_settings() = TwoPlayerDarts();
  for (auto p : {LeagueBot(1), LeagueBot(2), LeagueBot(3), LeagueModel("mock-competent"),
                 LeagueModel("mock-illegal-then-legal"), LeagueModel("mock-429-then-ok")}) {
    *create.add_participants() = p;
  }
  create.set_format("round-robin");
  create.set_games_per_pairing(1);  // 6 participants, 15 pairs in both seating orders: 30 games
  create.set_concurrency(6);
  create.set_max_reschedules(1);
  create.mutable_policy()->set_turn_cost_cap_microcredits(50'000);
  create.mutable_policy()->set_provider_retries(1);
  v1::League league;
  grpc::Status s = CallAs(*stub, &Stub::CreateLeague, As{admin}, create, &league);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::LeagueRef ref;
  ref.set_league_id(league.league_id());
  ASSERT_TRUE(CallAs(*stub, &Stub::StartLeague, As{admin}, ref, &league).ok());

  // Both arena replicas drive tables and both game-state replicas own games: the league's
  // launches are shared (each replica launches the slots it finds unlocked first, and drives
  // what it launched up to its fair share; the other claims the rest).
  pqxx::connection db(d.db().url());
  std::map<std::string, int> driven, owned;
  const absl::Time shared_by = absl::Now() + absl::Seconds(90);
  while (absl::Now() < shared_by) {
    driven = ActiveBy(db, kDrivenBy);
    owned = ActiveBy(db, kOwnedBy);
    if (driven["arena"] >= 2 && driven["arena-2"] >= 2 && owned["gs-game-state"] >= 2 &&
        owned["gs-game-state-2"] >= 2) {
      break;
    }
    absl::SleepFor(absl::Milliseconds(50));
  }
  ASSERT_GE(driven["arena-2"], 2) << "arena-2 never drove two tables at once";
  ASSERT_GE(driven["arena"], 2) << "arena never drove two tables at once";
  ASSERT_GE(owned["gs-game-state"], 2) << "game-state never owned two live games";
  ASSERT_GE(owned["gs-game-state-2"], 2) << "game-state-2 never owned two live games";

  // What the dead replicas held when they died.
  std::set<std::string> orphaned_tables, orphaned_games;
  {
    pqxx::work w(db);
    d.Kill("game-state");
    d.Kill("arena-2");
    for (const auto& row :
         w.exec("SELECT game_id FROM arena.driven_tables WHERE state = 'active' AND driver = "
                "'arena-2'")) {
      orphaned_tables.insert(row[0].as<std::string>());
    }
    for (const auto& row :
         w.exec("SELECT l.game_id FROM game.game_leases l JOIN game.games g USING (game_id) "
                "WHERE g.status = 'active' AND l.owner = 'gs-game-state'")) {
      orphaned_games.insert(row[0].as<std::string>());
    }
  }

  // (Read after the kills: a table or game that ended in between is no orphan.)
  EXPECT_FALSE(orphaned_tables.empty()) << "arena-2 drove nothing when it died";
  EXPECT_FALSE(orphaned_games.empty()) << "game-state served nothing when it died";
  std::printf("killed mid-league: arena-2 with %zu tables, game-state with %zu live games\n",
              orphaned_tables.size(), orphaned_games.size());

  // The survivors finish the league.
  v1::StandingsResponse standings;
  const absl::Time deadline = absl::Now() + absl::Minutes(8);
  while (absl::Now() < deadline) {
    grpc::Status st = CallAs(*stub, &Stub::GetStandings, As{}, ref, &standings);
    if (st.ok() && standings.league().state() == "finished") break;
    absl::SleepFor(absl::Milliseconds(200));
  }
  ASSERT_EQ(standings.league().state(), "finished") << "league did not finish; logs:\n"
                                                    << d.AllLogs().substr(0, 20000);

  pqxx::work w(db);
  // Every slot ended; the ones still 'voided' were replayed.
  for (const auto& row : w.exec_params(
           "SELECT slot, state FROM arena.league_games WHERE league_id = $1 ORDER BY slot",
           std::stoll(league.league_id()))) {
    const std::string st = row[1].as<std::string>();
    EXPECT_TRUE(st == "finished" || st == "voided" || st == "abandoned")
        << "slot " << row[0].as<int>() << " " << st;
  }
  EXPECT_EQ(w.exec_params("SELECT count(*) FROM arena.league_games WHERE league_id = $1 AND "
                          "replay_of IS NULL",
                          std::stoll(league.league_id()))[0][0]
                .as<int>(),
            30);
  EXPECT_EQ(
      w.exec("SELECT count(*) FROM arena.driven_tables WHERE state = 'active'")[0][0].as<int>(), 0);

  // The dead arena's tables were driven to their end by the other, under a new epoch.
  for (const std::string& game : orphaned_tables) {
    auto row = w.exec_params(
        "SELECT coalesce(driver, ''), driver_epoch, state FROM arena.driven_tables "
        "WHERE game_id = $1",
        game);
    ASSERT_EQ(row.size(), 1u);
    EXPECT_EQ(row[0][0].as<std::string>(), "arena") << game;
    EXPECT_GE(row[0][1].as<int64_t>(), 2) << game;
    EXPECT_NE(row[0][2].as<std::string>(), "active") << game;
  }
  // The dead game-state replica's live games were adopted by the other.
  for (const std::string& game : orphaned_games) {
    auto row = w.exec_params(
        "SELECT l.owner, l.epoch, g.status FROM game.game_leases l JOIN game.games g "
        "USING (game_id) WHERE game_id = $1",
        game);
    ASSERT_EQ(row.size(), 1u);
    EXPECT_EQ(row[0][0].as<std::string>(), "gs-game-state-2") << game;
    EXPECT_GE(row[0][1].as<int64_t>(), 2) << game;
    EXPECT_NE(row[0][2].as<std::string>(), "active") << game;
  }

  // No action applied twice: each game's log numbers its actions 0, 1, 2, ... once each, read
  // from the surviving replica.
  auto gs = d.GameState("game-state-2");
  int games = 0;
  for (const auto& row : w.exec("SELECT game_id FROM arena.driven_tables")) {
    const std::string game_id = row[0].as<std::string>();
    v1::GameRecord record;
    grpc::ClientContext ctx;
    AttachServiceCredential(ctx, "arena");
    common::SetDeadline(ctx, absl::Seconds(20));
    v1::GetRecordRequest req;
    req.set_game_id(game_id);
    grpc::Status got = gs->GetRecord(&ctx, req, &record);
    ASSERT_TRUE(got.ok()) << game_id << ": " << got.error_message();
    int64_t expected = 0;
    for (const v1::GameEvent& e : record.events()) {
      if (e.type() != "action") continue;
      EXPECT_EQ(e.action_number(), expected) << game_id << " seq " << e.sequence();
      expected = e.action_number() + 1;
    }
    ++games;
  }
  EXPECT_GE(games, 30);
  // No model turn recorded twice, nor submitted twice.
  EXPECT_EQ(w.exec("SELECT count(*) FROM (SELECT game_id, action_number FROM arena.ai_turns "
                   "WHERE state = 'submitted' AND action_kind <> 0 GROUP BY 1, 2 "
                   "HAVING count(*) > 1) dup")[0][0]
                .as<int>(),
            0);

  // No charge doubled or lost: the books balance, every hold is settled or released, and the
  // ledger's model spend is exactly what the turns recorded.
  auto books = w.exec("SELECT sum(balance), sum(held) FROM arena.ledger_accounts");
  EXPECT_EQ(books[0][0].as<int64_t>(), 0);
  EXPECT_EQ(books[0][1].as<int64_t>(), 0);
  EXPECT_EQ(w.exec("SELECT count(*) FROM arena.holds WHERE state = 'open'")[0][0].as<int>(), 0);
  const int64_t spent = w.exec(
                             "SELECT coalesce(sum(t.amount), 0) FROM arena.transfers t "
                             "JOIN arena.ledger_accounts a ON a.ledger_account_id = t.credit_id "
                             "WHERE a.name = 'system:model_spend'")[0][0]
                            .as<int64_t>();
  const int64_t recorded =
      w.exec("SELECT coalesce(sum(cost), 0) FROM arena.ai_turns")[0][0].as<int64_t>();
  EXPECT_GT(recorded, 0) << "no model turn was paid";
  EXPECT_EQ(spent, recorded) << "model spend in the ledger differs from the turns' costs";
  // Each result rated once.
  EXPECT_EQ(w.exec("SELECT count(*) FROM (SELECT game_id FROM arena.rated_results GROUP BY 1 "
                   "HAVING count(*) > 1) dup")[0][0]
                .as<int>(),
            0);
  EXPECT_EQ(w.exec_params("SELECT count(*) FROM arena.league_games WHERE league_id = $1 "
                          "AND state = 'finished'",
                          std::stoll(league.league_id()))[0][0]
                .as<int>(),
            w.exec("SELECT count(*) FROM arena.rated_results")[0][0].as<int>());
}

}  // namespace
}  // namespace arena::testing
