// GameStateCore: construction, recovery, finding games, events and their grouped commits.
#include "services/common/metrics.h"
#include "services/game_state/live_game.h"

namespace arena::game_state {

const std::string& WatchMessage::Wire() const {
  std::call_once(serialised_, [this] { event_.SerializeToString(&wire_); });
  return wire_;
}

// --- Construction, recovery -----------------------------------------------------------------

GameStateCore::GameStateCore(EventLog* store, CredentialHasher hasher, CoreOptions options)
    : store_(store), hasher_(std::move(hasher)), options_(options) {
  timers_.Schedule(absl::Now() + options_.keepalive, [this] { Keepalive(); });
  auto& metrics = common::MetricsRegistry::Global();
  metrics.GaugeFunction(
      "arena_game_state_games_in_memory",
      "Games this game-state holds in memory (live ones, and finished ones still read).", [this] {
        std::lock_guard<std::mutex> lock(games_mu_);
        return static_cast<double>(games_.size());
      });
  metrics.GaugeFunction("arena_game_state_games_live",
                        "Games in memory that are waiting for seats or in play (not over).",
                        [this] { return static_cast<double>(LiveGames()); });
}

GameStateCore::~GameStateCore() {
  // The server stops its metrics port before this core goes (RunServer), so no scrape is
  // under way; the functions are unset so that none can call into a core that is gone.
  auto& metrics = common::MetricsRegistry::Global();
  metrics.GaugeFunction("arena_game_state_games_in_memory", "", nullptr);
  metrics.GaugeFunction("arena_game_state_games_live", "", nullptr);
  Shutdown();
}

int64_t GameStateCore::LiveGames() {
  std::vector<std::shared_ptr<Game>> all;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    for (auto& [id, g] : games_) all.push_back(g);
  }
  int64_t live = 0;
  for (const auto& g : all) {  // one game lock at a time, none under games_mu_
    std::lock_guard<std::mutex> lock(g->mu);
    live += !g->deleted && !IsTerminalStatus(g->status);
  }
  return live;
}

void GameStateCore::Shutdown() {
  if (shutting_down_.exchange(true)) return;
  timers_.Stop();
  std::vector<std::shared_ptr<Game>> all;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    for (auto& [id, g] : games_) all.push_back(g);
  }
  for (auto& g : all) {
    std::lock_guard<std::mutex> lock(g->watch_mu);
    for (auto& [h, w] : g->watchers) {
      if (!w.closed) w.sink->Close(absl::UnavailableError("server shutting down"));
      w.closed = true;
    }
  }
}

absl::Status GameStateCore::Recover() {
  auto ids = store_->UnfinishedGameIds();
  if (!ids.ok()) return ids.status();
  for (const std::string& id : *ids) {
    auto g = Load(id);
    if (!g.ok()) {
      LogError("game not recovered",
               {{"game_id", id}, {"error", std::string(g.status().message())}});
    }
  }
  LogInfo("games recovered", {{"count", ids->size()}});
  return absl::OkStatus();
}

std::shared_ptr<GameStateCore::Game> GameStateCore::Find(const std::string& game_id) {
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    auto it = games_.find(game_id);
    if (it != games_.end()) return it->second->deleted ? nullptr : it->second;
  }
  auto loaded = Load(game_id);
  return loaded.ok() ? *loaded : nullptr;
}

// --- Events and commits ----------------------------------------------------------------------

StoredEvent GameStateCore::NewEvent(Game& g, std::string type, int seat) {
  StoredEvent e;
  e.game_id = g.id;
  e.seq = g.next_seq++;
  e.at = absl::Now();
  e.type = std::move(type);
  e.seat = seat;
  return e;
}

nlohmann::json GameStateCore::ClockReadings(const Game& g) const {
  nlohmann::json clocks = nlohmann::json::array();
  for (const SeatState& s : g.seats) clocks.push_back(s.remaining_ms);
  return clocks;
}

void GameStateCore::Commit(const std::shared_ptr<Game>& g, std::vector<StoredEvent> events,
                           std::vector<RowChange> changes, std::function<void(absl::Status)> done) {
  // Build what watchers will see now, under the game lock, so settings snapshots are exact.
  std::vector<SharedMessage> protos;
  for (const StoredEvent& e : events) {
    v1::GameEvent ev = ToProto(e);
    if (e.type == "settings" || e.type == "leader")
      *ev.mutable_snapshot() = View(*g, false, nullptr);
    protos.push_back(Share(std::move(ev)));
  }
  WriteItem item;
  item.game_id = g->id;
  item.changes = std::move(changes);
  item.events = std::move(events);
  std::weak_ptr<Game> weak = g;
  item.done = [this, weak, protos = std::move(protos), done = std::move(done)](absl::Status s) {
    std::shared_ptr<Game> game = weak.lock();
    if (game) {
      if (s.ok()) {
        static common::Family<common::Counter>& committed =
            common::MetricsRegistry::Global().Counters("arena_game_state_events_committed_total",
                                                       "Game events made durable in the move log, "
                                                       "by type (action, chance, clock, end, ...).",
                                                       {"type"});
        for (const auto& ev : protos) committed.With({ev->event().type()}).Add();
        std::lock_guard<std::mutex> lock(game->watch_mu);
        for (const auto& ev : protos) {
          game->committed.push_back(ev);
          game->committed_seq = ev->event().sequence();
          bool final_event = IsFinalEvent(ev->event().type());
          bool move = IsMoveEvent(ev->event());
          for (auto& [h, w] : game->watchers) {
            if (w.closed || ev->event().sequence() <= w.after_seq) continue;
            w.held.push_back(ev);
            if (move) w.held_moves++;
            DrainHeld(w, final_event);
            if (final_event) {
              w.sink->Close(absl::OkStatus());
              w.closed = true;
            }
          }
        }
      } else {
        // The in-memory game is ahead of the log: drop it; the next call reloads it.
        {
          std::lock_guard<std::mutex> lock(games_mu_);
          auto it = games_.find(game->id);
          if (it != games_.end() && it->second == game) games_.erase(it);
        }
        std::lock_guard<std::mutex> lock(game->watch_mu);
        for (auto& [h, w] : game->watchers) {
          if (!w.closed) w.sink->Close(absl::UnavailableError("game reloading"));
          w.closed = true;
        }
      }
    }
    if (done)
      done(s.ok() ? s : absl::UnavailableError(absl::StrCat("not committed: ", s.message())));
  };
  store_->Enqueue(std::move(item));
}

}  // namespace arena::game_state
