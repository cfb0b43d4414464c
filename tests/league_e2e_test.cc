// End to end: a twelve-game league of bots and mock models on the real services and
// PostgreSQL, every service killed (SIGKILL) and restarted once while it runs, then the books,
// the logs, the standings and the ratings checked against what the games recorded.
#include <signal.h>

#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "common/proto_words.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "pqxx/pqxx"
#include "services/arena/ratings/glicko2.h"
#include "tests/support/arena_client.h"
#include "tests/support/deployment.h"
#include "tests/support/server_process.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace arena::testing {
namespace {

using Stub = v1::ArenaService::Stub;
using ::testing::HasSubstr;

std::vector<int> RanksOf(const v1::Outcome& o, int seats) {
  std::vector<int> ranks(o.ranks().begin(), o.ranks().end());
  if (static_cast<int>(ranks.size()) != seats) ranks.assign(seats, 0);
  return ranks;
}

TEST(LeagueE2eTest, TwelveGameLeagueSurvivesARestartOfEveryService) {
  Deployment d;
  ASSERT_TRUE(d.ok());
  auto stub = d.Arena();
  const std::string admin = AdminToken(*stub);
  FundPool(*stub, admin, "e2e league funding");

  v1::CreateLeagueRequest create;
  create.set_name("e2e swiss");
  *create.mutable_settings() = TwoPlayerDarts();
  for (auto p :
       {LeagueBot(1), LeagueBot(2), LeagueModel("mock-competent"),
        LeagueModel("mock-illegal-then-legal"), LeagueModel("mock-garbage"),
        LeagueModel("mock-truncated"), LeagueModel("mock-429-then-ok"), LeagueModel("mock-500")}) {
    *create.add_participants() = p;
  }
  create.set_format("swiss");
  create.set_swiss_rounds(3);  // 8 participants, 4 games a round: 12 games
  create.set_concurrency(3);
  create.set_max_reschedules(1);
  create.set_seed(7);
  create.mutable_policy()->set_turn_cost_cap_microcredits(50'000);
  create.mutable_policy()->set_provider_retries(1);
  v1::League league;
  grpc::Status s = CallAs(*stub, &Stub::CreateLeague, As{admin}, create, &league);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(league.state(), "created");
  EXPECT_EQ(league.games_total(), 4);  // Swiss rounds are paired as they come

  // Levels belong to the game: three seats have levels 1..4 (bots/core/levels.h), two have 1..8.
  v1::CreateLeagueRequest three = create;
  three.set_name("e2e three seats");
  (*three.mutable_settings()->mutable_variant()->mutable_options())["players"] = "3";
  three.clear_participants();
  for (int level : {2, 3, 5}) *three.add_participants() = LeagueBot(level);
  v1::League refused;
  grpc::Status no = CallAs(*stub, &Stub::CreateLeague, As{admin}, three, &refused);
  EXPECT_EQ(no.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << no.error_message();
  EXPECT_NE(no.error_message().find("1..4"), std::string::npos) << no.error_message();
  v1::LeagueRef ref;
  ref.set_league_id(league.league_id());
  ASSERT_TRUE(CallAs(*stub, &Stub::StartLeague, As{admin}, ref, &league).ok());

  // Follow the league; kill and restart one service at each milestone.
  const std::vector<std::pair<int, std::string>> restarts = {
      {1, "game-state"}, {3, "arena"}, {5, "gateway"}, {7, "bot"}};
  size_t next_restart = 0;
  v1::StandingsResponse standings;
  absl::Time deadline = absl::Now() + absl::Minutes(15);
  while (absl::Now() < deadline) {
    grpc::Status st = CallAs(*stub, &Stub::GetStandings, As{}, ref, &standings);
    if (st.ok()) {
      const v1::League& l = standings.league();
      int done = l.games_finished() + l.games_voided() + l.games_abandoned();
      if (next_restart < restarts.size() && done >= restarts[next_restart].first) {
        d.KillAndRestart(restarts[next_restart].second);
        ASSERT_TRUE(d.server(restarts[next_restart].second).ok());
        if (restarts[next_restart].second == "arena") stub = d.Arena();
        next_restart++;
      }
      if (l.state() == "finished") break;
    }
    absl::SleepFor(absl::Milliseconds(200));
  }
  ASSERT_EQ(standings.league().state(), "finished") << "league did not finish; logs:\n"
                                                    << d.AllLogs().substr(0, 20000);
  EXPECT_EQ(next_restart, restarts.size()) << "not every service was restarted";

  pqxx::connection conn(d.db().url());
  pqxx::work txn(conn);

  // Every game finished, or was voided and replayed, or was abandoned after its replay.
  std::map<int, std::string> state_of;
  std::map<int, int> replay_of;
  std::vector<std::pair<int, std::string>> finished;  // slot, game id
  for (const auto& row : txn.exec_params(
           "SELECT slot, state, coalesce(replay_of, -1), coalesce(game_id, ''), attempt "
           "FROM arena.league_games WHERE league_id = $1 ORDER BY slot",
           std::stoll(league.league_id()))) {
    int slot = row[0].as<int>();
    std::string st = row[1].as<std::string>();
    state_of[slot] = st;
    if (row[2].as<int>() >= 0) replay_of[row[2].as<int>()] = slot;
    EXPECT_TRUE(st == "finished" || st == "voided" || st == "abandoned") << slot << " " << st;
    if (st == "abandoned") {
      EXPECT_EQ(row[4].as<int>(), 1) << "abandoned before its replay";
    }
    if (st == "finished") finished.push_back({slot, row[3].as<std::string>()});
  }
  int originals = 0;
  for (const auto& [slot, st] : state_of) {
    if (st == "voided") {
      EXPECT_TRUE(replay_of.count(slot)) << "voided slot " << slot << " not replayed";
    }
  }
  for (const auto& row : txn.exec_params(
           "SELECT count(*) FROM arena.league_games WHERE league_id = $1 AND replay_of IS NULL",
           std::stoll(league.league_id()))) {
    originals = row[0].as<int>();
  }
  EXPECT_EQ(originals, 12);
  EXPECT_GE(finished.size(), 6u);

  // No action applied twice: every game's action numbers run 0, 1, 2, ... once each.
  auto gs = d.GameState();
  std::map<std::string, std::vector<int>> ranks_of;
  int annotated = 0;
  for (const auto& row :
       txn.exec("SELECT game_id, coalesce(result_json, '{}') FROM arena.driven_tables")) {
    const std::string game_id = row[0].as<std::string>();
    v1::GameRecord record;
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(20));
    v1::GetRecordRequest req;
    req.set_game_id(game_id);
    ASSERT_TRUE(gs->GetRecord(&ctx, req, &record).ok()) << game_id;
    int64_t expected = 0;
    for (const v1::GameEvent& e : record.events()) {
      if (e.type() != "action") continue;
      EXPECT_EQ(e.action_number(), expected) << game_id << " seq " << e.sequence();
      expected = e.action_number() + 1;
      if (!e.annotation().empty()) annotated++;
    }
    ranks_of[game_id] = RanksOf(record.final_view().outcome(), 2);
    // A game stopped by the move cap is rated as arena adjudicated it (issue 19).
    nlohmann::json arena_result = nlohmann::json::parse(row[1].as<std::string>(), nullptr, false);
    if (arena_result.is_object() && arena_result.value("adjudicated", false)) {
      EXPECT_EQ(record.final_view().outcome().reason(), "move-cap") << game_id;
      ranks_of[game_id] = arena_result.value("ranks", std::vector<int>{});
    }
  }
  EXPECT_GT(annotated, 0) << "no model reasoning was published with a move";
  // No model turn was answered twice: one row per turn, and each submitted at most once.
  for (const auto& row :
       txn.exec("SELECT count(*) FROM (SELECT game_id, action_number FROM arena.ai_turns "
                "WHERE state = 'submitted' AND action_kind <> 0 GROUP BY 1, 2 "
                "HAVING count(*) > 1) dup")) {
    EXPECT_EQ(row[0].as<int>(), 0);
  }

  // The books balance, and every hold is settled or released.
  auto books = txn.exec("SELECT sum(balance), sum(held) FROM arena.ledger_accounts");
  EXPECT_EQ(books[0][0].as<int64_t>(), 0);
  EXPECT_EQ(books[0][1].as<int64_t>(), 0);
  EXPECT_EQ(txn.exec("SELECT count(*) FROM arena.holds WHERE state = 'open'")[0][0].as<int>(), 0);
  auto spent = txn.exec(
                      "SELECT coalesce(sum(t.amount), 0) FROM arena.transfers t "
                      "JOIN arena.ledger_accounts a ON a.ledger_account_id = t.credit_id "
                      "WHERE a.name = 'system:model_spend'")[0][0]
                   .as<int64_t>();
  auto recorded_cost =
      txn.exec("SELECT coalesce(sum(cost), 0) FROM arena.ai_turns")[0][0].as<int64_t>();
  EXPECT_EQ(spent, recorded_cost) << "model spend in the ledger differs from the turns' costs";

  // Standings match the recorded results.
  std::map<std::string, double> points;
  std::map<std::string, int> games;
  std::vector<std::vector<std::string>> rated_order;
  std::vector<std::vector<int>> rated_ranks;
  for (const auto& [slot, game_id] : finished) {
    auto row = txn.exec_params(
        "SELECT participants_json, ranks_json FROM arena.rated_results WHERE game_id = $1",
        game_id);
    ASSERT_EQ(row.size(), 1u) << "finished game " << game_id << " not rated once";
    auto names = nlohmann::json::parse(row[0][0].as<std::string>()).get<std::vector<std::string>>();
    auto ranks = nlohmann::json::parse(row[0][1].as<std::string>()).get<std::vector<int>>();
    EXPECT_EQ(ranks, ranks_of[game_id]) << "rated ranks differ from the game's outcome";
    for (size_t i = 0; i < names.size(); ++i) {
      games[names[i]]++;
      for (size_t j = 0; j < names.size(); ++j) {
        if (i == j) continue;
        points[names[i]] += ranks[i] < ranks[j] ? 1.0 : ranks[i] == ranks[j] ? 0.5 : 0.0;
      }
    }
  }
  EXPECT_EQ(txn.exec("SELECT count(*) FROM arena.rated_results")[0][0].as<size_t>(),
            finished.size());
  for (const v1::Standing& st : standings.standings()) {
    EXPECT_DOUBLE_EQ(st.points(), points[st.participant()]) << st.participant();
    EXPECT_EQ(st.games(), games[st.participant()]) << st.participant();
    EXPECT_EQ(st.wins() + st.draws() + st.losses(), st.games());
  }

  // Glicko-2 replayed from the rated results, game by game, equals what is stored.
  std::map<std::string, ratings::Glicko2Rating> replay;
  for (const auto& row : txn.exec("SELECT participants_json, ranks_json FROM arena.rated_results "
                                  "ORDER BY created_at, game_id")) {
    auto names = nlohmann::json::parse(row[0].as<std::string>()).get<std::vector<std::string>>();
    auto ranks = nlohmann::json::parse(row[1].as<std::string>()).get<std::vector<int>>();
    auto before = replay;
    auto pairwise = ratings::PairwiseResults(ranks);
    for (size_t i = 0; i < names.size(); ++i) {
      std::vector<ratings::Glicko2Result> results;
      for (const auto& ps : pairwise[i]) results.push_back({before[names[ps.opponent]], ps.score});
      replay[names[i]] = ratings::Glicko2Update(before[names[i]], results);
    }
  }
  v1::LeaderboardRequest lb_req;
  lb_req.set_engine_game("chestonia-chess");
  v1::LeaderboardResponse board;
  ASSERT_TRUE(CallAs(*stub, &Stub::GetLeaderboard, As{}, lb_req, &board).ok());
  EXPECT_FALSE(board.ratings().empty());
  for (const v1::Rating& r : board.ratings()) {
    ASSERT_TRUE(replay.count(r.participant())) << r.participant();
    if (r.anchor()) {
      // An anchor's rating is the anchor; the leaderboard shows no drifting Glicko-2 for it.
      EXPECT_EQ(r.glicko_rating(), 0) << r.participant();
      EXPECT_EQ(r.glicko_rd(), 0) << r.participant();
    } else {
      EXPECT_NEAR(r.glicko_rating(), replay[r.participant()].rating, 1e-6) << r.participant();
      EXPECT_NEAR(r.glicko_rd(), replay[r.participant()].deviation, 1e-6) << r.participant();
    }
    EXPECT_LE(r.bt_low95(), r.bt_rating());
    EXPECT_GE(r.bt_high95(), r.bt_rating());
    if (r.participant() == "bot:1") {
      EXPECT_TRUE(r.anchor());
      EXPECT_DOUBLE_EQ(r.bt_rating(), 950.0);
    }
  }

  // The models behaved as scripted, and the statistics say so.
  v1::ModelStatsResponse stats;
  ASSERT_TRUE(CallAs(*stub, &Stub::GetModelStats, As{}, v1::ModelStatsRequest(), &stats).ok());
  std::map<std::string, v1::ModelStats> by_model;
  for (const auto& m : stats.models()) by_model[m.model_id()] = m;
  EXPECT_GT(by_model["mock-illegal-then-legal"].illegal_per_1000_moves(), 0);
  EXPECT_GT(by_model["mock-garbage"].unparsable_per_1000_moves(), 0);
  EXPECT_GT(by_model["mock-garbage"].forfeits(), 0);
  EXPECT_GT(by_model["mock-competent"].tokens_per_move(), 0);
  EXPECT_GT(by_model["mock-competent"].cost_per_game_microcredits(), 0);
  EXPECT_EQ(by_model["mock-competent"].forfeits(), 0);
  // mock-500 never answers: none of its games can finish (each is voided, replayed, abandoned).
  auto voided = txn.exec_params(
      "SELECT count(*) FROM arena.league_games g JOIN arena.table_seats s ON s.game_id = g.game_id "
      "WHERE g.league_id = $1 AND s.participant = 'model:mock-500' AND g.state = 'finished'",
      std::stoll(league.league_id()));
  EXPECT_EQ(voided[0][0].as<int>(), 0);

  // A finished game exports every action and, for model seats, every attempt.
  ASSERT_FALSE(finished.empty());
  v1::ExportGameRequest ex;
  std::string model_game;
  for (const auto& [slot, game_id] : finished) {
    auto row = txn.exec_params("SELECT count(*) FROM arena.ai_turns WHERE game_id = $1", game_id);
    if (row[0][0].as<int>() > 0) model_game = game_id;
  }
  ASSERT_FALSE(model_game.empty());
  ex.set_game_id(model_game);
  v1::ExportGameResponse exported;
  ASSERT_TRUE(CallAs(*stub, &Stub::ExportGame, As{}, ex, &exported).ok());
  nlohmann::json j = nlohmann::json::parse(exported.json());
  EXPECT_FALSE(j["events"].empty());
  ASSERT_FALSE(j["model_turns"].empty());
  EXPECT_FALSE(j["model_turns"][0]["attempts"].empty());
  EXPECT_TRUE(j["model_turns"][0]["attempts"][0].contains("prompt"));
  txn.commit();

  // arena-bot judged the model moves (services/arena/move_judge.h): the judge works after the
  // move, so the last ones may still be on their way; every judgement written is coherent.
  int judged = 0;
  for (int tries = 0; tries < 100 && judged == 0; ++tries) {
    for (const auto& [slot, game_id] : finished) {
      v1::ExportGameRequest one;
      one.set_game_id(game_id);
      v1::ExportGameResponse out;
      ASSERT_TRUE(CallAs(*stub, &Stub::ExportGame, As{}, one, &out).ok());
      const nlohmann::json record = nlohmann::json::parse(out.json());
      for (const auto& t : record["model_turns"]) {
        if (!t.contains("evaluation")) continue;
        ++judged;
        const auto& e = t["evaluation"];
        EXPECT_EQ(t["outcome"], "ok");
        EXPECT_FALSE(e["best_move"].get<std::string>().empty());
        if (e["best_move"] == t["action"]) {
          EXPECT_TRUE(e["matched"].get<bool>()) << e.dump();
        }
        if (e.contains("loss_cp")) {  // two seats
          EXPECT_GE(e["loss_cp"].get<int>(), 0) << e.dump();
          if (e["matched"].get<bool>()) {
            EXPECT_EQ(e["loss_cp"].get<int>(), 0) << e.dump();
          }
          EXPECT_EQ(e["best_cp"].get<int>() - e["played_cp"].get<int>(), e["loss_cp"].get<int>());
        }
      }
    }
    if (judged == 0) absl::SleepFor(absl::Milliseconds(200));
  }
  EXPECT_GT(judged, 0) << "no model move was judged";

  // The platform key never left the gateway: not in any log, nor in the database.
  EXPECT_THAT(d.AllLogs(), ::testing::Not(HasSubstr(kPlatformKey)));
  EXPECT_THAT(exported.json(), ::testing::Not(HasSubstr(kPlatformKey)));
}

// A person (playing from clues) against a model paid by the person's own key; the gateway
// restarts mid-game, losing the key, and the seat waits for its owner to supply it again.
TEST(LeagueE2eTest, OwnKeySeatPausesAfterAGatewayRestartUntilTheKeyReturns) {
  Deployment d;
  ASSERT_TRUE(d.ok());
  auto stub = d.Arena();
  v1::SignUpRequest up;
  up.set_name("carol");
  up.set_password("carol-password-1");
  v1::SessionToken carol;
  ASSERT_TRUE(CallAs(*stub, &Stub::SignUp, As{}, up, &carol).ok());

  v1::ArenaCreateTableRequest create;
  *create.mutable_settings() = TwoPlayerDarts();
  create.mutable_settings()->set_clues(true);
  create.mutable_settings()->set_move_cap(12);
  create.mutable_settings()->mutable_clock()->set_per_move_ms(20000);
  v1::ArenaSeat* person = create.add_seats();
  person->mutable_spec()->set_kind(v1::SEAT_KIND_GUEST);
  v1::ArenaSeat* model = create.add_seats();
  model->mutable_spec()->set_kind(v1::SEAT_KIND_MODEL);
  model->mutable_spec()->set_model_id("mock-competent");
  model->mutable_spec()->set_funding(v1::FUNDING_OWN_KEY);
  model->set_own_api_key(kOwnKey);
  // A guest may not seat a model.
  v1::GuestTokenRequest gt;
  v1::SessionToken guest;
  ASSERT_TRUE(CallAs(*stub, &Stub::GuestToken, As{}, gt, &guest).ok());
  v1::ArenaCreateTableResponse table;
  EXPECT_EQ(CallAs(*stub, &Stub::CreateTable, As{guest.token()}, create, &table).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  grpc::Status s = CallAs(*stub, &Stub::CreateTable, As{carol.token()}, create, &table);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_THAT(table.DebugString(), ::testing::Not(HasSubstr(kOwnKey)));

  auto gs = d.GameState();
  std::string cred;
  {  // The guest sits down through arena (game-state joins seats for arena only).
    v1::ArenaJoinTableRequest join;
    join.set_game_id(table.game_id());
    join.set_seat(0);
    v1::ArenaJoinTableResponse joined;
    grpc::Status js = CallAs(*stub, &Stub::JoinTable, As{guest.token()}, join, &joined);
    ASSERT_TRUE(js.ok()) << js.error_message();
    cred = joined.seat_credential();
  }
  v1::ClueRequest wrong;
  wrong.set_game_id(table.game_id());
  wrong.set_seat(1);
  wrong.set_seat_credential(cred);
  v1::ClueResponse clue;
  EXPECT_EQ(CallAs(*stub, &Stub::GetClue, As{}, wrong, &clue).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);

  auto view_of = [&](v1::GameView* view) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(20));
    v1::GetGameRequest get;
    get.set_game_id(table.game_id());
    return gs->GetGame(&ctx, get, view);
  };
  bool restarted = false, paused_seen = false, supplied = false;
  auto model_moves = [&] {
    pqxx::connection c(d.db().url());
    pqxx::work t(c);
    return t
        .exec_params(
            "SELECT count(*) FROM arena.ai_turns WHERE game_id = $1 AND "
            "outcome = 'ok' AND state = 'submitted'",
            table.game_id())[0][0]
        .as<int>();
  };
  int moves_when_supplied = -1;
  int person_moves = 0;
  v1::GameView view;
  absl::Time deadline = absl::Now() + absl::Minutes(5);
  while (absl::Now() < deadline) {
    ASSERT_TRUE(view_of(&view).ok());
    if (view.status() != v1::GAME_STATUS_ACTIVE) break;
    if (view.to_move() == 0 && view.phase() != "chance") {
      v1::ClueRequest ask;
      ask.set_game_id(table.game_id());
      ask.set_seat(0);
      ask.set_seat_credential(cred);
      grpc::Status cs = CallAs(*stub, &Stub::GetClue, As{}, ask, &clue);
      if (!cs.ok()) {  // the position moved on meanwhile
        absl::SleepFor(absl::Milliseconds(50));
        continue;
      }
      grpc::ClientContext ctx;
      common::SetDeadline(ctx, absl::Seconds(20));
      ctx.AddMetadata("x-arena-seat-credential", cred);
      v1::SubmitActionRequest act;
      act.set_game_id(table.game_id());
      act.set_seat(0);
      act.set_kind(common::ActionKindOfText(clue.move().text()));
      act.mutable_move()->set_text(clue.move().text());
      act.set_expected_action_number(view.action_number());
      v1::SubmitActionResponse done;
      if (gs->SubmitAction(&ctx, act, &done).ok()) person_moves++;
      if (person_moves == 2 && !restarted) {
        d.KillAndRestart("gateway");
        ASSERT_TRUE(d.server("gateway").ok());
        restarted = true;
      }
      continue;
    }
    if (restarted && !supplied) {
      v1::TableRef ref;
      ref.set_game_id(table.game_id());
      v1::ArenaTable t;
      ASSERT_TRUE(CallAs(*stub, &Stub::GetTable, As{}, ref, &t).ok());
      ASSERT_EQ(t.ai_seats_size(), 1);
      if (t.ai_seats(0).seat_state() == v1::AI_SEAT_STATE_KEY_NEEDED) {
        EXPECT_EQ(t.ai_seats(0).state(), "key-needed");
        paused_seen = true;
        // Only the owner may supply it, and the seat stays paused until then.
        v1::SupplyKeyRequest sk;
        sk.set_game_id(table.game_id());
        sk.set_seat(1);
        sk.set_api_key(kOwnKey);
        v1::SupplyKeyResponse skr;
        EXPECT_EQ(CallAs(*stub, &Stub::SupplyKey, As{guest.token()}, sk, &skr).error_code(),
                  grpc::StatusCode::PERMISSION_DENIED);
        moves_when_supplied = model_moves();
        ASSERT_TRUE(CallAs(*stub, &Stub::SupplyKey, As{carol.token()}, sk, &skr).ok());
        supplied = true;
      }
    }
    absl::SleepFor(absl::Milliseconds(50));
  }
  EXPECT_TRUE(restarted);
  EXPECT_TRUE(paused_seen) << "the model seat never reported that its key was needed";
  EXPECT_TRUE(supplied);
  EXPECT_EQ(view.status(), v1::GAME_STATUS_FINISHED);
  // The model played after its key came back (the paused turn resumed, and later ones).
  EXPECT_GT(model_moves(), moves_when_supplied);
  pqxx::connection conn(d.db().url());
  pqxx::work txn(conn);
  // The key is nowhere arena or game-state could keep it.
  for (const auto& row :
       txn.exec("SELECT count(*) FROM arena.table_seats WHERE key_handle LIKE '%SECRET%'")) {
    EXPECT_EQ(row[0].as<int>(), 0);
  }
  txn.commit();
  const char* pg_bin = std::getenv("ARENA_TEST_PG_BIN");
  if (pg_bin != nullptr) {
    std::string dump = MakeTempDir("pgdump") + "/dump.sql";
    Subprocess p({std::string(pg_bin) + "/pg_dump", "--file=" + dump, d.db().url()});
    ASSERT_EQ(p.Wait(absl::Seconds(60)).value_or(-1), 0) << p.Stderr();
    std::ifstream in(dump);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_THAT(text, HasSubstr("ai_turns"));
    EXPECT_THAT(text, ::testing::Not(HasSubstr(kOwnKey)));
  }
  EXPECT_THAT(d.AllLogs(), ::testing::Not(HasSubstr(kOwnKey)));
}

// The two behaviours the league leaves out: a slow model plays within its clock, and a model
// whose provider account is out of credits forfeits turn after turn, then resigns.
TEST(LeagueE2eTest, SlowModelPlaysAndBrokeModelResigns) {
  Deployment d;
  ASSERT_TRUE(d.ok());
  auto stub = d.Arena();
  const std::string admin = AdminToken(*stub);
  FundPool(*stub, admin, "e2e league funding");
  v1::ArenaCreateTableRequest create;
  *create.mutable_settings() = TwoPlayerDarts();
  create.mutable_settings()->set_move_cap(40);
  for (const char* model : {"mock-slow", "mock-broke"}) {
    v1::ArenaSeat* seat = create.add_seats();
    seat->mutable_spec()->set_kind(v1::SEAT_KIND_MODEL);
    seat->mutable_spec()->set_model_id(model);
    seat->mutable_spec()->set_funding(v1::FUNDING_DONATED_CREDITS);
  }
  create.mutable_policy()->set_provider_retries(0);
  create.mutable_policy()->set_forfeits_before_resign(3);
  v1::ArenaCreateTableResponse table;
  grpc::Status s = CallAs(*stub, &Stub::CreateTable, As{admin}, create, &table);
  ASSERT_TRUE(s.ok()) << s.error_message();
  // A table may not void games: that is for leagues.
  v1::ArenaCreateTableRequest voiding = create;
  voiding.mutable_policy()->set_provider_fault("void");
  v1::ArenaCreateTableResponse refused;
  EXPECT_EQ(CallAs(*stub, &Stub::CreateTable, As{admin}, voiding, &refused).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);

  auto gs = d.GameState();
  v1::GameView view;
  absl::Time deadline = absl::Now() + absl::Minutes(3);
  while (absl::Now() < deadline) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(20));
    v1::GetGameRequest get;
    get.set_game_id(table.game_id());
    ASSERT_TRUE(gs->GetGame(&ctx, get, &view).ok());
    if (view.status() != v1::GAME_STATUS_ACTIVE) break;
    absl::SleepFor(absl::Milliseconds(100));
  }
  ASSERT_EQ(view.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(view.outcome().reason(), "resignation");
  ASSERT_EQ(view.outcome().winners_size(), 1);
  EXPECT_EQ(view.outcome().winners(0), 0);  // the slow model

  pqxx::connection conn(d.db().url());
  pqxx::work txn(conn);
  auto broke = txn.exec_params(
      "SELECT count(*) FILTER (WHERE outcome = 'provider'), count(*) FILTER (WHERE outcome = "
      "'absent'), coalesce(sum(cost), 0) FROM arena.ai_turns WHERE game_id = $1 AND seat = 1",
      table.game_id());
  EXPECT_EQ(broke[0][0].as<int>(), 3);
  EXPECT_EQ(broke[0][1].as<int>(), 1);
  EXPECT_EQ(broke[0][2].as<int64_t>(), 0) << "a refused call costs nothing";
  auto slow = txn.exec_params(
      "SELECT count(*), min(latency_ms) FROM arena.ai_turns WHERE game_id = $1 AND seat = 0 "
      "AND outcome = 'ok'",
      table.game_id());
  EXPECT_GT(slow[0][0].as<int>(), 0);
  EXPECT_GE(slow[0][1].as<int64_t>(), 200);  // the mock waits --slow_ms=200 per answer
  auto holds = txn.exec("SELECT count(*) FROM arena.holds WHERE state = 'open'");
  EXPECT_EQ(holds[0][0].as<int>(), 0);
  txn.commit();
}

