#include "services/game_state/pg_event_log.h"

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

PgEventLog::PgEventLog(common::PgPool* pool) : pool_(pool) {
  Start();
}

PgEventLog::~PgEventLog() {
  Stop();
}

absl::Status PgEventLog::CommitBatch(const std::vector<WriteItem>& batch) {
  return pool_->Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    try {
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
          for (const RowChange& change : item.changes) Apply(txn, change);
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

}  // namespace arena::game_state
