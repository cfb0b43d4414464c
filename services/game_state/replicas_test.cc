// Game-state replicas on one PostgreSQL database (issue 27 item 1): each game has a lease with
// an epoch that fences every append, a replica takes over an unowned or expired game by
// replaying its log, and a call that reaches a replica which does not own the game reaches the
// owner. Two cores in this process show the fence exactly (a stale owner cannot append); two
// real arena-game-state processes show forwarding and a takeover after a SIGKILL.
#include <signal.h>

#include <future>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "clients/game_state_client.h"
#include "clients/game_watch.h"
#include "gtest/gtest.h"
#include "services/common/migrate.h"
#include "services/common/pg_pool.h"
#include "services/game_state/game_service.h"
#include "services/game_state/pg_event_log.h"
#include "tests/game_state_support.h"
#include "tests/support/test_database.h"

namespace arena::migrations {
const std::vector<common::Migration>& GameMigrations();
}  // namespace arena::migrations

namespace arena::game_state {
namespace {

using testing::GameStateHarness;

template <typename T>
absl::StatusOr<T> Wait(const std::function<void(Done<T>)>& call) {
  auto promise = std::make_shared<std::promise<absl::StatusOr<T>>>();
  auto future = promise->get_future();
  call([promise](absl::StatusOr<T> r) { promise->set_value(std::move(r)); });
  if (future.wait_for(std::chrono::seconds(60)) != std::future_status::ready)
    return absl::DeadlineExceededError("no answer from the core");
  return future.get();
}

// The events of a game in the log: every sequence number once, from 0, and the action numbers
// of its actions once each, from 0. Returns the number of action events.
int64_t CheckLogIsWhole(const std::string& url, const std::string& game_id) {
  pqxx::connection c(url);
  pqxx::work w(c);
  pqxx::result rows = w.exec_params(
      "SELECT seq, type, action_number FROM game.events WHERE game_id = $1 ORDER BY seq", game_id);
  int64_t actions = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][0].as<int64_t>(), static_cast<int64_t>(i)) << "a gap or a repeat";
    if (rows[i][1].as<std::string>() == "action") {
      EXPECT_EQ(rows[i][2].as<int64_t>(), actions) << "an action lost or doubled";
      actions++;
    }
  }
  return actions;
}

std::pair<std::string, int64_t> LeaseOf(const std::string& url, const std::string& game_id) {
  pqxx::connection c(url);
  pqxx::work w(c);
  pqxx::result r =
      w.exec_params("SELECT owner, epoch FROM game.game_leases WHERE game_id = $1", game_id);
  if (r.empty()) return {"", 0};
  return {r[0][0].as<std::string>(), r[0][1].as<int64_t>()};
}

// --- Two cores in this process --------------------------------------------------------------

// One replica: its own pool and log (with its name, address and lease time) and core. No lease
// thread: the test decides when leases are renewed, so A's lease simply runs out.
struct Replica {
  Replica(const std::string& url, const std::string& id, absl::Duration ttl) {
    auto p = common::PgPool::Create(url);
    EXPECT_TRUE(p.ok()) << p.status();
    pool = *std::move(p);
    log = std::make_unique<PgEventLog>(pool.get(), ReplicaOptions{id, id + ".test:7101", ttl});
    CoreOptions options;
    options.keepalive = absl::Seconds(60);
    options.sole_replica = false;
    core =
        std::make_unique<GameStateCore>(log.get(), CredentialHasher(std::string(32, 'k')), options);
  }
  ~Replica() {
    core->Shutdown();
    log->Stop();
  }
  std::unique_ptr<common::PgPool> pool;
  std::unique_ptr<PgEventLog> log;
  std::unique_ptr<GameStateCore> core;
};

absl::StatusOr<v1::GameView> View(GameStateCore& core, const std::string& game_id) {
  v1::GetGameRequest get;
  get.set_game_id(game_id);
  return core.GetGame(Caller{}, get);
}

absl::StatusOr<v1::SubmitActionResponse> Submit(GameStateCore& core, const std::string& game_id,
                                                int seat, const std::string& text, int64_t expected,
                                                const std::string& credential) {
  return Wait<v1::SubmitActionResponse>([&](Done<v1::SubmitActionResponse> done) {
    Caller caller;
    caller.seat_credential = credential;
    core.SubmitAction(caller, clients::SeatAction(game_id, seat, text, expected), std::move(done));
  });
}

