#include "services/game_state/pg_event_log.h"

#include <map>
#include <random>
#include <set>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "common/log.h"

namespace arena::game_state {
namespace {

// --- SQL, named and parameterised ---
constexpr char kInsertEvents[] =
    "INSERT INTO game.events (game_id, seq, at, type, seat, action, payload, action_number) "
    "SELECT x.game_id, x.seq, to_timestamp(x.at_us / 1000000.0), x.type, x.seat, x.action, "
    "x.payload, x.action_number FROM jsonb_to_recordset($1::jsonb) AS x(game_id text, seq "
    "bigint, at_us bigint, type text, seat integer, action text, payload jsonb, action_number "
    "bigint)";
constexpr char kInsertGame[] =
    "INSERT INTO game.games (game_id, game_kind, variant, settings_json, status, secret_seed, "
    "seed_commitment, host_hash, is_public, protected, idempotency_scope, idempotency_key) "
    "VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10, $11, $12)";
constexpr char kGameOfIdempotencyKey[] =
    "SELECT game_id FROM game.games WHERE idempotency_scope = $1 AND idempotency_key = $2";
constexpr char kUpsertSeat[] =
    "INSERT INTO game.seats (game_id, seat, kind, credential_hash, spec_json, seat_seed, filled) "
    "VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7) ON CONFLICT (game_id, seat) DO UPDATE SET "
    "kind = EXCLUDED.kind, credential_hash = EXCLUDED.credential_hash, spec_json = "
    "EXCLUDED.spec_json, seat_seed = EXCLUDED.seat_seed, filled = EXCLUDED.filled";
constexpr char kSetStatus[] =
    "UPDATE game.games SET status = $2, finished_at = CASE WHEN $3 THEN now() ELSE finished_at "
    "END WHERE game_id = $1";
constexpr char kSetSettings[] =
    "UPDATE game.games SET variant = $2, settings_json = $3::jsonb WHERE game_id = $1";
constexpr char kDeleteGame[] = "UPDATE game.games SET deleted = true WHERE game_id = $1";
constexpr char kPurgeEvents[] = "DELETE FROM game.events WHERE game_id = $1";
constexpr char kPurgeSeats[] = "DELETE FROM game.seats WHERE game_id = $1";
constexpr char kUnfinished[] =
    "SELECT game_id FROM game.games WHERE status IN ('waiting', 'active') AND NOT deleted "
    "ORDER BY created_at";
constexpr char kLoadGame[] =
    "SELECT game_kind, variant, settings_json::text, status, secret_seed, seed_commitment, "
    "host_hash, is_public, protected FROM game.games WHERE game_id = $1 AND NOT deleted";
constexpr char kLoadSeats[] =
    "SELECT seat, kind, spec_json::text, credential_hash, seat_seed, filled FROM game.seats "
    "WHERE game_id = $1 ORDER BY seat";
constexpr char kLoadEvents[] =
    "SELECT seq, (extract(epoch FROM at) * 1000000)::bigint, type, seat, action, payload::text, "
    "action_number FROM game.events WHERE game_id = $1 ORDER BY seq";

// Leases (game.game_leases). Acquisition: a new lease at epoch 1, or the next epoch when the
// lease is expired, already ours or taken by force; only for a game that exists.
constexpr char kAcquireLease[] =
    "INSERT INTO game.game_leases AS l (game_id, owner, owner_address, epoch, expires_at) "
    "SELECT g.game_id, $2, $3, 1, now() + $4 * interval '1 millisecond' FROM game.games g "
    "WHERE g.game_id = $1 AND NOT g.deleted "
    "ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner, owner_address = "
    "EXCLUDED.owner_address, epoch = l.epoch + 1, expires_at = EXCLUDED.expires_at "
    "WHERE l.expires_at <= now() OR l.owner = EXCLUDED.owner OR $5::boolean RETURNING l.epoch";
constexpr char kLeaseHolder[] =
    "SELECT l.owner, l.owner_address FROM game.games g JOIN game.game_leases l USING (game_id) "
    "WHERE g.game_id = $1 AND NOT g.deleted";
constexpr char kInsertLease[] =
    "INSERT INTO game.game_leases (game_id, owner, owner_address, epoch, expires_at) "
    "VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')";
// The fence: the batch's lease rows, locked in game order (as renewals lock them), so a
// takeover waits for this batch and no lock cycle forms with a renewal.
constexpr char kFenceLeases[] =
    "SELECT game_id, epoch, owner FROM game.game_leases WHERE game_id IN "
    "(SELECT jsonb_array_elements_text($1::jsonb)) ORDER BY game_id FOR SHARE";
constexpr char kRenewLeases[] =
    "WITH mine AS MATERIALIZED (SELECT l.game_id FROM game.game_leases l JOIN "
    "jsonb_to_recordset($4::jsonb) AS x(game_id text, epoch bigint) ON l.game_id = x.game_id "
    "AND l.epoch = x.epoch WHERE l.owner = $1 ORDER BY l.game_id FOR UPDATE OF l) "
    "UPDATE game.game_leases AS l SET expires_at = now() + $2 * interval '1 millisecond', "
    "owner_address = $3 FROM mine WHERE l.game_id = mine.game_id RETURNING l.game_id";
constexpr char kReleaseLeases[] =
    "UPDATE game.game_leases AS l SET expires_at = now() FROM jsonb_to_recordset($2::jsonb) AS "
    "x(game_id text, epoch bigint) WHERE l.game_id = x.game_id AND l.epoch = x.epoch AND "
    "l.owner = $1";
constexpr char kOrphans[] =
    "SELECT g.game_id FROM game.games g LEFT JOIN game.game_leases l ON l.game_id = g.game_id "
    "WHERE g.status IN ('waiting', 'active') AND NOT g.deleted AND (l.game_id IS NULL OR "
    "l.expires_at <= now()) ORDER BY g.created_at LIMIT 1000";

constexpr char kPeerAddresses[] =
    "SELECT DISTINCT l.owner_address FROM game.games g JOIN game.game_leases l USING (game_id) "
    "WHERE g.status IN ('waiting', 'active') AND NOT g.deleted AND l.expires_at > now() "
    "AND l.owner <> $1 AND l.owner_address <> '' ORDER BY 1 LIMIT 64";

std::string RandomReplicaId() {
  std::random_device rd;
  std::string id = "gs-";
  for (int i = 0; i < 4; ++i) absl::StrAppend(&id, absl::Hex(rd(), absl::kZeroPad8));
  return id;
}

// [{"game_id": ..., "epoch": ...}, ...] for jsonb_to_recordset.
std::string LeaseRows(const std::vector<std::pair<std::string, int64_t>>& held) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& [game, epoch] : held) rows.push_back({{"game_id", game}, {"epoch", epoch}});
  return rows.dump();
}