// A game is one folder: the toy game (engine/toy/, one line in ARENA_GAMES, nothing else) is
// seated with a bot and a mock model by a league, played to the end through arena-bot (MCTS,
// as it has no player of its own) and the gateway (whose prompt comes from the facade), rated,
// and watched with `arenactl watch`, which draws its board from the board view.
TEST(LeagueE2eTest, ToyGameIsSeatedPlayedAndWatchedWithoutKnowingIt) {
  Deployment d;
  ASSERT_TRUE(d.ok());
  auto stub = d.Arena();
  const std::string admin = AdminToken(*stub);
  FundPool(*stub, admin, "e2e league funding");

  v1::CreateLeagueRequest create;
  create.set_name("e2e toy");
  create.mutable_settings()->set_engine_game("hex-tictactoe");
  create.mutable_settings()->set_level(v1::TABLE_LEVEL_BEGINNER);
  create.mutable_settings()->mutable_clock()->set_per_move_ms(8000);
  *create.add_participants() = LeagueBot(2);
  *create.add_participants() = LeagueModel("mock-competent");
  create.set_format("round-robin");
  create.set_games_per_pairing(2);
  create.set_seed(3);
  create.mutable_policy()->set_turn_cost_cap_microcredits(50'000);
  v1::League league;
  grpc::Status s = CallAs(*stub, &Stub::CreateLeague, As{admin}, create, &league);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::LeagueRef ref;
  ref.set_league_id(league.league_id());
  ASSERT_TRUE(CallAs(*stub, &Stub::StartLeague, As{admin}, ref, &league).ok());

  v1::StandingsResponse standings;
  absl::Time deadline = absl::Now() + absl::Minutes(5);
  while (absl::Now() < deadline) {
    grpc::Status st = CallAs(*stub, &Stub::GetStandings, As{}, ref, &standings);
    if (st.ok() && standings.league().state() == "finished") break;
    absl::SleepFor(absl::Milliseconds(200));
  }
  ASSERT_EQ(standings.league().state(), "finished") << d.AllLogs().substr(0, 20000);
  EXPECT_EQ(standings.league().games_finished(), 4);  // two games per pairing, both seatings

  pqxx::connection conn(d.db().url());
  pqxx::work txn(conn);
  std::vector<std::string> games;
  for (const auto& row : txn.exec_params(
           "SELECT game_id FROM arena.league_games WHERE league_id = $1 AND state = 'finished'",
           std::stoll(league.league_id()))) {
    games.push_back(row[0].as<std::string>());
  }
  ASSERT_EQ(games.size(), 4u);
  // The model's turns went through the gateway and were answered with legal moves.
  auto turns = txn.exec_params(
      "SELECT count(*) FILTER (WHERE outcome = 'ok'), count(*) FROM arena.ai_turns "
      "WHERE game_id = ANY($1::text[])",
      "{" + games[0] + "," + games[1] + "}");
  EXPECT_GT(turns[0][0].as<int>(), 0);
  EXPECT_EQ(turns[0][0].as<int>(), turns[0][1].as<int>());
  txn.commit();

  // The leaderboard rates the toy game like any other.
  v1::LeaderboardRequest lb_req;
  lb_req.set_engine_game("hex-tictactoe");
  v1::LeaderboardResponse lb;
  grpc::Status lbs = CallAs(*stub, &Stub::GetLeaderboard, As{}, lb_req, &lb);
  EXPECT_TRUE(lbs.ok()) << lbs.error_message();

  // `arenactl watch` draws the finished board with the game's own seat names, in plain text.
  const std::string out = MakeTempDir("toy-watch") + "/watch.txt";
  Subprocess watch({"/bin/sh", "-c",
                    std::string(ARENACTL_BIN) + " watch " + games[0] + " --once --coords " +
                        "--game_state_addr=" + d.Address("game-state") + " > " + out});
  ASSERT_EQ(watch.Wait(absl::Seconds(60)), 0) << watch.Stderr();
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("cross"));
  EXPECT_THAT(text, HasSubstr("nought"));
  EXPECT_THAT(text, HasSubstr("cX"));  // a cross stone on the board
  EXPECT_THAT(text, HasSubstr("(bot level 2)"));
  EXPECT_THAT(text, HasSubstr("(model mock-competent)"));
  EXPECT_THAT(text, HasSubstr("result: "));  // the result in words
  EXPECT_EQ(text.find('\033'), std::string::npos) << "terminal codes written to a file";

  // `arenactl demo` opens a table of bots through arena as a guest (no service secret) and
  // follows it to the end; arena plays it at the pace asked for.
  const std::string demo_out = MakeTempDir("toy-demo") + "/demo.txt";
  const absl::Time demo_start = absl::Now();
  Subprocess demo(
      {"/bin/sh", "-c",
       std::string(ARENACTL_BIN) + " demo --demo_game=hex-tictactoe" +
           " --demo_move_delay_ms=150 --demo_stall_ms=20000 --arena_addr=" + d.Address("arena") +
           " --game_state_addr=" + d.Address("game-state") + " > " + demo_out});
  ASSERT_EQ(demo.Wait(absl::Seconds(120)), 0) << demo.Stderr();
  const absl::Duration demo_took = absl::Now() - demo_start;
  std::ifstream demo_in(demo_out);
  std::vector<std::string> lines;
  for (std::string line; std::getline(demo_in, line);) lines.push_back(line);
  ASSERT_GE(lines.size(), 3u);
  EXPECT_THAT(lines[0], ::testing::StartsWith("demo game "));
  EXPECT_THAT(lines.back(), HasSubstr("finished (ended)"));
  int moves = 0;
  for (const std::string& line : lines) moves += line.find("  seat ") != std::string::npos;
  EXPECT_GE(moves, 5);  // hex tic-tac-toe needs at least five stones to end
  EXPECT_GE(demo_took, absl::Milliseconds(150) * moves) << "the bots did not keep the pace";
}

