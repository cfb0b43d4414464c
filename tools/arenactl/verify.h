// arenactl verify GAME: recomputes every random draw of a finished game from its revealed
// seed and its record, and checks each against the log.
//
// Checks: SHA-256 of the revealed seed equals the commitment published at creation; draws
// use the counters 0, 1, 2, ... in order (no hidden draws); each draw's bytes equal
// HMAC-SHA256(seed, seat seeds || purpose || 0 || counter); the leader is floor(u * seats);
// each chance outcome is the inverse-CDF pick over the engine's ChanceOutcomes() at that point
// of the replayed game; the replay reaches the recorded result.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arena/v1/game_state.pb.h"

namespace arena::arenactl {

struct VerifyReport {
  int draws_checked = 0;
  int actions_replayed = 0;
  std::vector<std::string> problems;  // empty: verified
  bool ok() const { return problems.empty(); }
};

// Verifies a record already fetched. Errors only when the record cannot be checked at all
// (game unfinished, unknown engine game).
absl::StatusOr<VerifyReport> VerifyRecord(const v1::GameRecord& record);

// The command: fetches the record from arena-game-state at `address`, prints the report.
// Exit code 0 verified, 1 a mismatch, 2 could not verify. Wire into arenactl's main as
//   if (command == "verify") return arena::arenactl::RunVerify(
//       absl::GetFlag(FLAGS_game_state_addr), args.size() > 2 ? args[2] : "",
//       absl::Milliseconds(absl::GetFlag(FLAGS_timeout_ms)));
int RunVerify(const std::string& address, const std::string& game_id, absl::Duration timeout);

}  // namespace arena::arenactl
