// EventLog: the durable side of game-state, as the core sees it.
//
// The core (GameStateCore) keeps every live game in memory and makes each change durable by
// enqueuing a WriteItem: the row changes it implies (a game inserted, a seat filled, a status)
// and the events it appends. The item's callback runs only after the item is durable, so a
// caller hears "accepted" only for what is committed. Reads are the few the core needs at
// start and on reload.
//
// GroupCommitLog is the commit discipline every implementation shares: one writer thread
// GROUPS the items queued since its last commit into one batch (one transaction), and a second
// thread, the completer, runs each item's callback in queue order, batch after batch, while the
// writer is already committing the next batch. One bad item never fails the others: when a
// batch fails, its items are committed again one at a time and each gets its own status; an
// item whose game already failed in that batch fails too, so a game's log never has a gap.
//
// Implementations: PgEventLog (pg_event_log.h, schema `game` in PostgreSQL; what the server
// runs) and MemoryEventLog (memory_event_log.h; the core's unit tests). Row changes are plain
// data, so each implementation maps them to its own named statements, and a contract test
// (event_log_test.cc) holds both to the same behaviour.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"

namespace arena::game_state {

struct StoredEvent {
  std::string game_id;
  int64_t seq = 0;
  absl::Time at;
  std::string type;
  int seat = -1;  // -1: none
  std::string action;
  nlohmann::json payload = nlohmann::json::object();
  int64_t action_number = -1;  // -1: none
};

struct StoredSeat {
  int seat = 0;
  std::string kind;
  std::string spec_json;
  std::string credential_hash;  // raw bytes, empty when open
  std::string seat_seed;
  bool filled = false;
};

struct StoredGame {
  std::string game_id;
  std::string game_kind;  // engine id
  std::string variant;
  std::string settings_json;
  std::string status;
  std::string secret_seed;  // raw bytes
  std::string seed_commitment;
  std::string host_hash;  // raw bytes
  bool is_public = true;
  bool protected_game = false;
  // CreateTableRequest.idempotency_key and whose it is (the calling service); empty: none.
  std::string idempotency_scope;
  std::string idempotency_key;
  std::vector<StoredSeat> seats;
  std::vector<StoredEvent> events;
};

// --- Row changes: what an item does besides appending events ---------------------------------
// A new game (its seats and events come as their own changes and events).
struct InsertGameRow {
  StoredGame game;
};
// A seat written whole (created, filled, its credential set).
struct UpsertSeatRow {
  std::string game_id;
  StoredSeat seat;
};
// "waiting", "active", "finished", "aborted", "voided"; `finished` stamps the finish time.
struct SetStatusRow {
  std::string game_id;
  std::string status;
  bool finished = false;
};
struct SetSettingsRow {
  std::string game_id;
  std::string variant;
  std::string settings_json;
};
// The game is marked deleted and its events and seats purged.
struct DeleteGameRows {
  std::string game_id;
};
using RowChange =
    std::variant<InsertGameRow, UpsertSeatRow, SetStatusRow, SetSettingsRow, DeleteGameRows>;

// One unit of work for the log.
struct WriteItem {
  // The game the item belongs to (its events' game when empty).
  std::string game_id;
  // Applied before the item's events are appended, in order.
  std::vector<RowChange> changes;
  std::vector<StoredEvent> events;
  std::function<void(absl::Status)> done;  // runs on the completer thread after the commit
  // The epoch of the game's lease this replica holds (a fencing token): the item commits only
  // if the lease still has it. 0: not fenced (a log without leases).
  int64_t lease_epoch = 0;
};

// --- Game ownership (leases) ------------------------------------------------------------------
// A log shared by several replicas keeps one lease per game: its owner, the owner's address and
// an epoch that grows by one at every acquisition. Appends are fenced by the epoch. A log
// without leases (MemoryEventLog) is a single replica: every lease is held, at epoch 0.
struct LeaseClaim {
  bool held = false;  // this replica holds the lease now, at `epoch`
  int64_t epoch = 0;
  std::string owner;          // when not held: the replica that holds it
  std::string owner_address;  // and where it serves ("" when not known yet)
};

class EventLog {
 public:
  virtual ~EventLog() = default;

  // Queues an item; its `done` runs once it is durable (or failed), on another thread, in
  // queue order.
  virtual void Enqueue(WriteItem item) = 0;
  // Commits what is queued, runs every callback, and stops. Idempotent.
  virtual void Stop() = 0;