int64_t Millis(absl::Duration d) {
  return absl::ToInt64Milliseconds(d);
}

pqxx::binarystring Bytes(const std::string& s) {
  return pqxx::binarystring(s);
}

std::string FromBytes(const pqxx::field& f) {
  if (f.is_null()) return "";
  pqxx::binarystring b(f);
  return b.str();
}

// Appends one event to the JSON array that kInsertEvents reads, as text: building a json
// object per row meant deep-copying every payload and freeing it again, per event.
void AppendEventRow(const StoredEvent& e, std::string& out) {
  out += out.empty() ? "[{\"game_id\":" : ",{\"game_id\":";
  out += nlohmann::json(e.game_id).dump();
  absl::StrAppend(&out, ",\"seq\":", e.seq, ",\"at_us\":", absl::ToUnixMicros(e.at),
                  ",\"type\":", nlohmann::json(e.type).dump(),
                  ",\"action\":", nlohmann::json(e.action).dump(),
                  ",\"payload\":", e.payload.dump());
  if (e.seat >= 0) {
    absl::StrAppend(&out, ",\"seat\":", e.seat);
  } else {
    out += ",\"seat\":null";
  }
  if (e.action_number >= 0) {
    absl::StrAppend(&out, ",\"action_number\":", e.action_number, "}");
  } else {
    out += ",\"action_number\":null}";
  }
}