// A proto int64 as ProtoToJson stores it (a string), or 0 when absent.
int64_t JsonInt(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) return 0;
  if (j[key].is_string()) return std::stoll(j[key].get<std::string>());
  return j[key].get<int64_t>();
}

// Issue 18: models that answer in prose, send no usage, or report usage that cannot be right
// play a league; the catalogue refuses a misspelt model; every turn's charge is non-zero and
// the same in the ledger, the turn's attempts and the per-model statistics.
TEST(LeagueE2eTest, ModelTurnsAreReadAndBilledHonestly) {
  Deployment d;
  ASSERT_TRUE(d.ok());
  auto stub = d.Arena();
  const std::string admin = AdminToken(*stub);
  FundPool(*stub, admin, "e2e league funding");

  // The catalogue: the gateway's models with prices and context sizes, through arena and
  // arenactl.
  v1::ArenaListModelsResponse listed;
  ASSERT_TRUE(CallAs(*stub, &Stub::ListModels, As{}, v1::ArenaListModelsRequest(), &listed).ok());
  std::map<std::string, v1::ModelInfo> catalogue;
  for (const auto& m : listed.models()) catalogue[m.id()] = m;
  ASSERT_TRUE(catalogue.count("mock-prose"));
  EXPECT_DOUBLE_EQ(catalogue["mock-prose"].input_usd_per_token(), 1e-6);
  EXPECT_DOUBLE_EQ(catalogue["mock-prose"].output_usd_per_token(), 2e-6);
  EXPECT_EQ(catalogue["mock-prose"].context_length(), 128000);
  EXPECT_FALSE(listed.stale());
  {
    Subprocess ctl({ARENACTL_BIN, "models", "--arena_addr=" + d.Address("arena")});
    ASSERT_EQ(ctl.Wait(absl::Seconds(60)).value_or(-1), 0) << ctl.Stderr();
    EXPECT_THAT(ctl.Stderr(), HasSubstr("mock-no-usage"));
    EXPECT_THAT(ctl.Stderr(), HasSubstr("128000"));
  }

  v1::CreateLeagueRequest create;
  create.set_name("e2e honest turns");
  *create.mutable_settings() = TwoPlayerDarts();
  create.mutable_settings()->set_move_cap(16);
  for (auto p : {LeagueModel("mock-prose"), LeagueModel("mock-no-usage"),
                 LeagueModel("mock-underreports"), LeagueBot(1)}) {
    *create.add_participants() = p;
  }
  create.set_concurrency(3);
  create.mutable_policy()->set_turn_cost_cap_microcredits(50'000);

  // A misspelt model id is refused with the nearest known ids, and nothing is made.
  v1::CreateLeagueRequest typo = create;
  typo.mutable_participants(0)->mutable_spec()->set_model_id("mock-prsoe");
  v1::League refused;
  grpc::Status no = CallAs(*stub, &Stub::CreateLeague, As{admin}, typo, &refused);
  EXPECT_EQ(no.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << no.error_message();
  EXPECT_THAT(no.error_message(), HasSubstr("'mock-prsoe'"));
  EXPECT_THAT(no.error_message(), HasSubstr("mock-prose"));
  v1::ArenaCreateTableRequest table;
  *table.mutable_settings() = TwoPlayerDarts();
  for (const char* model : {"mock-competent", "mock-competnt"}) {
    v1::ArenaSeat* seat = table.add_seats();
    seat->mutable_spec()->set_kind(v1::SEAT_KIND_MODEL);
    seat->mutable_spec()->set_model_id(model);
    seat->mutable_spec()->set_funding(v1::FUNDING_DONATED_CREDITS);
  }
  v1::ArenaCreateTableResponse made;
  no = CallAs(*stub, &Stub::CreateTable, As{admin}, table, &made);
  EXPECT_EQ(no.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << no.error_message();
  EXPECT_THAT(no.error_message(), HasSubstr("'mock-competnt'; the nearest known: mock-competent"));
  {
    pqxx::connection conn(d.db().url());
    pqxx::work txn(conn);
    EXPECT_EQ(txn.exec("SELECT count(*) FROM arena.driven_tables")[0][0].as<int>(), 0);
    EXPECT_EQ(txn.exec("SELECT count(*) FROM arena.leagues")[0][0].as<int>(), 0);
  }

  v1::League league;
  grpc::Status s = CallAs(*stub, &Stub::CreateLeague, As{admin}, create, &league);
  ASSERT_TRUE(s.ok()) << s.error_message();
  v1::LeagueRef ref;
  ref.set_league_id(league.league_id());
  ASSERT_TRUE(CallAs(*stub, &Stub::StartLeague, As{admin}, ref, &league).ok());
  v1::StandingsResponse standings;
  absl::Time deadline = absl::Now() + absl::Minutes(8);
  while (absl::Now() < deadline) {
    if (CallAs(*stub, &Stub::GetStandings, As{}, ref, &standings).ok() &&
        standings.league().state() == "finished") {
      break;
    }
    absl::SleepFor(absl::Milliseconds(200));
  }
  ASSERT_EQ(standings.league().state(), "finished") << d.AllLogs().substr(0, 20000);
  EXPECT_EQ(standings.league().games_finished(), 12);  // 6 pairs, both seating orders

  pqxx::connection conn(d.db().url());
  pqxx::work txn(conn);
  std::map<std::string, int64_t> cost_of, turns_of;
  int estimated = 0, disputed = 0;
  for (const auto& row :
       txn.exec("SELECT t.game_id, t.turn_seq, t.participant, t.outcome, t.cost, t.illegal, "
                "t.unparsable, t.attempts_json, "
                "(SELECT coalesce(sum(h.posted_amount), 0) FROM arena.ledger_requests q "
                " JOIN arena.holds h ON h.hold_id = q.result_id "
                " WHERE q.request_key LIKE 'turn:' || t.game_id || ':' || t.turn_seq || ':%') "
                "FROM arena.ai_turns t")) {
    const std::string where = row[0].as<std::string>() + " seq " + row[1].as<std::string>();
    const std::string participant = row[2].as<std::string>();
    const int64_t cost = row[4].as<int64_t>();
    SCOPED_TRACE(participant + " " + where);
    // Every reply was read: no illegal or unparsable turn, nothing forfeited.
    EXPECT_EQ(row[3].as<std::string>(), "ok");
    EXPECT_EQ(row[5].as<int>(), 0);
    EXPECT_EQ(row[6].as<int>(), 0);
    // Every turn's charge is non-zero and the ledger's, and its attempts add up to it.
    EXPECT_GT(cost, 0);
    EXPECT_EQ(row[8].as<int64_t>(), cost) << "ledger differs from the turn's charge";
    nlohmann::json attempts = nlohmann::json::parse(row[7].as<std::string>());
    int64_t sum = 0;
    for (const auto& a : attempts) {
      sum += JsonInt(a, "cost_microcredits");
      EXPECT_EQ(a.value("label", ""), "ok");
      bool est = a.value("usage_estimated", false), dis = a.value("usage_disputed", false);
      estimated += est;
      disputed += dis;
      if (participant == "model:mock-no-usage") {
        EXPECT_TRUE(est);
        EXPECT_EQ(JsonInt(a, "cost_microcredits"), JsonInt(a, "worst_case_microcredits"));
      } else if (participant == "model:mock-underreports") {
        EXPECT_TRUE(dis);
        EXPECT_EQ(JsonInt(a, "cost_microcredits"), JsonInt(a, "worst_case_microcredits"));
      } else {
        EXPECT_FALSE(est || dis);
      }
    }
    EXPECT_EQ(sum, cost);
    cost_of[participant] += cost;
    turns_of[participant]++;
  }
  for (const char* m : {"model:mock-prose", "model:mock-no-usage", "model:mock-underreports"}) {
    EXPECT_GT(turns_of[m], 0) << m;
  }
  EXPECT_GT(estimated, 0);
  EXPECT_GT(disputed, 0);

  // The books: model spend in the ledger is the turns' charges; nothing is held.
  auto spent = txn.exec(
                      "SELECT coalesce(sum(t.amount), 0) FROM arena.transfers t "
                      "JOIN arena.ledger_accounts a ON a.ledger_account_id = t.credit_id "
                      "WHERE a.name = 'system:model_spend'")[0][0]
                   .as<int64_t>();
  int64_t all = 0;
  for (const auto& [m, c] : cost_of) all += c;
  EXPECT_EQ(spent, all);
  EXPECT_EQ(
      txn.exec("SELECT coalesce(sum(held), 0) FROM arena.ledger_accounts")[0][0].as<int64_t>(), 0);
  txn.commit();

  // The per-model statistics say the same.
  v1::ModelStatsResponse stats;
  ASSERT_TRUE(CallAs(*stub, &Stub::GetModelStats, As{}, v1::ModelStatsRequest(), &stats).ok());
  for (const auto& m : stats.models()) {
    const std::string participant = "model:" + m.model_id();
    SCOPED_TRACE(participant);
    EXPECT_EQ(m.moves(), turns_of[participant]);
    EXPECT_NEAR(m.cost_per_game_microcredits() * m.games(), cost_of[participant], 1e-6);
    EXPECT_EQ(m.illegal_per_1000_moves(), 0);
    EXPECT_EQ(m.unparsable_per_1000_moves(), 0);
    EXPECT_EQ(m.forfeits(), 0);
  }
}

}  // namespace
}  // namespace arena::testing