  // Games still waiting or active (not deleted), oldest first.
  virtual absl::StatusOr<std::vector<std::string>> UnfinishedGameIds() = 0;
  // A game with its seats and events; NOT_FOUND when there is none (or it was deleted).
  virtual absl::StatusOr<StoredGame> LoadGame(const std::string& game_id) = 0;
  // The game created with this idempotency key in this scope (deleted games included, since a
  // key is never reused), or "" when none was.
  virtual absl::StatusOr<std::string> GameOfIdempotencyKey(const std::string& scope,
                                                           const std::string& key) = 0;

  // Leases. The defaults are a single replica's: no fencing, everything held.
  // The epoch of a game created here (the create item inserts its lease); 0: no leases.
  virtual int64_t FirstEpoch() const { return 0; }
  // Takes the game's lease (epoch + 1) if it is free, expired, already this replica's, or
  // `take_from_live_owner`; otherwise says who holds it. NOT_FOUND: no such game.
  virtual absl::StatusOr<LeaseClaim> AcquireLease(const std::string& game_id,
                                                  bool take_from_live_owner) {
    (void)game_id;
    (void)take_from_live_owner;
    return LeaseClaim{true, 0, "", ""};
  }
  // Extends the leases held at these epochs; returns the games whose lease is no longer ours.
  virtual absl::StatusOr<std::vector<std::string>> RenewLeases(
      const std::vector<std::pair<std::string, int64_t>>& held) {
    (void)held;
    return std::vector<std::string>{};
  }
  // Ends these leases now (at shutdown), so another replica takes the games without waiting.
  virtual absl::Status ReleaseLeases(const std::vector<std::pair<std::string, int64_t>>& held) {
    (void)held;
    return absl::OkStatus();
  }
  // Unfinished games whose lease is missing or expired: games nobody serves.
  virtual absl::StatusOr<std::vector<std::string>> OrphanedGameIds() {
    return std::vector<std::string>{};
  }
  // The addresses of the other replicas that serve unfinished games now (live leases).
  virtual absl::StatusOr<std::vector<std::string>> PeerAddresses() {
    return std::vector<std::string>{};
  }
};

// The group-commit writer and completer over an implementation's CommitBatch.
class GroupCommitLog : public EventLog {
 public:
  GroupCommitLog(const GroupCommitLog&) = delete;
  GroupCommitLog& operator=(const GroupCommitLog&) = delete;
  ~GroupCommitLog() override;  // Stop()

  void Enqueue(WriteItem item) final;
  // Queues the items together: the writer takes them into one batch (up to its batch limit).
  void EnqueueAll(std::vector<WriteItem> items);
  void Stop() final;

  // Figures for the benchmark, logs and tests.
  int64_t batches() const { return batches_; }
  int64_t items() const { return items_; }

 protected:
  GroupCommitLog() = default;
  // Starts the writer and the completer; a derived class calls it last in its constructor and
  // calls Stop() first in its destructor, so CommitBatch never runs on a half-built object.
  void Start();
  // Commits every item of the batch atomically (all or nothing): row changes then events,
  // item after item.
  virtual absl::Status CommitBatch(const std::vector<WriteItem>& batch) = 0;

 private:
  // A committed (or failed) batch whose callbacks are still to run.
  struct Committed {
    std::vector<WriteItem> items;
    std::vector<absl::Status> statuses;  // one per item
  };
  void Run();
  void RunCompletions();
  // After a failed batch: each item alone, in order; returns each item's status.
  std::vector<absl::Status> CommitOneByOne(std::vector<WriteItem>& batch);

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<WriteItem> queue_;
  bool stop_ = false;
  std::mutex done_mu_;
  std::condition_variable done_cv_;
  std::deque<Committed> committed_;
  int64_t unfinished_batches_ = 0;  // handed to the completer, callbacks not all run yet
  bool writer_done_ = false;        // the writer has exited: the completer drains and exits
  std::atomic<int64_t> batches_{0};
  std::atomic<int64_t> items_{0};
  std::thread writer_;
  std::thread completer_;
};

// The game an item belongs to: its game_id, else its first event's game.
std::string GameOfItem(const WriteItem& item);

}  // namespace arena::game_state
