#include "services/arena/adjudication.h"

#include <cstdlib>

namespace arena::service {

v1::Outcome AdjudicateMoveCap(const v1::Outcome& capped, int seat0_cp, int margin_cp) {
  v1::Outcome o = capped;
  o.clear_winners();
  o.clear_ranks();
  o.set_adjudicated(true);
  o.set_adjudication_cp(seat0_cp);
  if (std::abs(seat0_cp) >= margin_cp) {
    const int winner = seat0_cp > 0 ? 0 : 1;
    o.add_winners(winner);
    o.add_ranks(winner == 0 ? 0 : 1);
    o.add_ranks(winner == 1 ? 0 : 1);
    o.set_result_text(winner == 0 ? "1-0" : "0-1");
  } else {
    o.add_ranks(0);
    o.add_ranks(0);
    o.set_result_text("1/2-1/2");
  }
  return o;
}

bool NeedsAdjudication(const v1::Outcome& outcome, int seats) {
  return seats == 2 && outcome.status() == v1::GAME_STATUS_FINISHED &&
         outcome.reason() == "move-cap" && !outcome.adjudicated();
}

}  // namespace arena::service
