// PgEventLog: the event log in PostgreSQL (schema `game`, deploy/sql/game/), what
// arena-game-state runs.
//
// The group commit (event_log.h) makes each batch one transaction: the items' row changes run
// as their named statements and the events of all items are appended by one statement
// (jsonb_to_recordset), so a batch costs a few round trips whatever its size. A lost connection
// is retried by the pool with the whole batch; any other failure fails the batch, and the
// group commit retries its items one by one. Reads (recovery at start, reload after a failed
// batch) are plain short transactions.
//
// Leases (table game.game_leases, docs/game-state.md "Ownership and replicas"): a batch first
// locks the lease rows of its games (FOR SHARE, in game order) and checks each item's epoch,
// so a takeover (an UPDATE of the row) waits for the batch in flight and every later batch of
// the old owner fails. A create inserts the new game's lease at epoch 1 in its own item.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "absl/time/time.h"

#include "services/common/pg_pool.h"
#include "services/game_state/event_log.h"

namespace arena::game_state {

// Who this replica is, for the leases it takes.
struct ReplicaOptions {
  std::string replica_id;  // empty: a random one
  std::string address;     // where this replica serves (may be set later)
  absl::Duration lease_ttl = absl::Seconds(10);
};

class PgEventLog final : public GroupCommitLog {
 public:
  explicit PgEventLog(common::PgPool* pool) : PgEventLog(pool, ReplicaOptions{}) {}
  PgEventLog(common::PgPool* pool, ReplicaOptions replica);
  ~PgEventLog() override;  // drains the queue and the completions, then stops both threads

  const std::string& replica_id() const { return replica_.replica_id; }
  // The address other replicas forward calls to; written into every lease at its next renewal.
  void SetAdvertisedAddress(const std::string& address);
  std::string advertised_address();

  int64_t FirstEpoch() const override { return 1; }
  absl::StatusOr<LeaseClaim> AcquireLease(const std::string& game_id,
                                          bool take_from_live_owner) override;
  absl::StatusOr<std::vector<std::string>> RenewLeases(
      const std::vector<std::pair<std::string, int64_t>>& held) override;
  absl::Status ReleaseLeases(const std::vector<std::pair<std::string, int64_t>>& held) override;
  absl::StatusOr<std::vector<std::string>> OrphanedGameIds() override;
  absl::StatusOr<std::vector<std::string>> PeerAddresses() override;

  absl::StatusOr<std::vector<std::string>> UnfinishedGameIds() override;
  absl::StatusOr<StoredGame> LoadGame(const std::string& game_id) override;
  absl::StatusOr<std::string> GameOfIdempotencyKey(const std::string& scope,
                                                   const std::string& key) override;

 protected:
  absl::Status CommitBatch(const std::vector<WriteItem>& batch) override;

 private:
  common::PgPool* pool_;
  ReplicaOptions replica_;
  std::mutex address_mu_;
  std::string address_;  // guarded by address_mu_
};

}  // namespace arena::game_state