// Each row change as its named statements.
void Apply(pqxx::transaction_base& txn, const RowChange& change) {
  std::visit(
      [&txn](const auto& c) {
        using C = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<C, InsertGameRow>) {
          const StoredGame& g = c.game;
          // NULL, not '', when there is no key: the unique index ignores NULLs.
          if (g.idempotency_key.empty()) {
            txn.exec_params(kInsertGame, g.game_id, g.game_kind, g.variant, g.settings_json,
                            g.status, Bytes(g.secret_seed), g.seed_commitment, Bytes(g.host_hash),
                            g.is_public, g.protected_game, nullptr, nullptr);
          } else {
            txn.exec_params(kInsertGame, g.game_id, g.game_kind, g.variant, g.settings_json,
                            g.status, Bytes(g.secret_seed), g.seed_commitment, Bytes(g.host_hash),
                            g.is_public, g.protected_game, g.idempotency_scope, g.idempotency_key);
          }
        } else if constexpr (std::is_same_v<C, UpsertSeatRow>) {
          const StoredSeat& s = c.seat;
          if (s.credential_hash.empty()) {
            txn.exec_params(kUpsertSeat, c.game_id, s.seat, s.kind, nullptr, s.spec_json,
                            s.seat_seed, s.filled);
          } else {
            txn.exec_params(kUpsertSeat, c.game_id, s.seat, s.kind, Bytes(s.credential_hash),
                            s.spec_json, s.seat_seed, s.filled);
          }
        } else if constexpr (std::is_same_v<C, SetStatusRow>) {
          txn.exec_params(kSetStatus, c.game_id, c.status, c.finished);
        } else if constexpr (std::is_same_v<C, SetSettingsRow>) {
          txn.exec_params(kSetSettings, c.game_id, c.variant, c.settings_json);
        } else {
          static_assert(std::is_same_v<C, DeleteGameRows>);
          txn.exec_params(kDeleteGame, c.game_id);
          txn.exec_params(kPurgeEvents, c.game_id);
          txn.exec_params(kPurgeSeats, c.game_id);
        }
      },
      change);
}

}  // namespace

PgEventLog::PgEventLog(common::PgPool* pool, ReplicaOptions replica)
    : pool_(pool), replica_(std::move(replica)) {
  if (replica_.replica_id.empty()) replica_.replica_id = RandomReplicaId();
  address_ = replica_.address;
  Start();
}

void PgEventLog::SetAdvertisedAddress(const std::string& address) {
  std::lock_guard<std::mutex> lock(address_mu_);
  address_ = address;
}

std::string PgEventLog::advertised_address() {
  std::lock_guard<std::mutex> lock(address_mu_);
  return address_;
}

PgEventLog::~PgEventLog() {
  Stop();
}

