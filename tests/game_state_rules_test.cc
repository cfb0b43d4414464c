// Actions, retries, refusals, credentials, host controls and watching, against the real
// arena-game-state binary over gRPC on a real PostgreSQL.
#include "engine/core/game.h"
#include "tests/game_state_support.h"

namespace arena::testing {
namespace {

bool HasChess() {
  return engine::FindGame("chess") != nullptr;
}

// White's seat (engine seat 0 is the leader) and the standard first moves.
int White(const v1::GameView& v) {
  return v.leader();
}

TEST(GameStateRulesTest, RetriesAreIdempotentAndNumbersCannotBeReused) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  auto t = h.NewTable("chess", 2);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  ASSERT_EQ(v.status(), v1::GAME_STATUS_ACTIVE);
  int w = White(v), b = 1 - w;
  v1::SubmitActionResponse r1, r2;
  ASSERT_TRUE(
      h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}, &r1, "centre first").ok());
  EXPECT_FALSE(r1.duplicate());
  // The same action with the same number: the original result, applied once.
  ASSERT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}, &r2).ok());
  EXPECT_TRUE(r2.duplicate());
  EXPECT_EQ(r2.event_sequence(), r1.event_sequence());
  EXPECT_EQ(r2.action_number(), 0);
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.action_number(), 1);
  EXPECT_EQ(v.to_move(), b);
  // A different action with a used number.
  grpc::Status s = h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "d2d4", 0, {t.seats[w]});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << s.error_message();
  s = h.Submit(t.id, b, v1::ACTION_KIND_MOVE, "e7e5", 0, {t.seats[b]});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  // A number from the future.
  s = h.Submit(t.id, b, v1::ACTION_KIND_MOVE, "e7e5", 5, {t.seats[b]});
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  ASSERT_TRUE(h.Submit(t.id, b, v1::ACTION_KIND_MOVE, "e7e5", 1, {t.seats[b]}).ok());
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.events WHERE type = 'action' AND game_id = '" +
                        t.id + "'"),
            2);
  // The annotation is published with the move; credentials never appear in the log.
  v1::GameRecord rec;
  ASSERT_TRUE(h.Record(t.id, &rec).ok());
  bool annotated = false;
  for (const auto& e : rec.events()) annotated |= e.annotation() == "centre first";
  EXPECT_TRUE(annotated);
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.events WHERE payload::text LIKE '%" +
                        t.seats[0] + "%' OR payload::text LIKE '%" + t.host + "%'"),
            0);
  // An annotation beyond the bound.
  s = h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "g1f3", 2, {t.seats[w]}, nullptr,
               std::string(5000, 'x'));
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST(GameStateRulesTest, IllegalMalformedAndOutOfTurnActionsAreRefusedAndChangeNothing) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  v1::ClockSettings clock;
  clock.set_initial_ms(60000);
  auto t = h.NewTable("chess", 2, clock);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  int w = White(v), b = 1 - w;
  EXPECT_EQ(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "zz9", 0, {t.seats[w]}).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "", 0, {t.seats[w]}).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e5", 0, {t.seats[w]}).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(h.Submit(t.id, b, v1::ACTION_KIND_MOVE, "e7e5", 0, {t.seats[b]}).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(h.Submit(t.id, w, v1::ACTION_KIND_DART_AIM, "0,0", 0, {t.seats[w]}).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(h.Submit(t.id, 7, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(h.Submit("no-such-game", 0, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}).error_code(),
            grpc::StatusCode::NOT_FOUND);
  v1::GameView after;
  ASSERT_TRUE(h.Get(t.id, &after).ok());
  EXPECT_EQ(after.action_number(), 0);
  EXPECT_EQ(after.position(), v.position());
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.events WHERE type = 'action'"), 0);
  // Resign is a seat event: any time, either seat; the game ends.
  ASSERT_TRUE(h.Submit(t.id, b, v1::ACTION_KIND_RESIGN, "", 0, {t.seats[b]}).ok());
  ASSERT_TRUE(h.Get(t.id, &after).ok());
  EXPECT_EQ(after.status(), v1::GAME_STATUS_FINISHED);
  ASSERT_EQ(after.outcome().winners_size(), 1);
  EXPECT_EQ(after.outcome().winners(0), w);
  EXPECT_EQ(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 1, {t.seats[w]}).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
}

