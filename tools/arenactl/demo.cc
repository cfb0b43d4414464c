#include "tools/arenactl/demo.h"

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arena/v1/bot.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "clients/game_state_client.h"
#include "common/board_view_proto.h"
#include "common/grpc_util.h"
#include "common/proto_words.h"
#include "engine/core/game.h"
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
    std::string games;
    for (const engine::Game* g : engine::AllGames()) games += " " + std::string(g->Id());
    std::fprintf(stderr, "arenactl demo: name a game with --demo_game (got '%s'); games:%s\n",
                 o.game.c_str(), games.c_str());
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
      ask.set_engine_game(o.game);
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
    grpc::Status s = clients::GameStateClient::SubmitOn(
        *gs, clients::SeatAction(created.game_id(), seat, move, view.action_number()),
        clients::Credentials{.seat = creds[seat]}, o.timeout, nullptr);
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

std::string WatchFrame(const v1::GameView& view, const WatchOptions& o, const std::string& last) {
  std::string out;
  engine::BoardView board = common::FromProto(view.board());
  const bool has_board = !board.cells.empty();
  if (has_board) {
    out += engine::DrawBoardText(board, o.coordinates);
  } else {
    out += view.rendering();
  }
  // Who sits where: the game's own seat names (by engine seat) and what plays each seat.
  auto seat_name = [&](int engine_seat) -> std::string {
    if (engine_seat >= 0 && engine_seat < static_cast<int>(board.seats.size()))
      return board.seats[engine_seat].name;
    return absl::StrCat("seat ", engine_seat);
  };
  for (const v1::SeatView& s : view.seats()) {
    const v1::SeatSpec& spec = s.spec();
    std::string who = spec.display_name();
    if (spec.kind() == v1::SEAT_KIND_BOT) {
      absl::StrAppend(&who, who.empty() ? "" : " ", "(bot level ", spec.bot_level(), ")");
    } else if (spec.kind() == v1::SEAT_KIND_MODEL) {
      absl::StrAppend(&who, who.empty() ? "" : " ", "(model ", spec.model_id(), ")");
    } else if (who.empty()) {
      who = s.filled() ? "(person)" : "(open)";
    }
    const bool to_move = view.status() == v1::GAME_STATUS_ACTIVE && view.to_move() == s.seat();
    absl::StrAppend(&out, to_move ? "> " : "  ", seat_name(s.engine_seat()), ": ", who);
    if (s.clock_remaining_ms() > 0) {
      absl::StrAppend(&out, "  ", s.clock_remaining_ms() / 60000, ":",
                      absl::StrFormat("%02d", (s.clock_remaining_ms() / 1000) % 60));
    }
    out += '\n';
  }
  absl::StrAppend(&out, view.game_id(), "  ", view.engine_game(), "  action ",
                  view.action_number());
  if (view.status() == v1::GAME_STATUS_ACTIVE && view.to_move() >= 0 &&
      view.to_move() < view.seats_size()) {
    absl::StrAppend(&out, "  to act: ", seat_name(view.seats(view.to_move()).engine_seat()), " (",
                    view.phase(), ")");
  }
  out += '\n';
  if (!last.empty()) absl::StrAppend(&out, last, "\n");
  if (view.status() != v1::GAME_STATUS_ACTIVE && view.status() != v1::GAME_STATUS_WAITING) {
    absl::StrAppend(&out, "finished: ", view.outcome().result_text(), " (", view.outcome().reason(),
                    ")\n");
  }
  return out;
}

int RunWatch(const std::string& game_state_addr, const std::string& game_id,
             const WatchOptions& o) {
  if (game_id.empty()) {
    std::fprintf(stderr, "usage: arenactl watch GAME [--once] [--coords] [--seat=N]\n");
    return 2;
  }
  // Clear-screen codes only for a terminal; a file or a pipe gets plain frames one after
  // another.
  const bool terminal = isatty(STDOUT_FILENO) != 0;
  auto gs = v1::GameStateService::NewStub(common::MakeChannel(game_state_addr));
  grpc::ClientContext ctx;
  v1::WatchGameRequest req;
  req.set_game_id(game_id);
  auto stream = gs->WatchGame(&ctx, req);
  v1::GameEvent event;
  auto fetch = [&](v1::GameView* view) {
    grpc::ClientContext gctx;
    common::SetDeadline(gctx, absl::Seconds(10));
    v1::GetGameRequest get;
    get.set_game_id(game_id);
    if (o.seat >= 0) get.set_perspective(o.seat);
    return gs->GetGame(&gctx, get, view).ok();
  };
  auto redraw = [&](const v1::GameView& view, const std::string& last) {
    std::printf("%s%s\n", terminal ? "\033[H\033[2J" : "", WatchFrame(view, o, last).c_str());
    std::fflush(stdout);
  };
  while (stream->Read(&event)) {
    if (event.has_snapshot() && event.type() != "settings") {
      v1::GameView view = event.snapshot();
      if (o.seat >= 0) fetch(&view);  // the snapshot is drawn from the first seat's edge
      redraw(view, "");
      if (o.once) {
        ctx.TryCancel();
        break;
      }
      continue;
    }
    if (event.type() != "keepalive" && event.type() != "ping") {
      v1::GameView view;
      if (fetch(&view)) {
        std::string last;
        if (!event.action().empty()) {
          last = absl::StrCat("last: ", event.type(), " ", event.action());
          if (!event.annotation().empty()) absl::StrAppend(&last, "  \"", event.annotation(), "\"");
        }
        redraw(view, last);
        if (view.status() != v1::GAME_STATUS_ACTIVE && view.status() != v1::GAME_STATUS_WAITING) {
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
