// Fair-play reports over PostgreSQL (deploy/sql/arena/0008_fair_play.sql): one per player of an
// analysed ranked game, and the admin review of the flagged ones.
//
// A report is written once: Record is idempotent per (game, account), and a repeat, even with
// other figures (the engine's hash table makes reruns differ by a few centipawns), changes
// nothing and answers the stored row. A flagged report starts 'open'; an admin resolves it
// once, to 'dismissed' or 'actioned', and the resolution writes its row in arena.audit_log in
// the same transaction. What 'actioned' means for money and the account (refunds, a block) is
// the caller's work, done before or after Resolve with its own audit; this store only records
// the decision.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"
#include "services/arena/ranked/fair_play.h"
#include "services/common/pg_pool.h"

namespace arena::ranked {

enum class ReviewState { kNone, kOpen, kDismissed, kActioned };
const char* ReviewStateName(ReviewState state);  // "none", "open", "dismissed", "actioned"
std::optional<ReviewState> ParseReviewState(const std::string& name);

// A report to record: one player's figures from AnalyseFairPlay, for a game and the account
// that played that colour.
struct FairPlayRecord {
  std::string game_id;
  std::string account_id;
  PlayerFairPlay figures;
};

// A report as stored.
struct StoredFairPlayReport {
  int64_t report_id = 0;
  std::string game_id;
  std::string account_id;
  int color = 0;  // 0 = white, 1 = black
  int moves_analysed = 0;
  double match_rate = 0;
  double acpl = 0;
  std::optional<double> median_think_ms;
  bool flagged = false;
  std::string evidence_json;
  ReviewState review_state = ReviewState::kNone;
  std::string reviewed_by;    // empty until reviewed
  std::string review_reason;  // likewise
  std::optional<absl::Time> reviewed_at;
  absl::Time created_at;
};

struct RecordResult {
  StoredFairPlayReport report;  // the stored row: the new one, or the first on a repeat
  bool newly_recorded = false;
};

class FairPlayStore {
 public:
  explicit FairPlayStore(common::PgPool& pool) : pool_(pool) {}

  // Records the report inside the caller's transaction (say, the one that settles the game).
  // Idempotent per (game_id, account_id). INVALID_ARGUMENT for an empty or over-long game id,
  // an empty account id, a colour other than 0 or 1 or figures out of range; NOT_FOUND for an
  // unknown account (looked up first, so the caller's transaction stays usable). Database
  // errors are thrown as libpqxx exceptions, for the caller's PgPool::Transact to map.
  static absl::StatusOr<RecordResult> Record(pqxx::transaction_base& txn,
                                             const FairPlayRecord& record);
  // The same in a transaction of its own.
  absl::StatusOr<RecordResult> Record(const FairPlayRecord& record);

  // The report of one player in one game; NOT_FOUND when there is none.
  absl::StatusOr<StoredFairPlayReport> Get(const std::string& game_id,
                                           const std::string& account_id);

  // One report by its id; NOT_FOUND when there is none.
  absl::StatusOr<StoredFairPlayReport> GetById(int64_t report_id);

  // Flagged reports, oldest first: those in `state` (kOpen is the review queue), or every
  // flagged one when nullopt. kNone is INVALID_ARGUMENT (unflagged reports are not flags), as
  // is a limit outside 1..1000.
  absl::StatusOr<std::vector<StoredFairPlayReport>> ListFlags(std::optional<ReviewState> state,
                                                              int limit);

  // An admin's decision on an open flag: kDismissed or kActioned (else INVALID_ARGUMENT), with
  // the admin's account id and a reason (1..1000 bytes). Writes the audit row (action
  // "fair_play_dismiss" or "fair_play_action", target the reported account, the figures in
  // its detail) in the same transaction. NOT_FOUND for an unknown report; FAILED_PRECONDITION
  // when it is not open (never flagged, or already resolved: a decision is made once).
  absl::StatusOr<StoredFairPlayReport> Resolve(int64_t report_id, ReviewState decision,
                                               const std::string& admin_id,
                                               const std::string& reason);

 private:
  common::PgPool& pool_;
};

}  // namespace arena::ranked
