#include "services/arena/ranked/fair_play_store.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace arena::ranked {
namespace {

constexpr int kMaxListLimit = 1000;
constexpr size_t kMaxGameIdBytes = 128;
constexpr size_t kMaxReasonBytes = 1000;

// Every column of a report, in StoredFromRow's order; times as Unix microseconds.
#define FAIR_PLAY_COLUMNS                                                                      \
  "report_id, game_id, account_id, color, moves_analysed, match_rate, acpl, median_think_ms, " \
  "flagged, evidence_json, review_state, coalesce(reviewed_by, ''), "                          \
  "coalesce(review_reason, ''), (extract(epoch FROM reviewed_at) * 1000000)::bigint, "         \
  "(extract(epoch FROM created_at) * 1000000)::bigint "

constexpr char kAccountExists[] = "SELECT 1 FROM arena.accounts WHERE account_id = $1";

// A repeat finds the key taken and inserts nothing; a concurrent first insert of the same key
// makes this one wait for it and then insert nothing. Either way the row is read afterwards.
constexpr char kInsertReport[] =
    "INSERT INTO arena.fair_play_reports (game_id, account_id, color, moves_analysed, "
    "  match_rate, acpl, median_think_ms, flagged, evidence_json, review_state) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
    "ON CONFLICT (game_id, account_id) DO NOTHING RETURNING " FAIR_PLAY_COLUMNS;

constexpr char kReportOf[] = "SELECT " FAIR_PLAY_COLUMNS
                             "FROM arena.fair_play_reports WHERE game_id = $1 AND account_id = $2";

constexpr char kReportById[] =
    "SELECT " FAIR_PLAY_COLUMNS "FROM arena.fair_play_reports WHERE report_id = $1";

constexpr char kListFlags[] = "SELECT " FAIR_PLAY_COLUMNS
                              "FROM arena.fair_play_reports "
                              "WHERE flagged AND ($1 = '' OR review_state = $1) "
                              "ORDER BY created_at, report_id LIMIT $2";

// Only an open flag is resolved; the caller tells "not open" from "unknown" by reading it.
constexpr char kResolve[] =
    "UPDATE arena.fair_play_reports SET review_state = $2, reviewed_by = $3, "
    "  review_reason = $4, reviewed_at = now() "
    "WHERE report_id = $1 AND review_state = 'open' RETURNING " FAIR_PLAY_COLUMNS;

constexpr char kInsertAudit[] =
    "INSERT INTO arena.audit_log (actor_id, action, target_id, reason, detail_json) "
    "VALUES ($1, $2, $3, $4, $5)";

#undef FAIR_PLAY_COLUMNS

absl::StatusOr<StoredFairPlayReport> StoredFromRow(const pqxx::row& row) {
  StoredFairPlayReport r;
  r.report_id = row[0].as<int64_t>();
  r.game_id = row[1].as<std::string>();
  r.account_id = row[2].as<std::string>();
  r.color = row[3].as<std::string>() == "white" ? 0 : 1;
  r.moves_analysed = row[4].as<int>();
  r.match_rate = row[5].as<double>();
  r.acpl = row[6].as<double>();
  if (!row[7].is_null()) r.median_think_ms = row[7].as<double>();
  r.flagged = row[8].as<bool>();
  r.evidence_json = row[9].as<std::string>();
  const std::string state = row[10].as<std::string>();
  std::optional<ReviewState> parsed = ParseReviewState(state);
  if (!parsed) return absl::InternalError(absl::StrCat("report with review state '", state, "'"));
  r.review_state = *parsed;
  r.reviewed_by = row[11].as<std::string>();
  r.review_reason = row[12].as<std::string>();
  if (!row[13].is_null()) r.reviewed_at = absl::FromUnixMicros(row[13].as<int64_t>());
  r.created_at = absl::FromUnixMicros(row[14].as<int64_t>());
  return r;
}

absl::StatusOr<std::vector<StoredFairPlayReport>> StoredFromRows(const pqxx::result& rows) {
  std::vector<StoredFairPlayReport> out;
  out.reserve(rows.size());
  for (const pqxx::row& row : rows) {
    auto r = StoredFromRow(row);
    if (!r.ok()) return r.status();
    out.push_back(*std::move(r));
  }
  return out;
}

absl::Status ValidateRecord(const FairPlayRecord& r) {
  const PlayerFairPlay& f = r.figures;
  if (r.game_id.empty() || r.game_id.size() > kMaxGameIdBytes) {
    return absl::InvalidArgumentError(absl::StrCat("a game id is 1..", kMaxGameIdBytes, " bytes"));
  }
  if (r.account_id.empty()) return absl::InvalidArgumentError("an account id is required");
  if (f.color != 0 && f.color != 1) {
    return absl::InvalidArgumentError("a colour is 0 (white) or 1 (black)");
  }
  if (f.moves_analysed < 0 || !(f.match_rate >= 0 && f.match_rate <= 1) ||
      !(f.acpl >= 0 && std::isfinite(f.acpl)) ||
      (f.median_think_ms && !(*f.median_think_ms >= 0 && std::isfinite(*f.median_think_ms)))) {
    return absl::InvalidArgumentError("fair-play figures out of range");
  }
  if (f.evidence_json.empty()) return absl::InvalidArgumentError("the evidence is required");
  return absl::OkStatus();
}

}  // namespace

const char* ReviewStateName(ReviewState state) {
  switch (state) {
    case ReviewState::kNone:
      return "none";
    case ReviewState::kOpen:
      return "open";
    case ReviewState::kDismissed:
      return "dismissed";
    case ReviewState::kActioned:
      return "actioned";
  }
  return "?";
}

