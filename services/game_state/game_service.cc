// GameStateCore: construction, recovery, finding games, events and their grouped commits.
#include "services/common/metrics.h"
#include "services/game_state/live_game.h"

namespace arena::game_state {
namespace {

// Where a game's owner serves, attached to the status of a call that reached another replica.
constexpr char kOwnerAddressPayload[] = "type.chestonia.arena/game_state.OwnerAddress";

}  // namespace

// The message's form "… is served by replica R at HOST:PORT" is read by clients that follow a
// WatchGame redirect (clients::RedirectedTo): keep it.
absl::Status OwnedElsewhere(const std::string& game_id, const LeaseClaim& claim) {
  absl::Status s = absl::UnavailableError(
      claim.owner_address.empty()
          ? absl::StrCat("game ", game_id, " is served by replica ", claim.owner,
                         ", whose address is not known yet; retry")
          : absl::StrCat("game ", game_id, " is served by replica ", claim.owner, " at ",
                         claim.owner_address));
  if (!claim.owner_address.empty()) {
    s.SetPayload(kOwnerAddressPayload, absl::Cord(claim.owner_address));
  }
  return s;
}

std::optional<std::string> OwnerAddressOf(const absl::Status& status) {
  auto address = status.GetPayload(kOwnerAddressPayload);  // absl::optional in Debian's abseil
  if (!address) return std::nullopt;
  return std::string(*address);
}

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
  if (options_.lease_renew_every > absl::ZeroDuration()) {
    lease_thread_ = std::thread([this] { LeaseLoop(); });
  }
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
  {
    std::lock_guard<std::mutex> lock(lease_mu_);
    lease_stop_ = true;
  }
  lease_cv_.notify_all();
  if (lease_thread_.joinable()) lease_thread_.join();
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
  size_t recovered = 0;
  size_t elsewhere = 0;
  for (const std::string& id : *ids) {
    auto g = Load(id);
    if (g.ok()) {
      recovered++;
    } else if (OwnerAddressOf(g.status()) || absl::IsUnavailable(g.status())) {
      elsewhere++;  // another live replica serves it
    } else {
      LogError("game not recovered",
               {{"game_id", id}, {"error", std::string(g.status().message())}});
    }
  }
  LogInfo("games recovered", {{"count", recovered}, {"served_elsewhere", elsewhere}});
  return absl::OkStatus();
}

void GameStateCore::ReleaseLeases() {
  std::vector<std::pair<std::string, int64_t>> held;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    for (auto& [id, g] : games_) {
      if (g->lease_epoch > 0) held.emplace_back(id, g->lease_epoch);
    }
  }
  absl::Status s = store_->ReleaseLeases(held);
  if (!s.ok()) {
    LogError("leases not released; other replicas take the games when they expire",
             {{"games", held.size()}, {"error", std::string(s.message())}});
  }
}

absl::StatusOr<std::shared_ptr<GameStateCore::Game>> GameStateCore::Find(
    const std::string& game_id) {
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    auto it = games_.find(game_id);
    if (it != games_.end()) {
      if (it->second->deleted) return absl::NotFoundError("no such game");
      return it->second;
    }
  }
  auto loaded = Load(game_id);
  if (loaded.ok()) return loaded;
  // Served by another replica, or its lease could not be taken now: the caller may retry.
  if (absl::IsUnavailable(loaded.status())) return loaded.status();
  return absl::NotFoundError("no such game");
}

void GameStateCore::Drop(const std::shared_ptr<Game>& game, const absl::Status& why) {
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    auto it = games_.find(game->id);
    if (it != games_.end() && it->second == game) games_.erase(it);
  }
  {
    std::lock_guard<std::mutex> lock(game->mu);
    if (game->clock_timer) timers_.Cancel(game->clock_timer);
    if (game->presence_timer) timers_.Cancel(game->presence_timer);
    game->clock_timer = game->presence_timer = 0;
    game->clock_gen++;
    game->presence_gen++;
  }
  std::lock_guard<std::mutex> lock(game->watch_mu);
  for (auto& [h, w] : game->watchers) {
    if (!w.closed) w.sink->Close(why);
    w.closed = true;
  }
}

// --- Leases -----------------------------------------------------------------------------------

void GameStateCore::LeaseLoop() {
  std::unique_lock<std::mutex> lock(lease_mu_);
  while (!lease_stop_) {
    lease_cv_.wait_for(lock, absl::ToChronoMilliseconds(options_.lease_renew_every),
                       [this] { return lease_stop_; });
    if (lease_stop_) break;
    lock.unlock();
    RenewLeases();
    lock.lock();
  }
}

void GameStateCore::RenewLeases() {
  std::vector<std::pair<std::string, int64_t>> held;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    for (auto& [id, g] : games_) {
      if (g->lease_epoch > 0) held.emplace_back(id, g->lease_epoch);
    }
  }
  auto lost = store_->RenewLeases(held);
  if (!lost.ok()) {
    LogWarning("leases not renewed",
               {{"games", held.size()}, {"error", std::string(lost.status().message())}});
    return;
  }
  for (const std::string& id : *lost) {
    std::shared_ptr<Game> g;
    {
      std::lock_guard<std::mutex> lock(games_mu_);
      auto it = games_.find(id);
      if (it != games_.end()) g = it->second;
    }
    auto was = std::find_if(held.begin(), held.end(), [&](const auto& h) { return h.first == id; });
    // Only the game at the epoch that was lost: it may have been reloaded since.
    if (!g || was == held.end() || g->lease_epoch != was->second) continue;
    LogWarning("game taken over by another replica", {{"game_id", id}});
    Drop(g, absl::UnavailableError("game moved to another replica; watch it again"));
  }
  auto orphans = store_->OrphanedGameIds();
  if (!orphans.ok()) return;
  for (const std::string& id : *orphans) {
    if (shutting_down_) return;
    if (not_adoptable_.count(id) > 0) continue;
    {
      std::lock_guard<std::mutex> lock(games_mu_);
      if (games_.count(id) > 0) continue;
    }
    auto g = Load(id);
    if (g.ok()) {
      LogInfo("game taken over", {{"game_id", id}});
    } else if (!absl::IsUnavailable(g.status()) && !absl::IsNotFound(g.status())) {
      LogError("orphaned game not taken over",
               {{"game_id", id}, {"error", std::string(g.status().message())}});
      not_adoptable_.insert(id);
    }
  }
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
  item.lease_epoch = g->lease_epoch;
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
        // The in-memory game is ahead of the log (or its lease is gone): drop it; the next
        // call reloads it, or reaches the replica that took it.
        Drop(game, absl::UnavailableError(absl::IsFailedPrecondition(s)
                                              ? "game moved to another replica; watch it again"
                                              : "game reloading"));
      }
    }
    if (done)
      done(s.ok() ? s : absl::UnavailableError(absl::StrCat("not committed: ", s.message())));
  };
  store_->Enqueue(std::move(item));
}

}  // namespace arena::game_state
