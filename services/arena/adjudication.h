// Move-cap adjudication: a rated two-seat game that reaches its move cap is decided by a strong
// search's evaluation of the final position, not left as a draw.
//
// arena asks arena-bot for a move in the final position at the game's top level of our own
// search (bots/core/levels.h) and reads the evaluation the answer carries (ChooseMoveResponse.
// score_cp, from the mover's view). An evaluation of at least `margin_cp` for one side is a win
// for that side; anything closer is a draw. The outcome is marked adjudicated and keeps the
// evaluation (from seat 0's view), so standings, match lists and the leaderboard can tell it
// from a game played out. Games of three or more seats stay draws by the cap: one evaluation
// does not rank three players. See docs/leagues.md, "Move caps".
#pragma once

#include "absl/status/status.h"
#include "arena/v1/common.pb.h"

namespace arena::service {

inline constexpr int kAdjudicationMarginCp = 400;  // four pawns: a decisive margin

// The outcome of a two-seat game stopped by the cap, from the evaluation `seat0_cp` (seat 0's
// view): a win when |seat0_cp| >= margin_cp, else a draw; `adjudicated` set either way.
v1::Outcome AdjudicateMoveCap(const v1::Outcome& capped, int seat0_cp,
                              int margin_cp = kAdjudicationMarginCp);

// Whether `outcome` (of a game of `seats` seats) is one to adjudicate.
bool NeedsAdjudication(const v1::Outcome& outcome, int seats);

}  // namespace arena::service
