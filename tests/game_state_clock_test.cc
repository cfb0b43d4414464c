// Server-side clocks through the real binary: Fischer flag fall, increments, Chestonia's
// per-move allowance, the ranked untimed first move with its abort, the disconnect loss, and
// pings answered with Pong. Rule windows are shortened by flags (GameStateHarness::FastFlags).
#include "engine/core/game.h"
#include "tests/game_state_support.h"

namespace arena::testing {
namespace {

bool HasChess() {
  return engine::FindGame("chess") != nullptr;
}

v1::GameView WaitFor(GameStateHarness& h, const std::string& id,
                     const std::function<bool(const v1::GameView&)>& pred,
                     absl::Duration limit = absl::Seconds(10)) {
  v1::GameView v;
  absl::Time end = absl::Now() + limit;
  while (absl::Now() < end) {
    if (h.Get(id, &v).ok() && pred(v)) return v;
    absl::SleepFor(absl::Milliseconds(30));
  }
  return v;
}

TEST(GameStateClockTest, FischerFlagFallAndIncrement) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  v1::ClockSettings clock;
  clock.set_initial_ms(1500);
  clock.set_increment_ms(1000);
  auto t = h.NewTable("chess", 2, clock);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  int w = v.leader(), b = 1 - w;
  ASSERT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}).ok());
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  // A quick move gains the increment.
  EXPECT_GT(v.seats(w).clock_remaining_ms(), 1500);
  EXPECT_LE(v.seats(w).clock_remaining_ms(), 2500);
  // Black never moves: its flag falls after ~1.5 s and white wins on time.
  absl::Time start = absl::Now();
  v = WaitFor(h, t.id, [](const v1::GameView& g) { return g.status() != v1::GAME_STATUS_ACTIVE; });
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(1200));
  EXPECT_EQ(v.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(v.outcome().reason(), "timeout");
  ASSERT_EQ(v.outcome().winners_size(), 1);
  EXPECT_EQ(v.outcome().winners(0), w);
  EXPECT_EQ(v.seats(b).clock_remaining_ms(), 0);
  // A move after the flag fell is refused.
  EXPECT_EQ(h.Submit(t.id, b, v1::ACTION_KIND_MOVE, "e7e5", 1, {t.seats[b]}).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  // The timeout is logged (the view may run a commit ahead of the record).
  v1::GameRecord rec;
  bool timeout_event = false;
  for (int i = 0; i < 100 && !timeout_event; ++i) {
    ASSERT_TRUE(h.Record(t.id, &rec).ok());
    for (const auto& e : rec.events()) timeout_event |= e.type() == "timeout" && e.seat() == b;
    if (!timeout_event) absl::SleepFor(absl::Milliseconds(20));
  }
  EXPECT_TRUE(timeout_event) << rec.DebugString();
  // The PGN carries white's clock after its move (2 s after the increment: 0:00:02 or 0:00:01).
  EXPECT_NE(rec.pgn().find("[%clk 0:00:0"), std::string::npos) << rec.pgn();
}

TEST(GameStateClockTest, ChestoniaPerMoveAllowancePassesTheTurn) {
  if (engine::FindGame("chestonia-chess") == nullptr) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  v1::ClockSettings clock;
  clock.set_per_move_ms(400);
  auto t = h.NewTable("chestonia-chess", 3, clock, {{"players", "3"}, {"darts", "off"}});
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  int first = v.to_move();
  v = WaitFor(h, t.id, [&](const v1::GameView& g) { return g.to_move() != first; });
  EXPECT_NE(v.to_move(), first);
  EXPECT_EQ(v.status(), v1::GAME_STATUS_ACTIVE);  // the turn passed; the game goes on
  EXPECT_EQ(v.action_number(), 0);
  // The next seat can move normally within its allowance.
  ASSERT_GT(v.legal_moves_size(), 0);
  EXPECT_TRUE(
      h.Submit(t.id, v.to_move(), v1::ACTION_KIND_MOVE, v.legal_moves(0), 0, {t.seats[v.to_move()]})
          .ok());
}

TEST(GameStateClockTest, RankedFirstMoveAbort) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h({"--first_move_abort_ms=2500"});  // the last flag wins
  ASSERT_TRUE(h.ok());
  v1::ClockSettings clock;
  clock.set_initial_ms(300);  // shorter than the abort window: the first move is untimed
  clock.set_increment_ms(0);
  clock.set_ranked(true);
  auto t = h.NewTable("chess", 2, clock, {}, 0, {"", "", "arena"});
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  int w = v.leader();
  absl::SleepFor(absl::Milliseconds(450));
  // Past the 300 ms clock but within the 2.5 s abort window: accepted, and no time charged.
  ASSERT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}).ok());
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.seats(w).clock_remaining_ms(), 300);
  // Black's first move never comes: aborted, nobody wins; the seed is revealed once durable.
  v = WaitFor(h, t.id, [](const v1::GameView& g) {
    return g.status() != v1::GAME_STATUS_ACTIVE && !g.revealed_seed().empty();
  });
  EXPECT_EQ(v.status(), v1::GAME_STATUS_ABORTED);
  EXPECT_EQ(v.outcome().winners_size(), 0);
  EXPECT_FALSE(v.revealed_seed().empty());
}

