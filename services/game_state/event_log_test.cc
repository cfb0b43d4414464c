// The event log's contract, held against both implementations: PgEventLog on a real
// PostgreSQL database (the cluster scripts/test starts) and MemoryEventLog, which the core's
// unit tests stand on. A behaviour the memory log has and PostgreSQL lacks (or the reverse)
// fails here.
#include "services/game_state/event_log.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "services/common/migrate.h"
#include "services/common/pg_pool.h"
#include "services/game_state/memory_event_log.h"
#include "services/game_state/pg_event_log.h"
#include "tests/support/test_database.h"

namespace arena::migrations {
const std::vector<common::Migration>& GameMigrations();
}  // namespace arena::migrations

namespace arena::game_state {
namespace {

using namespace std::string_literals;

// One implementation, with whatever it stands on.
struct LogUnderTest {
  std::unique_ptr<testing::TestDatabase> db;
  std::unique_ptr<common::PgPool> pool;
  std::unique_ptr<GroupCommitLog> log;
};

LogUnderTest MakeLog(const std::string& kind) {
  LogUnderTest t;
  if (kind == "memory") {
    t.log = std::make_unique<MemoryEventLog>();
    return t;
  }
  t.db = std::make_unique<testing::TestDatabase>();
  if (!t.db->ok()) return t;
  auto migrated = common::ApplyMigrations(t.db->url(), "game", migrations::GameMigrations());
  EXPECT_TRUE(migrated.ok()) << migrated.status();
  auto pool = common::PgPool::Create(t.db->url());
  EXPECT_TRUE(pool.ok()) << pool.status();
  if (!pool.ok()) return t;
  t.pool = *std::move(pool);
  t.log = std::make_unique<PgEventLog>(t.pool.get());
  return t;
}

StoredGame Game(const std::string& id, const std::string& key = "") {
  StoredGame g;
  g.game_id = id;
  g.game_kind = "hex-tictactoe";
  g.variant = "";
  g.settings_json = R"({"level":"TABLE_LEVEL_BEGINNER"})";
  g.status = "waiting";
  g.secret_seed = "\x01\x00\xff seed"s;  // bytes, NUL included
  g.seed_commitment = "commitment";
  g.host_hash = "\x00\x10host"s;
  g.is_public = false;
  g.protected_game = true;
  if (!key.empty()) {
    g.idempotency_scope = "arena";
    g.idempotency_key = key;
  }
  return g;
}

StoredEvent Event(const std::string& game, int64_t seq, nlohmann::json payload = {}, int seat = -1,
                  int64_t action_number = -1) {
  StoredEvent e;
  e.game_id = game;
  e.seq = seq;
  e.at = absl::FromUnixMicros(1'700'000'000'000'000 + seq);
  e.type = "action";
  e.seat = seat;
  e.action = seat >= 0 ? "a1" : "";
  e.payload = payload.is_null() ? nlohmann::json::object() : std::move(payload);
  e.action_number = action_number;
  return e;
}

WriteItem NewGameItem(const StoredGame& g) {
  WriteItem item;
  item.game_id = g.game_id;
  item.changes.push_back(InsertGameRow{g});
  return item;
}

// Enqueues items (together: one batch) and waits for every callback; returns their statuses
// in the order the callbacks ran, which must be the queue order.
std::vector<absl::Status> Commit(GroupCommitLog& log, std::vector<WriteItem> items) {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<absl::Status> statuses(items.size(), absl::UnknownError("no callback"));
  std::vector<size_t> order;
  for (size_t i = 0; i < items.size(); ++i) {
    items[i].done = [&, i](absl::Status s) {
      std::lock_guard<std::mutex> lock(mu);
      statuses[i] = std::move(s);
      order.push_back(i);
      cv.notify_all();
    };
  }
  const size_t n = items.size();
  log.EnqueueAll(std::move(items));
  std::unique_lock<std::mutex> lock(mu);
  EXPECT_TRUE(cv.wait_for(lock, std::chrono::seconds(30), [&] { return order.size() == n; }));
  for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], i) << "callbacks out of order";
  return statuses;
}

class EventLogContract : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    t_ = MakeLog(GetParam());
    ASSERT_NE(t_.log, nullptr);
  }
  GroupCommitLog& log() { return *t_.log; }

 private:
  LogUnderTest t_;
};

