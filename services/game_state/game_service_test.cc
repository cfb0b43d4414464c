// Unit tests of game-state's core (GameStateCore) on the in-memory event log: tables, seats,
// submissions and what a refused one leaves, recovery by replay, a write that does not commit,
// and watchers. No gRPC and no database: the log's contract with PostgreSQL is held by
// event_log_test.cc, and the served binary is tested against PostgreSQL in tests/.
#include "services/game_state/game_service.h"

#include <future>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "clients/game_state_client.h"
#include "gtest/gtest.h"
#include "services/game_state/memory_event_log.h"

namespace arena::game_state {
namespace {

template <typename T>
absl::StatusOr<T> Wait(const std::function<void(Done<T>)>& call) {
  auto promise = std::make_shared<std::promise<absl::StatusOr<T>>>();
  auto future = promise->get_future();
  call([promise](absl::StatusOr<T> r) { promise->set_value(std::move(r)); });
  if (future.wait_for(std::chrono::seconds(30)) != std::future_status::ready)
    return absl::DeadlineExceededError("no answer from the core");
  return future.get();
}

CoreOptions Options() {
  CoreOptions o;
  o.keepalive = absl::Seconds(60);  // no pings in these tests
  return o;
}

// A core over a log; a second core over the same log is the server after a restart.
struct Server {
  explicit Server(MemoryEventLog* log)
      : core(std::make_unique<GameStateCore>(log, CredentialHasher(std::string(32, 'k')),
                                             Options())) {}
  std::unique_ptr<GameStateCore> core;
};

struct Table {
  std::string game_id;
  std::vector<std::string> seat_credentials;  // by table seat
};

v1::CreateTableRequest TableRequest(const std::string& game, const std::string& variant,
                                    int seats) {
  v1::CreateTableRequest req;
  req.mutable_settings()->set_engine_game(game);
  auto parsed = engine::Variant::Parse(variant);
  for (const auto& [k, v] : parsed->options())
    (*req.mutable_settings()->mutable_variant()->mutable_options())[k] = v;
  req.mutable_settings()->set_level(v1::TABLE_LEVEL_BEGINNER);  // views list legal actions
  req.mutable_settings()->set_is_public(true);
  for (int i = 0; i < seats; ++i) {
    auto* seat = req.add_seats();
    seat->set_kind(v1::SEAT_KIND_GUEST);
    seat->set_display_name("player " + std::to_string(i));
  }
  return req;
}

absl::StatusOr<Table> OpenTable(GameStateCore& core, const std::string& game,
                                const std::string& variant, int seats) {
  auto created = Wait<v1::CreateTableResponse>([&](Done<v1::CreateTableResponse> done) {
    core.CreateTable(Caller{}, TableRequest(game, variant, seats), std::move(done));
  });
  if (!created.ok()) return created.status();
  Table t{created->game_id(), {}};
  for (int i = 0; i < seats; ++i) {
    v1::JoinTableRequest join;
    join.set_game_id(t.game_id);
    join.set_seat(i);
    auto joined = Wait<v1::JoinTableResponse>([&](Done<v1::JoinTableResponse> done) {
      core.JoinTable(
          Caller{.arena = true, .other_service = {}, .seat_credential = {}, .host_credential = {}},
          join, std::move(done));
    });
    if (!joined.ok()) return joined.status();
    t.seat_credentials.push_back(joined->seat_credential());
  }
  return t;
}

v1::GameView View(GameStateCore& core, const std::string& game_id) {
  v1::GetGameRequest get;
  get.set_game_id(game_id);
  auto view = core.GetGame(Caller{}, get);
  EXPECT_TRUE(view.ok()) << view.status();
  return view.ok() ? *view : v1::GameView{};
}

absl::StatusOr<v1::SubmitActionResponse> Submit(GameStateCore& core, const Table& t, int seat,
                                                const std::string& text, int64_t expected,
                                                const std::string& credential) {
  return Wait<v1::SubmitActionResponse>([&](Done<v1::SubmitActionResponse> done) {
    Caller caller;
    caller.seat_credential = credential;
    core.SubmitAction(caller, clients::SeatAction(t.game_id, seat, text, expected),
                      std::move(done));
  });
}

// Plays random legal actions (the view's) until the game ends or `max` actions were taken.
void PlayRandomly(GameStateCore& core, const Table& t, int max, std::mt19937_64& rng) {
  for (int n = 0; n < max; ++n) {
    v1::GameView v = View(core, t.game_id);
    if (v.status() != v1::GAME_STATUS_ACTIVE) return;
    ASSERT_FALSE(v.legal_moves().empty());
    const std::string move = v.legal_moves(rng() % v.legal_moves_size());
    auto r = Submit(core, t, v.to_move(), move, v.action_number(), t.seat_credentials[v.to_move()]);
    ASSERT_TRUE(r.ok()) << r.status() << " (" << move << ")";
    EXPECT_EQ(r->action_number(), v.action_number());
  }
}

TEST(GameStateCoreTest, AWholeGameIsPlayedAndEveryActionIsInTheLogInOrder) {
  MemoryEventLog log;
  Server server(&log);
  auto t = OpenTable(*server.core, "hex-tictactoe", "", 2);
  ASSERT_TRUE(t.ok()) << t.status();
  std::mt19937_64 rng(7);
  PlayRandomly(*server.core, *t, 100, rng);
  v1::GameView end = View(*server.core, t->game_id);
  ASSERT_EQ(end.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_FALSE(end.revealed_seed().empty());  // the seed is revealed at the end

  std::vector<StoredEvent> events = log.EventsOf(t->game_id);
  ASSERT_FALSE(events.empty());
  int64_t actions = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].seq, static_cast<int64_t>(i));  // no gap, no repeat
    if (events[i].type == "action") {
      EXPECT_EQ(events[i].action_number, actions++);
    }
  }
  EXPECT_EQ(actions, end.action_number());
  EXPECT_EQ(log.LoadGame(t->game_id)->status, "finished");
  EXPECT_TRUE(log.UnfinishedGameIds()->empty());
}

