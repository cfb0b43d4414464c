// GameStateCore: the business logic of arena-game-state, free of gRPC.
//
// It keeps every live game in memory (engine state, seats, clocks, the committed event list
// that watchers read) behind a per-game mutex, so one writer acts on a game at a time. Every
// change becomes events appended through the group-commit EventLog (event_log.h); a caller's
// completion runs only after its events commit. Clocks run on one TimerQueue. Chance nodes are
// resolved right after the action that leads to them with the game's FairDraw. At start, Recover()
// rebuilds every unfinished game by replaying its events through the engine.
//
// Ownership (docs/game-state.md, "Ownership and replicas"): a game is in this core's memory
// only while this replica holds its lease in the log (EventLog::AcquireLease); every write
// carries the lease's epoch and the log refuses it once another replica took the game. A game
// asked for and not in memory is taken over (its lease, then its log replayed) when nobody
// live holds it; otherwise the call fails UNAVAILABLE with the owner's address attached
// (OwnerAddressOf), which the adapter forwards to. One thread renews the leases of the games
// in memory, drops those another replica took, and adopts games nobody serves.
//
// Seat mapping: the engine's seat order is fixed (engine seat 0 moves first). The table seat
// drawn (or fixed) as leader becomes engine seat 0 and the others follow clockwise:
// engine seat e is table seat (leader + e) mod n. Clients always speak table seats.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "arena/v1/game_state.pb.h"
#include "engine/core/game.h"
#include "services/chance/fair_rng.h"
#include "services/game_state/credentials.h"
#include "services/game_state/event_log.h"
#include "services/game_state/timer_queue.h"

namespace arena::game_state {

struct CoreOptions {
  absl::Duration first_move_abort = absl::Seconds(20);  // ranked: each side's first move
  absl::Duration disconnect_loss = absl::Seconds(60);   // ranked: gone while to move
  absl::Duration delay_credit_cap = absl::Seconds(1);   // network delay credited per move
  absl::Duration restart_grace = absl::Seconds(10);     // added to the mover's clock on restart
  absl::Duration keepalive = absl::Seconds(5);          // pings / keep-alives on watch streams
  size_t max_annotation_bytes = 4096;
  size_t max_void_reason_bytes = 200;
  size_t max_idempotency_key_bytes = 200;
  // How often the leases of the games in memory are renewed and orphaned games adopted; zero:
  // never (a log without leases, the unit tests).
  absl::Duration lease_renew_every = absl::ZeroDuration();
  // The only replica: a lease held by another replica (a predecessor killed without releasing
  // its leases) is taken at once rather than when it expires. False when replicas share the log.
  bool sole_replica = true;
};

// The address of the replica that owns the game, when `status` says the game is served there.
std::optional<std::string> OwnerAddressOf(const absl::Status& status);

// Who is calling, as the adapter found it in metadata.
struct Caller {
  bool arena = false;           // the `arena` service, by its service credential
  std::string other_service;    // another authenticated service
  std::string seat_credential;  // x-arena-seat-credential
  std::string host_credential;  // x-arena-host-credential
};

// One message of watch streams, shared by every watcher it goes to: the event, and its wire
// form, serialised on first use (from any thread) once for all of them instead of once per
// watcher. Immutable once made.
class WatchMessage {
 public:
  explicit WatchMessage(v1::GameEvent event) : event_(std::move(event)) {}
  const v1::GameEvent& event() const { return event_; }
  const std::string& Wire() const;

 private:
  v1::GameEvent event_;
  mutable std::once_flag serialised_;
  mutable std::string wire_;
};
using SharedMessage = std::shared_ptr<const WatchMessage>;

// Receives the events of one watched game (the adapter's stream reactor implements it).
// Push and Close are called with no game lock held on the caller's side except the game's
// watcher-list lock, and must not block.
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void Push(SharedMessage message) = 0;
  virtual void Close(absl::Status status) = 0;
};

template <typename T>
using Done = std::function<void(absl::StatusOr<T>)>;

class GameStateCore {
 public:
  GameStateCore(EventLog* store, CredentialHasher hasher, CoreOptions options);
  ~GameStateCore();

  // Rebuilds every unfinished game from its events and re-arms its clocks.
  absl::Status Recover();
  void Shutdown();  // closes every watch stream, stops timers and the lease thread
  // Ends the leases of every game in memory, so another replica takes them at once. Call it
  // after Shutdown() and after the log has committed what was queued.
  void ReleaseLeases();

  void CreateTable(const Caller& caller, const v1::CreateTableRequest& req,
                   Done<v1::CreateTableResponse> done);
  void JoinTable(const Caller& caller, const v1::JoinTableRequest& req,
                 Done<v1::JoinTableResponse> done);
  void SubmitAction(const Caller& caller, const v1::SubmitActionRequest& req,
                    Done<v1::SubmitActionResponse> done);
  absl::StatusOr<v1::GameView> GetGame(const Caller& caller, const v1::GetGameRequest& req);
  absl::StatusOr<v1::ListGamesResponse> ListGames(const v1::ListGamesRequest& req);
  // The other live replicas' addresses, whose games a listing gathers too; none for a sole
  // replica.
  absl::StatusOr<std::vector<std::string>> PeerAddresses();
  absl::StatusOr<v1::GameRecord> GetRecord(const Caller& caller, const v1::GetRecordRequest& req);
  void UpdateSettings(const Caller& caller, const v1::UpdateSettingsRequest& req,
                      Done<v1::GameView> done);
  void DeleteGame(const Caller& caller, const v1::DeleteGameRequest& req,
                  Done<v1::DeleteGameResponse> done);
  absl::Status Pong(const Caller& caller, const v1::PongRequest& req);
  // Arena only, league games only: ends a waiting or active game with no result (VOIDED),
  // durably, revealing the seed. A repeat on a voided game returns its view unchanged.
  void VoidGame(const Caller& caller, const v1::VoidGameRequest& req, Done<v1::GameView> done);

