#include "tools/arenactl/demo.h"

#include <cstdio>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "arena/v1/bot.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "engine/core/game.h"
#include "services/common/actions.h"
#include "services/common/grpc_util.h"
#include "services/common/service_auth.h"

namespace arena::arenactl {
int RunDemo(const DemoOptions& o) {
  auto variant = engine::Variant::Parse(o.variant);
  if (!variant.ok()) {
    std::fprintf(stderr, "arenactl demo: %s\n", std::string(variant.status().message()).c_str());
    return 2;
  }
  const engine::Game* game = engine::FindGame(o.game);
  if (game == nullptr) {
    std::fprintf(stderr, "arenactl demo: unknown game '%s'\n", o.game.c_str());
    return 2;
  }
  auto initial = game->NewInitialState(*variant);
  if (!initial.ok()) {
    std::fprintf(stderr, "arenactl demo: %s\n", std::string(initial.status().message()).c_str());
    return 2;
  }
  const int seats = (*initial)->NumSeats();
  auto gs = v1::GameStateService::NewStub(common::MakeChannel(o.game_state_addr));
  auto bot = v1::BotService::NewStub(common::MakeChannel(o.bot_addr));
  // arena-bot answers only the arena service.
  auto identity = common::ServiceIdentity::Load(o.secrets_dir, "arena");
  if (!identity.ok()) {
    std::fprintf(stderr, "arenactl demo: the arena service's credential: %s\n",
                 std::string(identity.status().message()).c_str());
    return 2;
  }
  bool bot_failed = false;

  v1::CreateTableRequest create;
  create.mutable_settings()->set_game(common::GameKindOfEngineId(o.game));
  create.mutable_settings()->set_engine_game(o.game);
  for (const auto& [k, v] : variant->options()) {
    (*create.mutable_settings()->mutable_variant()->mutable_options())[k] = v;
  }
  create.mutable_settings()->set_level(v1::TABLE_LEVEL_BEGINNER);
  create.mutable_settings()->set_is_public(true);
  for (int i = 0; i < seats; ++i) {
    auto* seat = create.add_seats();
    seat->set_kind(v1::SEAT_KIND_GUEST);
    seat->set_display_name("demo-bot-" + std::to_string(i));
  }
  v1::CreateTableResponse created;
  {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, o.timeout);
    grpc::Status s = gs->CreateTable(&ctx, create, &created);
    if (!s.ok()) {
      std::fprintf(stderr, "arenactl demo: create table: %s\n", s.error_message().c_str());
      return 1;
    }
  }
  std::vector<std::string> creds;
  for (int i = 0; i < seats; ++i) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, o.timeout);
    v1::JoinTableRequest join;
    join.set_game_id(created.game_id());
    join.set_seat(i);
    join.set_display_name("demo-bot-" + std::to_string(i));
    v1::JoinTableResponse joined;
    grpc::Status s = gs->JoinTable(&ctx, join, &joined);
    if (!s.ok()) {
      std::fprintf(stderr, "arenactl demo: join seat %d: %s\n", i, s.error_message().c_str());
      return 1;
    }
    creds.push_back(joined.seat_credential());
  }
  std::printf("demo game %s (%s, %s): watch it with\n  arenactl watch %s\n",
              created.game_id().c_str(), o.game.c_str(), o.variant.c_str(),
              created.game_id().c_str());
  std::fflush(stdout);

  std::mt19937_64 rng(1);
  for (int n = 0; n < o.max_actions; ++n) {
    v1::GameView view;
    {
      grpc::ClientContext ctx;
      common::SetDeadline(ctx, o.timeout);
      v1::GetGameRequest get;
      get.set_game_id(created.game_id());
      grpc::Status s = gs->GetGame(&ctx, get, &view);
      if (!s.ok()) {
        std::fprintf(stderr, "arenactl demo: %s\n", s.error_message().c_str());
        return 1;
      }
    }
    if (view.status() != v1::GAME_STATUS_ACTIVE) {
      std::printf("demo game %s finished: %s %s\n", created.game_id().c_str(),
                  view.outcome().result_text().c_str(), view.outcome().reason().c_str());
      return 0;
    }
    const int seat = view.to_move();
    if (seat < 0 || seat >= seats || view.legal_moves().empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    // The bot plays the seat; should it be unreachable, a random legal move keeps the demo going.
    std::string move = view.legal_moves(rng() % view.legal_moves_size());
    {
      v1::ChooseMoveRequest ask;
      ask.set_game(common::GameKindOfEngineId(o.game));
      *ask.mutable_variant() = view.settings().variant();
      ask.set_position(view.position());
      ask.set_seat(view.seats(seat).engine_seat());
      ask.set_level(o.level);
      ask.set_seed(n);
      ask.set_time_cap_ms(2000);
      v1::ChooseMoveResponse answer;
      grpc::ClientContext ctx;
      common::SetDeadline(ctx, absl::Seconds(5));
      identity->Attach(ctx);
      const grpc::Status asked = bot->ChooseMove(&ctx, ask, &answer);
      if (asked.ok()) {
        move = answer.move().text();
      } else if (!bot_failed) {
        bot_failed = true;  // said once: the demo goes on with random legal moves
        std::fprintf(stderr, "arenactl demo: arena-bot: %s; playing random legal moves\n",
                     asked.error_message().c_str());
      }
    }
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, o.timeout);
    ctx.AddMetadata("x-arena-seat-credential", creds[seat]);
    v1::SubmitActionRequest act;
    act.set_game_id(created.game_id());
    act.set_seat(seat);
    act.set_kind(common::ActionKindOfText(move));
    act.mutable_move()->set_text(move);
    act.set_expected_action_number(view.action_number());
    v1::SubmitActionResponse done;
    grpc::Status s = gs->SubmitAction(&ctx, act, &done);
    if (!s.ok()) {
      std::fprintf(stderr, "arenactl demo: seat %d '%s': %s\n", seat, move.c_str(),
                   s.error_message().c_str());
      return 1;
    }
    std::printf("%4d  seat %d  %s\n", n + 1, seat, move.c_str());
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::milliseconds(o.move_delay_ms));
  }
  std::printf("demo game %s stopped after %d actions\n", created.game_id().c_str(), o.max_actions);
  return 0;
}