TEST(GameStateRulesTest, DrawOfferAcceptEndsInDraw) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  auto t = h.NewTable("chess", 2);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  int w = White(v), b = 1 - w;
  ASSERT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_OFFER_DRAW, "", 0, {t.seats[w]}).ok());
  ASSERT_TRUE(h.Submit(t.id, b, v1::ACTION_KIND_DECLINE_DRAW, "", 1, {t.seats[b]}).ok());
  ASSERT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 2, {t.seats[w]}).ok());
  ASSERT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_OFFER_DRAW, "", 3, {t.seats[w]}).ok());
  ASSERT_TRUE(h.Submit(t.id, b, v1::ACTION_KIND_ACCEPT_DRAW, "", 4, {t.seats[b]}).ok());
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_EQ(v.outcome().result_text(), "1/2-1/2");
}

TEST(GameStateRulesTest, CredentialsAreChecked) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  auto t = h.NewTable("chess", 2);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  int w = White(v), b = 1 - w;
  EXPECT_EQ(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {}).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {std::string(64, 'a')}).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[b]}).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // The host credential is not a seat credential.
  EXPECT_EQ(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.host}).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  // arena may not act for a person's seat; another service may act for nobody.
  EXPECT_EQ(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {"", "", "arena"}).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {"", "", "arena-bot"}).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  // A forged service credential.
  {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    ctx.AddMetadata("x-arena-service", "arena");
    ctx.AddMetadata("x-arena-credential", "not-the-secret");
    v1::SubmitActionRequest req;
    req.set_game_id(t.id);
    req.set_seat(w);
    req.set_kind(v1::ACTION_KIND_MOVE);
    req.mutable_move()->set_text("e2e4");
    v1::SubmitActionResponse resp;
    EXPECT_EQ(h.stub().SubmitAction(&ctx, req, &resp).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.action_number(), 0);

  // Bot seats: arena acts for them; a fixed leader needs arena.
  v1::CreateTableRequest req;
  req.mutable_settings()->set_engine_game("chess");
  req.mutable_settings()->set_is_public(false);
  req.add_seats()->set_kind(v1::SEAT_KIND_BOT);
  req.mutable_seats(0)->set_bot_level(3);
  req.add_seats()->set_kind(v1::SEAT_KIND_MODEL);
  req.mutable_seats(1)->set_model_id("route-llm");
  req.set_fixed_leader(1);
  v1::CreateTableResponse resp;
  EXPECT_EQ(h.Create(req, &resp).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(h.Create(req, &resp, {"", "", "arena-bot"}).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(h.Create(req, &resp, {"", "", "arena"}).ok());
  v1::GameView bv;
  ASSERT_TRUE(h.Get(resp.game_id(), &bv).ok());  // a model seat makes the table public
  EXPECT_TRUE(bv.settings().is_public());
  EXPECT_EQ(bv.status(), v1::GAME_STATUS_ACTIVE);
  EXPECT_EQ(bv.leader(), 1);
  EXPECT_EQ(bv.to_move(), 1);
  EXPECT_TRUE(h.Submit(resp.game_id(), 1, v1::ACTION_KIND_MOVE, "e2e4", 0, {"", "", "arena"}).ok());
  EXPECT_EQ(h.Submit(resp.game_id(), 0, v1::ACTION_KIND_MOVE, "e7e5", 1, {"", "", "arena-bot"})
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(h.Submit(resp.game_id(), 0, v1::ACTION_KIND_MOVE, "e7e5", 1, {"", "", "arena"}).ok());
}

TEST(GameStateRulesTest, PrivateGamesNeedACredentialToWatch) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  auto t = h.NewTable("chess", 2, {}, {}, 0, {}, /*is_public=*/false);
  v1::GameView v;
  EXPECT_EQ(h.Get(t.id, &v).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_TRUE(h.Get(t.id, &v, {"", t.host}).ok());
  EXPECT_TRUE(h.Get(t.id, &v, {t.seats[1]}).ok());
  v1::GameRecord rec;
  EXPECT_EQ(h.Record(t.id, &rec).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  grpc::ClientContext ctx;
  common::SetDeadline(ctx, absl::Seconds(5));
  v1::WatchGameRequest wreq;
  wreq.set_game_id(t.id);
  auto reader = h.stub().WatchGame(&ctx, wreq);
  v1::GameEvent ev;
  EXPECT_FALSE(reader->Read(&ev));
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::PERMISSION_DENIED);
  v1::ListGamesResponse list;
  grpc::ClientContext lctx;
  common::SetDeadline(lctx, absl::Seconds(5));
  ASSERT_TRUE(h.stub().ListGames(&lctx, v1::ListGamesRequest(), &list).ok());
  for (const auto& g : list.games()) EXPECT_NE(g.game_id(), t.id);
}

TEST(GameStateRulesTest, HostChangesSettingsAndDeletes) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  auto t = h.NewTable("chess", 2);
  // A watcher sees the change as an event.
  grpc::ClientContext wctx;
  common::SetDeadline(wctx, absl::Seconds(20));
  v1::WatchGameRequest wreq;
  wreq.set_game_id(t.id);
  auto reader = h.stub().WatchGame(&wctx, wreq);
  v1::GameEvent ev;
  ASSERT_TRUE(reader->Read(&ev));
  EXPECT_EQ(ev.type(), "snapshot");

  v1::UpdateSettingsRequest up;
  up.set_game_id(t.id);
  up.mutable_settings()->mutable_clock()->set_initial_ms(180000);
  up.mutable_settings()->mutable_clock()->set_increment_ms(2000);
  up.mutable_settings()->set_level(v1::TABLE_LEVEL_ADVANCED);
  v1::GameView out;
  {
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {t.seats[0]});
    EXPECT_EQ(h.stub().UpdateSettings(&ctx, up, &out).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  {
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {"", t.seats[0]});
    EXPECT_EQ(h.stub().UpdateSettings(&ctx, up, &out).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
  }
  {
    // A running untimed game keeps its kind of clock: a clock started on the side to move
    // would take time it was already given (issue 28; docs/security.md).
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {"", t.host});
    EXPECT_EQ(h.stub().UpdateSettings(&ctx, up, &out).error_code(),
              grpc::StatusCode::FAILED_PRECONDITION);
  }
  up.mutable_settings()->clear_clock();
  {
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {"", t.host});
    ASSERT_TRUE(h.stub().UpdateSettings(&ctx, up, &out).ok());
  }
  EXPECT_EQ(out.settings().clock().initial_ms(), 0);
  EXPECT_EQ(out.settings().level(), v1::TABLE_LEVEL_ADVANCED);
  bool saw = false;
  while (!saw && reader->Read(&ev)) {
    if (ev.type() == "settings") {
      saw = true;
      EXPECT_EQ(ev.snapshot().settings().level(), v1::TABLE_LEVEL_ADVANCED);
    }
  }
  EXPECT_TRUE(saw);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.legal_moves_size(), 0);  // advanced level shows no moves

  // Delete: gone from views, lists and the log.
  v1::DeleteGameRequest del;
  del.set_game_id(t.id);
  v1::DeleteGameResponse dresp;
  {
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {"", t.seats[1]});
    EXPECT_EQ(h.stub().DeleteGame(&ctx, del, &dresp).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
  }
  {
    grpc::ClientContext ctx;
    GameStateHarness::Attach(ctx, {"", t.host});
    ASSERT_TRUE(h.stub().DeleteGame(&ctx, del, &dresp).ok());
  }
  while (reader->Read(&ev)) {
  }
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(h.Get(t.id, &v).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.events WHERE game_id = '" + t.id + "'"), 0);
  v1::ListGamesResponse list;
  grpc::ClientContext lctx;
  common::SetDeadline(lctx, absl::Seconds(5));
  v1::ListGamesRequest lreq;
  lreq.set_include_finished(true);
  ASSERT_TRUE(h.stub().ListGames(&lctx, lreq, &list).ok());
  for (const auto& g : list.games()) EXPECT_NE(g.game_id(), t.id);

  // Rated games cannot be deleted.
  v1::CreateTableRequest req;
  req.mutable_settings()->set_engine_game("chess");
  req.mutable_settings()->set_rated(true);
  req.add_seats()->set_kind(v1::SEAT_KIND_HUMAN);
  req.add_seats()->set_kind(v1::SEAT_KIND_HUMAN);
  v1::CreateTableResponse resp;
  ASSERT_TRUE(h.Create(req, &resp, {"", "", "arena"}).ok());
  del.set_game_id(resp.game_id());
  grpc::ClientContext ctx;
  GameStateHarness::Attach(ctx, {"", resp.host_credential()});
  EXPECT_EQ(h.stub().DeleteGame(&ctx, del, &dresp).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
}

TEST(GameStateRulesTest, WatchStreamsSnapshotThenEventsAndResumes) {
  if (!HasChess()) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  auto t = h.NewTable("chess", 2);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  int w = White(v), b = 1 - w;
  grpc::ClientContext ctx;
  common::SetDeadline(ctx, absl::Seconds(20));
  v1::WatchGameRequest req;
  req.set_game_id(t.id);
  auto reader = h.stub().WatchGame(&ctx, req);
  v1::GameEvent ev;
  ASSERT_TRUE(reader->Read(&ev));
  ASSERT_EQ(ev.type(), "snapshot");
  int64_t last = ev.sequence();
  EXPECT_EQ(ev.snapshot().position(), v.position());
  ASSERT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "e2e4", 0, {t.seats[w]}).ok());
  ASSERT_TRUE(h.Submit(t.id, b, v1::ACTION_KIND_MOVE, "e7e5", 1, {t.seats[b]}).ok());
  std::vector<std::string> moves;
  while (moves.size() < 2 && reader->Read(&ev)) {
    if (ev.type() == "keepalive") continue;
    EXPECT_EQ(ev.sequence(), last + 1);
    last = ev.sequence();
    if (ev.type() == "action") moves.push_back(ev.action());
  }
  EXPECT_EQ(moves, (std::vector<std::string>{"e2e4", "e7e5"}));
  ctx.TryCancel();
  reader->Finish();

  // Resume from a sequence: the backlog from there, in order.
  grpc::ClientContext ctx2;
  common::SetDeadline(ctx2, absl::Seconds(20));
  req.set_from_sequence(last);
  auto again = h.stub().WatchGame(&ctx2, req);
  ASSERT_TRUE(again->Read(&ev));
  EXPECT_EQ(ev.sequence(), last);
  EXPECT_EQ(ev.action(), "e7e5");
  // Keep-alives arrive while nothing happens.
  bool keepalive = false;
  for (int i = 0; i < 5 && !keepalive && again->Read(&ev); ++i)
    keepalive = ev.type() == "keepalive";
  EXPECT_TRUE(keepalive);
  ctx2.TryCancel();
  again->Finish();

  // A spectator delay of one move holds back the latest move.
  grpc::ClientContext ctx3;
  common::SetDeadline(ctx3, absl::Seconds(20));
  v1::WatchGameRequest delayed;
  delayed.set_game_id(t.id);
  delayed.set_delay_moves(1);
  auto late = h.stub().WatchGame(&ctx3, delayed);
  std::vector<std::string> seen;
  ASSERT_TRUE(late->Read(&ev));
  EXPECT_EQ(ev.type(), "snapshot");
  EXPECT_TRUE(ev.snapshot().position().empty());
  ASSERT_TRUE(h.Submit(t.id, w, v1::ACTION_KIND_MOVE, "g1f3", 2, {t.seats[w]}).ok());
  while (seen.size() < 2 && late->Read(&ev)) {
    if (ev.type() == "action") seen.push_back(ev.action());
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"e2e4", "e7e5"}));  // g1f3 is still held back
  ctx3.TryCancel();
  late->Finish();
}

}  // namespace
}  // namespace arena::testing
