// Watch streams, presence, keepalives and pings.
#include "services/game_state/live_game.h"

namespace arena::game_state {

// --- Watching, presence, pings ---------------------------------------------------------------

absl::StatusOr<uint64_t> GameStateCore::Watch(const Caller& caller, const v1::WatchGameRequest& req,
                                              EventSink* sink) {
  if (req.from_sequence() < 0 || req.delay_moves() < 0 || req.delay_moves() > 1000) {
    return absl::InvalidArgumentError(
        "from_sequence and delay_moves must be small non-negative numbers");
  }
  auto found = Find(req.game_id());
  if (!found.ok()) return found.status();
  std::shared_ptr<Game> gp = *std::move(found);
  Game& g = *gp;
  std::lock_guard<std::mutex> lock(g.mu);
  Caller c = caller;
  if (c.seat_credential.empty()) c.seat_credential = req.seat_credential();
  int seat;
  if (!MayWatch(g, c, &seat))
    return absl::PermissionDeniedError("a private game: seat or host credential needed");
  uint64_t handle = next_watch_++;
  std::lock_guard<std::mutex> wlock(g.watch_mu);
  Watcher w;
  w.sink = sink;
  w.seat = seat;
  w.delay_moves = req.delay_moves();
  if (req.from_sequence() == 0 && req.delay_moves() == 0) {
    // The stream goes on after the last event that is durable, not after the last one applied:
    // an action applied while its write is under way is in the view but not yet in `committed`
    // (nor in a GetRecord read now), and reaches this watcher when its write completes. Starting
    // after next_seq - 1 would lose it from both (a watcher's move list missed it).
    const int64_t durable = g.committed.empty() ? -1 : g.committed.back()->event().sequence();
    v1::GameEvent snap;
    snap.set_type("snapshot");
    snap.set_sequence(durable);
    snap.set_seat(seat);
    *snap.mutable_snapshot() = View(g, true, nullptr);
    sink->Push(Share(std::move(snap)));
    w.after_seq = durable;
  } else {
    if (req.delay_moves() > 0) {
      v1::GameEvent snap;
      snap.set_type("snapshot");
      snap.set_sequence(-1);
      v1::GameView v = View(g, false, nullptr);
      v.clear_position();
      v.clear_rendering();
      v.clear_legal_moves();
      *snap.mutable_snapshot() = v;
      sink->Push(Share(std::move(snap)));
    }
    for (const auto& ev : g.committed) {
      if (ev->event().sequence() < req.from_sequence()) continue;
      w.held.push_back(ev);
      if (IsMoveEvent(ev->event())) w.held_moves++;
    }
    w.after_seq = g.committed.empty() ? -1 : g.committed.back()->event().sequence();
    DrainHeld(w, IsTerminalStatus(g.status));
  }
  if (IsTerminalStatus(g.status)) {
    sink->Close(absl::OkStatus());
    w.closed = true;
  }
  g.watchers.emplace(handle, std::move(w));
  if (seat >= 0) {
    g.seats[seat].presence++;
    ArmTimers(gp);
  }
  return handle;
}

void GameStateCore::Unwatch(const std::string& game_id, uint64_t handle) {
  std::shared_ptr<Game> gp;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    auto it = games_.find(game_id);
    if (it == games_.end()) return;
    gp = it->second;
  }
  std::lock_guard<std::mutex> lock(gp->mu);
  int seat = -1;
  {
    std::lock_guard<std::mutex> wlock(gp->watch_mu);
    auto it = gp->watchers.find(handle);
    if (it == gp->watchers.end()) return;
    seat = it->second.seat;
    gp->watchers.erase(it);
  }
  if (seat >= 0) {
    SeatState& s = gp->seats[seat];
    if (--s.presence == 0) s.absent_since = absl::Now();
    ArmTimers(gp);
  }
}

void GameStateCore::Keepalive() {
  if (shutting_down_) return;
  std::vector<std::shared_ptr<Game>> all;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    for (auto& [id, g] : games_) all.push_back(g);
  }
  absl::Time now = absl::Now();
  for (auto& g : all) {
    std::lock_guard<std::mutex> lock(g->mu);
    std::lock_guard<std::mutex> wlock(g->watch_mu);
    if (g->watchers.empty()) continue;
    v1::GameEvent keepalive_event;
    keepalive_event.set_type("keepalive");
    keepalive_event.set_sequence(g->committed.empty() ? -1
                                                      : g->committed.back()->event().sequence());
    SharedMessage keepalive = Share(keepalive_event);
    for (auto& [h, w] : g->watchers) {
      if (w.closed) continue;
      if (w.seat >= 0) {
        int64_t id = next_ping_++;
        v1::GameEvent ping = keepalive_event;
        ping.set_type("ping");
        ping.set_ping_id(id);
        ping.set_seat(w.seat);
        auto& pings = g->seats[w.seat].pings;
        pings[id] = now;
        while (pings.size() > 16) pings.erase(pings.begin());
        w.sink->Push(Share(std::move(ping)));
      } else {
        w.sink->Push(keepalive);
      }
    }
  }
  timers_.Schedule(absl::Now() + options_.keepalive, [this] { Keepalive(); });
}

absl::Status GameStateCore::Pong(const Caller& caller, const v1::PongRequest& req) {
  auto found = Find(req.game_id());
  if (!found.ok()) return found.status();
  std::shared_ptr<Game> gp = *std::move(found);
  std::lock_guard<std::mutex> lock(gp->mu);
  if (req.seat() < 0 || req.seat() >= gp->n()) return absl::InvalidArgumentError("no such seat");
  SeatState& s = gp->seats[req.seat()];
  if (caller.seat_credential.empty())
    return absl::UnauthenticatedError("missing x-arena-seat-credential");
  if (!hasher_.Matches(caller.seat_credential, s.credential_hash))
    return absl::PermissionDeniedError("not this seat's credential");
  auto it = s.pings.find(req.ping_id());
  if (it == s.pings.end()) return absl::NotFoundError("unknown or expired ping");
  s.rtt_us = absl::ToInt64Microseconds(absl::Now() - it->second);
  s.pings.erase(s.pings.begin(), std::next(it));
  return absl::OkStatus();
}

}  // namespace arena::game_state
