// Issue 28, game-state side: the attacks that once worked against arena-game-state, replayed
// against the real binary on PostgreSQL, each asserting the refusal and that nothing else
// moved (other games, the attacked game's actions and clocks), and the private cluster's
// promise that another local user opens no session.
#include <pwd.h>
#include <unistd.h>

#include "engine/core/game.h"
#include "tests/game_state_support.h"
#include "tests/support/subprocess.h"

namespace arena::testing {
namespace {

using namespace std::string_literals;
using Code = grpc::StatusCode;

bool HasChess() {
  return engine::FindGame("chess") != nullptr;
}

v1::ClockSettings Fischer(int64_t initial_ms, int64_t increment_ms = 0) {
  v1::ClockSettings c;
  c.set_initial_ms(initial_ms);
  c.set_increment_ms(increment_ms);
  return c;
}

// --- Poisoned text ---------------------------------------------------------------------------

TEST(SecurityGameStateTest, PoisonedTextIsRefusedAtTheEdgeAndMovesNothing) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  auto t = h.NewTable("chess", 2, Fischer(60000));
  v1::GameView before;
  ASSERT_TRUE(h.Get(t.id, &before).ok());
  const int w = before.leader();

  // A refused action: a NUL, an escape sequence, invalid UTF-8, 5 kB in the annotation.
  for (const std::string& annotation : {"\0"s, "fine\0then"s, "\x1b[2J"s, std::string(5000, 'a')}) {
    grpc::Status s =
        h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}, nullptr, annotation);
    EXPECT_EQ(s.error_code(), Code::INVALID_ARGUMENT) << s.error_message();
    EXPECT_NE(s.error_message().find("annotation"), std::string::npos) << s.error_message();
    EXPECT_EQ(s.error_message().find("aaaaaaaa"), std::string::npos);  // not echoed
  }
  // Invalid UTF-8 in a proto3 string never reaches the service: gRPC cannot parse the request
  // and answers UNIMPLEMENTED (tests/unparsable_request_test.cc, docs/security.md).
  EXPECT_EQ(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}, nullptr, "\xff\xfe"s)
                .error_code(),
            Code::UNIMPLEMENTED);
  // ... changed nothing: the same action number, the same deadline (no reload, no grace).
  v1::GameView after;
  ASSERT_TRUE(h.Get(t.id, &after).ok());
  EXPECT_EQ(after.action_number(), 0);
  EXPECT_EQ(after.turn_deadline_unix_ms(), before.turn_deadline_unix_ms());
  EXPECT_LE(after.seats(w).clock_remaining_ms(), before.seats(w).clock_remaining_ms());

  // Seat names: at JoinTable and in CreateTable's seats.
  v1::CreateTableRequest create;
  create.mutable_settings()->set_engine_game("chess");
  create.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
  create.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
  create.mutable_seats(1)->set_display_name("bad\0name"s);
  v1::CreateTableResponse created;
  grpc::Status s = h.Create(create, &created);
  EXPECT_EQ(s.error_code(), Code::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("seats[1].display_name"), std::string::npos)
      << s.error_message();
  create.mutable_seats(1)->set_display_name(std::string(1 << 20, 'x'));  // 1 MB
  s = h.Create(create, &created);
  EXPECT_EQ(s.error_code(), Code::INVALID_ARGUMENT);
  EXPECT_LT(s.error_message().size(), 200u);
  create.mutable_seats(1)->clear_display_name();
  ASSERT_TRUE(h.Create(create, &created).ok());
  grpc::ClientContext ctx;
  GameStateHarness::Attach(ctx, {});
  v1::JoinTableRequest join;
  join.set_game_id(created.game_id());
  join.set_seat(0);
  join.set_display_name("\0"s);
  v1::JoinTableResponse joined;
  EXPECT_EQ(h.stub().JoinTable(&ctx, join, &joined).error_code(), Code::INVALID_ARGUMENT);
  // The seat is still open.
  std::string cred;
  EXPECT_TRUE(h.Join(created.game_id(), 0, &cred).ok());

  // The honest move still goes through, and the log never failed a batch.
  EXPECT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}).ok());
  EXPECT_EQ(h.server().process().Stderr().find("event batch failed"), std::string::npos);
}

// The "done when" (thousands of well-formed and poisoned submissions across 200 games)
// is tests/poison_flood_test.cc.

// --- Clocks ----------------------------------------------------------------------------------

