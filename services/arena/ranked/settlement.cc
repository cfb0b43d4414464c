#include "services/arena/ranked/settlement.h"

#include "absl/strings/str_cat.h"

namespace arena::ranked {

int64_t FeeOnPot(int64_t pot, int fee_basis_points) {
  // pot * bps can exceed int64 for the largest pots; split pot = q * 10000 + r so each
  // product stays small: floor(pot * bps / 10000) = q * bps + floor(r * bps / 10000).
  const int64_t q = pot / kMaxFeeBasisPoints;
  const int64_t r = pot % kMaxFeeBasisPoints;
  return q * fee_basis_points + r * fee_basis_points / kMaxFeeBasisPoints;
}

absl::StatusOr<Settlement> Settle(int64_t stake, int fee_basis_points, StakedGameEnd end) {
  if (stake <= 0 || stake > kMaxStake) {
    return absl::InvalidArgumentError(
        absl::StrCat("stake must be 1..", kMaxStake, ", not ", stake));
  }
  if (fee_basis_points < 0 || fee_basis_points > kMaxFeeBasisPoints) {
    return absl::InvalidArgumentError(absl::StrCat("fee must be 0..", kMaxFeeBasisPoints,
                                                   " basis points, not ", fee_basis_points));
  }
  Settlement s;
  s.pot = 2 * stake;
  switch (end) {
    case StakedGameEnd::kDraw:
    case StakedGameEnd::kAborted:
      s.payouts = {{Payee::kFirst, stake}, {Payee::kSecond, stake}};
      return s;
    case StakedGameEnd::kFirstWins:
    case StakedGameEnd::kSecondWins:
      break;
  }
  s.fee = FeeOnPot(s.pot, fee_basis_points);
  const Payee winner = end == StakedGameEnd::kFirstWins ? Payee::kFirst : Payee::kSecond;
  if (s.pot - s.fee > 0) s.payouts.push_back({winner, s.pot - s.fee});
  if (s.fee > 0) s.payouts.push_back({Payee::kFees, s.fee});
  return s;
}

}  // namespace arena::ranked
