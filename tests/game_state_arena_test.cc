// What arena's seat drivers need from arena-game-state (issue 9), against the real binary on a
// real PostgreSQL: forfeiting a bot's or model's turn, voiding league games, creating tables
// exactly once by idempotency key, and learning which seat a credential holds.
#include <signal.h>

#include <thread>

#include "engine/core/game.h"
#include "services/chance/fair_rng.h"
#include "tests/game_state_support.h"
#include "tools/arenactl/verify.h"

namespace arena::testing {
namespace {

const Creds kArena{"", "", "arena"};
const Creds kOtherService{"", "", "arena-bot"};

bool Has(const char* game) {
  return engine::FindGame(game) != nullptr;
}

void KillAndRestart(GameStateHarness& h) {
  h.server().process().Signal(SIGKILL);
  h.server().process().Wait(absl::Seconds(10));
  h.Start();
}

// Three-seat Chestonia chess without darts, created by arena: seat 0 a bot, seat 1 a model,
// seat 2 a bot or (with_guest) a guest joined here. With every seat filled at creation, seat 0
// leads by fixed_leader and the turn goes 0, 1, 2; a guest's join draws the leader.
struct AiTable {
  std::string id;
  std::string host;
  std::vector<std::string> seats;  // seat credentials
};

AiTable NewAiChestonia(GameStateHarness& h, int move_cap = 0, bool with_guest = false) {
  v1::CreateTableRequest req;
  req.mutable_settings()->set_engine_game("chestonia-chess");
  req.mutable_settings()->set_is_public(true);
  (*req.mutable_settings()->mutable_variant()->mutable_options())["players"] = "3";
  (*req.mutable_settings()->mutable_variant()->mutable_options())["darts"] = "off";
  req.mutable_settings()->set_move_cap(move_cap);
  req.add_seats()->set_kind(v1::SEAT_KIND_BOT);
  req.mutable_seats(0)->set_bot_level(2);
  req.add_seats()->set_kind(v1::SEAT_KIND_MODEL);
  req.mutable_seats(1)->set_model_id("route-llm");
  if (with_guest) {
    req.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
  } else {
    req.add_seats()->set_kind(v1::SEAT_KIND_BOT);
    req.mutable_seats(2)->set_bot_level(1);
    req.set_fixed_leader(0);
  }
  v1::CreateTableResponse resp;
  grpc::Status s = h.Create(req, &resp, kArena);
  EXPECT_TRUE(s.ok()) << s.error_message();
  AiTable t{resp.game_id(),
            resp.host_credential(),
            {resp.seat_credentials().begin(), resp.seat_credentials().end()}};
  t.seats.resize(3);
  if (with_guest) {
    s = h.Join(t.id, 2, &t.seats[2]);
    EXPECT_TRUE(s.ok()) << s.error_message();
  }
  return t;
}

// The piece placement of a Chestonia position text (the rest names the turn, counters, ...).
std::string Pieces(const std::string& position) {
  size_t from = position.find(" pieces=");
  return from == std::string::npos ? ""
                                   : position.substr(from, position.find(' ', from + 1) - from);
}

int64_t CountEvents(GameStateHarness& h, const std::string& id, const std::string& type) {
  return h.CountRows("SELECT count(*) FROM game.events WHERE game_id = '" + id + "' AND type = '" +
                     type + "'");
}

// --- Forfeit -----------------------------------------------------------------------------------

TEST(GameStateArenaTest, ForfeitPassesTheTurnOfAnAiSeatOnlyForArena) {
  if (!Has("chestonia-chess")) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  // A move cap of 1: forfeits are turns, not moves, so two of them must not end the game.
  AiTable t = NewAiChestonia(h, /*move_cap=*/1);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  ASSERT_EQ(v.status(), v1::GAME_STATUS_ACTIVE);
  ASSERT_EQ(v.to_move(), 0);
  const std::string pieces = Pieces(v.position());
  ASSERT_FALSE(pieces.empty()) << v.position();

  // Refusals change nothing.
  EXPECT_EQ(h.Submit(t.id, 0, v1::ACTION_KIND_FORFEIT_TURN, "", 0, {}).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(h.Submit(t.id, 0, v1::ACTION_KIND_FORFEIT_TURN, "", 0, kOtherService).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // A bot seat has no credential of its own: only arena acts for it.
  EXPECT_TRUE(t.seats[0].empty());
  EXPECT_TRUE(t.seats[2].empty());
  grpc::Status s = h.Submit(t.id, 1, v1::ACTION_KIND_FORFEIT_TURN, "", 0, kArena);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(s.error_message().find("not your turn"), std::string::npos) << s.error_message();
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.action_number(), 0);
  EXPECT_EQ(v.to_move(), 0);

  // arena forfeits the bot's turn: the model is next and the action number is consumed.
  v1::SubmitActionResponse first, again;
  ASSERT_TRUE(h.Submit(t.id, 0, v1::ACTION_KIND_FORFEIT_TURN, "", 0, kArena, &first).ok());
  EXPECT_FALSE(first.duplicate());
  EXPECT_EQ(first.action_number(), 0);
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.to_move(), 1);
  EXPECT_EQ(v.action_number(), 1);

  // A retry with the same number is the original, applied once.
  ASSERT_TRUE(h.Submit(t.id, 0, v1::ACTION_KIND_FORFEIT_TURN, "", 0, kArena, &again).ok());
  EXPECT_TRUE(again.duplicate());
  EXPECT_EQ(again.event_sequence(), first.event_sequence());
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.to_move(), 1);
  EXPECT_EQ(v.action_number(), 1);
  // Another action with that number is refused.
  EXPECT_EQ(h.Submit(t.id, 1, v1::ACTION_KIND_FORFEIT_TURN, "", 0, kArena).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);

