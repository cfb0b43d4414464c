#include "services/arena/driver_leases.h"

#include <algorithm>
#include <limits>
#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace arena::service {
namespace {

// $1 replica, $2 ttl ms, $3 game, $4 take it even from another live id (sole replica).
constexpr char kClaimOne[] =
    "UPDATE driven_tables SET driver = $1, driver_epoch = driver_epoch + 1, "
    "driver_until = now() + $2 * interval '1 millisecond' "
    "WHERE game_id = $3 AND state = 'active' "
    "AND (driver IS NULL OR driver_until < now() OR driver = $1 OR $4) "
    "RETURNING driver_epoch";

// $1 replica, $2 ttl ms, $3 limit, $4 held game ids (jsonb array), $5 sole replica. The
// candidates are locked SKIP LOCKED: a row another replica is claiming or fencing right now is
// left to it.
constexpr char kClaimOrphans[] =
    "WITH free AS (SELECT game_id FROM driven_tables "
    "  WHERE state = 'active' "
    "  AND (driver IS NULL OR driver_until < now() OR ($5 AND driver <> $1)) "
    "  AND game_id NOT IN (SELECT jsonb_array_elements_text($4::jsonb)) "
    "  ORDER BY created_at, game_id LIMIT $3 FOR UPDATE SKIP LOCKED) "
    "UPDATE driven_tables d SET driver = $1, driver_epoch = d.driver_epoch + 1, "
    "driver_until = now() + $2 * interval '1 millisecond' "
    "FROM free WHERE d.game_id = free.game_id RETURNING d.game_id, d.driver_epoch";

// $1 replica, $2 ttl ms, $3 [{game_id, epoch}]. Rows are locked in game order, as every
// multi-row lock on the table is taken, so two renewals never deadlock.
constexpr char kRenew[] =
    "WITH mine AS MATERIALIZED (SELECT d.game_id FROM driven_tables d "
    "  JOIN jsonb_to_recordset($3::jsonb) AS x(game_id text, epoch bigint) "
    "  ON d.game_id = x.game_id AND d.driver_epoch = x.epoch "
    "  WHERE d.driver = $1 ORDER BY d.game_id FOR UPDATE OF d) "
    "UPDATE driven_tables d SET driver_until = now() + $2 * interval '1 millisecond' "
    "FROM mine WHERE d.game_id = mine.game_id RETURNING d.game_id";

constexpr char kRelease[] =
    "UPDATE driven_tables d SET driver_until = now() - interval '1 millisecond' "
    "FROM jsonb_to_recordset($2::jsonb) AS x(game_id text, epoch bigint) "
    "WHERE d.game_id = x.game_id AND d.driver_epoch = x.epoch AND d.driver = $1";

// $1 replica, $2 ttl ms: the other replicas seen within a lease's life, the tables in play,
// and this replica's live ones.
constexpr char kShare[] =
    "SELECT (SELECT count(*) FROM driver_replicas "
    "        WHERE seen_at > now() - $2 * interval '1 millisecond' AND replica_id <> $1), "
    "  count(*), count(*) FILTER (WHERE driver = $1 AND driver_until > now()) "
    "FROM driven_tables WHERE state = 'active'";

constexpr char kHeartbeat[] =
    "INSERT INTO driver_replicas (replica_id, seen_at) VALUES ($1, now()) "
    "ON CONFLICT (replica_id) DO UPDATE SET seen_at = now()";

constexpr char kFence[] =
    "SELECT driver = $2 AND driver_epoch = $3 FROM driven_tables WHERE game_id = $1 FOR SHARE";

std::string RandomReplicaId() {
  std::random_device rd;
  std::string id = "arena-";
  for (int i = 0; i < 2; ++i) absl::StrAppend(&id, absl::Hex(rd(), absl::kZeroPad8));
  return id;
}

std::string LeaseRows(const std::vector<HeldLease>& held) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& [game, epoch] : held) rows.push_back({{"game_id", game}, {"epoch", epoch}});
  return rows.dump();
}

