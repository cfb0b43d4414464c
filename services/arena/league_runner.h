// LeagueRunner: creates leagues, launches their games on arena-game-state as the schedule
// allows, records every result once, and keeps standings and ratings.
//
// All of a league's state is in PostgreSQL (leagues, league_participants, league_games), and
// one background loop moves it forward: it records games whose driven table has ended (a
// voided game is rescheduled, up to max_reschedules replays), launches scheduled games up to
// the league's concurrency, pairs the next Swiss round when one is complete, and finishes the
// league when nothing is left. Launching is idempotent (the game-state table is created with
// an idempotency key per slot), so a restart at any point neither loses nor doubles a game.
//
// Every arena replica runs this loop on the same rows: a slot is launched under its row lock,
// found with SKIP LOCKED (a slot another replica is launching is skipped); results are
// recorded under the slot's lock once; a Swiss round is paired under the league's lock after
// looking again. Whoever launches a game claims its seats' lease and drives it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "arena/v1/arena.pb.h"
#include "clients/service_clients.h"
#include "services/arena/accounts.h"
#include "services/arena/seat_driver.h"
#include "services/common/pg_pool.h"

namespace arena::service {

using clients::ServiceClients;

// The move cap of a league that names none: 600 moves, each seat's move counting one.
inline constexpr int kLeagueDefaultMoveCap = 600;

class LeagueRunner {
 public:
  LeagueRunner(ServiceClients& clients, common::PgPool& pool, SeatDriver& driver,
               absl::Duration tick = absl::Milliseconds(250));
  ~LeagueRunner();

  void Start();
  void Stop();
  void Wake();

  absl::StatusOr<v1::League> Create(const accounts::Principal& owner,
                                    const v1::CreateLeagueRequest& request);
  // verb: "start", "pause", "resume" or "cancel". The owner or an admin only.
  absl::StatusOr<v1::League> Transition(const accounts::Principal& who,
                                        const std::string& league_id, const std::string& verb);
  absl::StatusOr<v1::League> Get(const std::string& league_id);
  absl::StatusOr<std::vector<v1::League>> List(int limit);
  absl::StatusOr<v1::StandingsResponse> Standings(const std::string& league_id);

  // One pass of the loop (exposed for the loop and for tests).
  absl::Status Tick();

 private:
  void Loop();
  absl::Status RecordEndedGames();
  absl::Status CancelRunning();
  absl::Status LaunchAndFinish();
  absl::Status Launch(int64_t league_id, int slot);

  ServiceClients& clients_;
  common::PgPool& pool_;
  SeatDriver& driver_;
  const absl::Duration tick_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool wake_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

// Parses "123" into a league id; INVALID_ARGUMENT otherwise.
absl::StatusOr<int64_t> ParseLeagueId(const std::string& text);

}  // namespace arena::service