TEST(GameStateCoreTest, ARefusedActionChangesNothing) {
  MemoryEventLog log;
  Server server(&log);
  auto t = OpenTable(*server.core, "hex-tictactoe", "", 2);
  ASSERT_TRUE(t.ok()) << t.status();
  std::mt19937_64 rng(3);
  PlayRandomly(*server.core, *t, 2, rng);
  const v1::GameView before = View(*server.core, t->game_id);
  const size_t logged = log.EventsOf(t->game_id).size();
  const int mover = before.to_move();
  const int other = 1 - mover;
  const std::string legal = before.legal_moves(0);
  const std::string& cred = t->seat_credentials[mover];
  struct Case {
    const char* what;
    absl::StatusOr<v1::SubmitActionResponse> result;
    absl::StatusCode want;
  };
  Case cases[] = {
      {"an illegal cell", Submit(*server.core, *t, mover, "9,9", before.action_number(), cred),
       absl::StatusCode::kInvalidArgument},
      // Well formed, but the position does not allow it.
      {"an occupied cell",
       Submit(*server.core, *t, mover, log.EventsOf(t->game_id).back().action,
              before.action_number(), cred),
       absl::StatusCode::kFailedPrecondition},
      {"out of turn",
       Submit(*server.core, *t, other, legal, before.action_number(), t->seat_credentials[other]),
       absl::StatusCode::kFailedPrecondition},
      {"another seat's credential",
       Submit(*server.core, *t, mover, legal, before.action_number(), t->seat_credentials[other]),
       absl::StatusCode::kPermissionDenied},
      {"no credential", Submit(*server.core, *t, mover, legal, before.action_number(), ""),
       absl::StatusCode::kUnauthenticated},
      {"a stale action number",
       Submit(*server.core, *t, mover, legal, before.action_number() - 1, cred),
       absl::StatusCode::kFailedPrecondition},
      {"a future action number",
       Submit(*server.core, *t, mover, legal, before.action_number() + 1, cred),
       absl::StatusCode::kFailedPrecondition},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.result.status().code(), c.want) << c.what << ": " << c.result.status();
  }
  const v1::GameView after = View(*server.core, t->game_id);
  EXPECT_EQ(after.action_number(), before.action_number());
  EXPECT_EQ(after.position(), before.position());
  EXPECT_EQ(after.to_move(), before.to_move());
  EXPECT_EQ(after.turn_deadline_unix_ms(), before.turn_deadline_unix_ms());
  EXPECT_EQ(log.EventsOf(t->game_id).size(), logged);
  // And the right submission still goes through.
  EXPECT_TRUE(Submit(*server.core, *t, mover, legal, before.action_number(), cred).ok());
}