absl::Status PgEventLog::CommitBatch(const std::vector<WriteItem>& batch) {
  // The games whose lease this batch must still hold: every fenced item's, except games the
  // batch itself creates (their lease comes with their row).
  std::set<std::string> created;
  for (const WriteItem& item : batch) {
    for (const RowChange& change : item.changes) {
      if (const auto* insert = std::get_if<InsertGameRow>(&change)) {
        created.insert(insert->game.game_id);
      }
    }
  }
  nlohmann::json fenced = nlohmann::json::array();
  {
    std::set<std::string> seen;
    for (const WriteItem& item : batch) {
      const std::string game = GameOfItem(item);
      if (item.lease_epoch > 0 && created.count(game) == 0 && seen.insert(game).second) {
        fenced.push_back(game);
      }
    }
  }
  const std::string address = advertised_address();
  return pool_->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    try {
      if (!fenced.empty()) {
        std::map<std::string, std::pair<int64_t, std::string>> leases;  // game -> epoch, owner
        for (const auto& row : txn.exec_params(kFenceLeases, fenced.dump())) {
          leases[row[0].as<std::string>()] = {row[1].as<int64_t>(), row[2].as<std::string>()};
        }
        for (const WriteItem& item : batch) {
          if (item.lease_epoch <= 0) continue;
          const std::string game = GameOfItem(item);
          if (created.count(game) > 0) continue;
          auto it = leases.find(game);
          if (it == leases.end() || it->second.first != item.lease_epoch ||
              it->second.second != replica_.replica_id) {
            return absl::FailedPreconditionError(
                absl::StrCat("game ", game, " moved to another replica (lease epoch ",
                             item.lease_epoch, " is no longer held)"));
          }
        }
      }
      std::string pending;  // a JSON array of event rows, "" when none
      auto flush = [&] {
        if (pending.empty()) return;
        pending += "]";
        txn.exec_params(kInsertEvents, pending);
        pending.clear();
      };
      for (const WriteItem& item : batch) {
        if (!item.changes.empty()) {
          flush();
          for (const RowChange& change : item.changes) {
            Apply(txn, change);
            const auto* insert = std::get_if<InsertGameRow>(&change);
            if (insert != nullptr && item.lease_epoch > 0) {
              txn.exec_params(kInsertLease, insert->game.game_id, replica_.replica_id, address,
                              item.lease_epoch, Millis(replica_.lease_ttl));
            }
          }
        }
        for (const StoredEvent& e : item.events) AppendEventRow(e, pending);
      }
      flush();
    } catch (const pqxx::broken_connection&) {
      throw;  // the pool retries the whole batch
    } catch (const pqxx::transaction_rollback&) {
      throw;
    } catch (const std::exception& e) {
      return common::StatusFromPqxx(e);
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<std::string>> PgEventLog::UnfinishedGameIds() {
  std::vector<std::string> ids;
  absl::Status s = pool_->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    ids.clear();
    for (const auto& row : txn.exec(kUnfinished)) ids.push_back(row[0].as<std::string>());
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return ids;
}

absl::StatusOr<StoredGame> PgEventLog::LoadGame(const std::string& game_id) {
  StoredGame game;
  bool found = false;
  absl::Status s = pool_->Transact(
      [&](pqxx::transaction_base& txn) -> absl::Status {
        game = StoredGame{};
        game.game_id = game_id;
        pqxx::result g = txn.exec_params(kLoadGame, game_id);
        found = !g.empty();
        if (!found) return absl::OkStatus();
        game.game_kind = g[0][0].as<std::string>();
        game.variant = g[0][1].as<std::string>();
        game.settings_json = g[0][2].as<std::string>();
        game.status = g[0][3].as<std::string>();
        game.secret_seed = FromBytes(g[0][4]);
        game.seed_commitment = g[0][5].as<std::string>();
        game.host_hash = FromBytes(g[0][6]);
        game.is_public = g[0][7].as<bool>();
        game.protected_game = g[0][8].as<bool>();
        for (const auto& row : txn.exec_params(kLoadSeats, game_id)) {
          StoredSeat seat;
          seat.seat = row[0].as<int>();
          seat.kind = row[1].as<std::string>();
          seat.spec_json = row[2].as<std::string>();
          seat.credential_hash = FromBytes(row[3]);
          seat.seat_seed = row[4].as<std::string>();
          seat.filled = row[5].as<bool>();
          game.seats.push_back(std::move(seat));
        }
        for (const auto& row : txn.exec_params(kLoadEvents, game_id)) {
          StoredEvent e;
          e.game_id = game_id;
          e.seq = row[0].as<int64_t>();
          e.at = absl::FromUnixMicros(row[1].as<int64_t>());
          e.type = row[2].as<std::string>();
          e.seat = row[3].is_null() ? -1 : row[3].as<int>();
          e.action = row[4].is_null() ? "" : row[4].as<std::string>();
          e.payload = nlohmann::json::parse(row[5].as<std::string>());
          e.action_number = row[6].is_null() ? -1 : row[6].as<int64_t>();
          game.events.push_back(std::move(e));
        }
        return absl::OkStatus();
      },
      common::Isolation::kRepeatableRead);
  if (!s.ok()) return s;
  if (!found) return absl::NotFoundError("no such game");
  return game;
}

absl::StatusOr<std::string> PgEventLog::GameOfIdempotencyKey(const std::string& scope,
                                                             const std::string& key) {
  std::string game_id;
  absl::Status s = pool_->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result r = txn.exec_params(kGameOfIdempotencyKey, scope, key);
    game_id = r.empty() ? "" : r[0][0].as<std::string>();
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return game_id;
}

absl::StatusOr<LeaseClaim> PgEventLog::AcquireLease(const std::string& game_id,
                                                    bool take_from_live_owner) {
  LeaseClaim claim;
  bool found = false;
  const std::string address = advertised_address();
  absl::Status s = pool_->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    try {
      claim = LeaseClaim{};
      // A batch of the old owner holds the row while it commits; do not wait on a stuck one.
      txn.exec("SET LOCAL lock_timeout = '2s'");
      pqxx::result r = txn.exec_params(kAcquireLease, game_id, replica_.replica_id, address,
                                       Millis(replica_.lease_ttl), take_from_live_owner);
      if (!r.empty()) {
        found = true;
        claim.held = true;
        claim.epoch = r[0][0].as<int64_t>();
        return absl::OkStatus();
      }
      pqxx::result holder = txn.exec_params(kLeaseHolder, game_id);
      found = !holder.empty();
      if (found) {
        claim.owner = holder[0][0].as<std::string>();
        claim.owner_address = holder[0][1].as<std::string>();
      }
      return absl::OkStatus();
    } catch (const pqxx::broken_connection&) {
      throw;
    } catch (const pqxx::transaction_rollback&) {
      throw;
    } catch (const std::exception& e) {
      return common::StatusFromPqxx(e);
    }
  });
  if (!s.ok()) return s;
  if (!found) return absl::NotFoundError("no such game");
  return claim;
}

