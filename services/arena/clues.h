// Clues (docs/leagues.md, "Clues"): at a table with clues on, the move the arena's clue bot
// (arena-bot at --clue_level, or the game's top level if that is lower) suggests to the seat
// to move. One path makes every clue: a person's (ArenaService.GetClue, which also applies the
// per-seat rate limit) and a model seat's (the seat driver, which puts it in the model's
// prompt). Both share one bound on the clue searches running at once, for everyone.
#pragma once

#include <atomic>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arena/v1/game_state.pb.h"
#include "clients/service_clients.h"
#include "grpcpp/client_context.h"

namespace arena::service {

// A person's clue searches for this long; a model seat's for at most this (and less when its
// clock is short, services/arena/seat_driver.cc).
inline constexpr absl::Duration kClueSearchTime = absl::Seconds(3);

struct Clue {
  v1::Move move;
  int level = 0;  // the level of the bot that suggested it
};

class ClueMaker {
 public:
  ClueMaker(clients::ServiceClients& clients, int clue_level, int max_concurrent)
      : clients_(clients), clue_level_(clue_level), max_concurrent_(max_concurrent) {}

  // The clue for `seat` in `view`. FAILED_PRECONDITION when the table has clues off (so no
  // caller can make a clue at a table without them) or `seat` is not the one to move;
  // RESOURCE_EXHAUSTED when `max_concurrent` searches run already; arena-bot's error else.
  // `ctx` is the caller's, prepared as arena with its deadline (so the caller can cancel it).
  absl::StatusOr<Clue> Make(grpc::ClientContext& ctx, const v1::GameView& view, int seat,
                            absl::Duration search_time);

  int clue_level() const { return clue_level_; }

 private:
  clients::ServiceClients& clients_;
  const int clue_level_;
  const int max_concurrent_;
  std::atomic<int> running_{0};
};

}  // namespace arena::service
