#include "tools/arenactl/watch.h"

#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "clients/game_watch.h"
#include "common/grpc_util.h"
#include "nlohmann/json.hpp"
#include "tools/arenactl/client.h"

namespace arena::arenactl {
namespace {

constexpr char kClearScreen[] = "\033[H\033[2J";

}  // namespace

bool GameOver(const v1::GameView& view) {
  return view.status() == v1::GAME_STATUS_FINISHED || view.status() == v1::GAME_STATUS_ABORTED ||
         view.status() == v1::GAME_STATUS_VOIDED;
}

GameFollower::GameFollower(std::string game_id, std::string seat_credential)
    : game_id_(std::move(game_id)),
      seat_credential_(std::move(seat_credential)),
      game_state_(v1::GameStateService::NewStub(
          common::MakeChannel(absl::GetFlag(FLAGS_game_state_addr)))) {}

grpc::Status GameFollower::Fetch(int perspective) {
  grpc::ClientContext ctx;
  common::SetDeadline(ctx, absl::Milliseconds(absl::GetFlag(FLAGS_timeout_ms)));
  if (!seat_credential_.empty()) ctx.AddMetadata("x-arena-seat-credential", seat_credential_);
  v1::GetGameRequest get;
  get.set_game_id(game_id_);
  if (perspective >= 0) get.set_perspective(perspective);
  return game_state_->GetGame(&ctx, get, &view_);
}

bool GameFollower::Load(int perspective) {
  if (grpc::Status s = Fetch(perspective); !s.ok()) {
    PrintRpcError(s);
    return false;
  }
  grpc::ClientContext ctx;
  common::SetDeadline(ctx, absl::Seconds(20));
  if (!seat_credential_.empty()) ctx.AddMetadata("x-arena-seat-credential", seat_credential_);
  v1::GetRecordRequest req;
  req.set_game_id(game_id_);
  v1::GameRecord record;
  if (grpc::Status s = game_state_->GetRecord(&ctx, req, &record); !s.ok()) {
    PrintRpcError(s);
    return false;
  }
  for (const v1::GameEvent& e : record.events()) moves_.Add(e, view_);
  if (HasModelSeat()) RefreshModelTurns();
  return true;
}

bool GameFollower::Take(const v1::GameEvent& event, int perspective) {
  moves_.Add(event, view_);
  if (grpc::Status s = Fetch(perspective); !s.ok()) {
    PrintRpcError(s);
    return false;
  }
  if (IsModelAction(event)) RefreshModelTurns();
  return true;
}

bool GameFollower::HasModelSeat() const {
  for (const v1::SeatView& s : view_.seats()) {
    if (s.spec().kind() == v1::SEAT_KIND_MODEL) return true;
  }
  return false;
}

bool GameFollower::IsModelAction(const v1::GameEvent& e) const {
  return e.type() == "action" && e.seat() >= 0 && e.seat() < view_.seats_size() &&
         view_.seats(e.seat()).spec().kind() == v1::SEAT_KIND_MODEL;
}

void GameFollower::RefreshModelTurns() {
  // Arena keeps each model turn's attempts (the gateway's calls); a watcher without arena
  // still sees the moves and their reasoning.
  ArenaClient arena;
  v1::ExportGameRequest req;
  req.set_game_id(game_id_);
  v1::ExportGameResponse resp;
  if (!arena.Try(&Stub::ExportGame, req, &resp).ok()) return;
  auto j = nlohmann::json::parse(resp.json(), nullptr, false);
  if (!j.is_object() || !j.contains("model_turns") || !j["model_turns"].is_array()) return;
  for (const auto& turn : j["model_turns"]) {
    if (!turn.is_object() || !turn.contains("attempts") || !turn["attempts"].is_array()) continue;
    ModelTurn t;
    for (const auto& a : turn["attempts"]) {
      t.attempt_labels.push_back(a.is_object() ? a.value("label", std::string("?")) : "?");
    }
    moves_.SetModelTurn(turn.value("action_number", int64_t{-1}), std::move(t));
  }
}

int RunWatch(const std::string& game_id, const WatchOptions& o) {
  if (game_id.empty()) {
    std::fprintf(stderr, "usage: arenactl watch GAME [--once] [--coords] [--seat=N]\n");
    return 2;
  }
  // Terminal codes only for a terminal and only when following; a file or a pipe gets plain
  // text.
  const bool terminal = isatty(STDOUT_FILENO) != 0 && !o.once;
  GameFollower game(game_id, "");
  if (!game.Load(o.seat)) return 1;
  FrameOptions frame;
  frame.coordinates = o.coordinates;
  frame.move_lines = terminal ? 12 : 0;
  auto draw = [&] {
    frame.now = absl::Now();
    std::printf("%s%s", terminal ? kClearScreen : "",
                Frame(game.view(), game.moves(), frame).c_str());
    std::fflush(stdout);
  };
  draw();
  if (o.once || GameOver(game.view())) return 0;
  if (!terminal) std::printf("following; one line per event:\n");

  // The stream is read on its own thread; the main one draws, and ticks the clock each second.
  // With several game-state replicas the stream may be redirected to the game's owner.
  v1::WatchGameRequest req;
  req.set_game_id(game_id);
  req.set_from_sequence(game.moves().last_sequence() + 1);
  clients::GameWatch stream(game.game_state(), req);
  std::mutex mu;
  std::condition_variable cv;
  std::deque<v1::GameEvent> queue;
  bool ended = false;
  std::thread reader([&] {
    v1::GameEvent e;
    while (stream.Read(&e)) {
      std::lock_guard<std::mutex> lock(mu);
      queue.push_back(e);
      cv.notify_one();
    }
    std::lock_guard<std::mutex> lock(mu);
    ended = true;
    cv.notify_one();
  });
  int code = 0;
  while (true) {
    std::deque<v1::GameEvent> batch;
    bool stream_ended = false;
    {
      std::unique_lock<std::mutex> lock(mu);
      cv.wait_for(lock, std::chrono::seconds(1), [&] { return !queue.empty() || ended; });
      batch.swap(queue);
      stream_ended = ended;
    }
    bool changed = false;
    for (const v1::GameEvent& e : batch) {
      if (e.type() == "keepalive" || e.type() == "ping" || e.has_snapshot()) continue;
      const std::string before = game.moves().LastLine();
      if (!game.Take(e, o.seat)) {
        code = 1;
        break;
      }
      changed = true;
      const std::string after = game.moves().LastLine();
      if (!terminal && after != before) std::printf("%s\n", after.c_str());
    }
    if (code != 0) break;
    if (terminal && (changed || !batch.empty() || !GameOver(game.view()))) draw();
    if (!terminal) std::fflush(stdout);
    if (GameOver(game.view())) break;
    if (stream_ended && queue.empty()) {
      // The stream ended without the game's end: read the view once more to say why.
      if (game.Fetch(o.seat).ok() && GameOver(game.view())) break;
      std::fprintf(stderr, "arenactl watch: the stream ended before the game did\n");
      code = 1;
      break;
    }
  }
  stream.Cancel();
  reader.join();
  grpc::Status s = stream.Finish();
  if (code == 0 && GameOver(game.view())) {
    if (!terminal) {
      std::printf("\n");
      draw();
    }
    return 0;
  }
  if (code == 0 && !s.ok() && s.error_code() != grpc::StatusCode::CANCELLED) {
    PrintRpcError(s);
    return 1;
  }
  return code;
}

}  // namespace arena::arenactl
