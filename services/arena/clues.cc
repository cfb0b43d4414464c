#include "services/arena/clues.h"

#include <algorithm>

#include "bots/core/levels.h"
#include "common/grpc_util.h"

namespace arena::service {

absl::StatusOr<Clue> ClueMaker::Make(grpc::ClientContext& ctx, const v1::GameView& view, int seat,
                                     absl::Duration search_time) {
  if (!view.settings().clues()) return absl::FailedPreconditionError("clues are off at this table");
  if (view.status() != v1::GAME_STATUS_ACTIVE || view.to_move() != seat || seat < 0 ||
      seat >= view.seats_size()) {
    return absl::FailedPreconditionError("a clue is for the seat to move");
  }
  v1::ChooseMoveRequest ask;
  ask.set_engine_game(view.engine_game());
  *ask.mutable_variant() = view.settings().variant();
  ask.set_position(view.position());
  ask.set_seat(view.seats(seat).engine_seat());
  // The clue bot plays the arena's clue level, or the game's top level if that is lower.
  const int level = std::min(clue_level_, bots::MaxLevel(view.engine_game(), view.seats_size()));
  ask.set_level(level);
  ask.set_time_cap_ms(std::max<int64_t>(1, absl::ToInt64Milliseconds(search_time)));
  // A clue is a search: bounded in how many run at once, for everyone.
  if (running_.fetch_add(1) >= max_concurrent_) {
    running_.fetch_sub(1);
    return absl::ResourceExhaustedError("clue searches are busy; retry in a second");
  }
  v1::ChooseMoveResponse answer;
  grpc::Status s = clients_.bot().ChooseMove(&ctx, ask, &answer);
  running_.fetch_sub(1);
  if (!s.ok()) return common::FromGrpc(s);
  Clue clue;
  clue.move = answer.move();
  clue.level = level;
  return clue;
}

}  // namespace arena::service