  // Registers a watcher. On success the sink receives (from other threads) the snapshot and
  // events; the returned handle must be passed to Unwatch exactly once.
  absl::StatusOr<uint64_t> Watch(const Caller& caller, const v1::WatchGameRequest& req,
                                 EventSink* sink);
  void Unwatch(const std::string& game_id, uint64_t handle);

  struct Game;  // internal

 private:
  // The game, from memory or loaded from the log (taking its lease). NOT_FOUND when there is
  // none; UNAVAILABLE with the owner's address (OwnerAddressOf) when another replica has it.
  absl::StatusOr<std::shared_ptr<Game>> Find(const std::string& game_id);
  absl::StatusOr<std::shared_ptr<Game>> Load(const std::string& game_id);
  // Forgets a game whose memory is ahead of the log or whose lease is gone: its watchers end
  // with `why`, its timers are cancelled; the next call reloads it (or finds its owner).
  void Drop(const std::shared_ptr<Game>& game, const absl::Status& why);
  // The lease thread: renew, drop the games lost, adopt orphans.
  void LeaseLoop();
  void RenewLeases();
  void Commit(const std::shared_ptr<Game>& g, std::vector<StoredEvent> events,
              std::vector<RowChange> changes, std::function<void(absl::Status)> done);
  StoredEvent NewEvent(Game& g, std::string type, int seat);
  void StartGame(Game& g, std::vector<StoredEvent>& events, std::optional<int> fixed_leader);
  absl::Status ApplyAndResolve(Game& g, std::vector<StoredEvent>& events);
  void AfterChange(Game& g, std::vector<StoredEvent>& events);
  // A seat the engine put out of the game (its army frozen) is out from now on: one
  // "eliminated" event (seat, colour) every watcher sees, and its view no longer in_game.
  void NoteEliminations(Game& g, std::vector<StoredEvent>& events);
  // At a turn's end: a pending board or darts change takes effect (a "settings" event every
  // watcher sees, with the new variant). True when it did: the caller writes the settings row.
  bool ApplyPendingVariant(Game& g, std::vector<StoredEvent>& events);
  void ArmTimers(const std::shared_ptr<Game>& g);
  void OnClockTimer(const std::string& game_id, uint64_t generation);
  void OnPresenceTimer(const std::string& game_id, uint64_t generation);
  void Keepalive();
  void Publish(Game& g, const std::vector<StoredEvent>& events);
  // The view of a game: legal actions (beginner tables, `with_legal`) of every piece or of the
  // piece on `piece_cell`; the board view turned to engine seat `perspective` (-1: the first).
  v1::GameView View(const Game& g, bool with_legal, const std::string* piece_cell,
                    int perspective = -1, bool with_board = true) const;
  bool MayWatch(const Game& g, const Caller& caller, int* seat) const;
  int SeatOfCredential(const Game& g, const std::string& credential) const;
  nlohmann::json ClockReadings(const Game& g) const;
  // Ends the keyed create in flight for `scope_key`: its waiters get `result` (the game id
  // only, credentials are shown once) or its error.
  void FinishKeyedCreate(const std::pair<std::string, std::string>& scope_key,
                         const absl::StatusOr<v1::CreateTableResponse>& result);

  // Games in memory that are not over (the games-live gauge).
  int64_t LiveGames();

  EventLog* store_;
  CredentialHasher hasher_;
  CoreOptions options_;
  TimerQueue timers_;
  std::mutex games_mu_;
  std::unordered_map<std::string, std::shared_ptr<Game>> games_;
  // Keyed creates not yet committed, by (scope, key): a repeat waits for the first one's commit
  // instead of racing it into the unique index (which would fail the whole group commit).
  // Committed keys are found in game.games.
  struct KeyedCreate {
    std::string game_id;
    std::vector<Done<v1::CreateTableResponse>> waiters;
  };
  std::mutex keyed_mu_;
  std::map<std::pair<std::string, std::string>, KeyedCreate> keyed_creates_;
  std::atomic<uint64_t> next_watch_{1};
  std::atomic<int64_t> next_ping_{1};
  std::atomic<bool> shutting_down_{false};
  // One load of a game at a time (each load takes the lease anew, at the next epoch).
  std::mutex loading_mu_;
  std::map<std::string, std::shared_ptr<std::mutex>> loading_;
  std::mutex lease_mu_;
  std::condition_variable lease_cv_;
  bool lease_stop_ = false;  // guarded by lease_mu_
  std::thread lease_thread_;
  // Orphans whose log did not replay (logged once): not adopted again by this replica.
  std::set<std::string> not_adoptable_;  // the lease thread's only
};

}  // namespace arena::game_state
