#include "services/arena/ledger.h"

#include <sodium.h>

#include <functional>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace arena::ledger {
namespace {

using common::Isolation;

// --- SQL, named and kept together ------------------------------------------------------

constexpr char kFindRequest[] =
    "SELECT request_hash, result_id FROM arena.ledger_requests "
    "WHERE caller = $1 AND request_key = $2";

// Locks up to three ledger accounts by name, in id order (the deadlock-free order).
constexpr char kLockByName[] =
    "SELECT ledger_account_id, name, kind, balance, held, may_go_negative, frozen, "
    "daily_allowance FROM arena.ledger_accounts WHERE name IN ($1, $2, $3) "
    "ORDER BY ledger_account_id FOR UPDATE";

// One plain transfer in one call (deploy/sql/arena/0004_ledger_transfer_function.sql):
// returns (status, transfer_id, available) where status is ok, replayed, conflict, no_debit,
// no_credit, frozen or insufficient.
constexpr char kTransferFunctionName[] = "arena_ledger_transfer";
constexpr char kTransferFunction[] =
    "SELECT status, transfer_id, available "
    "FROM arena.ledger_transfer($1, $2, $3, $4, $5, $6, $7, $8, $9)";

constexpr char kLockById[] =
    "SELECT ledger_account_id, name, kind, balance, held, may_go_negative, frozen, "
    "daily_allowance FROM arena.ledger_accounts WHERE ledger_account_id IN ($1, $2) "
    "ORDER BY ledger_account_id FOR UPDATE";

constexpr char kAccountIdByName[] =
    "SELECT ledger_account_id FROM arena.ledger_accounts WHERE name = $1";

// Expires the overdue open holds of one (already locked) debit account and releases them.
constexpr char kExpireForAccount[] =
    "WITH e AS (UPDATE arena.holds SET state = 'expired', settled_at = now() "
    "           WHERE debit_id = $1 AND state = 'open' AND expires_at <= now() "
    "           RETURNING amount) "
    "UPDATE arena.ledger_accounts SET held = held - (SELECT coalesce(sum(amount), 0) FROM e) "
    "WHERE ledger_account_id = $1 RETURNING held, (SELECT count(*) FROM e)";

constexpr char kInsertTransfer[] =
    "WITH t AS (INSERT INTO arena.transfers (debit_id, credit_id, amount, kind, memo) "
    "           VALUES ($1, $2, $3, $4, $5) RETURNING transfer_id), "
    "d AS (UPDATE arena.ledger_accounts SET balance = balance - $3 WHERE ledger_account_id = $1), "
    "c AS (UPDATE arena.ledger_accounts SET balance = balance + $3 WHERE ledger_account_id = $2), "
    "r AS (INSERT INTO arena.ledger_requests (caller, request_key, request_hash, op, result_id) "
    "      SELECT $6, $7, $8, 'transfer', transfer_id FROM t WHERE $7 <> '') "
    "SELECT transfer_id FROM t";

constexpr char kInsertHold[] =
    "WITH h AS (INSERT INTO arena.holds (debit_id, credit_id, amount, allowance_user, memo, "
    "                                   expires_at) "
    "           VALUES ($1, $2, $3, NULLIF($4, ''), $5, now() + $6 * interval '1 microsecond') "
    "           RETURNING hold_id, expires_at), "
    "d AS (UPDATE arena.ledger_accounts SET held = held + $3 WHERE ledger_account_id = $1), "
    "r AS (INSERT INTO arena.ledger_requests (caller, request_key, request_hash, op, result_id) "
    "      SELECT $7, $8, $9, 'reserve', hold_id FROM h WHERE $8 <> '') "
    "SELECT hold_id, (extract(epoch FROM expires_at) * 1000000)::bigint FROM h";

constexpr char kAllowanceUsedToday[] =
    "SELECT coalesce(sum(CASE state WHEN 'open' THEN amount WHEN 'posted' THEN posted_amount "
    "                    ELSE 0 END), 0) "
    "FROM arena.holds WHERE allowance_user = $1 "
    "AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'";

constexpr char kHoldAccounts[] = "SELECT debit_id, credit_id FROM arena.holds WHERE hold_id = $1";

constexpr char kLockHold[] =
    "SELECT amount, state, expires_at <= now(), memo FROM arena.holds WHERE hold_id = $1 "
    "FOR UPDATE";

constexpr char kExpireOneHold[] =
    "WITH h AS (UPDATE arena.holds SET state = 'expired', settled_at = now() WHERE hold_id = $1) "
    "UPDATE arena.ledger_accounts SET held = held - $2 WHERE ledger_account_id = $3";

constexpr char kPostHold[] =
    "WITH h AS (UPDATE arena.holds SET state = 'posted', posted_amount = $2, settled_at = now() "
    "           WHERE hold_id = $1), "
    "d AS (UPDATE arena.ledger_accounts SET balance = balance - $2, held = held - $3 "
    "      WHERE ledger_account_id = $4), "
    "c AS (UPDATE arena.ledger_accounts SET balance = balance + $2 WHERE ledger_account_id = $5 "
    "      AND $2 > 0), "
    "t AS (INSERT INTO arena.transfers (debit_id, credit_id, amount, kind, memo, hold_id) "
    "      SELECT $4, $5, $2, 'hold_post', $6, $1 WHERE $2 > 0 RETURNING transfer_id), "
    "r AS (INSERT INTO arena.ledger_requests (caller, request_key, request_hash, op, result_id) "
    "      SELECT $7, $8, $9, 'post', coalesce((SELECT transfer_id FROM t), 0) WHERE $8 <> '') "
    "SELECT coalesce((SELECT transfer_id FROM t), 0)";

constexpr char kVoidHold[] =
    "WITH h AS (UPDATE arena.holds SET state = 'voided', settled_at = now() WHERE hold_id = $1), "
    "d AS (UPDATE arena.ledger_accounts SET held = held - $2 WHERE ledger_account_id = $3), "
    "r AS (INSERT INTO arena.ledger_requests (caller, request_key, request_hash, op, result_id) "
    "      SELECT $4, $5, $6, 'void', $1 WHERE $5 <> '') "
    "SELECT 1";

constexpr char kBalanceByName[] =
    "SELECT a.ledger_account_id, a.kind, a.balance, a.held, a.frozen, a.daily_allowance, "
    "  a.held > 0 AND EXISTS (SELECT 1 FROM arena.holds h WHERE h.debit_id = a.ledger_account_id "
    "                         AND h.state = 'open' AND h.expires_at <= now()) "
    "FROM arena.ledger_accounts a WHERE a.name = $1";

constexpr char kLockOne[] =
    "SELECT 1 FROM arena.ledger_accounts WHERE ledger_account_id = $1 FOR UPDATE";

// A user's side by the account's name (the ledger names it by account id), a system account
// by its ledger name.
constexpr char kHistory[] =
    "SELECT t.transfer_id, coalesce(du.name, da.name), coalesce(cu.name, ca.name), t.amount, "
    "  t.kind, t.memo, coalesce(t.hold_id, 0), "
    "  (extract(epoch FROM t.created_at) * 1000000)::bigint "
    "FROM arena.transfers t "
    "JOIN arena.ledger_accounts da ON da.ledger_account_id = t.debit_id "
    "JOIN arena.ledger_accounts ca ON ca.ledger_account_id = t.credit_id "
    "LEFT JOIN arena.accounts du ON du.account_id = da.name "
    "LEFT JOIN arena.accounts cu ON cu.account_id = ca.name "
    "WHERE t.debit_id = $1 OR t.credit_id = $1 ORDER BY t.transfer_id DESC LIMIT $2";

constexpr char kGetHold[] =
    "SELECT h.hold_id, da.name, ca.name, h.amount, h.posted_amount, "
    "  CASE WHEN h.state = 'open' AND h.expires_at <= now() THEN 'expired' ELSE h.state END, "
    "  (extract(epoch FROM h.expires_at) * 1000000)::bigint "
    "FROM arena.holds h "
    "JOIN arena.ledger_accounts da ON da.ledger_account_id = h.debit_id "
    "JOIN arena.ledger_accounts ca ON ca.ledger_account_id = h.credit_id WHERE h.hold_id = $1";

constexpr char kSetFrozen[] =
    "UPDATE arena.ledger_accounts SET frozen = $2, frozen_at = CASE WHEN $2 THEN now() END "
    "WHERE name = $1 RETURNING ledger_account_id";

constexpr char kSetAllowance[] =
    "UPDATE arena.ledger_accounts SET daily_allowance = $2 WHERE name = $1 AND kind = 'user' "
    "RETURNING ledger_account_id";

constexpr char kInsertAudit[] =
    "INSERT INTO arena.audit_log (actor_id, action, target_id, reason, detail_json) "
    "VALUES ($1, $2, $3, $4, $5)";

// Actor and target by name (the id only where no account has it): the log is read by people.
constexpr char kReadAudit[] =
    "SELECT coalesce(actor.name, l.actor_id), l.action, coalesce(target.name, l.target_id), "
    "  l.reason, l.detail_json, (extract(epoch FROM l.at) * 1000000)::bigint "
    "FROM arena.audit_log l "
    "LEFT JOIN arena.accounts actor ON actor.account_id = l.actor_id "
    "LEFT JOIN arena.accounts target ON target.account_id = l.target_id "
    "WHERE $1 = '' OR l.target_id = $1 ORDER BY l.audit_id DESC LIMIT $2";

constexpr char kOverdueDebitAccounts[] =
    "SELECT DISTINCT debit_id FROM arena.holds WHERE state = 'open' AND expires_at <= now() "
    "LIMIT $1";

constexpr char kOpenUserAccount[] =
    "INSERT INTO arena.ledger_accounts (name, kind) VALUES ($1, 'user')";

// --- Helpers -----------------------------------------------------------------------------

// The message of the internal status that makes a call retry after losing an idempotency
// key race (two requests with the same new key at the same moment).
constexpr char kKeyRace[] = "ledger: idempotency key race";
constexpr int kMaxKeyRaceRetries = 4;

struct AccountRow {
  int64_t id = 0;
  std::string name, kind;
  int64_t balance = 0, held = 0;
  bool may_go_negative = false, frozen = false;
  int64_t daily_allowance = 0;
};

AccountRow ReadAccountRow(const pqxx::row& r) {
  AccountRow a;
  a.id = r[0].as<int64_t>();
  a.name = r[1].as<std::string>();
  a.kind = r[2].as<std::string>();
  a.balance = r[3].as<int64_t>();
  a.held = r[4].as<int64_t>();
  a.may_go_negative = r[5].as<bool>();
  a.frozen = r[6].as<bool>();
  a.daily_allowance = r[7].as<int64_t>();
  return a;
}

std::map<std::string, AccountRow> LockByName(pqxx::transaction_base& t, const std::string& a,
                                             const std::string& b, const std::string& c) {
  std::map<std::string, AccountRow> out;
  for (const auto& row : t.exec_params(kLockByName, a, b, c)) {
    AccountRow acc = ReadAccountRow(row);
    out[acc.name] = acc;
  }
  return out;
}

std::string RequestHash(const std::vector<std::string>& parts) {
  std::string body = absl::StrJoin(parts, "\x1f");
  unsigned char out[32];
  crypto_generichash(out, sizeof out, reinterpret_cast<const unsigned char*>(body.data()),
                     body.size(), nullptr, 0);
  char hex[65];
  sodium_bin2hex(hex, sizeof hex, out, sizeof out);
  return std::string(hex, 64);
}

struct PriorRequest {
  bool found = false;
  int64_t result_id = 0;
};

// Looks up (caller, key). ALREADY_EXISTS when it was used for a different body.
absl::StatusOr<PriorRequest> FindPrior(pqxx::transaction_base& t, const std::string& caller,
                                       const std::string& key, const std::string& hash) {
  if (key.empty()) return PriorRequest{};
  auto rows = t.exec_params(kFindRequest, caller, key);
  if (rows.empty()) return PriorRequest{};
  if (rows[0][0].as<std::string>() != hash) {
    return absl::AlreadyExistsError(
        "idempotency key already used for a different request (conflict)");
  }
  return PriorRequest{true, rows[0][1].as<int64_t>()};
}

// Releases the overdue holds of a locked debit account; returns its new `held`.
int64_t ExpireLocked(pqxx::transaction_base& t, int64_t account_id) {
  return t.exec_params1(kExpireForAccount, account_id)[0].as<int64_t>();
}

int64_t Available(const AccountRow& a) {
  return a.balance - a.held;
}

absl::Status ValidateKey(const std::string& caller, const std::string& key) {
  if (key.size() > 128) return absl::InvalidArgumentError("idempotency key longer than 128");
  if (!key.empty() && caller.empty()) {
    return absl::InvalidArgumentError("an idempotency key needs a caller");
  }
  return absl::OkStatus();
}

enum class Txn { kTransaction, kSingleStatement };

// Runs `body` in a transaction (or, when it is one statement, as that statement alone),
// turning a lost race on a new idempotency key into a retry (the retry then finds the
// winner's result and replays it).
absl::Status TransactWithKey(common::PgPool& pool,
                             const std::function<absl::Status(pqxx::transaction_base&)>& body,
                             Txn txn = Txn::kTransaction) {
  absl::Status status;
  for (int attempt = 0; attempt < kMaxKeyRaceRetries; ++attempt) {
    auto guarded = [&](pqxx::transaction_base& t) -> absl::Status {
      try {
        return body(t);
      } catch (const pqxx::unique_violation& e) {
        if (std::string(e.what()).find("ledger_requests") == std::string::npos) throw;
        return absl::AbortedError(kKeyRace);
      }
    };
    status = txn == Txn::kTransaction ? pool.Transact(guarded) : pool.SingleStatement(guarded);
    if (!(absl::IsAborted(status) && status.message() == kKeyRace)) return status;
  }
  return absl::AbortedError("idempotency key contended; retry");
}

// The status of a refusal reported by arena.ledger_transfer (OK for ok and replayed), with
// the codes and messages Transfer has always answered.
absl::Status TransferRefusal(const TransferRequest& r, const std::string& status,
                             int64_t available) {
  if (status == "ok" || status == "replayed") return absl::OkStatus();
  if (status == "conflict") {
    return absl::AlreadyExistsError(
        "idempotency key already used for a different request (conflict)");
  }
  if (status == "no_debit") return absl::NotFoundError(absl::StrCat("no account ", r.debit));
  if (status == "no_credit") return absl::NotFoundError(absl::StrCat("no account ", r.credit));
  if (status == "frozen") return absl::FailedPreconditionError("account is frozen");
  if (status == "insufficient") {
    return absl::FailedPreconditionError(
        absl::StrCat("insufficient funds: available ", available, ", needed ", r.amount));
  }
  return absl::InternalError(absl::StrCat("ledger_transfer answered ", status));
}

void WriteAudit(pqxx::transaction_base& t, const AuditEntry& a) {
  t.exec_params(kInsertAudit, a.actor, a.action, a.target, a.reason, a.detail_json);
}

absl::Status ValidateAudit(const AuditEntry& a) {
  if (a.actor.empty()) return absl::InvalidArgumentError("audit needs an actor");
  if (a.reason.empty()) return absl::InvalidArgumentError("a reason is required");
  if (a.reason.size() > 1000) return absl::InvalidArgumentError("reason longer than 1000");
  return absl::OkStatus();
}

}  // namespace

