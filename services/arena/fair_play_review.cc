// RankedPlay's fair-play review (issue 26; docs/ranked.md, "Fair play"): the flags the check
// raised, and an admin's decision on one.
//
// "action" may refund the opponent and block the reported account. The steps run in an order
// that a retry finishes without doing anything twice: the refund is one ledger transfer under
// a key derived from the report ("fairplay:<id>:refund"), the freeze sets a state, and the
// decision is written last (FairPlayStore::Resolve, once, with its audit row). A review that
// fails part-way (say, the account cannot cover the refund) has resolved nothing, and the
// flag stays open.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/time_util.h"
#include "services/arena/ranked_play.h"

namespace arena::service {
namespace {

using google::protobuf::util::TimeUtil;

// The game's pairing, from the reported account's side.
constexpr char kPairingOfGame[] =
    "SELECT p.pairing_id, p.stake, "
    "  CASE WHEN p.player_a = $2 THEN p.player_b ELSE p.player_a END, "
    "  CASE WHEN p.player_a = $2 THEN p.payout_b ELSE p.payout_a END, "
    "  me.name, o.name "
    "FROM arena.ranked_pairings p "
    "JOIN arena.accounts me ON me.account_id = $2 "
    "JOIN arena.accounts o ON o.account_id = "
    "  CASE WHEN p.player_a = $2 THEN p.player_b ELSE p.player_a END "
    "WHERE p.game_id = $1 AND (p.player_a = $2 OR p.player_b = $2)";

constexpr int kMaxFlags = 1000;

}  // namespace

absl::StatusOr<v1::FairPlayFlag> RankedPlay::FlagOf(const ranked::StoredFairPlayReport& report) {
  v1::FairPlayFlag out;
  out.set_report_id(report.report_id);
  out.set_game_id(report.game_id);
  out.set_account_id(report.account_id);
  out.set_colour(report.color == 0 ? "white" : "black");
  out.set_moves_analysed(report.moves_analysed);
  out.set_match_rate(report.match_rate);
  out.set_acpl(report.acpl);
  if (report.median_think_ms) out.set_median_think_ms(*report.median_think_ms);
  out.set_evidence_json(report.evidence_json);
  out.set_review_state(ranked::ReviewStateName(report.review_state));
  out.set_reviewed_by(report.reviewed_by);
  out.set_review_reason(report.review_reason);
  if (report.reviewed_at) {
    *out.mutable_reviewed_at() =
        TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(*report.reviewed_at));
  }
  *out.mutable_created_at() =
      TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(report.created_at));
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result r = txn.exec_params(kPairingOfGame, report.game_id, report.account_id);
    if (r.empty()) return absl::OkStatus();  // a report of a game arena no longer pairs
    out.set_pairing_id(r[0][0].as<int64_t>());
    out.set_stake_microcredits(r[0][1].as<int64_t>());
    out.set_opponent_id(r[0][2].as<std::string>());
    out.set_opponent_loss_microcredits(
        std::max<int64_t>(0, r[0][1].as<int64_t>() - r[0][3].as<int64_t>()));
    out.set_account_name(r[0][4].as<std::string>());
    out.set_opponent_name(r[0][5].as<std::string>());
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  auto balance = ledger_.Balance(report.account_id);
  if (balance.ok()) out.set_account_frozen(balance->frozen);
  return out;
}

