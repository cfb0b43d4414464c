// The bot: one request in, one action out, for every game the engine knows.
//
// ChooseBotMove parses the position through the facade, checks that `seat` is to act, and
// dispatches by level: level 0 a random legal action (seeded); levels 1..MaxLevel(game, seats)
// the game's own player when bots/<game>/ registers one (bots/core/game_bot.h: greedy at level 1,
// a search with LevelNodeBudget(game, level, seats) nodes above, or the request's own budget;
// see bots/core/levels.h), else MCTS over the facade. A fresh searcher per call: the answer
// depends only on the request, so a level is a stable rating anchor.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "bots/core/search_common.h"
#include "engine/core/game.h"

namespace arena::bots {

struct BotRequest {
  std::string game;      // the engine's game id (engine::Game::Id())
  std::string variant;   // "players=3,board=plain"
  std::string position;  // the engine's serialization (or FEN for chess)
  int seat = 0;
  int level = 4;
  int64_t node_budget = 0;  // 0 = the level's own
  int max_depth = 0;        // 0 = no depth limit (tools and experiments; not in the RPC)
  uint64_t seed = 0;
  std::string algorithm;  // "" default; "paranoid", "brs", "maxn", "mcts" to override
  // A game's own searcher only (tools and experiments; not in the RPC): evaluation weight
  // overrides, "name=value+name=value" (Chestonia chess: ApplyChestoniaEvalOverrides).
  std::string eval;
  const std::atomic<bool>* stop = nullptr;
  // Chess only: Stockfish plays at this UCI_Elo instead of our search at `level`
  // (bots/chess/stockfish_player.h), within time_cap_ms when that is set.
  int stockfish_elo = 0;
  int64_t time_cap_ms = 0;
};

struct BotAnswer {
  SearchResult result;
  std::string algorithm;  // what chose the move: "random", "greedy", "alphabeta", ...
};

// INVALID_ARGUMENT: unknown game, bad variant, unparsable position, a level the game does not
// have (MaxLevel of the game and its seat count), bad algorithm, bad evaluation overrides.
// FAILED_PRECONDITION: finished game, chance node, or `seat` not to act.
absl::StatusOr<BotAnswer> ChooseBotMove(const BotRequest& request);

// The same on a state already parsed (the ladder and tests use it).
absl::StatusOr<BotAnswer> ChooseBotMoveForState(const engine::State& state,
                                                const BotRequest& request);

}  // namespace arena::bots
