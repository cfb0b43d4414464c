// A game's own player, registered beside its game.
//
// bots/<game>/ (the same folder name as engine/<game>/) may define a GameBot and
//   namespace arena::bots { const GameBot& RegisteredBot_<game>(); }
// bots/CMakeLists.txt finds the folder and generates the list, so ChooseBotMove dispatches
// without knowing any game. A game without a folder here is played by MCTS at every level.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bots/core/bot.h"
#include "engine/core/game.h"

namespace arena::bots {

struct EloRange {
  int min = 0;
  int max = 0;
};

class GameBot {
 public:
  virtual ~GameBot() = default;

  // The engine id of the game it plays.
  virtual std::string_view GameId() const = 0;
  // The algorithm names it accepts in BotRequest::algorithm besides "mcts" (an empty
  // request picks its default).
  virtual std::vector<std::string> Algorithms() const = 0;
  // Checks what only this bot understands (evaluation overrides, its algorithm names) before
  // any level's work, so a bad request fails at every level. The default refuses overrides.
  virtual absl::Status CheckRequest(const BotRequest& request) const;
  // Levels 1 and up. The state is this game's, not finished, not a chance node, and
  // `request.seat` is to act; `request.algorithm` is empty or one of Algorithms().
  virtual absl::StatusOr<BotAnswer> Choose(const engine::State& state,
                                           const BotRequest& request) const = 0;
  // Levels played by the game's outside reference engine at a fixed rating (chess: Stockfish at
  // a UCI_Elo, BotRequest::stockfish_elo), the range it accepts; {0, 0} when it has none.
  virtual EloRange ReferenceElos() const { return {}; }
  virtual absl::StatusOr<BotAnswer> ChooseByReference(const engine::State& state,
                                                      const BotRequest& request) const {
    return absl::InvalidArgumentError("this game has no reference-engine levels");
  }
  // The static evaluation of each seat's standing (centipawn-like; higher is better), for
  // adjudicating unfinished games; empty when the player has none.
  virtual std::vector<int> SeatScores(const engine::State& state) const { return {}; }
};

// The registered player of a game, or nullptr (then MCTS plays it).
const GameBot* FindGameBot(std::string_view game_id);

// The reference-engine levels of a game ({0, 0}: none), for checking seats before play.
EloRange ReferenceEloRange(std::string_view game_id);

// The search limits a request asks for at its level of the state's game and seat count
// (bots/core/levels.h), or its own node budget.
SearchLimits LimitsFor(const BotRequest& request, const engine::State& state);

}  // namespace arena::bots