TEST(GameStateReplicasTest, AnExpiredGameIsTakenOverByReplayAndTheStaleOwnerIsFenced) {
  testing::TestDatabase db;
  ASSERT_TRUE(db.ok());
  auto migrated = common::ApplyMigrations(db.url(), "game", migrations::GameMigrations());
  ASSERT_TRUE(migrated.ok()) << migrated.status();
  Replica a(db.url(), "replica-a", absl::Seconds(2));
  Replica b(db.url(), "replica-b", absl::Seconds(120));

  // A creates and plays.
  v1::CreateTableRequest create;
  create.mutable_settings()->set_engine_game("chess");
  create.mutable_settings()->set_level(v1::TABLE_LEVEL_BEGINNER);
  create.mutable_settings()->set_is_public(true);
  for (int i = 0; i < 2; ++i) create.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
  auto created = Wait<v1::CreateTableResponse>(
      [&](Done<v1::CreateTableResponse> done) { a.core->CreateTable(Caller{}, create, done); });
  ASSERT_TRUE(created.ok()) << created.status();
  const std::string id = created->game_id();
  std::vector<std::string> seats;
  for (int i = 0; i < 2; ++i) {
    v1::JoinTableRequest join;
    join.set_game_id(id);
    join.set_seat(i);
    Caller arena;
    arena.arena = true;
    auto joined = Wait<v1::JoinTableResponse>(
        [&](Done<v1::JoinTableResponse> done) { a.core->JoinTable(arena, join, done); });
    ASSERT_TRUE(joined.ok()) << joined.status();
    seats.push_back(joined->seat_credential());
  }
  std::mt19937 rng(27);
  auto play = [&](GameStateCore& core) {
    auto v = View(core, id);
    ASSERT_TRUE(v.ok()) << v.status();
    ASSERT_EQ(v->status(), v1::GAME_STATUS_ACTIVE);
    const std::string move = v->legal_moves(rng() % v->legal_moves_size());
    auto r = Submit(core, id, v->to_move(), move, v->action_number(), seats[v->to_move()]);
    ASSERT_TRUE(r.ok()) << r.status();
  };
  for (int i = 0; i < 4; ++i) play(*a.core);
  EXPECT_EQ(LeaseOf(db.url(), id), std::make_pair(std::string("replica-a"), int64_t{1}));

  // While A's lease lives, B does not take the game: it names A.
  auto renewed = a.log->RenewLeases({{id, 1}});
  ASSERT_TRUE(renewed.ok() && renewed->empty()) << renewed.status();
  auto at_b = View(*b.core, id);
  ASSERT_TRUE(absl::IsUnavailable(at_b.status())) << at_b.status();
  EXPECT_EQ(OwnerAddressOf(at_b.status()).value_or(""), "replica-a.test:7101");

  // A stops renewing (as if it hung); once the lease has run out B takes the game by replaying
  // its log, and sees exactly what A acknowledged.
  auto before = View(*a.core, id);
  ASSERT_TRUE(before.ok());
  absl::SleepFor(absl::Milliseconds(2500));
  auto taken = View(*b.core, id);
  ASSERT_TRUE(taken.ok()) << taken.status();
  EXPECT_EQ(taken->action_number(), before->action_number());
  EXPECT_EQ(taken->to_move(), before->to_move());
  EXPECT_EQ(taken->position(), before->position());
  EXPECT_EQ(taken->last_sequence(), before->last_sequence());
  EXPECT_EQ(LeaseOf(db.url(), id), std::make_pair(std::string("replica-b"), int64_t{2}));
  play(*b.core);

  // A still holds its old copy and believes it may move: the log refuses the append (its
  // epoch is gone), A drops the game, and from then on names B.
  const std::string stale_move = before->legal_moves(0);
  auto refused = Submit(*a.core, id, before->to_move(), stale_move, before->action_number(),
                        seats[before->to_move()]);
  ASSERT_TRUE(absl::IsUnavailable(refused.status())) << refused.status();
  EXPECT_NE(refused.status().message().find("moved to another replica"), std::string::npos)
      << refused.status();
  auto at_a = View(*a.core, id);
  ASSERT_TRUE(absl::IsUnavailable(at_a.status())) << at_a.status();
  EXPECT_EQ(OwnerAddressOf(at_a.status()).value_or(""), "replica-b.test:7101");

  // B goes on; the log has every acknowledged action once, and nothing of A's refused one.
  for (int i = 0; i < 3; ++i) play(*b.core);
  EXPECT_EQ(CheckLogIsWhole(db.url(), id), 8);

  // Renewal: B keeps its lease; A, renewing what it no longer has, learns nothing is held.
  auto lost = b.log->RenewLeases({{id, 2}});
  ASSERT_TRUE(lost.ok()) << lost.status();
  EXPECT_TRUE(lost->empty());
  lost = a.log->RenewLeases({{id, 1}});
  ASSERT_TRUE(lost.ok()) << lost.status();
  EXPECT_EQ(*lost, std::vector<std::string>{id});
}

