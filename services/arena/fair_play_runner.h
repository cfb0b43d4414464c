// FairPlayRunner: runs the fair-play check (ranked/fair_play.h) over every settled ranked game
// and stores both players' reports (ranked/fair_play_store.h), flagging outliers for review.
//
// One thread per arena process, one game at a time: the check is a few seconds of Stockfish
// per game and must never hold up pairing or settling, so it is not part of RankedPlay's tick.
// The work list is durable (ranked_pairings.fair_play, deploy/sql/arena/0010_fair_play_work.sql):
// a game settled while arena was down, or analysed when arena stopped, is picked up by the next
// run, and the reports and the 'done' mark are written in one transaction. Two replicas may
// analyse the same game at once; the reports are idempotent per (game, player), so the second
// only wastes its searches.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arena/v1/game_state.pb.h"
#include "clients/service_clients.h"
#include "services/arena/ranked/fair_play.h"
#include "services/common/pg_pool.h"

namespace arena::service {

struct FairPlayRunnerOptions {
  // The check's settings (depth, book plies, flag limits). `search` stays empty: Stockfish.
  ranked::FairPlayOptions check;
  // How long the thread sleeps when there is nothing to analyse (a settled game wakes it).
  absl::Duration idle = absl::Seconds(10);
  // After the engine could not be run (UNAVAILABLE), the wait before the next try.
  absl::Duration retry = absl::Seconds(30);
};

// The check's input from a game-state record of a ranked chess game: the moves as UCI (game-state
// also takes SAN from people, so each recorded move is replayed and written as UCI), and each
// move's think time, from the previous move's event (the first move's from the last sit-down
// before it). INVALID_ARGUMENT for a record that is not a chess game from the start position or
// holds a move the rules refuse.
absl::StatusOr<ranked::FairPlayGame> FairPlayGameFromRecord(const v1::GameRecord& record,
                                                            double white_rating,
                                                            double black_rating);

class FairPlayRunner {
 public:
  FairPlayRunner(common::PgPool& pool, clients::ServiceClients& clients,
                 FairPlayRunnerOptions options);
  ~FairPlayRunner();

  void Start();
  void Stop();
  // A ranked game was settled: look for work now.
  void Wake();

  // Analyses the oldest settled game still waiting; false when there was none. A game whose
  // record cannot be analysed is marked 'failed' with the reason (and true is returned);
  // UNAVAILABLE (game-state or the engine) leaves it waiting.
  absl::StatusOr<bool> RunOnce();

 private:
  void Run();

  common::PgPool& pool_;
  clients::ServiceClients& clients_;
  const FairPlayRunnerOptions options_;

  std::mutex mu_;
  std::condition_variable cv_;
  bool wake_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace arena::service