absl::StatusOr<std::vector<std::string>> PgEventLog::RenewLeases(
    const std::vector<std::pair<std::string, int64_t>>& held) {
  std::vector<std::string> lost;
  if (held.empty()) return lost;
  std::set<std::string> renewed;
  const std::string address = advertised_address();
  absl::Status s = pool_->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    renewed.clear();
    for (const auto& row : txn.exec_params(kRenewLeases, replica_.replica_id,
                                           Millis(replica_.lease_ttl), address, LeaseRows(held))) {
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

absl::Status PgEventLog::ReleaseLeases(const std::vector<std::pair<std::string, int64_t>>& held) {
  if (held.empty()) return absl::OkStatus();
  return pool_->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    txn.exec_params(kReleaseLeases, replica_.replica_id, LeaseRows(held));
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<std::string>> PgEventLog::PeerAddresses() {
  std::vector<std::string> out;
  absl::Status s = pool_->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    out.clear();
    for (const auto& row : txn.exec_params(kPeerAddresses, replica_.replica_id)) {
      out.push_back(row[0].as<std::string>());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<std::vector<std::string>> PgEventLog::OrphanedGameIds() {
  std::vector<std::string> ids;
  absl::Status s = pool_->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    ids.clear();
    for (const auto& row : txn.exec(kOrphans)) ids.push_back(row[0].as<std::string>());
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return ids;
}

}  // namespace arena::game_state