// --- Two real processes ---------------------------------------------------------------------

class ReplicaProcess {
 public:
  ReplicaProcess(const std::string& url, const std::string& id) {
    std::vector<std::string> flags = GameStateHarness::FastFlags();
    flags.push_back("--database_url=" + url);
    flags.push_back("--replica_id=" + id);
    flags.push_back("--sole_replica=false");
    flags.push_back("--lease_ttl_ms=1500");
    flags.push_back("--lease_renew_ms=200");
    server_ = std::make_unique<testing::ServerProcess>(ARENA_GAME_STATE_BIN, flags);
    stub_ = v1::GameStateService::NewStub(server_->channel());
  }
  bool ok() const { return server_->ok(); }
  testing::ServerProcess& server() { return *server_; }
  v1::GameStateService::Stub& stub() { return *stub_; }

  grpc::Status Get(const std::string& game, v1::GameView* view) {
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {});
    v1::GetGameRequest req;
    req.set_game_id(game);
    return stub_->GetGame(&ctx, req, view);
  }
  grpc::Status Submit(const std::string& game, const v1::GameView& v, const std::string& move,
                      const std::string& credential) {
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {credential});
    v1::SubmitActionResponse resp;
    return stub_->SubmitAction(
        &ctx, clients::SeatAction(game, v.to_move(), move, v.action_number()), &resp);
  }

 private:
  std::unique_ptr<testing::ServerProcess> server_;
  std::unique_ptr<v1::GameStateService::Stub> stub_;
};

