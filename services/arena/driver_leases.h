// DriverLeases: which arena replica drives the AI seats of which table (issue 27 item 2).
//
// The AI-turn work of every replica is one queue in PostgreSQL: the active rows of
// `driven_tables`. A replica drives a table only while it holds the table's lease (`driver`,
// `driver_until`, migration 0011). It claims tables nobody holds, or whose lease expired (their
// replica died), with FOR UPDATE SKIP LOCKED, so replicas claiming at once never wait for each
// other nor take the same table; it renews what it holds every few seconds and learns from the
// renewal what it lost. Every claim adds one to `driver_epoch`, the fencing token: each write
// that records or pays for a turn first checks the epoch under a share lock on the row (Fence),
// so a replica that lost a table (it hung past the lease) can no longer write for it, and a
// claim waits for a fenced write in flight. Submitting an action carries the action number the
// driver expects, so an action can never be applied twice either.
//
// The unit of the queue is a table, not a single turn: a table's turns come one after another,
// and the replica that drives them keeps the game's event stream open. Claiming turn by turn
// would make every replica follow every game to see which turn is owed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"
#include "services/common/pg_pool.h"

namespace arena::service {

struct DriverLeaseOptions {
  std::string replica_id;  // empty: a random "arena-…" name
  // No other replica exists: a lease someone else holds (a predecessor killed without
  // releasing it) is taken at once instead of after its TTL.
  bool sole_replica = true;
  absl::Duration ttl = absl::Seconds(10);
};

// A held lease: the table and the epoch this replica claimed it at.
using HeldLease = std::pair<std::string, int64_t>;

class DriverLeases {
 public:
  DriverLeases(common::PgPool& pool, DriverLeaseOptions options);

  const std::string& replica_id() const { return options_.replica_id; }
  const DriverLeaseOptions& options() const { return options_; }

  // Claims one active table: its new epoch, or nothing when the game is not active or another
  // live replica holds it. With `within_share`, also nothing when this replica already drives
  // its fair share (the tables in play over the replicas alive): the lease passes of the
  // others then take it.
  absl::StatusOr<std::optional<int64_t>> Claim(const std::string& game_id,
                                               bool within_share = false);
  // Claims active tables nobody holds (none, or expired), oldest first, skipping rows other
  // replicas are claiming at this moment: at most `limit`, and no more than brings this
  // replica to its fair share. `held` (tables this replica drives) are never claimed again. A
  // sole replica takes every table, also those other ids hold.
  absl::StatusOr<std::vector<HeldLease>> ClaimOrphans(int limit,
                                                      const std::vector<HeldLease>& held);
  // Marks this replica alive (every lease pass), so the others count it when they share.
  absl::Status Heartbeat();
  // How many more tables this replica may claim: its fair share less what it holds.
  static absl::StatusOr<int64_t> RoomInShare(pqxx::transaction_base& txn,
                                             const DriverLeaseOptions& options);
  // Extends the leases still held at their epoch; returns the tables of `held` that another
  // replica claimed since.
  absl::StatusOr<std::vector<std::string>> Renew(const std::vector<HeldLease>& held);
  // Lets the leases go (a replica stopping): other replicas claim the tables at once, and no
  // longer count this one.
  absl::Status Release(const std::vector<HeldLease>& held);

  // In the caller's transaction: share-locks the table's row and checks that `replica` still
  // holds it at `epoch`. FAILED_PRECONDITION "lease lost" otherwise.
  static absl::Status Fence(pqxx::transaction_base& txn, const std::string& game_id,
                            const std::string& replica, int64_t epoch);

 private:
  common::PgPool& pool_;
  DriverLeaseOptions options_;
};

}  // namespace arena::service