TEST(SecurityGameStateTest, HostCannotShortenTheOpponentsClock) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  auto t = h.NewTable("chess", 2, Fischer(30000));
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  const int w = v.leader(), b = 1 - w;
  ASSERT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}).ok());
  v1::GameView before;
  ASSERT_TRUE(h.Get(t.id, &before).ok());
  ASSERT_EQ(before.to_move(), b);

  auto update = [&](const v1::ClockSettings& c) {
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {"", t.host});
    v1::UpdateSettingsRequest up;
    up.set_game_id(t.id);
    *up.mutable_settings()->mutable_clock() = c;
    v1::GameView out;
    return h.stub().UpdateSettings(&ctx, up, &out);
  };
  // The attack: initial_ms=1 while the opponent thinks. Accepted (same kind of clock) but it
  // takes effect from the next turn and takes no time already given.
  ASSERT_TRUE(update(Fischer(1)).ok());
  absl::SleepFor(absl::Milliseconds(1500));
  v1::GameView after;
  ASSERT_TRUE(h.Get(t.id, &after).ok());
  EXPECT_EQ(after.status(), v1::GAME_STATUS_ACTIVE);
  EXPECT_EQ(after.turn_deadline_unix_ms(), before.turn_deadline_unix_ms());
  EXPECT_GT(after.seats(b).clock_remaining_ms(), 25000);
  // Changing the kind of clock mid-game, and integer edges, are refused.
  v1::ClockSettings per_move;
  per_move.set_per_move_ms(1);
  EXPECT_EQ(update(per_move).error_code(), Code::FAILED_PRECONDITION);
  EXPECT_EQ(update(Fischer(30000, INT64_MAX)).error_code(), Code::INVALID_ARGUMENT);
  EXPECT_EQ(update(Fischer(INT64_MAX)).error_code(), Code::INVALID_ARGUMENT);
  // Black's move still stands with its full clock.
  EXPECT_TRUE(h.Submit(t.id, b, v1::ACTION_KIND_MOVE, "e7e5", 1, {t.seats[b]}).ok());

  v1::CreateTableRequest create;
  create.mutable_settings()->set_engine_game("chess");
  *create.mutable_settings()->mutable_clock() = Fischer(60000, INT64_MAX);
  create.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
  create.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
  v1::CreateTableResponse resp;
  EXPECT_EQ(h.Create(create, &resp).error_code(), Code::INVALID_ARGUMENT);
}

// --- Seats -----------------------------------------------------------------------------------

TEST(SecurityGameStateTest, SeatsForAccountsAndAiSeatsAreArenasOnly) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  v1::CreateTableRequest req;
  req.mutable_settings()->set_engine_game("chess");
  req.mutable_settings()->set_is_public(true);
  req.add_seats()->set_kind(v1::SEAT_KIND_HUMAN);
  req.mutable_seats(0)->set_account_id("u_victim");
  req.add_seats()->set_kind(v1::SEAT_KIND_BOT);
  req.mutable_seats(1)->set_bot_level(1);
  v1::CreateTableResponse resp;
  // Nobody but arena names an account in a seat.
  EXPECT_EQ(h.Create(req, &resp).error_code(), Code::UNAUTHENTICATED);
  EXPECT_EQ(h.Create(req, &resp, {"", "", "arena-bot"}).error_code(), Code::PERMISSION_DENIED);
  ASSERT_TRUE(h.Create(req, &resp, {"", "", "arena"}).ok());
  // The bot seat comes with no credential; the account's seat is joined through arena only.
  ASSERT_EQ(resp.seat_credentials_size(), 2);
  EXPECT_TRUE(resp.seat_credentials(1).empty());
  {  // Only arena joins seats: a person calling game-state directly is refused.
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {});
    v1::JoinTableRequest join;
    join.set_game_id(resp.game_id());
    join.set_seat(0);
    v1::JoinTableResponse joined;
    EXPECT_EQ(h.stub().JoinTable(&ctx, join, &joined).error_code(), Code::PERMISSION_DENIED);
  }
  v1::GameView v;
  ASSERT_TRUE(h.Get(resp.game_id(), &v).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_WAITING);
  EXPECT_FALSE(v.seats(0).filled());
  // Seat kind 99.
  req.mutable_seats(0)->clear_account_id();
  req.mutable_seats(0)->set_kind(static_cast<v1::SeatKind>(99));
  EXPECT_EQ(h.Create(req, &resp).error_code(), Code::INVALID_ARGUMENT);
}

// --- Quotas ----------------------------------------------------------------------------------