TEST(GameStateClockTest, RankedDisconnectWhileToMoveLoses) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h({"--first_move_abort_ms=10000"});  // --disconnect_loss_ms=800
  ASSERT_TRUE(h.ok());
  v1::ClockSettings clock;
  clock.set_initial_ms(60000);
  clock.set_ranked(true);
  auto t = h.NewTable("chess", 2, clock, {}, 0, {"", "", "arena"});
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  int w = v.leader(), b = 1 - w;
  // Black keeps a stream open (present); white does not.
  grpc::ClientContext bctx;
  common::SetDeadline(bctx, absl::Seconds(30));
  bctx.AddMetadata("x-arena-seat-credential", t.seats[b]);
  v1::WatchGameRequest wreq;
  wreq.set_game_id(t.id);
  auto bstream = h.stub().WatchGame(&bctx, wreq);
  v1::GameEvent ev;
  ASSERT_TRUE(bstream->Read(&ev));
  ASSERT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}).ok());
  ASSERT_TRUE(h.Submit(t.id, b, v1::ACTION_KIND_MOVE, "e7e5", 1, {t.seats[b]}).ok());
  // White, to move and absent, loses after the window; black's presence kept it safe before.
  v = WaitFor(h, t.id, [](const v1::GameView& g) { return g.status() != v1::GAME_STATUS_ACTIVE; });
  EXPECT_EQ(v.status(), v1::GAME_STATUS_FINISHED);
  ASSERT_EQ(v.outcome().winners_size(), 1);
  EXPECT_EQ(v.outcome().winners(0), b);
  v1::GameRecord rec;
  bool disconnect = false;
  for (int i = 0; i < 100 && !disconnect; ++i) {
    ASSERT_TRUE(h.Record(t.id, &rec).ok());
    for (const auto& e : rec.events()) disconnect |= e.type() == "disconnect" && e.seat() == w;
    if (!disconnect) absl::SleepFor(absl::Milliseconds(20));
  }
  EXPECT_TRUE(disconnect);
  bctx.TryCancel();
  bstream->Finish();
}

TEST(GameStateClockTest, SeatStreamsCarryPingsAnsweredWithPong) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h;  // --keepalive_ms=100
  ASSERT_TRUE(h.ok());
  v1::ClockSettings clock;
  clock.set_initial_ms(20000);
  absl::Time before_create = absl::Now();
  auto t = h.NewTable("chess", 2, clock);
  absl::Time created = absl::Now();
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  int w = v.leader();
  grpc::ClientContext ctx;
  common::SetDeadline(ctx, absl::Seconds(20));
  ctx.AddMetadata("x-arena-seat-credential", t.seats[w]);
  v1::WatchGameRequest req;
  req.set_game_id(t.id);
  auto stream = h.stub().WatchGame(&ctx, req);
  v1::GameEvent ev;
  int64_t ping = 0;
  while (ping == 0 && stream->Read(&ev)) {
    if (ev.type() == "ping") ping = ev.ping_id();
  }
  ASSERT_GT(ping, 0);
  absl::Time ping_read = absl::Now();
  v1::PongRequest pong;
  pong.set_game_id(t.id);
  pong.set_seat(w);
  pong.set_ping_id(ping);
  v1::PongResponse pr;
  {
    grpc::ClientContext pctx;
    GameStateHarness::Attach(pctx, {t.seats[1 - w]});
    EXPECT_EQ(h.stub().Pong(&pctx, pong, &pr).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  }
  // A slow answer: the server measures an RTT of at least 500 ms and credits half of it.
  absl::SleepFor(absl::Milliseconds(500));
  {
    grpc::ClientContext pctx;
    GameStateHarness::Attach(pctx, {t.seats[w]});
    EXPECT_TRUE(h.stub().Pong(&pctx, pong, &pr).ok());
  }
  absl::Time pong_done = absl::Now();
  {
    grpc::ClientContext pctx;  // answered already: a replayed pong measures nothing
    GameStateHarness::Attach(pctx, {t.seats[w]});
    EXPECT_EQ(h.stub().Pong(&pctx, pong, &pr).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  EXPECT_TRUE(WaitFor(h, t.id, [&](const v1::GameView& g) { return g.seats(w).present(); })
                  .seats(w)
                  .present());
  absl::Time submit_start = absl::Now();
  ASSERT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}).ok());
  absl::Time submit_end = absl::Now();
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  int64_t charged = 20000 - v.seats(w).clock_remaining_ms();
  // Credited at least 250 ms (half the measured RTT)...
  EXPECT_LE(charged, absl::ToInt64Milliseconds(submit_end - before_create) - 250 + 1);
  // ...and never more than half of the longest RTT the server could have measured.
  int64_t max_credit = absl::ToInt64Milliseconds(pong_done - ping_read) / 2 + 200;
  EXPECT_GE(charged, absl::ToInt64Milliseconds(submit_start - created) - max_credit);
  ctx.TryCancel();
  stream->Finish();
}

}  // namespace
}  // namespace arena::testing
