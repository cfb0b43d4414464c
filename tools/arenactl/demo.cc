#include "tools/arenactl/demo.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "common/board_view_proto.h"
#include "common/grpc_util.h"
#include "common/proto_words.h"
#include "engine/core/game.h"
#include "tools/arenactl/client.h"

namespace arena::arenactl {
namespace {

int Fail(const char* what, const grpc::Status& s) {
  std::fprintf(stderr, "arenactl demo: %s: %s: %s\n", what, StatusName(s.error_code()).c_str(),
               s.error_message().c_str());
  return 1;
}

}  // namespace

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
  auto arena = v1::ArenaService::NewStub(common::MakeChannel(o.arena_addr));
  auto call = [&](auto method, const auto& req, auto* resp, const std::string& token) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, o.timeout);
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
    return ((*arena).*method)(&ctx, req, resp);
  };

  // Anyone may open a table of bots: the demo does it as a guest would, and arena plays it.
  std::string token = o.token;
  if (token.empty()) {
    v1::GuestTokenRequest guest;
    guest.set_display_name("demo");
    v1::SessionToken session;
    grpc::Status s = call(&v1::ArenaService::Stub::GuestToken, guest, &session, "");
    if (!s.ok()) return Fail("a guest token", s);
    token = session.token();
  }
  v1::ArenaCreateTableRequest create;
  create.mutable_settings()->set_engine_game(o.game);
  for (const auto& [k, v] : variant->options()) {
    (*create.mutable_settings()->mutable_variant()->mutable_options())[k] = v;
  }
  create.mutable_settings()->set_level(v1::TABLE_LEVEL_BEGINNER);
  create.mutable_settings()->set_is_public(true);
  for (int i = 0; i < seats; ++i) {
    v1::SeatSpec* seat = create.add_seats()->mutable_spec();
    seat->set_kind(v1::SEAT_KIND_BOT);
    seat->set_bot_level(o.level);
  }
  create.mutable_policy()->set_min_bot_turn_ms(o.move_delay_ms);
  v1::ArenaCreateTableResponse created;
  if (grpc::Status s = call(&v1::ArenaService::Stub::CreateTable, create, &created, token);
      !s.ok()) {
    return Fail("create the table", s);
  }
  const std::string& id = created.game_id();
  std::printf("demo game %s (%s, %s): watch it with\n  arenactl watch %s\n", id.c_str(),
              o.game.c_str(), o.variant.c_str(), id.c_str());
  std::fflush(stdout);

  // Follow the game's stream and print each action, until the game ends or max_actions.
  auto gs = v1::GameStateService::NewStub(common::MakeChannel(o.game_state_addr));
  grpc::ClientContext ctx;
  v1::WatchGameRequest watch;
  watch.set_game_id(id);
  auto stream = gs->WatchGame(&ctx, watch);
  // arena plays the seats; a stream without moves means it is not playing them.
  std::atomic<int64_t> last_event_ns{absl::GetCurrentTimeNanos()};
  std::atomic<bool> done{false}, stalled{false};
  std::thread watchdog([&] {
    while (!done) {
      absl::SleepFor(absl::Milliseconds(100));
      if (absl::Now() - absl::FromUnixNanos(last_event_ns.load()) > o.stall_timeout) {
        stalled = true;
        ctx.TryCancel();
        return;
      }
    }
  });
  int actions = 0;
  std::string ending;
  v1::GameEvent event;
  while (stream->Read(&event)) {
    if (event.type() == "action") {
      last_event_ns = absl::GetCurrentTimeNanos();  // keep-alives do not count: moves do
      std::printf("%4lld  seat %d  %s\n", static_cast<long long>(event.action_number() + 1),
                  event.seat(), event.action().c_str());
      std::fflush(stdout);
      if (++actions >= o.max_actions) {
        ending = absl::StrFormat(
            "demo game %s: stopped following after %d actions (arena plays on)", id, actions);
        break;
      }
    }
    if (event.type() == "ended" || event.type() == "aborted" || event.type() == "voided") {
      ending = absl::StrFormat("demo game %s finished (%s)", id, event.type());
      break;
    }
  }
  done = true;
  ctx.TryCancel();
  watchdog.join();
  grpc::Status s = stream->Finish();
  if (stalled) {
    std::fprintf(stderr, "arenactl demo: no move in %s: is arena playing the bot seats?\n",
                 absl::FormatDuration(o.stall_timeout).c_str());
    return 1;
  }
  if (ending.empty()) {
    if (!s.ok() && s.error_code() != grpc::StatusCode::CANCELLED) return Fail("watch", s);
    ending = absl::StrFormat("demo game %s: the stream ended", id);
  }
  std::printf("%s\n", ending.c_str());
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
