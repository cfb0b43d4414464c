// The credit ledger: double-entry, integer micro-credits, in PostgreSQL schema `arena`.
//
// Every ledger account is a row with a posted `balance` and the sum of its open holds, `held`.
// A transfer is one immutable row (debit, credit, amount > 0), so every transfer balances by
// construction and the sum of all balances is always 0 (issuance goes negative as credits are
// created). Only issuance may go negative; every other account keeps balance - held >= 0.
//
// Holds are two-phase: Reserve raises `held` on the debit account, then exactly one of Post
// (move 0..amount, release the rest), Void, or expiry (a sweeper calls ExpireOverdueHolds, and
// any operation that touches an overdue hold or its debit account expires it first).
//
// Concurrency: each operation is one short READ COMMITTED transaction that locks the ledger
// account rows it changes with SELECT ... FOR UPDATE in ledger_account_id order, so
// concurrent operations serialise per account and never deadlock or lose an update.
//
// Idempotency: a request with a (caller, key) records the hash of its body. A repeat with the
// same body returns the original result with replayed = true and changes nothing; a repeat
// with a different body is ALREADY_EXISTS. Keys are scoped to the caller, so one caller's key
// never matches, blocks or reveals another's. An empty key means "not idempotent".
//
// A frozen account cannot be debited by a transfer or a new hold, but holds made before the
// freeze can still be posted or voided.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"

namespace arena::ledger {

// Names of the system ledger accounts. A user's ledger account is named by its account_id.
inline constexpr char kIssuance[] = "system:issuance";
inline constexpr char kPool[] = "system:pool";
inline constexpr char kModelSpend[] = "system:model_spend";
inline constexpr char kFees[] = "system:fees";
inline constexpr char kEscrow[] = "system:escrow";
// The most one transfer or hold may move: 10^15 microcredits (a billion credits). Far below
// what a bigint balance holds, so no sum of a few of them overflows (docs/security.md).
inline constexpr int64_t kMaxAmount = 1000000000000000;

// An admin action recorded in the audit log in the same transaction as its effect.
struct AuditEntry {
  std::string actor;   // the admin's account_id
  std::string action;  // "grant", "adjust", "freeze", "unfreeze", "allowance", ...
  std::string target;  // the account_id acted on
  std::string reason;  // required, free text
  std::string detail_json = "{}";
};

// As read back: actor and target are account names (ids only where no account has them).
struct AuditRecord {
  std::string actor, action, target, reason, detail_json;
  absl::Time at;
};

struct TransferRequest {
  std::string debit = "";  // ledger account names
  std::string credit = "";
  int64_t amount = 0;     // micro-credits, > 0
  std::string kind = "";  // "grant", "donation", "gift", "adjust", ...
  std::string memo = "";
  std::string caller = "";  // idempotency scope (an account_id, or "service:arena")
  std::string idempotency_key = "";
  std::optional<AuditEntry> audit = std::nullopt;
  // Admin adjustments may take credits back from a frozen account.
  bool allow_frozen_debit = false;
};

struct TransferResult {
  int64_t transfer_id = 0;  // 0 when a post moved nothing
  bool replayed = false;
};

struct ReserveRequest {
  std::string debit = "";
  std::string credit = "";
  int64_t amount = 0;
  absl::Duration timeout = absl::Minutes(5);  // longer than any call the hold covers
  std::string memo = "";
  std::string caller = "";
  std::string idempotency_key = "";
  // When set, the hold counts against this user's daily pool allowance (ReserveFromPool).
  std::string allowance_user = "";
};

struct HoldResult {
  int64_t hold_id = 0;
  absl::Time expires_at;
  bool replayed = false;
};

struct BalanceInfo {
  std::string name;
  std::string kind;
  int64_t balance = 0;    // posted
  int64_t held = 0;       // open holds
  int64_t available = 0;  // balance - held
  bool frozen = false;
  int64_t daily_allowance = 0;
  int64_t allowance_used_today = 0;  // pool holds today: open amounts + posted amounts
};

struct HistoryEntry {
  int64_t transfer_id = 0;
  std::string debit, credit;
  int64_t amount = 0;
  std::string kind, memo;
  int64_t hold_id = 0;
  absl::Time at;
};

struct HoldInfo {
  int64_t hold_id = 0;
  std::string debit, credit;
  int64_t amount = 0, posted_amount = 0;
  std::string state;  // "open", "posted", "voided", "expired"
  absl::Time expires_at;
};

class Ledger {
 public:
  explicit Ledger(common::PgPool& pool) : pool_(pool) {}

  // Creates the ledger account of a new user inside the caller's transaction (sign-up).
  static void OpenUserAccount(pqxx::transaction_base& txn, const std::string& account_id);

  // --- Moving credits ------------------------------------------------------------------
  // FAILED_PRECONDITION for insufficient funds or a frozen debit account; NOT_FOUND for an
  // unknown account; INVALID_ARGUMENT for a bad amount; ALREADY_EXISTS for a reused key.
  absl::StatusOr<TransferResult> Transfer(const TransferRequest& request);

  absl::StatusOr<HoldResult> Reserve(const ReserveRequest& request);
  // A pool hold for `user`'s model seat: debit the pool, credit model spend, and count it
  // against the user's daily allowance (RESOURCE_EXHAUSTED when it would exceed it).
  absl::StatusOr<HoldResult> ReserveFromPool(const std::string& user, int64_t amount,
                                             absl::Duration timeout, const std::string& memo,
                                             const std::string& caller,
                                             const std::string& idempotency_key);
  // Moves `amount` (0..hold amount) and releases the rest. FAILED_PRECONDITION when the hold
  // is no longer open (posted, voided or expired; an overdue hold is expired on the spot).
  absl::StatusOr<TransferResult> Post(int64_t hold_id, int64_t amount, const std::string& caller,
                                      const std::string& idempotency_key);
  absl::StatusOr<bool> Void(int64_t hold_id, const std::string& caller,
                            const std::string& idempotency_key);  // true when replayed

  // --- Reading ---------------------------------------------------------------------------
  absl::StatusOr<BalanceInfo> Balance(const std::string& name);
  absl::StatusOr<std::vector<HistoryEntry>> History(const std::string& name, int limit);
  absl::StatusOr<HoldInfo> GetHold(int64_t hold_id);

  // --- Administration (each writes `audit` in the same transaction) --------------------
  absl::Status SetFrozen(const std::string& name, bool frozen, const AuditEntry& audit);
  absl::Status SetDailyAllowance(const std::string& name, int64_t micro, const AuditEntry& audit);
  absl::StatusOr<std::vector<AuditRecord>> Audit(const std::string& target, int limit);

  // Expires up to `limit` overdue holds; returns how many. Called by the sweeper.
  absl::StatusOr<int> ExpireOverdueHolds(int limit = 1000);

 private:
  common::PgPool& pool_;
};

}  // namespace arena::ledger