absl::StatusOr<v1::ListFairPlayFlagsResponse> RankedPlay::FairPlayFlags(const std::string& state,
                                                                        int limit) {
  std::optional<ranked::ReviewState> filter = ranked::ReviewState::kOpen;
  if (state == "all") {
    filter = std::nullopt;
  } else if (!state.empty()) {
    filter = ranked::ParseReviewState(state);
    if (!filter || *filter == ranked::ReviewState::kNone) {
      return absl::InvalidArgumentError(
          absl::StrCat("state '", state, "' is not one of open, dismissed, actioned, all"));
    }
  }
  if (limit < 0 || limit > kMaxFlags) {
    return absl::InvalidArgumentError(absl::StrCat("limit is 1..", kMaxFlags, " (0: 100)"));
  }
  ranked::FairPlayStore store(pool_);
  auto reports = store.ListFlags(filter, limit == 0 ? 100 : limit);
  if (!reports.ok()) return reports.status();
  v1::ListFairPlayFlagsResponse out;
  for (const ranked::StoredFairPlayReport& r : *reports) {
    auto flag = FlagOf(r);
    if (!flag.ok()) return flag.status();
    *out.add_flags() = *std::move(flag);
  }
  return out;
}

absl::StatusOr<v1::FairPlayFlag> RankedPlay::ReviewFairPlayFlag(
    const accounts::Principal& admin, const v1::ReviewFairPlayFlagRequest& req) {
  ranked::ReviewState decision;
  if (req.decision() == "dismiss") {
    decision = ranked::ReviewState::kDismissed;
  } else if (req.decision() == "action") {
    decision = ranked::ReviewState::kActioned;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("decision '", req.decision(), "' is not dismiss or action"));
  }
  if (req.reason().empty()) return absl::InvalidArgumentError("a reason is required (audit log)");
  if (decision == ranked::ReviewState::kDismissed && (req.refund_opponent() || req.block())) {
    return absl::InvalidArgumentError("a dismissed flag neither refunds nor blocks");
  }
  ranked::FairPlayStore store(pool_);
  auto report = store.GetById(req.report_id());
  if (!report.ok()) return report.status();
  if (report->review_state != ranked::ReviewState::kOpen) {
    return absl::FailedPreconditionError(absl::StrCat("report ", req.report_id(), " is ",
                                                      ranked::ReviewStateName(report->review_state),
                                                      ": only an open flag is reviewed, once"));
  }
  auto flag = FlagOf(*report);
  if (!flag.ok()) return flag.status();
  const std::string& cheat = report->account_id;

  if (req.refund_opponent()) {
    if (flag->opponent_id().empty()) {
      return absl::FailedPreconditionError("the flag's game has no ranked pairing to refund");
    }
    if (flag->opponent_loss_microcredits() > 0) {
      ledger::TransferRequest t;
      t.debit = cheat;
      t.credit = flag->opponent_id();
      t.amount = flag->opponent_loss_microcredits();
      t.kind = "fair_play_refund";
      t.memo = absl::StrCat("ranked game ", flag->pairing_id(),
                            ": refund of the stake lost to a fair-play violation");
      t.caller = admin.account_id;
      t.idempotency_key = absl::StrCat("fairplay:", report->report_id, ":refund");
      t.allow_frozen_debit = true;  // a blocked account still repays
      t.audit = ledger::AuditEntry{admin.account_id, "fair_play_refund", cheat, req.reason()};
      auto paid = ledger_.Transfer(t);
      if (!paid.ok()) {
        if (paid.status().code() == absl::StatusCode::kFailedPrecondition) {
          return absl::FailedPreconditionError(absl::StrCat(
              "the refund of ", t.amount, " micro-credits cannot be taken from ", cheat, ": ",
              paid.status().message(), " (nothing was changed; the flag stays open)"));
        }
        return paid.status();
      }
    }
  }
  if (req.block()) {
    absl::Status frozen = ledger_.SetFrozen(
        cheat, true, ledger::AuditEntry{admin.account_id, "freeze", cheat, req.reason()});
    if (!frozen.ok()) return frozen;
    auto left = store_.Leave(cheat);
    if (!left.ok()) return left.status();
  }
  auto resolved = store.Resolve(report->report_id, decision, admin.account_id, req.reason());
  if (!resolved.ok()) return resolved.status();
  auto out = FlagOf(*resolved);
  if (!out.ok()) return out.status();
  return out;
}

}  // namespace arena::service
