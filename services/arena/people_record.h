// The account record and people's ratings (issue 17).
//
// When a table arena made ends, every account seated at it gets one `account_games` row: its
// own result, the other seats, and where the record is. A finished game (not aborted, voided
// or deleted) also moves each account's Glicko-2 rating in that game and time control, against
// every other seat as a pairwise result; the game is its own rating period. Opponents read as:
// an account, its own rating there; a bot, its anchor (services/arena/rating_store.h) with a
// small deviation; anyone else (guests, models), an unknown 1500 with full deviation, so a
// game against them moves a rating less. Rows are keyed by game, so a result seen twice (a
// restart of the driver) changes nothing twice.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arena/v1/arena.pb.h"
#include "pqxx/pqxx"
#include "services/arena/ratings/glicko2.h"
#include "services/arena/seat_driver.h"

namespace arena::service {

// A rating is provisional while its deviation is above this.
inline constexpr double kProvisionalDeviation = 110.0;

// The time control ratings are kept by: "untimed", "per-move 30s", "3+2" (Fischer minutes +
// increment seconds; "90s+0" when the bank is not whole minutes), with " ranked" appended for
// ranked clocks.
std::string TimeControlName(const v1::ClockSettings& clock);

// The rating as shown beside a name: "1623", or "1500?" while provisional.
std::string RatingLabel(const ratings::Glicko2Rating& r);

// An account's rating in one game and time control (the defaults when it has none).
v1::PersonRating PersonRatingOf(pqxx::transaction_base& txn, const std::string& account_id,
                                const std::string& engine_game, const std::string& time_control);

// Records a table's end for every account seated at it (see above). `status` is the game's
// final status, `outcome` its outcome (ranks per table seat).
absl::Status RecordPeopleGame(pqxx::transaction_base& txn, const DrivenTable& table,
                              v1::GameStatus status, const v1::Outcome& outcome);

// An account's record: ratings and games, newest first. `all` lists games at private tables.
absl::StatusOr<v1::AccountRecord> LoadAccountRecord(pqxx::transaction_base& txn,
                                                    const std::string& account_id, bool all,
                                                    int limit);

}  // namespace arena::service