TEST(GameStateCoreTest, ARestartedServerRebuildsEveryUnfinishedGameFromTheLog) {
  MemoryEventLog log;
  std::vector<Table> tables;
  std::vector<v1::GameView> views;
  {
    Server first(&log);
    std::mt19937_64 rng(11);
    // Three-seat Chestonia chess with darts: the log holds chance events to replay too.
    for (int i = 0; i < 3; ++i) {
      auto t = OpenTable(*first.core, "chestonia-chess", "players=3,darts=on", 3);
      ASSERT_TRUE(t.ok()) << t.status();
      PlayRandomly(*first.core, *t, 7 + 5 * i, rng);
      tables.push_back(*t);
      views.push_back(View(*first.core, t->game_id));
    }
    first.core->Shutdown();
  }
  Server second(&log);
  ASSERT_TRUE(second.core->Recover().ok());
  for (size_t i = 0; i < tables.size(); ++i) {
    v1::GameView v = View(*second.core, tables[i].game_id);
    EXPECT_EQ(v.status(), views[i].status());
    EXPECT_EQ(v.position(), views[i].position()) << "game " << i;
    EXPECT_EQ(v.action_number(), views[i].action_number());
    EXPECT_EQ(v.to_move(), views[i].to_move());
    EXPECT_EQ(v.phase(), views[i].phase());
    EXPECT_EQ(v.seed_commitment(), views[i].seed_commitment());
  }
  // The seats' credentials still hold after the restart: the games go on.
  std::mt19937_64 rng(12);
  PlayRandomly(*second.core, tables[0], 5, rng);
  EXPECT_EQ(View(*second.core, tables[0].game_id).action_number(), views[0].action_number() + 5);
}

TEST(GameStateCoreTest, AFixedLeaderHoldsWhenTheLastSeatIsJoinedLaterEvenAfterARestart) {
  MemoryEventLog log;
  std::vector<std::pair<std::string, int>> tables;  // game id, fixed leader
  {
    Server first(&log);
    for (int i = 0; i < 6; ++i) {
      v1::CreateTableRequest req = TableRequest("chestonia-chess", "players=3", 3);
      req.set_fixed_leader(i % 3);
      Caller arena;
      arena.arena = true;  // a fixed leader is arena's to ask for
      auto created = Wait<v1::CreateTableResponse>([&](Done<v1::CreateTableResponse> done) {
        first.core->CreateTable(arena, req, std::move(done));
      });
      ASSERT_TRUE(created.ok()) << created.status();
      for (int seat = 0; seat < 2; ++seat) {  // all but the last seat, before the restart
        v1::JoinTableRequest join;
        join.set_game_id(created->game_id());
        join.set_seat(seat);
        ASSERT_TRUE(Wait<v1::JoinTableResponse>([&](Done<v1::JoinTableResponse> done) {
                      first.core->JoinTable(Caller{.arena = true,
                                                   .other_service = {},
                                                   .seat_credential = {},
                                                   .host_credential = {}},
                                            join, std::move(done));
                    }).ok());
      }
      tables.emplace_back(created->game_id(), i % 3);
    }
    first.core->Shutdown();
  }
  Server second(&log);
  ASSERT_TRUE(second.core->Recover().ok());
  for (const auto& [id, fixed] : tables) {
    v1::JoinTableRequest join;
    join.set_game_id(id);
    join.set_seat(2);
    ASSERT_TRUE(Wait<v1::JoinTableResponse>([&](Done<v1::JoinTableResponse> done) {
                  second.core->JoinTable(Caller{.arena = true,
                                                .other_service = {},
                                                .seat_credential = {},
                                                .host_credential = {}},
                                         join, std::move(done));
                }).ok());
    const v1::GameView v = View(*second.core, id);
    EXPECT_EQ(v.status(), v1::GAME_STATUS_ACTIVE);
    EXPECT_EQ(v.leader(), fixed) << id;  // drawn, it would match all six one time in 729
  }
}

