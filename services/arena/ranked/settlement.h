// The money of one staked game, as arithmetic: what leaves escrow, to whom, when it ends.
// Pure: the ledger movements themselves (holds into escrow, transfers out of it) are made by
// the caller through services/arena/ledger.h with these amounts.
//
// Both players' stakes go into escrow when the game starts, so escrow holds the pot, twice the
// stake. When the game ends the whole pot leaves escrow again, never more and never less:
//   - a win: the winner receives pot - fee, the fee goes to system:fees;
//   - a draw or an aborted game: each player receives their own stake back; no fee.
// The fee is floor(pot * fee_bps / 10000): a fraction of a micro-credit is never charged, it
// stays with the winner. So winner + fee == pot exactly and no credit is made or lost.
// Amounts are micro-credits (1 credit = 1,000,000), as in the ledger.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

namespace arena::ranked {

// The most a stake may be: the ledger's largest single amount (ledger::kMaxAmount), so the
// pot (two stakes) is still far from overflowing.
inline constexpr int64_t kMaxStake = 1'000'000'000'000'000;
// Fees are in basis points of the pot: 10000 is all of it.
inline constexpr int kMaxFeeBasisPoints = 10'000;

enum class StakedGameEnd { kFirstWins, kSecondWins, kDraw, kAborted };

// Who an amount leaving escrow goes to.
enum class Payee { kFirst, kSecond, kFees };

struct EscrowPayout {
  Payee to = Payee::kFees;
  int64_t amount = 0;  // > 0; a zero fee is no payout at all
};

// What a game's pot becomes. The payouts' amounts sum to `pot`.
struct Settlement {
  int64_t pot = 0;
  int64_t fee = 0;
  std::vector<EscrowPayout> payouts;
};

// The fee on a pot: floor(pot * fee_basis_points / 10000), computed without overflow.
int64_t FeeOnPot(int64_t pot, int fee_basis_points);

// The settlement of a game where each player staked `stake` and the city charges
// `fee_basis_points`. INVALID_ARGUMENT for a stake outside 1..kMaxStake or a fee outside
// 0..kMaxFeeBasisPoints.
absl::StatusOr<Settlement> Settle(int64_t stake, int fee_basis_points, StakedGameEnd end);

}  // namespace arena::ranked