TEST_P(EventLogContract, WhatIsCommittedLoadsBackFieldForField) {
  StoredGame g = Game("g1", "key-1");
  WriteItem create = NewGameItem(g);
  StoredSeat seat{0,           "SEAT_KIND_BOT", R"({"kind":"SEAT_KIND_BOT","botLevel":2})",
                  "\x00hash"s, "seed-0",        true};
  create.changes.push_back(UpsertSeatRow{"g1", seat});
  create.changes.push_back(
      UpsertSeatRow{"g1", StoredSeat{1, "SEAT_KIND_GUEST", "{}", "", "", false}});
  create.events.push_back(Event("g1", 0, {{"leader", 1}}));
  WriteItem move;
  move.game_id = "g1";
  move.events.push_back(Event("g1", 1, {{"kind", 1}, {"clocks", {1000, 2000}}}, 1, 0));
  for (const absl::Status& s : Commit(log(), {std::move(create), std::move(move)}))
    ASSERT_TRUE(s.ok()) << s;

  auto loaded = log().LoadGame("g1");
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->game_kind, g.game_kind);
  EXPECT_EQ(loaded->variant, g.variant);
  EXPECT_EQ(nlohmann::json::parse(loaded->settings_json), nlohmann::json::parse(g.settings_json));
  EXPECT_EQ(loaded->status, "waiting");
  EXPECT_EQ(loaded->secret_seed, g.secret_seed);
  EXPECT_EQ(loaded->seed_commitment, g.seed_commitment);
  EXPECT_EQ(loaded->host_hash, g.host_hash);
  EXPECT_EQ(loaded->is_public, false);
  EXPECT_EQ(loaded->protected_game, true);
  ASSERT_EQ(loaded->seats.size(), 2u);
  EXPECT_EQ(loaded->seats[0].credential_hash, seat.credential_hash);
  EXPECT_EQ(loaded->seats[0].seat_seed, "seed-0");
  EXPECT_TRUE(loaded->seats[0].filled);
  EXPECT_EQ(nlohmann::json::parse(loaded->seats[0].spec_json),
            nlohmann::json::parse(seat.spec_json));
  EXPECT_EQ(loaded->seats[1].credential_hash, "");
  EXPECT_FALSE(loaded->seats[1].filled);
  ASSERT_EQ(loaded->events.size(), 2u);
  EXPECT_EQ(loaded->events[0].seat, -1);
  EXPECT_EQ(loaded->events[0].action_number, -1);
  EXPECT_EQ(loaded->events[0].payload, nlohmann::json({{"leader", 1}}));
  EXPECT_EQ(loaded->events[1].seat, 1);
  EXPECT_EQ(loaded->events[1].action, "a1");
  EXPECT_EQ(loaded->events[1].action_number, 0);
  EXPECT_EQ(loaded->events[1].at, absl::FromUnixMicros(1'700'000'000'000'001));
  EXPECT_EQ(loaded->events[1].payload["clocks"], nlohmann::json({1000, 2000}));
}

TEST_P(EventLogContract, StatusSettingsAndDeletionAreWhatTheReadsSee) {
  for (const char* id : {"old", "mid", "new"}) {
    ASSERT_TRUE(Commit(log(), {NewGameItem(Game(id))})[0].ok());
  }
  auto unfinished = log().UnfinishedGameIds();
  ASSERT_TRUE(unfinished.ok());
  EXPECT_EQ(*unfinished, (std::vector<std::string>{"old", "mid", "new"}));  // oldest first

  WriteItem changes;
  changes.game_id = "mid";
  changes.changes.push_back(SetStatusRow{"mid", "active", false});
  changes.changes.push_back(SetSettingsRow{"mid", "players=3", R"({"moveCap":60})"});
  WriteItem finish;
  finish.game_id = "old";
  finish.changes.push_back(SetStatusRow{"old", "finished", true});
  WriteItem remove;
  remove.game_id = "new";
  remove.changes.push_back(DeleteGameRows{"new"});
  for (const absl::Status& s :
       Commit(log(), {std::move(changes), std::move(finish), std::move(remove)}))
    ASSERT_TRUE(s.ok()) << s;

  unfinished = log().UnfinishedGameIds();
  ASSERT_TRUE(unfinished.ok());
  EXPECT_EQ(*unfinished, std::vector<std::string>{"mid"});
  auto mid = log().LoadGame("mid");
  ASSERT_TRUE(mid.ok());
  EXPECT_EQ(mid->status, "active");
  EXPECT_EQ(mid->variant, "players=3");
  EXPECT_EQ(nlohmann::json::parse(mid->settings_json)["moveCap"], 60);
  EXPECT_EQ(log().LoadGame("new").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(log().LoadGame("never").status().code(), absl::StatusCode::kNotFound);
}

TEST_P(EventLogContract, AnIdempotencyKeyIsUsedOncePerScopeEvenAfterDeletion) {
  ASSERT_TRUE(Commit(log(), {NewGameItem(Game("first", "k"))})[0].ok());
  WriteItem remove;
  remove.game_id = "first";
  remove.changes.push_back(DeleteGameRows{"first"});
  ASSERT_TRUE(Commit(log(), {std::move(remove)})[0].ok());
  EXPECT_EQ(*log().GameOfIdempotencyKey("arena", "k"), "first");
  EXPECT_EQ(*log().GameOfIdempotencyKey("other", "k"), "");
  EXPECT_EQ(*log().GameOfIdempotencyKey("arena", ""), "");  // keyless games are not found by ""

  EXPECT_FALSE(Commit(log(), {NewGameItem(Game("second", "k"))})[0].ok());
  StoredGame other_scope = Game("third", "k");
  other_scope.idempotency_scope = "arena-bot";
  EXPECT_TRUE(Commit(log(), {NewGameItem(other_scope)})[0].ok());
  EXPECT_FALSE(Commit(log(), {NewGameItem(Game("third"))})[0].ok());  // the id is taken
  EXPECT_EQ(log().LoadGame("second").status().code(), absl::StatusCode::kNotFound);
}

TEST_P(EventLogContract, OneBadRowNeverFailsTheOthersInItsBatch) {
  // One batch: games A, B, C; a good event of A, a bad one of B (a NUL, which PostgreSQL's
  // jsonb refuses), a later event of B, a good event of C, an event of a game that does not
  // exist, a second event 1 of C.
  std::vector<WriteItem> items;
  for (const char* id : {"A", "B", "C"}) items.push_back(NewGameItem(Game(id)));
  auto event_item = [](const std::string& id, int64_t seq, nlohmann::json payload) {
    WriteItem item;
    item.game_id = id;
    item.events.push_back(Event(id, seq, std::move(payload)));
    return item;
  };
  items.push_back(event_item("A", 1, {{"annotation", "fine"}}));
  items.push_back(event_item("B", 1, {{"annotation", "\0"s}}));
  items.push_back(event_item("B", 2, {{"annotation", "after"}}));
  items.push_back(event_item("C", 1, {{"annotation", "fine too"}}));
  items.push_back(event_item("nowhere", 1, {}));
  items.push_back(event_item("C", 1, {{"annotation", "again"}}));
  const int64_t batches_before = log().batches();
  std::vector<absl::Status> s = Commit(log(), std::move(items));
  EXPECT_TRUE(s[0].ok() && s[1].ok() && s[2].ok() && s[3].ok());
  EXPECT_FALSE(s[4].ok());
  EXPECT_FALSE(s[5].ok());  // B's log has no gap: its later write fails too
  EXPECT_TRUE(s[6].ok()) << s[6];
  EXPECT_FALSE(s[7].ok());                         // no such game
  EXPECT_FALSE(s[8].ok());                         // C's sequence number 1 is taken
  EXPECT_EQ(log().batches() - batches_before, 1);  // the nine went as one batch

  EXPECT_EQ(log().LoadGame("A")->events.size(), 1u);
  EXPECT_EQ(log().LoadGame("B")->events.size(), 0u);
  auto c = log().LoadGame("C");
  ASSERT_EQ(c->events.size(), 1u);
  EXPECT_EQ(c->events[0].payload["annotation"], "fine too");
}

TEST_P(EventLogContract, ABatchIsAllOrNothing) {
  // One item whose second change fails leaves nothing of its first.
  WriteItem item = NewGameItem(Game("half"));
  item.changes.push_back(
      UpsertSeatRow{"no-such-game", StoredSeat{0, "SEAT_KIND_GUEST", "{}", "", "", false}});
  EXPECT_FALSE(Commit(log(), {std::move(item)})[0].ok());
  EXPECT_EQ(log().LoadGame("half").status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(Commit(log(), {NewGameItem(Game("half"))})[0].ok());  // the id was never taken
}

TEST_P(EventLogContract, StopCommitsWhatIsQueuedAndRunsEveryCallback) {
  std::atomic<int> ok{0};
  std::vector<WriteItem> items;
  items.push_back(NewGameItem(Game("s")));
  for (int i = 0; i < 50; ++i) {
    WriteItem e;
    e.game_id = "s";
    e.events.push_back(Event("s", i, {{"i", i}}));
    items.push_back(std::move(e));
  }
  for (WriteItem& item : items) item.done = [&ok](absl::Status s) { ok += s.ok() ? 1 : 0; };
  log().EnqueueAll(std::move(items));
  log().Stop();
  EXPECT_EQ(ok.load(), 51);
  EXPECT_EQ(log().LoadGame("s")->events.size(), 50u);
  EXPECT_EQ(log().items(), 51);
}

INSTANTIATE_TEST_SUITE_P(Logs, EventLogContract, ::testing::Values("memory", "postgresql"),
                         [](const auto& info) { return info.param; });

// --- What only the memory log offers: failures on demand, for the core's tests ---------------

TEST(MemoryEventLogTest, InjectedFailuresFailOnlyTheChosenGamesItems) {
  MemoryEventLog log;
  log.FailItemsWhere([](const WriteItem& item) { return GameOfItem(item) == "bad"; });
  std::vector<absl::Status> s =
      Commit(log, {NewGameItem(Game("good")), NewGameItem(Game("bad")), NewGameItem(Game("ok"))});
  EXPECT_TRUE(s[0].ok());
  EXPECT_EQ(s[1].code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(s[2].ok());
  log.FailItemsWhere(nullptr);
  EXPECT_TRUE(Commit(log, {NewGameItem(Game("bad"))})[0].ok());
}

}  // namespace
}  // namespace arena::game_state