  // The model forfeits too: two forfeits are turns, not moves, so the cap of 1 has not ended it.
  ASSERT_TRUE(h.Submit(t.id, 1, v1::ACTION_KIND_FORFEIT_TURN, "", 1, kArena).ok());
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_ACTIVE);
  EXPECT_EQ(v.to_move(), 2);
  EXPECT_EQ(v.action_number(), 2);
  EXPECT_EQ(Pieces(v.position()), pieces);  // nobody moved a piece

  // Logged as numbered "forfeit" actions.
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.events WHERE game_id = '" + t.id +
                        "' AND type = 'action' AND action = 'forfeit' AND action_number IN (0, 1)"),
            2);
  EXPECT_EQ(CountEvents(h, t.id, "action"), 2);

  // The first real move reaches the cap.
  ASSERT_GT(v.legal_moves_size(), 0);
  const std::string m = v.legal_moves(0);
  ASSERT_TRUE(h.Submit(t.id, 2, GameStateHarness::KindOf(m), m, 2, kArena).ok());
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(v.outcome().reason(), "move-cap");
}

TEST(GameStateArenaTest, NobodyForfeitsAPersonsTurn) {
  if (!Has("chestonia-chess")) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  AiTable t = NewAiChestonia(h, 0, /*with_guest=*/true);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  ASSERT_EQ(v.status(), v1::GAME_STATUS_ACTIVE);
  // The leader was drawn: arena forfeits for the AI seats until the guest (seat 2) is to move.
  int64_t number = 0;
  while (v.to_move() != 2 && number < 3) {
    ASSERT_TRUE(
        h.Submit(t.id, v.to_move(), v1::ACTION_KIND_FORFEIT_TURN, "", number++, kArena).ok());
    ASSERT_TRUE(h.Get(t.id, &v).ok());
  }
  ASSERT_EQ(v.to_move(), 2);
  EXPECT_EQ(h.Submit(t.id, 2, v1::ACTION_KIND_FORFEIT_TURN, "", number, kArena).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(h.Submit(t.id, 2, v1::ACTION_KIND_FORFEIT_TURN, "", number, {t.seats[2]}).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(h.Submit(t.id, 2, v1::ACTION_KIND_FORFEIT_TURN, "", number, {}).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.to_move(), 2);
  EXPECT_EQ(v.action_number(), number);
  // The guest plays on.
  ASSERT_GT(v.legal_moves_size(), 0);
  const std::string m = v.legal_moves(0);
  EXPECT_TRUE(h.Submit(t.id, 2, GameStateHarness::KindOf(m), m, number, {t.seats[2]}).ok());
}

TEST(GameStateArenaTest, ForfeitSurvivesKillNineAndReplaysAsATimeout) {
  if (!Has("chestonia-chess")) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  AiTable t = NewAiChestonia(h);
  ASSERT_TRUE(h.Submit(t.id, 0, v1::ACTION_KIND_FORFEIT_TURN, "", 0, kArena).ok());
  v1::GameView before;
  ASSERT_TRUE(h.Get(t.id, &before).ok());
  ASSERT_EQ(before.to_move(), 1);
  KillAndRestart(h);
  ASSERT_TRUE(h.ok());
  v1::GameView after;
  ASSERT_TRUE(h.Get(t.id, &after).ok());
  EXPECT_EQ(after.status(), v1::GAME_STATUS_ACTIVE);
  EXPECT_EQ(after.to_move(), 1);
  EXPECT_EQ(after.action_number(), 1);
  EXPECT_EQ(after.position(), before.position());
  EXPECT_EQ(after.phase(), before.phase());
  // The replayed number still guards the retry; play goes on from the replayed state.
  v1::SubmitActionResponse dup;
  ASSERT_TRUE(h.Submit(t.id, 0, v1::ACTION_KIND_FORFEIT_TURN, "", 0, kArena, &dup).ok());
  EXPECT_TRUE(dup.duplicate());
  ASSERT_TRUE(h.Submit(t.id, 1, v1::ACTION_KIND_FORFEIT_TURN, "", 1, kArena).ok());
  ASSERT_TRUE(h.Get(t.id, &after).ok());
  EXPECT_EQ(after.to_move(), 2);
  ASSERT_GT(after.legal_moves_size(), 0);
  const std::string m = after.legal_moves(0);
  EXPECT_TRUE(h.Submit(t.id, 2, GameStateHarness::KindOf(m), m, 2, kArena).ok());
}

TEST(GameStateArenaTest, ChessForfeitIsTheTimeoutRuleAndVerifies) {
  if (!Has("chess")) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  v1::CreateTableRequest req;
  req.mutable_settings()->set_engine_game("chess");
  req.mutable_settings()->set_is_public(true);
  for (int i = 0; i < 2; ++i) {
    req.add_seats()->set_kind(v1::SEAT_KIND_BOT);
    req.mutable_seats(i)->set_bot_level(1);
  }
  req.set_fixed_leader(0);
  v1::CreateTableResponse resp;
  ASSERT_TRUE(h.Create(req, &resp, kArena).ok());
  ASSERT_TRUE(h.Submit(resp.game_id(), 0, v1::ACTION_KIND_MOVE, "e2e4", 0, kArena).ok());
  // Black forfeits with white able to mate: white wins on time.
  ASSERT_TRUE(h.Submit(resp.game_id(), 1, v1::ACTION_KIND_FORFEIT_TURN, "", 1, kArena).ok());
  v1::GameView v;
  ASSERT_TRUE(h.Get(resp.game_id(), &v).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(v.outcome().reason(), "timeout");
  ASSERT_EQ(v.outcome().winners_size(), 1);
  EXPECT_EQ(v.outcome().winners(0), 0);
  v1::GameRecord rec;
  ASSERT_TRUE(h.Record(resp.game_id(), &rec).ok());
  auto report = arenactl::VerifyRecord(rec);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << report->problems.front();
  EXPECT_NE(rec.pgn().find("[Result \"1-0\"]"), std::string::npos) << rec.pgn();
}

// --- VoidGame ----------------------------------------------------------------------------------

grpc::Status Void(GameStateHarness& h, const std::string& id, const std::string& reason,
                  v1::GameView* out, const Creds& c) {
  grpc::ClientContext ctx;
  GameStateHarness::Attach(ctx, c);
  v1::VoidGameRequest req;
  req.set_game_id(id);
  req.set_reason(reason);
  return h.stub().VoidGame(&ctx, req, out);
}

v1::CreateTableResponse NewBotChess(GameStateHarness& h, const std::string& league,
                                    const v1::ClockSettings& clock = {}) {
  v1::CreateTableRequest req;
  req.mutable_settings()->set_engine_game("chess");
  req.mutable_settings()->set_league_id(league);
  req.mutable_settings()->set_is_public(true);
  *req.mutable_settings()->mutable_clock() = clock;
  for (int i = 0; i < 2; ++i) {
    req.add_seats()->set_kind(v1::SEAT_KIND_BOT);
    req.mutable_seats(i)->set_bot_level(1);
  }
  req.set_fixed_leader(0);
  v1::CreateTableResponse resp;
  grpc::Status s = h.Create(req, &resp, kArena);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp;
}

TEST(GameStateArenaTest, ArenaVoidsLeagueGamesDurably) {
  if (!Has("chess")) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  v1::ClockSettings clock;
  clock.set_initial_ms(1500);  // the flag would fall soon after the void if timers survived it
  auto game = NewBotChess(h, "league-7", clock);
  ASSERT_TRUE(h.Submit(game.game_id(), 0, v1::ACTION_KIND_MOVE, "e2e4", 0, kArena).ok());

  grpc::ClientContext wctx;
  common::SetDeadline(wctx, absl::Seconds(20));
  v1::WatchGameRequest wreq;
  wreq.set_game_id(game.game_id());
  auto reader = h.stub().WatchGame(&wctx, wreq);
  v1::GameEvent ev;
  ASSERT_TRUE(reader->Read(&ev));
  ASSERT_EQ(ev.type(), "snapshot");

  v1::GameView v;
  EXPECT_EQ(Void(h, game.game_id(), "x", &v, {}).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Void(h, game.game_id(), "x", &v, kOtherService).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Void(h, game.game_id(), "x", &v, {"", game.host_credential()}).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(game.seat_credentials(0).empty());  // an AI seat: only arena acts for it
  EXPECT_EQ(Void(h, game.game_id(), std::string(201, 'r'), &v, kArena).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Void(h, "no-such-game", "x", &v, kArena).error_code(), grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(h.Get(game.game_id(), &v).ok());
  ASSERT_EQ(v.status(), v1::GAME_STATUS_ACTIVE);

  ASSERT_TRUE(Void(h, game.game_id(), "provider keeps failing", &v, kArena).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_VOIDED);
  EXPECT_EQ(v.outcome().status(), v1::GAME_STATUS_VOIDED);
  EXPECT_EQ(v.outcome().reason(), "provider keeps failing");
  EXPECT_EQ(v.outcome().result_text(), "voided");
  EXPECT_EQ(v.outcome().winners_size(), 0);
  EXPECT_EQ(v.turn_deadline_unix_ms(), 0);
  std::string seed;
  ASSERT_TRUE(game_state::FromHex(v.revealed_seed(), &seed)) << v.revealed_seed();
  EXPECT_EQ(game_state::FairDraw::Commitment(seed), v.seed_commitment());

  // Watchers get the event, then the stream ends.
  bool voided = false;
  while (reader->Read(&ev)) {
    if (ev.type() != "voided") continue;
    voided = true;
    auto p = nlohmann::json::parse(ev.detail_json());
    EXPECT_EQ(p.value("reason", ""), "provider keeps failing");
    EXPECT_EQ(p.value("revealed_seed", ""), v.revealed_seed());
  }
  EXPECT_TRUE(voided);
  EXPECT_TRUE(reader->Finish().ok());

  // A repeat returns the view; nothing moves afterwards, the clock does not fall.
  v1::GameView repeat;
  ASSERT_TRUE(Void(h, game.game_id(), "again", &repeat, kArena).ok());
  EXPECT_EQ(repeat.status(), v1::GAME_STATUS_VOIDED);
  EXPECT_EQ(repeat.outcome().reason(), "provider keeps failing");
  EXPECT_EQ(h.Submit(game.game_id(), 1, v1::ACTION_KIND_MOVE, "e7e5", 1, kArena).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  absl::SleepFor(absl::Milliseconds(2000));
  ASSERT_TRUE(h.Get(game.game_id(), &v).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_VOIDED);
  EXPECT_EQ(CountEvents(h, game.game_id(), "timeout"), 0);
  EXPECT_EQ(CountEvents(h, game.game_id(), "ended"), 0);
  EXPECT_EQ(CountEvents(h, game.game_id(), "voided"), 1);
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.games WHERE status = 'voided' AND game_id = '" +
                        game.game_id() + "'"),
            1);

  // The default reason.
  auto other = NewBotChess(h, "league-7");
  ASSERT_TRUE(Void(h, other.game_id(), "", &v, kArena).ok());
  EXPECT_EQ(v.outcome().reason(), "voided");

  // After a kill -9 the game is still voided (not recovered as unfinished), seed shown.
  KillAndRestart(h);
  ASSERT_TRUE(h.ok());
  v1::ListGamesResponse list;
  {
    grpc::ClientContext lctx;
    common::SetDeadline(lctx, absl::Seconds(5));
    ASSERT_TRUE(h.stub().ListGames(&lctx, v1::ListGamesRequest(), &list).ok());
  }
  for (const auto& g : list.games()) EXPECT_NE(g.game_id(), game.game_id());
  ASSERT_TRUE(h.Get(game.game_id(), &v).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_VOIDED);
  EXPECT_EQ(v.outcome().status(), v1::GAME_STATUS_VOIDED);
  EXPECT_EQ(v.outcome().reason(), "provider keeps failing");
  EXPECT_EQ(v.revealed_seed(), repeat.revealed_seed());
  EXPECT_FALSE(v.revealed_seed().empty());
  EXPECT_EQ(v.turn_deadline_unix_ms(), 0);
  EXPECT_EQ(h.Submit(game.game_id(), 1, v1::ACTION_KIND_MOVE, "e7e5", 1, kArena).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
}

TEST(GameStateArenaTest, VoidIsRefusedForNonLeagueAndFinishedGames) {
  if (!Has("chess")) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  v1::GameView v;
  auto casual = NewBotChess(h, "");
  EXPECT_EQ(Void(h, casual.game_id(), "x", &v, kArena).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  auto finished = NewBotChess(h, "league-8");
  ASSERT_TRUE(h.Submit(finished.game_id(), 0, v1::ACTION_KIND_RESIGN, "", 0, kArena).ok());
  EXPECT_EQ(Void(h, finished.game_id(), "x", &v, kArena).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  ASSERT_TRUE(h.Get(finished.game_id(), &v).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_FINISHED);
  ASSERT_TRUE(h.Get(casual.game_id(), &v).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_ACTIVE);
  // A waiting league game (a person's seat still open) can be voided.
  v1::CreateTableRequest req;
  req.mutable_settings()->set_engine_game("chess");
  req.mutable_settings()->set_league_id("league-8");
  req.add_seats()->set_kind(v1::SEAT_KIND_HUMAN);
  req.add_seats()->set_kind(v1::SEAT_KIND_HUMAN);
  v1::CreateTableResponse waiting;
  ASSERT_TRUE(h.Create(req, &waiting, kArena).ok());
  ASSERT_TRUE(Void(h, waiting.game_id(), "no show", &v, kArena).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_VOIDED);
  EXPECT_EQ(v.phase(), "finished");
  EXPECT_FALSE(v.revealed_seed().empty());
  std::string cred;
  EXPECT_EQ(h.Join(waiting.game_id(), 0, &cred).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
}

// --- Idempotent CreateTable ----------------------------------------------------------------------

v1::CreateTableRequest KeyedChess(const std::string& key) {
  v1::CreateTableRequest req;
  req.mutable_settings()->set_engine_game("chess");
  req.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
  req.add_seats()->set_kind(v1::SEAT_KIND_BOT);
  req.mutable_seats(1)->set_bot_level(1);
  req.set_idempotency_key(key);
  return req;
}

TEST(GameStateArenaTest, CreateTableWithAKeyCreatesOncePerCaller) {
  if (!Has("chess")) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  v1::CreateTableResponse first, repeat, other;
  ASSERT_TRUE(h.Create(KeyedChess("league-7/round-1/board-1"), &first, kArena).ok());
  EXPECT_FALSE(first.host_credential().empty());
  ASSERT_EQ(first.seat_credentials_size(), 2);
  EXPECT_TRUE(first.seat_credentials(1).empty());  // a bot seat: only arena acts for it
  ASSERT_TRUE(h.Create(KeyedChess("league-7/round-1/board-1"), &repeat, kArena).ok());
  EXPECT_EQ(repeat.game_id(), first.game_id());
  EXPECT_TRUE(repeat.host_credential().empty());
  EXPECT_EQ(repeat.seat_credentials_size(), 0);
  // Another service's key is its own.
  ASSERT_TRUE(h.Create(KeyedChess("league-7/round-1/board-1"), &other, kOtherService).ok());
  EXPECT_NE(other.game_id(), first.game_id());
  EXPECT_FALSE(other.host_credential().empty());
  // A different key is a different table.
  v1::CreateTableResponse second;
  ASSERT_TRUE(h.Create(KeyedChess("league-7/round-1/board-2"), &second, kArena).ok());
  EXPECT_NE(second.game_id(), first.game_id());
  // Anonymous callers have nothing to scope a key by; keys are bounded.
  v1::CreateTableResponse refused;
  EXPECT_EQ(h.Create(KeyedChess("k"), &refused, {}).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(h.Create(KeyedChess(std::string(201, 'k')), &refused, kArena).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(h.Create(KeyedChess(std::string(200, 'k')), &refused, kArena).ok());
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.games WHERE idempotency_key = "
                        "'league-7/round-1/board-1'"),
            2);

  // Concurrent repeats of one key: one table.
  constexpr int kThreads = 8;
  std::vector<v1::CreateTableResponse> out(kThreads);
  std::vector<grpc::Status> status(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back(
        [&, i] { status[i] = h.Create(KeyedChess("concurrent"), &out[i], kArena); });
  }
  for (auto& th : threads) th.join();
  int with_credentials = 0;
  for (int i = 0; i < kThreads; ++i) {
    ASSERT_TRUE(status[i].ok()) << status[i].error_message();
    EXPECT_EQ(out[i].game_id(), out[0].game_id());
    with_credentials += !out[i].host_credential().empty();
  }
  EXPECT_EQ(with_credentials, 1);
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.games WHERE idempotency_key = 'concurrent'"), 1);

  // The key is durable: after a kill -9 the repeat still finds the first table.
  KillAndRestart(h);
  ASSERT_TRUE(h.ok());
  ASSERT_TRUE(h.Create(KeyedChess("league-7/round-1/board-1"), &repeat, kArena).ok());
  EXPECT_EQ(repeat.game_id(), first.game_id());
  EXPECT_TRUE(repeat.host_credential().empty());
  // And the table itself is intact: the guest seat is still open to join.
  std::string cred;
  EXPECT_TRUE(h.Join(first.game_id(), 0, &cred).ok());
}

// --- viewer_seat -------------------------------------------------------------------------------

TEST(GameStateArenaTest, ViewerSeatNamesTheCredentialsSeat) {
  if (!Has("chess")) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  auto t = h.NewTable("chess", 2);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v, {t.seats[1]}).ok());
  ASSERT_TRUE(v.has_viewer_seat());
  EXPECT_EQ(v.viewer_seat(), 1);
  ASSERT_TRUE(h.Get(t.id, &v, {t.seats[0]}).ok());
  ASSERT_TRUE(v.has_viewer_seat());
  EXPECT_EQ(v.viewer_seat(), 0);
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_FALSE(v.has_viewer_seat());
  ASSERT_TRUE(h.Get(t.id, &v, {std::string(64, 'a')}).ok());
  EXPECT_FALSE(v.has_viewer_seat());
  ASSERT_TRUE(h.Get(t.id, &v, {t.host}).ok());  // a host credential is not a seat's
  EXPECT_FALSE(v.has_viewer_seat());
  ASSERT_TRUE(h.Get(t.id, &v, kArena).ok());
  EXPECT_FALSE(v.has_viewer_seat());
}

// --- PGN of a capped game ------------------------------------------------------------------------

TEST(GameStateArenaTest, MoveCapIsADrawInThePgn) {
  if (!Has("chess")) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  auto t = h.NewTable("chess", 2, {}, {}, /*move_cap=*/2);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  int w = v.leader(), b = 1 - w;
  ASSERT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}).ok());
  ASSERT_TRUE(h.Submit(t.id, b, v1::ACTION_KIND_MOVE, "e7e5", 1, {t.seats[b]}).ok());
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(v.outcome().reason(), "move-cap");
  EXPECT_EQ(v.outcome().result_text(), "1/2-1/2");
  v1::GameRecord rec;
  ASSERT_TRUE(h.Record(t.id, &rec).ok());
  EXPECT_NE(rec.pgn().find("[Result \"1/2-1/2\"]"), std::string::npos) << rec.pgn();
  EXPECT_NE(rec.pgn().find("e5 1/2-1/2"), std::string::npos) << rec.pgn();
  EXPECT_EQ(rec.pgn().find('*'), std::string::npos) << rec.pgn();
}

}  // namespace
}  // namespace arena::testing
