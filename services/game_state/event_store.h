// EventStore: the durable side of game-state (schema `game`).
//
// Writes go through one writer thread that GROUPS pending work from many games into one
// transaction: callers Enqueue a WriteItem (rows to insert or update plus events to append)
// with a completion callback, and the writer runs every item queued since its last commit in
// a single transaction. After the COMMIT it hands the batch to a second thread, the completer,
// which calls each item's callback in queue order (batch after batch) while the writer is
// already committing the next batch: the callbacks (finishing replies, fanning events out to
// watchers) never hold up a commit. A caller hears "accepted" only from that callback, so
// every acknowledged action is committed. Events of all
// items in a batch are appended by one statement (jsonb_to_recordset), so a batch costs a few
// round trips whatever its size.
//
// One bad item never fails the others: when a batch's transaction fails (other than by a lost
// connection, which the pool retries), the writer commits its items again one transaction
// each and reports each item's own status.
//
// Reads (recovery at start, reload after a failed batch) are plain short transactions.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "services/common/pg_pool.h"

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

// One unit of work for the group-commit writer.
struct WriteItem {
  // The game the item belongs to (its events' game when empty). When a batch fails, its items
  // are committed one by one; an item whose game already failed in that batch fails too, so a
  // game's log never has a gap.
  std::string game_id;
  // Statements run before the item's events are appended (in queue order).
  std::vector<std::function<void(pqxx::transaction_base&)>> statements;
  std::vector<StoredEvent> events;
  std::function<void(absl::Status)> done;  // runs on the completer thread after the commit
};

class EventStore {
 public:
  explicit EventStore(common::PgPool* pool);
  ~EventStore();  // drains the queue and the completions, then stops both threads
  EventStore(const EventStore&) = delete;
  EventStore& operator=(const EventStore&) = delete;

  void Enqueue(WriteItem item);
  void Stop();

  absl::StatusOr<std::vector<std::string>> UnfinishedGameIds();
  absl::StatusOr<StoredGame> LoadGame(const std::string& game_id);
  // The game created with this idempotency key in this scope (deleted games included, since a
  // key is never reused), or "" when none was.
  absl::StatusOr<std::string> GameOfIdempotencyKey(const std::string& scope,
                                                   const std::string& key);

  // --- Statements for WriteItem::statements ---
  static std::function<void(pqxx::transaction_base&)> InsertGame(const StoredGame& game);
  static std::function<void(pqxx::transaction_base&)> UpsertSeat(const std::string& game_id,
                                                                 const StoredSeat& seat);
  static std::function<void(pqxx::transaction_base&)> SetStatus(const std::string& game_id,
                                                                const std::string& status,
                                                                bool finished);
  static std::function<void(pqxx::transaction_base&)> SetSettings(const std::string& game_id,
                                                                  const std::string& variant,
                                                                  const std::string& json);
  // Marks the game deleted and purges its events and seats.
  static std::function<void(pqxx::transaction_base&)> DeleteGame(const std::string& game_id);

  // Figures for the benchmark and logs.
  int64_t batches() const { return batches_; }
  int64_t items() const { return items_; }

 private:
  // A committed (or failed) batch whose callbacks are still to run.
  struct Committed {
    std::vector<WriteItem> items;
    std::vector<absl::Status> statuses;  // one per item
  };

  void Run();
  void RunCompletions();
  absl::Status CommitBatch(std::vector<WriteItem>& batch);
  // After a failed batch: each item alone, in order; returns each item's status.
  std::vector<absl::Status> CommitOneByOne(std::vector<WriteItem>& batch);

  common::PgPool* pool_;
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
  // Last, so that everything they use is constructed before they start.
  std::thread writer_;
  std::thread completer_;
};

}  // namespace arena::game_state