int RunWatch(const std::string& game_state_addr, const std::string& game_id, bool once) {
  if (game_id.empty()) {
    std::fprintf(stderr, "usage: arenactl watch GAME\n");
    return 2;
  }
  auto gs = v1::GameStateService::NewStub(common::MakeChannel(game_state_addr));
  grpc::ClientContext ctx;
  v1::WatchGameRequest req;
  req.set_game_id(game_id);
  auto stream = gs->WatchGame(&ctx, req);
  v1::GameEvent event;
  auto redraw = [&](const v1::GameView& view, const std::string& last) {
    std::printf("\033[H\033[2J%s\n\n%s  action %lld  to move: seat %d (%s)  %s\n",
                view.rendering().c_str(), game_id.c_str(),
                static_cast<long long>(view.action_number()), view.to_move(), view.phase().c_str(),
                last.c_str());
    if (view.status() != v1::GAME_STATUS_ACTIVE && view.status() != v1::GAME_STATUS_WAITING) {
      std::printf("finished: %s %s\n", view.outcome().result_text().c_str(),
                  view.outcome().reason().c_str());
    }
    std::fflush(stdout);
  };
  while (stream->Read(&event)) {
    if (event.has_snapshot()) {
      redraw(event.snapshot(), "");
      if (once) {
        ctx.TryCancel();
        break;
      }
      continue;
    }
    if (event.type() != "keepalive" && event.type() != "ping") {
      v1::GameView view;
      grpc::ClientContext gctx;
      common::SetDeadline(gctx, absl::Seconds(10));
      v1::GetGameRequest get;
      get.set_game_id(game_id);
      if (gs->GetGame(&gctx, get, &view).ok()) {
        std::string last = "last: seat " + std::to_string(event.seat()) + " " + event.action();
        if (!event.annotation().empty()) last += "  \"" + event.annotation() + "\"";
        redraw(view, last);
        if (view.status() == v1::GAME_STATUS_FINISHED) {
          ctx.TryCancel();
          break;
        }
      }
    }
  }
  grpc::Status s = stream->Finish();
  if (!s.ok() && s.error_code() != grpc::StatusCode::CANCELLED) {
    std::fprintf(stderr, "arenactl watch: %s\n", s.error_message().c_str());
    return 1;
  }
  return 0;
}

}  // namespace arena::arenactl