std::optional<ReviewState> ParseReviewState(const std::string& name) {
  for (ReviewState s :
       {ReviewState::kNone, ReviewState::kOpen, ReviewState::kDismissed, ReviewState::kActioned}) {
    if (name == ReviewStateName(s)) return s;
  }
  return std::nullopt;
}

absl::StatusOr<RecordResult> FairPlayStore::Record(pqxx::transaction_base& txn,
                                                   const FairPlayRecord& record) {
  if (absl::Status s = ValidateRecord(record); !s.ok()) return s;
  // Checked first, so an unknown account is an answer, not a foreign-key error that would
  // abort the caller's transaction.
  if (txn.exec_params(kAccountExists, record.account_id).empty()) {
    return absl::NotFoundError(absl::StrCat("no account '", record.account_id, "'"));
  }
  const PlayerFairPlay& f = record.figures;
  std::optional<double> median = f.median_think_ms;
  pqxx::result inserted = txn.exec_params(
      kInsertReport, record.game_id, record.account_id, f.color == 0 ? "white" : "black",
      f.moves_analysed, f.match_rate, f.acpl, median, f.flagged, f.evidence_json,
      ReviewStateName(f.flagged ? ReviewState::kOpen : ReviewState::kNone));
  RecordResult out;
  out.newly_recorded = !inserted.empty();
  pqxx::result rows =
      out.newly_recorded ? inserted : txn.exec_params(kReportOf, record.game_id, record.account_id);
  if (rows.empty()) return absl::InternalError("fair-play report neither inserted nor found");
  auto stored = StoredFromRow(rows[0]);
  if (!stored.ok()) return stored.status();
  out.report = *std::move(stored);
  return out;
}

absl::StatusOr<RecordResult> FairPlayStore::Record(const FairPlayRecord& record) {
  if (absl::Status s = ValidateRecord(record); !s.ok()) return s;
  RecordResult out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) {
    auto r = Record(txn, record);
    if (!r.ok()) return r.status();
    out = *std::move(r);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<StoredFairPlayReport> FairPlayStore::Get(const std::string& game_id,
                                                        const std::string& account_id) {
  StoredFairPlayReport out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) {
    pqxx::result rows = txn.exec_params(kReportOf, game_id, account_id);
    if (rows.empty()) {
      return absl::NotFoundError(
          absl::StrCat("no fair-play report for ", account_id, " in game ", game_id));
    }
    auto r = StoredFromRow(rows[0]);
    if (!r.ok()) return r.status();
    out = *std::move(r);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<StoredFairPlayReport> FairPlayStore::GetById(int64_t report_id) {
  StoredFairPlayReport out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) {
    pqxx::result rows = txn.exec_params(kReportById, report_id);
    if (rows.empty()) return absl::NotFoundError(absl::StrCat("no fair-play report ", report_id));
    auto r = StoredFromRow(rows[0]);
    if (!r.ok()) return r.status();
    out = *std::move(r);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<std::vector<StoredFairPlayReport>> FairPlayStore::ListFlags(
    std::optional<ReviewState> state, int limit) {
  if (state == ReviewState::kNone) {
    return absl::InvalidArgumentError("unflagged reports are not flags: ask for a review state");
  }
  if (limit < 1 || limit > kMaxListLimit) {
    return absl::InvalidArgumentError(absl::StrCat("a limit is 1..", kMaxListLimit));
  }
  const std::string filter = state ? ReviewStateName(*state) : "";
  std::vector<StoredFairPlayReport> out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) {
    auto r = StoredFromRows(txn.exec_params(kListFlags, filter, limit));
    if (!r.ok()) return r.status();
    out = *std::move(r);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<StoredFairPlayReport> FairPlayStore::Resolve(int64_t report_id, ReviewState decision,
                                                            const std::string& admin_id,
                                                            const std::string& reason) {
  if (decision != ReviewState::kDismissed && decision != ReviewState::kActioned) {
    return absl::InvalidArgumentError("a flag is resolved as dismissed or actioned");
  }
  if (admin_id.empty()) return absl::InvalidArgumentError("a review needs the admin's id");
  if (reason.empty() || reason.size() > kMaxReasonBytes) {
    return absl::InvalidArgumentError(absl::StrCat("a reason is 1..", kMaxReasonBytes, " bytes"));
  }
  StoredFairPlayReport out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) {
    pqxx::result rows =
        txn.exec_params(kResolve, report_id, ReviewStateName(decision), admin_id, reason);
    if (rows.empty()) {
      pqxx::result current = txn.exec_params(kReportById, report_id);
      if (current.empty()) {
        return absl::NotFoundError(absl::StrCat("no fair-play report ", report_id));
      }
      const std::string state = current[0][10].as<std::string>();
      return absl::FailedPreconditionError(
          absl::StrCat("fair-play report ", report_id, " is '", state, "', not open"));
    }
    auto r = StoredFromRow(rows[0]);
    if (!r.ok()) return r.status();
    out = *std::move(r);
    nlohmann::json detail = {{"report_id", out.report_id},
                             {"game_id", out.game_id},
                             {"color", out.color == 0 ? "white" : "black"},
                             {"moves_analysed", out.moves_analysed},
                             {"match_rate", out.match_rate},
                             {"acpl", out.acpl},
                             {"review_state", ReviewStateName(decision)}};
    txn.exec_params(kInsertAudit, admin_id,
                    decision == ReviewState::kDismissed ? "fair_play_dismiss" : "fair_play_action",
                    out.account_id, reason, detail.dump());
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

}  // namespace arena::ranked