TEST(SecurityGameStateTest, AnonymousTablesAndWatchStreamsHaveQuotas) {
  if (!HasChess()) GTEST_SKIP();
  // The defaults' shape at test scale: later flags win over FastFlags' "off".
  GameStateHarness h({"--anonymous_table_burst=5", "--anonymous_tables_per_minute=0",
                      "--watch_streams_per_address=3"});
  ASSERT_TRUE(h.ok());
  v1::CreateTableRequest req;
  req.mutable_settings()->set_engine_game("chess");
  req.mutable_settings()->set_is_public(true);
  req.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
  req.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
  v1::CreateTableResponse resp;
  std::string game;
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(h.Create(req, &resp).ok());
    game = resp.game_id();
  }
  grpc::Status s = h.Create(req, &resp);
  EXPECT_EQ(s.error_code(), Code::RESOURCE_EXHAUSTED);
  EXPECT_NE(s.error_message().find("retry in"), std::string::npos);
  EXPECT_TRUE(h.Create(req, &resp, {"", "", "arena"}).ok());  // services are not anonymous
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.games"), 6);

  // Watch streams: three open at once per address; the fourth is refused, a service is not.
  auto open = [&](const Creds& c, std::unique_ptr<grpc::ClientContext>* ctx) {
    *ctx = std::make_unique<grpc::ClientContext>();
    GameStateHarness::Attach(**ctx, c);
    (*ctx)->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    v1::WatchGameRequest wreq;
    wreq.set_game_id(game);
    auto reader = h.stub().WatchGame(ctx->get(), wreq);
    v1::GameEvent ev;
    bool first = reader->Read(&ev);  // the "created" event, or the refusal
    return std::make_pair(std::move(reader), first);
  };
  std::vector<std::unique_ptr<grpc::ClientContext>> ctxs(5);
  std::vector<std::unique_ptr<grpc::ClientReader<v1::GameEvent>>> readers;
  for (int i = 0; i < 3; ++i) {
    auto [r, first] = open({}, &ctxs[i]);
    EXPECT_TRUE(first);
    readers.push_back(std::move(r));
  }
  {
    auto [r, first] = open({}, &ctxs[3]);
    EXPECT_FALSE(first);
    EXPECT_EQ(r->Finish().error_code(), Code::RESOURCE_EXHAUSTED);
  }
  {
    auto [r, first] = open({"", "", "arena"}, &ctxs[4]);
    EXPECT_TRUE(first);
    ctxs[4]->TryCancel();
    r->Finish();
  }
  // Closing one frees its place.
  ctxs[0]->TryCancel();
  readers[0]->Finish();
  bool reopened = false;
  for (int i = 0; i < 50 && !reopened; ++i) {
    std::unique_ptr<grpc::ClientContext> c;
    auto [r, first] = open({}, &c);
    reopened = first;
    c->TryCancel();
    r->Finish();
    if (!reopened) absl::SleepFor(absl::Milliseconds(50));
  }
  EXPECT_TRUE(reopened);
  for (size_t i = 1; i < readers.size(); ++i) {
    ctxs[i]->TryCancel();
    readers[i]->Finish();
  }
}

// The group commit isolating a bad row is the event log's contract, held against PostgreSQL
// and the memory log alike: services/game_state/event_log_test.cc.

// --- The private PostgreSQL ------------------------------------------------------------------

TEST(SecurityGameStateTest, AnotherLocalUserOpensNoDatabaseSession) {
  const char* url = std::getenv("ARENA_TEST_DATABASE_URL");
  const char* bin = std::getenv("ARENA_TEST_PG_BIN");
  const char* socket_dir = std::getenv("ARENA_TEST_PG_SOCKET_DIR");
  if (url == nullptr || bin == nullptr) GTEST_SKIP() << "run through scripts/test";
  if (geteuid() != 0 || getpwnam("nobody") == nullptr || access("/sbin/runuser", X_OK) != 0) {
    GTEST_SKIP() << "needs root and the nobody user to act as another local user";
  }
  std::string u = url;
  size_t colon = u.rfind(':');
  size_t slash = u.find('/', colon);
  const std::string port = u.substr(colon + 1, slash - colon - 1);
  auto try_as_nobody = [&](const std::string& host, const std::string& user) {
    Subprocess p({"/sbin/runuser", "-u", "nobody", "--", std::string(bin) + "/psql", "-X", "-w",
                  "-h", host, "-p", port, "-U", user, "-d", "postgres", "-c", "SELECT 1"});
    int rc = p.Wait(absl::Seconds(30)).value_or(-1);  // before reading what it wrote
    return std::make_pair(rc, p.Stderr());
  };
  for (const std::string user : {"arena", "arena_tests", "arena_service", "postgres", "nobody"}) {
    auto [rc, err] = try_as_nobody("127.0.0.1", user);
    EXPECT_NE(rc, 0) << user << " over TCP: " << err;
    EXPECT_NE(err.find("password"), std::string::npos) << user << " over TCP: " << err;
    if (socket_dir != nullptr) {
      auto [src, serr] = try_as_nobody(socket_dir, user);
      EXPECT_NE(src, 0) << user << " over the socket: " << serr;
    }
  }
  // The tests' own URL does get in (with the password from its passfile).
  pqxx::connection c(url);
  EXPECT_TRUE(c.is_open());
}

}  // namespace
}  // namespace arena::testing
