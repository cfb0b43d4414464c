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
#include "clients/game_watch.h"
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
  v1::WatchGameRequest watch;
  watch.set_game_id(id);
  clients::GameWatch stream(*gs, watch);  // follows a replica's redirect to the game's owner
  // arena plays the seats; a stream without moves means it is not playing them.
  std::atomic<int64_t> last_event_ns{absl::GetCurrentTimeNanos()};
  std::atomic<bool> done{false}, stalled{false};
  std::thread watchdog([&] {
    while (!done) {
      absl::SleepFor(absl::Milliseconds(100));
      if (absl::Now() - absl::FromUnixNanos(last_event_ns.load()) > o.stall_timeout) {
        stalled = true;
        stream.Cancel();
        return;
      }
    }
  });
  int actions = 0;
  std::string ending;
  v1::GameEvent event;
  while (stream.Read(&event)) {
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
  stream.Cancel();
  watchdog.join();
  grpc::Status s = stream.Finish();
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

}  // namespace arena::arenactl