TEST(GameStateReplicasTest, ACallToAReplicaReachesTheOwnerAndAKilledOwnersGamesAreTakenOver) {
  testing::TestDatabase db;
  ASSERT_TRUE(db.ok());
  ReplicaProcess a(db.url(), "replica-a");
  ASSERT_TRUE(a.ok());
  ReplicaProcess b(db.url(), "replica-b");
  ASSERT_TRUE(b.ok());

  // A table made on A; its seats joined through B (forwarded, with arena's credential).
  v1::CreateTableRequest create;
  create.mutable_settings()->set_engine_game("chess");
  create.mutable_settings()->set_level(v1::TABLE_LEVEL_BEGINNER);
  create.mutable_settings()->set_is_public(true);
  for (int i = 0; i < 2; ++i) create.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
  v1::CreateTableResponse created;
  {
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {});
    grpc::Status s = a.stub().CreateTable(&ctx, create, &created);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  const std::string id = created.game_id();
  std::vector<std::string> seats;
  for (int i = 0; i < 2; ++i) {
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {"", "", "arena"});
    v1::JoinTableRequest join;
    join.set_game_id(id);
    join.set_seat(i);
    v1::JoinTableResponse joined;
    grpc::Status s = b.stub().JoinTable(&ctx, join, &joined);
    ASSERT_TRUE(s.ok()) << s.error_message();
    seats.push_back(joined.seat_credential());
  }

  // Moves sent to either replica are played by A; both show the same game.
  std::mt19937 rng(27);
  auto play = [&](ReplicaProcess& via) {
    v1::GameView v;
    grpc::Status s = via.Get(id, &v);
    ASSERT_TRUE(s.ok()) << s.error_message();
    ASSERT_EQ(v.status(), v1::GAME_STATUS_ACTIVE);
    const std::string move = v.legal_moves(rng() % v.legal_moves_size());
    s = via.Submit(id, v, move, seats[v.to_move()]);
    ASSERT_TRUE(s.ok()) << s.error_message();
  };
  for (int i = 0; i < 6; ++i) play(i % 2 == 0 ? a : b);
  v1::GameView at_a, at_b;
  ASSERT_TRUE(a.Get(id, &at_a).ok());
  ASSERT_TRUE(b.Get(id, &at_b).ok());
  EXPECT_EQ(at_a.position(), at_b.position());
  EXPECT_EQ(at_a.action_number(), at_b.action_number());
  EXPECT_EQ(at_a.last_sequence(), at_b.last_sequence());
  EXPECT_EQ(LeaseOf(db.url(), id).first, "replica-a");

  // A watch stream is not forwarded: B names the owner's address (a redirect).
  {
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {});
    v1::WatchGameRequest req;
    req.set_game_id(id);
    auto reader = b.stub().WatchGame(&ctx, req);
    v1::GameEvent event;
    while (reader->Read(&event)) {
    }
    grpc::Status s = reader->Finish();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << s.error_message();
    EXPECT_NE(s.error_message().find(a.server().address()), std::string::npos) << s.error_message();
    // ...in the form clients follow.
    EXPECT_EQ(clients::RedirectedTo(s).value_or(""), a.server().address());
  }

  // clients::GameWatch (arenactl's watch, play and demo) follows it: opened on B, it reads A's
  // stream from the sequence asked for, every event once, and a move played later arrives.
  {
    v1::WatchGameRequest req;
    req.set_game_id(id);
    req.set_from_sequence(1);
    clients::GameWatch watch(b.stub(), req,
                             [](grpc::ClientContext& ctx) { GameStateHarness::Attach(ctx, {}); });
    v1::GameEvent e;
    int64_t seen = 0;
    while (seen < at_a.last_sequence()) {
      ASSERT_TRUE(watch.Read(&e)) << watch.Finish().error_message();
      if (e.type() == "keepalive") continue;
      EXPECT_EQ(e.sequence(), seen + 1) << e.type();
      seen = e.sequence();
    }
    EXPECT_EQ(watch.owner(), a.server().address());
    play(b);
    do {
      ASSERT_TRUE(watch.Read(&e)) << watch.Finish().error_message();
    } while (e.type() != "action");
    EXPECT_GT(e.sequence(), at_a.last_sequence());
    watch.Cancel();
    EXPECT_FALSE(watch.Read(&e));
    EXPECT_EQ(watch.Finish().error_code(), grpc::StatusCode::CANCELLED);
    ASSERT_TRUE(a.Get(id, &at_a).ok());
  }

  // A listing through either replica gathers every replica's games: one made on B shows up in
  // A's listing, and A's in B's.
  {
    v1::CreateTableResponse on_b;
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {});
    ASSERT_TRUE(b.stub().CreateTable(&ctx, create, &on_b).ok());
    for (ReplicaProcess* via : {&a, &b}) {
      grpc::ClientContext list_ctx;
      v1::ListGamesRequest list;
      v1::ListGamesResponse listed;
      grpc::Status s = via->stub().ListGames(&list_ctx, list, &listed);
      ASSERT_TRUE(s.ok()) << s.error_message();
      std::set<std::string> ids;
      for (const v1::GameView& g : listed.games()) ids.insert(g.game_id());
      EXPECT_TRUE(ids.count(id)) << "A's game missing";
      EXPECT_TRUE(ids.count(on_b.game_id())) << "B's game missing";
    }
    EXPECT_FALSE(clients::RedirectedTo(grpc::Status(grpc::StatusCode::UNAVAILABLE, "down")));
  }

  // A dies without releasing anything. Once its lease runs out B replays the game (on the next
  // call, or by adopting it) and play goes on where A left it.
  a.server().process().Signal(SIGKILL);
  a.server().process().Wait(absl::Seconds(10));
  v1::GameView v;
  absl::Time deadline = absl::Now() + absl::Seconds(30);
  grpc::Status s;
  while (absl::Now() < deadline) {
    s = b.Get(id, &v);
    if (s.ok()) break;
    EXPECT_EQ(s.error_code(), grpc::StatusCode::UNAVAILABLE) << s.error_message();
    absl::SleepFor(absl::Milliseconds(100));
  }
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(v.action_number(), at_a.action_number());
  EXPECT_EQ(v.position(), at_a.position());
  EXPECT_EQ(v.last_sequence(), at_a.last_sequence());
  for (int i = 0; i < 4; ++i) play(b);
  EXPECT_EQ(LeaseOf(db.url(), id), std::make_pair(std::string("replica-b"), int64_t{2}));
  EXPECT_EQ(CheckLogIsWhole(db.url(), id), 11);

  // A replica stopped cleanly hands its games over at once: a third replica started after B's
  // SIGTERM takes them without waiting for the lease to run out.
  ASSERT_TRUE(b.server().Stop().has_value());
  ReplicaProcess c(db.url(), "replica-c");
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE(c.Get(id, &v).ok());
  EXPECT_EQ(LeaseOf(db.url(), id), std::make_pair(std::string("replica-c"), int64_t{3}));
  play(c);
  EXPECT_EQ(CheckLogIsWhole(db.url(), id), 12);
}

}  // namespace
}  // namespace arena::game_state