std::string GameIds(const std::vector<HeldLease>& held) {
  nlohmann::json ids = nlohmann::json::array();
  for (const auto& lease : held) ids.push_back(lease.first);
  return ids.dump();
}

}  // namespace

DriverLeases::DriverLeases(common::PgPool& pool, DriverLeaseOptions options)
    : pool_(pool), options_(std::move(options)) {
  if (options_.replica_id.empty()) options_.replica_id = RandomReplicaId();
}

absl::StatusOr<int64_t> DriverLeases::RoomInShare(pqxx::transaction_base& txn,
                                                  const DriverLeaseOptions& options) {
  if (options.sole_replica) return std::numeric_limits<int64_t>::max();
  pqxx::result r =
      txn.exec_params(kShare, options.replica_id, absl::ToInt64Milliseconds(options.ttl));
  const int64_t replicas = r[0][0].as<int64_t>() + 1;
  const int64_t active = r[0][1].as<int64_t>(), mine = r[0][2].as<int64_t>();
  const int64_t share = (active + replicas - 1) / replicas;
  return std::max<int64_t>(0, share - mine);
}

absl::Status DriverLeases::Heartbeat() {
  return pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    txn.exec_params(kHeartbeat, options_.replica_id);
    return absl::OkStatus();
  });
}

absl::StatusOr<std::optional<int64_t>> DriverLeases::Claim(const std::string& game_id,
                                                           bool within_share) {
  std::optional<int64_t> epoch;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    epoch.reset();
    if (within_share) {
      auto room = RoomInShare(txn, options_);
      if (!room.ok()) return room.status();
      if (*room <= 0) return absl::OkStatus();
    }
    pqxx::result r =
        txn.exec_params(kClaimOne, options_.replica_id, absl::ToInt64Milliseconds(options_.ttl),
                        game_id, options_.sole_replica);
    if (!r.empty()) epoch = r[0][0].as<int64_t>();
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return epoch;
}

absl::StatusOr<std::vector<HeldLease>> DriverLeases::ClaimOrphans(
    int limit, const std::vector<HeldLease>& held) {
  std::vector<HeldLease> claimed;
  if (limit <= 0) return claimed;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    claimed.clear();
    auto room = RoomInShare(txn, options_);
    if (!room.ok()) return room.status();
    const int64_t n = std::min<int64_t>(limit, *room);
    if (n <= 0) return absl::OkStatus();
    for (const auto& row : txn.exec_params(kClaimOrphans, options_.replica_id,
                                           absl::ToInt64Milliseconds(options_.ttl), n,
                                           GameIds(held), options_.sole_replica)) {
      claimed.emplace_back(row[0].as<std::string>(), row[1].as<int64_t>());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return claimed;
}

absl::StatusOr<std::vector<std::string>> DriverLeases::Renew(const std::vector<HeldLease>& held) {
  std::vector<std::string> lost;
  if (held.empty()) return lost;
  std::set<std::string> renewed;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    renewed.clear();
    for (const auto& row :
         txn.exec_params(kRenew, options_.replica_id, absl::ToInt64Milliseconds(options_.ttl),
                         LeaseRows(held))) {
      renewed.insert(row[0].as<std::string>());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  for (const auto& [game, epoch] : held) {
    if (renewed.count(game) == 0) lost.push_back(game);
  }
  return lost;
}

absl::Status DriverLeases::Release(const std::vector<HeldLease>& held) {
  return pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    if (!held.empty()) txn.exec_params(kRelease, options_.replica_id, LeaseRows(held));
    txn.exec_params("DELETE FROM driver_replicas WHERE replica_id = $1", options_.replica_id);
    return absl::OkStatus();
  });
}

absl::Status DriverLeases::Fence(pqxx::transaction_base& txn, const std::string& game_id,
                                 const std::string& replica, int64_t epoch) {
  pqxx::result r = txn.exec_params(kFence, game_id, replica, epoch);
  if (r.empty() || r[0][0].is_null() || !r[0][0].as<bool>()) {
    return absl::FailedPreconditionError(
        absl::StrCat("lease lost: table ", game_id, " is driven by another arena replica"));
  }
  return absl::OkStatus();
}

}  // namespace arena::service
