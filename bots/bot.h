// The bot: one request in, one action out, for every game the engine knows.
//
// ChooseBotMove parses the position through the facade, checks that `seat` is to act, and
// dispatches by game and level: level 0 a random legal action (seeded), level 1 greedy
// one-ply, levels 2..MaxLevel(seats) a search with LevelNodeBudget(level, seats) nodes (or the
// request's own budget; see bots/levels.h). Chess uses ChessSearcher, Chestonia chess
// ChestoniaSearcher (paranoid for two players, the three-player default chosen by experiment, see
// docs/bots.md) and its dart decisions by expectation; every other game MCTS over the facade. A
// fresh searcher per call: the answer depends only on the request, so a level is a stable rating
// anchor.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "bots/search_common.h"
#include "engine/core/game.h"

namespace arena::bots {

struct BotRequest {
  std::string game;      // "chess", "chestonia-chess", ...
  std::string variant;   // "players=3,board=plain"
  std::string position;  // the engine's serialization (or FEN for chess)
  int seat = 0;
  int level = 4;
  int64_t node_budget = 0;  // 0 = the level's own
  int max_depth = 0;        // 0 = no depth limit (tools and experiments; not in the RPC)
  uint64_t seed = 0;
  std::string algorithm;  // "" default; "paranoid", "brs", "maxn", "mcts" to override
  // Chestonia chess searches only (tools and experiments; not in the RPC): evaluation weight
  // overrides, "name=value+name=value" (see ApplyChestoniaEvalOverrides).
  std::string eval;
  const std::atomic<bool>* stop = nullptr;
  // Chess only: Stockfish plays at this UCI_Elo instead of our search at `level`
  // (bots/stockfish_player.h), within time_cap_ms when that is set.
  int stockfish_elo = 0;
  int64_t time_cap_ms = 0;
};

struct BotAnswer {
  SearchResult result;
  std::string algorithm;  // what chose the move: "random", "greedy", "alphabeta", ...
};

// INVALID_ARGUMENT: unknown game, bad variant, unparsable position, a level the game does not
// have (MaxLevel of its seat count), bad algorithm, bad evaluation overrides. FAILED_PRECONDITION:
// finished game, chance node, or `seat` not to act.
absl::StatusOr<BotAnswer> ChooseBotMove(const BotRequest& request);

// The same on a state already parsed (the ladder and tests use it).
absl::StatusOr<BotAnswer> ChooseBotMoveForState(const engine::State& state,
                                                const BotRequest& request);

}  // namespace arena::bots
