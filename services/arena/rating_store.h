// Ratings kept per game kind: Glicko-2 updated after every rated game, and a Bradley–Terry
// leaderboard fitted on demand from every rated result, anchored on bots at fixed levels.
//
// A rated game is recorded once (rated_results is keyed by game id), in the same transaction
// as the Glicko-2 update it causes, so a result seen twice (a restart) changes nothing twice.
// Each game is its own rating period: every seat is updated from its pairwise results against
// the other seats' ratings from before the game.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arena/v1/arena.pb.h"
#include "pqxx/pqxx"
#include "services/common/pg_pool.h"

namespace arena::service {

// The fixed Bradley–Terry rating of the bot at `level`: the scale every model is read on.
// 800 + 150 per level (level 1 = 950, level 8 = 2000); see docs/leagues.md.
double BotAnchorRating(int level);

// The fixed rating of an anchored participant: "bot:<level>" at BotAnchorRating(level),
// "stockfish:<elo>" at its UCI_Elo. Nothing for anyone else (models, people).
std::optional<double> AnchorRating(const std::string& participant);

// Records a finished rated game and updates the Glicko-2 ratings of its participants. Returns
// false (and changes nothing) when the game was recorded before. `participants` and `ranks`
// are in table seat order; rank 0 is best.
absl::StatusOr<bool> RecordRatedResult(pqxx::transaction_base& txn, const std::string& game_id,
                                       const std::string& engine_game,
                                       std::optional<int64_t> league_id,
                                       const std::vector<std::string>& participants,
                                       const std::vector<int>& ranks);

absl::StatusOr<v1::LeaderboardResponse> Leaderboard(common::PgPool& pool,
                                                    const std::string& engine_game);

}  // namespace arena::service