TEST(GameStateCoreTest, AWriteThatDoesNotCommitIsNotAcceptedAndTheGameReloads) {
  MemoryEventLog log;
  Server server(&log);
  auto t = OpenTable(*server.core, "hex-tictactoe", "", 2);
  ASSERT_TRUE(t.ok()) << t.status();
  auto other = OpenTable(*server.core, "hex-tictactoe", "", 2);
  ASSERT_TRUE(other.ok()) << other.status();
  const v1::GameView before = View(*server.core, t->game_id);
  const std::string move = before.legal_moves(0);

  const std::string failing = t->game_id;
  log.FailItemsWhere([failing](const WriteItem& item) { return GameOfItem(item) == failing; });
  auto refused = Submit(*server.core, *t, before.to_move(), move, before.action_number(),
                        t->seat_credentials[before.to_move()]);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kUnavailable) << refused.status();
  // Other games are untouched by it.
  std::mt19937_64 rng(5);
  PlayRandomly(*server.core, *other, 3, rng);
  EXPECT_EQ(View(*server.core, other->game_id).action_number(), 3);
  log.FailItemsWhere(nullptr);

  // The game is what the log says: the move was not made, and can be made now.
  const v1::GameView reloaded = View(*server.core, t->game_id);
  EXPECT_EQ(reloaded.action_number(), before.action_number());
  EXPECT_EQ(reloaded.position(), before.position());
  auto accepted = Submit(*server.core, *t, before.to_move(), move, before.action_number(),
                         t->seat_credentials[before.to_move()]);
  EXPECT_TRUE(accepted.ok()) << accepted.status();
}

// A watcher that keeps what it is given.
class RecordingSink : public EventSink {
 public:
  void Push(SharedMessage m) override {
    std::lock_guard<std::mutex> lock(mu_);
    events_.push_back(m->event());
    cv_.notify_all();
  }
  void Close(absl::Status s) override {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = s;
    cv_.notify_all();
  }
  bool WaitFor(const std::function<bool(const std::vector<v1::GameEvent>&)>& enough) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(10), [&] { return enough(events_); });
  }
  std::vector<v1::GameEvent> events() {
    std::lock_guard<std::mutex> lock(mu_);
    return events_;
  }
  std::optional<absl::Status> closed() {
    std::lock_guard<std::mutex> lock(mu_);
    return closed_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<v1::GameEvent> events_;
  std::optional<absl::Status> closed_;
};

TEST(GameStateCoreTest, AWatcherSeesTheSnapshotThenEveryCommittedEventInOrder) {
  MemoryEventLog log;
  Server server(&log);
  auto t = OpenTable(*server.core, "hex-tictactoe", "", 2);
  ASSERT_TRUE(t.ok()) << t.status();
  RecordingSink sink;
  v1::WatchGameRequest req;
  req.set_game_id(t->game_id);
  auto handle = server.core->Watch(Caller{}, req, &sink);
  ASSERT_TRUE(handle.ok()) << handle.status();
  std::mt19937_64 rng(9);
  PlayRandomly(*server.core, *t, 100, rng);
  const v1::GameView end = View(*server.core, t->game_id);
  ASSERT_EQ(end.status(), v1::GAME_STATUS_FINISHED);
  ASSERT_TRUE(sink.WaitFor([&](const std::vector<v1::GameEvent>& events) {
    return !events.empty() && events.back().sequence() == end.last_sequence();
  }));
  std::vector<v1::GameEvent> events = sink.events();
  ASSERT_TRUE(events.front().has_snapshot());
  int64_t last = events.front().sequence();
  int64_t actions = 0;
  for (size_t i = 1; i < events.size(); ++i) {
    if (events[i].type() == "keepalive" || events[i].type() == "ping") continue;
    EXPECT_EQ(events[i].sequence(), last + 1) << "a gap or a repeat at " << i;
    last = events[i].sequence();
    actions += events[i].type() == "action" ? 1 : 0;
  }
  EXPECT_EQ(actions, end.action_number());
  ASSERT_TRUE(sink.closed().has_value());  // the stream ends with the game
  EXPECT_TRUE(sink.closed()->ok());
  server.core->Unwatch(t->game_id, *handle);
}

}  // namespace
}  // namespace arena::game_state
