// `arenactl ranked ...` (issue 26): cities, the queue with a live "searching… widened to ±N"
// line, one's staked games and ratings; `arenactl flags` and `review-flag` for admins reviewing
// the fair-play check's flags. docs/ranked.md.
#pragma once

#include "tools/arenactl/client.h"

namespace arena::arenactl {

// ranked cities | ranked queue CITY TIME_CONTROL [--no_wait] | ranked status | ranked leave |
// ranked history [ACCOUNT] [--limit=N] | ranked city ID NAME STAKE FEE_BPS [--inactive]
// --reason=WHY (admins)
int RankedCommand(const Args& args);
// flags [--state=open|dismissed|actioned|all] [--limit=N]
int FlagsCommand(const Args& args);
// review-flag REPORT_ID dismiss|action [--refund] [--block] --reason=WHY
int ReviewFlagCommand(const Args& args);

}  // namespace arena::arenactl