void Ledger::OpenUserAccount(pqxx::transaction_base& txn, const std::string& account_id) {
  txn.exec_params(kOpenUserAccount, account_id);
}

absl::StatusOr<TransferResult> Ledger::Transfer(const TransferRequest& r) {
  if (r.amount <= 0) return absl::InvalidArgumentError("amount must be positive");
  if (r.amount > kMaxAmount) {
    return absl::InvalidArgumentError(absl::StrCat("amount is at most ", kMaxAmount));
  }
  if (r.debit.empty() || r.credit.empty()) {
    return absl::InvalidArgumentError("debit and credit accounts are required");
  }
  if (r.debit == r.credit) return absl::InvalidArgumentError("debit and credit are the same");
  if (r.memo.size() > 500) return absl::InvalidArgumentError("memo longer than 500");
  if (auto s = ValidateKey(r.caller, r.idempotency_key); !s.ok()) return s;
  if (r.audit) {
    if (auto s = ValidateAudit(*r.audit); !s.ok()) return s;
  }
  const std::string hash =
      RequestHash({"transfer", r.debit, r.credit, std::to_string(r.amount), r.kind, r.memo});
  TransferResult out;
  absl::Status status = TransactWithKey(
      pool_,
      [&](pqxx::transaction_base& t) -> absl::Status {
        out = TransferResult{};
        // Prepared once per connection (libpqxx registers it on first use), so the hot path
        // is not parsed and planned again on every call.
        t.conn().prepare(kTransferFunctionName, kTransferFunction);
        auto row =
            t.exec_prepared1(kTransferFunctionName, r.debit, r.credit, r.amount, r.kind, r.memo,
                             r.caller, r.idempotency_key, hash, r.allow_frozen_debit);
        auto refused = TransferRefusal(r, row[0].as<std::string>(), row[2].as<int64_t>());
        if (!refused.ok()) return refused;
        out = {row[1].as<int64_t>(), row[0].as<std::string>() == "replayed"};
        if (r.audit && !out.replayed) {
          AuditEntry a = *r.audit;
          a.detail_json =
              absl::StrCat("{\"transfer_id\":", out.transfer_id, ",\"amount\":", r.amount,
                           ",\"debit\":\"", r.debit, "\",\"credit\":\"", r.credit, "\"}");
          WriteAudit(t, a);
        }
        return absl::OkStatus();
      },
      // Without an audit row the function call is all there is: commit it on its own.
      r.audit ? Txn::kTransaction : Txn::kSingleStatement);
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<HoldResult> Ledger::Reserve(const ReserveRequest& r) {
  if (r.amount <= 0) return absl::InvalidArgumentError("amount must be positive");
  if (r.amount > kMaxAmount) {
    return absl::InvalidArgumentError(absl::StrCat("amount is at most ", kMaxAmount));
  }
  if (r.debit.empty() || r.credit.empty()) {
    return absl::InvalidArgumentError("debit and credit accounts are required");
  }
  if (r.debit == r.credit) return absl::InvalidArgumentError("debit and credit are the same");
  if (r.timeout <= absl::ZeroDuration() || r.timeout > absl::Hours(24)) {
    return absl::InvalidArgumentError("hold timeout must be within (0, 24h]");
  }
  if (r.memo.size() > 500) return absl::InvalidArgumentError("memo longer than 500");
  if (auto s = ValidateKey(r.caller, r.idempotency_key); !s.ok()) return s;
  const int64_t timeout_us = absl::ToInt64Microseconds(r.timeout);
  const std::string hash = RequestHash({"reserve", r.debit, r.credit, std::to_string(r.amount),
                                        std::to_string(timeout_us), r.memo, r.allowance_user});
  HoldResult out;
  absl::Status status = TransactWithKey(pool_, [&](pqxx::transaction_base& t) -> absl::Status {
    out = HoldResult{};
    auto prior = FindPrior(t, r.caller, r.idempotency_key, hash);
    if (!prior.ok()) return prior.status();
    if (prior->found) {
      auto h = t.exec_params1(
          "SELECT (extract(epoch FROM expires_at) * 1000000)::bigint FROM arena.holds "
          "WHERE hold_id = $1",
          prior->result_id);
      out = {prior->result_id, absl::FromUnixMicros(h[0].as<int64_t>()), true};
      return absl::OkStatus();
    }
    auto credit = t.exec_params(kAccountIdByName, r.credit);
    if (credit.empty()) return absl::NotFoundError(absl::StrCat("no account ", r.credit));
    const std::string& third = r.allowance_user.empty() ? r.debit : r.allowance_user;
    auto rows = LockByName(t, r.debit, third, third);
    auto d = rows.find(r.debit);
    if (d == rows.end()) return absl::NotFoundError(absl::StrCat("no account ", r.debit));
    AccountRow& debit = d->second;
    if (debit.frozen) return absl::FailedPreconditionError("account is frozen");
    const AccountRow* user = nullptr;
    if (!r.allowance_user.empty()) {
      auto u = rows.find(r.allowance_user);
      if (u == rows.end() || u->second.kind != "user") {
        return absl::NotFoundError(absl::StrCat("no user account ", r.allowance_user));
      }
      user = &u->second;
      if (user->frozen) return absl::FailedPreconditionError("account is frozen");
    }
    if (debit.held > 0 && !debit.may_go_negative && Available(debit) < r.amount) {
      debit.held = ExpireLocked(t, debit.id);
    }
    if (!debit.may_go_negative && Available(debit) < r.amount) {
      return absl::FailedPreconditionError(
          absl::StrCat("insufficient funds: available ", Available(debit), ", needed ", r.amount));
    }
    if (user != nullptr) {
      int64_t used = t.exec_params1(kAllowanceUsedToday, user->name)[0].as<int64_t>();
      if (used + r.amount > user->daily_allowance) {
        return absl::ResourceExhaustedError(
            absl::StrCat("daily pool allowance exceeded: allowance ", user->daily_allowance,
                         ", used today ", used, ", asked ", r.amount));
      }
    }
    auto row =
        t.exec_params1(kInsertHold, debit.id, credit[0][0].as<int64_t>(), r.amount,
                       r.allowance_user, r.memo, timeout_us, r.caller, r.idempotency_key, hash);
    out.hold_id = row[0].as<int64_t>();
    out.expires_at = absl::FromUnixMicros(row[1].as<int64_t>());
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<HoldResult> Ledger::ReserveFromPool(const std::string& user, int64_t amount,
                                                   absl::Duration timeout, const std::string& memo,
                                                   const std::string& caller,
                                                   const std::string& idempotency_key) {
  if (user.empty()) return absl::InvalidArgumentError("a user is required");
  ReserveRequest r;
  r.debit = kPool;
  r.credit = kModelSpend;
  r.amount = amount;
  r.timeout = timeout;
  r.memo = memo;
  r.caller = caller;
  r.idempotency_key = idempotency_key;
  r.allowance_user = user;
  return Reserve(r);
}

namespace {

enum class Settle { kPost, kVoid };

struct SettleOutcome {
  int64_t result_id = 0;
  bool replayed = false;
  bool expired = false;
};

// Posts or voids one hold: locks its two accounts in id order, then the hold.
absl::StatusOr<SettleOutcome> SettleHold(common::PgPool& pool, Settle how, int64_t hold_id,
                                         int64_t amount, const std::string& caller,
                                         const std::string& key) {
  if (hold_id <= 0) return absl::InvalidArgumentError("a hold id is required");
  if (amount < 0) return absl::InvalidArgumentError("amount must not be negative");
  if (auto s = ValidateKey(caller, key); !s.ok()) return s;
  const std::string op = how == Settle::kPost ? "post" : "void";
  const std::string hash =
      RequestHash({op, std::to_string(hold_id), std::to_string(how == Settle::kPost ? amount : 0)});
  SettleOutcome out;
  absl::Status status = TransactWithKey(pool, [&](pqxx::transaction_base& t) -> absl::Status {
    out = SettleOutcome{};
    auto prior = FindPrior(t, caller, key, hash);
    if (!prior.ok()) return prior.status();
    if (prior->found) {
      out.result_id = prior->result_id;
      out.replayed = true;
      return absl::OkStatus();
    }
    auto ids = t.exec_params(kHoldAccounts, hold_id);
    if (ids.empty()) return absl::NotFoundError(absl::StrCat("no hold ", hold_id));
    const int64_t debit_id = ids[0][0].as<int64_t>();
    const int64_t credit_id = ids[0][1].as<int64_t>();
    t.exec_params(kLockById, debit_id, credit_id);
    auto h = t.exec_params1(kLockHold, hold_id);
    const int64_t held_amount = h[0].as<int64_t>();
    const std::string state = h[1].as<std::string>();
    const bool overdue = h[2].as<bool>();
    if (state != "open") {
      return absl::FailedPreconditionError(absl::StrCat("hold ", hold_id, " is ", state));
    }
    if (overdue) {
      t.exec_params(kExpireOneHold, hold_id, held_amount, debit_id);
      out.expired = true;  // commit the expiry, then report it
      return absl::OkStatus();
    }
    if (how == Settle::kPost) {
      if (amount > held_amount) {
        return absl::InvalidArgumentError(
            absl::StrCat("cannot post ", amount, " from a hold of ", held_amount));
      }
      auto row = t.exec_params1(kPostHold, hold_id, amount, held_amount, debit_id, credit_id,
                                h[3].as<std::string>(), caller, key, hash);
      out.result_id = row[0].as<int64_t>();
    } else {
      t.exec_params(kVoidHold, hold_id, held_amount, debit_id, caller, key, hash);
      out.result_id = hold_id;
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  if (out.expired) {
    return absl::FailedPreconditionError(absl::StrCat("hold ", hold_id, " expired"));
  }
  return out;
}

}  // namespace

absl::StatusOr<TransferResult> Ledger::Post(int64_t hold_id, int64_t amount,
                                            const std::string& caller,
                                            const std::string& idempotency_key) {
  auto out = SettleHold(pool_, Settle::kPost, hold_id, amount, caller, idempotency_key);
  if (!out.ok()) return out.status();
  return TransferResult{out->result_id, out->replayed};
}

absl::StatusOr<bool> Ledger::Void(int64_t hold_id, const std::string& caller,
                                  const std::string& idempotency_key) {
  auto out = SettleHold(pool_, Settle::kVoid, hold_id, 0, caller, idempotency_key);
  if (!out.ok()) return out.status();
  return out->replayed;
}

absl::StatusOr<BalanceInfo> Ledger::Balance(const std::string& name) {
  BalanceInfo out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    out = BalanceInfo{};
    auto rows = t.exec_params(kBalanceByName, name);
    if (rows.empty()) return absl::NotFoundError(absl::StrCat("no account ", name));
    if (rows[0][6].as<bool>()) {
      // Overdue holds: expire them (lazily) under the account's lock, then read again.
      const int64_t id = rows[0][0].as<int64_t>();
      t.exec_params(kLockOne, id);
      ExpireLocked(t, id);
      rows = t.exec_params(kBalanceByName, name);
    }
    const auto& r = rows[0];
    out.name = name;
    out.kind = r[1].as<std::string>();
    out.balance = r[2].as<int64_t>();
    out.held = r[3].as<int64_t>();
    out.available = out.balance - out.held;
    out.frozen = r[4].as<bool>();
    out.daily_allowance = r[5].as<int64_t>();
    if (out.kind == "user") {
      out.allowance_used_today = t.exec_params1(kAllowanceUsedToday, name)[0].as<int64_t>();
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<std::vector<HistoryEntry>> Ledger::History(const std::string& name, int limit) {
  if (limit <= 0 || limit > 1000) limit = 100;
  std::vector<HistoryEntry> out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    out.clear();
    auto id = t.exec_params(kAccountIdByName, name);
    if (id.empty()) return absl::NotFoundError(absl::StrCat("no account ", name));
    for (const auto& r : t.exec_params(kHistory, id[0][0].as<int64_t>(), limit)) {
      HistoryEntry e;
      e.transfer_id = r[0].as<int64_t>();
      e.debit = r[1].as<std::string>();
      e.credit = r[2].as<std::string>();
      e.amount = r[3].as<int64_t>();
      e.kind = r[4].as<std::string>();
      e.memo = r[5].as<std::string>();
      e.hold_id = r[6].as<int64_t>();
      e.at = absl::FromUnixMicros(r[7].as<int64_t>());
      out.push_back(std::move(e));
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<HoldInfo> Ledger::GetHold(int64_t hold_id) {
  HoldInfo out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    auto rows = t.exec_params(kGetHold, hold_id);
    if (rows.empty()) return absl::NotFoundError(absl::StrCat("no hold ", hold_id));
    const auto& r = rows[0];
    out.hold_id = r[0].as<int64_t>();
    out.debit = r[1].as<std::string>();
    out.credit = r[2].as<std::string>();
    out.amount = r[3].as<int64_t>();
    out.posted_amount = r[4].as<int64_t>();
    out.state = r[5].as<std::string>();
    out.expires_at = absl::FromUnixMicros(r[6].as<int64_t>());
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::Status Ledger::SetFrozen(const std::string& name, bool frozen, const AuditEntry& audit) {
  if (auto s = ValidateAudit(audit); !s.ok()) return s;
  return pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    if (t.exec_params(kSetFrozen, name, frozen).empty()) {
      return absl::NotFoundError(absl::StrCat("no account ", name));
    }
    WriteAudit(t, audit);
    return absl::OkStatus();
  });
}

absl::Status Ledger::SetDailyAllowance(const std::string& name, int64_t micro,
                                       const AuditEntry& audit) {
  if (micro < 0) return absl::InvalidArgumentError("allowance must not be negative");
  if (auto s = ValidateAudit(audit); !s.ok()) return s;
  return pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    if (t.exec_params(kSetAllowance, name, micro).empty()) {
      return absl::NotFoundError(absl::StrCat("no user account ", name));
    }
    AuditEntry a = audit;
    a.detail_json = absl::StrCat("{\"daily_microcredits\":", micro, "}");
    WriteAudit(t, a);
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<AuditRecord>> Ledger::Audit(const std::string& target, int limit) {
  if (limit <= 0 || limit > 1000) limit = 100;
  std::vector<AuditRecord> out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    out.clear();
    for (const auto& r : t.exec_params(kReadAudit, target, limit)) {
      out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                     r[3].as<std::string>(), r[4].as<std::string>(),
                     absl::FromUnixMicros(r[5].as<int64_t>())});
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<int> Ledger::ExpireOverdueHolds(int limit) {
  std::vector<int64_t> accounts;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    accounts.clear();
    for (const auto& r : t.exec_params(kOverdueDebitAccounts, limit)) {
      accounts.push_back(r[0].as<int64_t>());
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  int expired = 0;
  for (int64_t id : accounts) {
    int n = 0;
    status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
      t.exec_params(kLockOne, id);
      n = t.exec_params1(kExpireForAccount, id)[1].as<int>();
      return absl::OkStatus();
    });
    if (!status.ok()) return status;
    expired += n;
  }
  return expired;
}

}  // namespace arena::ledger
