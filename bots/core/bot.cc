#include "bots/core/bot.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "bots/core/game_bot.h"
#include "bots/core/mcts.h"

namespace arena::bots {

namespace {

using engine::State;

BotAnswer RandomAction(const State& state, uint64_t seed) {
  Rng rng(seed);
  const std::vector<std::string> acts = state.BoundedLegalActions(kMaxListedActions);
  BotAnswer a;
  a.algorithm = "random";
  a.result.move = acts.empty() ? "" : acts[rng.Below(acts.size())];
  a.result.pv = {a.result.move};
  return a;
}

}  // namespace

absl::Status GameBot::CheckRequest(const BotRequest& request) const {
  if (!request.eval.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("evaluation overrides are not offered for ", engine::ToAbsl(GameId())));
  }
  return absl::OkStatus();
}

EloRange ReferenceEloRange(std::string_view game_id) {
  const GameBot* own = FindGameBot(game_id);
  return own != nullptr ? own->ReferenceElos() : EloRange{};
}

SearchLimits LimitsFor(const BotRequest& req, const State& state) {
  SearchLimits limits;
  limits.nodes = req.node_budget > 0 ? req.node_budget
                                     : LevelNodeBudget(state.GameId(), req.level, state.NumSeats());
  limits.stop = req.stop;
  limits.seed = req.seed;
  if (req.max_depth > 0) limits.depth = req.max_depth;
  return limits;
}

absl::StatusOr<BotAnswer> ChooseBotMoveForState(const State& state, const BotRequest& req) {
  if (req.stockfish_elo != 0) {  // the reference engine's own levels, not ours
    const GameBot* own = FindGameBot(state.GameId());
    if (own == nullptr || own->ReferenceElos().max == 0) {
      return absl::InvalidArgumentError("Stockfish levels play chess only");
    }
    return own->ChooseByReference(state, req);
  }
  if (const int top = MaxLevel(state.GameId(), state.NumSeats());
      req.level < 0 || req.level > top) {
    return absl::InvalidArgumentError(absl::StrCat(engine::ToAbsl(state.GameId()), " at ",
                                                   state.NumSeats(), " seats has the levels 0..",
                                                   top));
  }
  if (req.seat < 0 || req.seat >= state.NumSeats()) {
    return absl::InvalidArgumentError(
        absl::StrCat("seat ", req.seat, " is not a seat of this game"));
  }
  if (state.IsTerminal()) return absl::FailedPreconditionError("the game is over");
  if (state.ToMove() == engine::kChanceSeat) {
    return absl::FailedPreconditionError("a chance event is owed, not a seat's decision");
  }
  if (state.ToMove() != req.seat) {
    return absl::FailedPreconditionError(
        absl::StrCat("seat ", req.seat, " is not to move (seat ", state.ToMove(), " is)"));
  }
  const GameBot* own = FindGameBot(state.GameId());
  // Checked before any level's work, so a bad request fails at every level.
  if (req.algorithm != "mcts") {
    std::vector<std::string> algorithms;
    if (own != nullptr) algorithms = own->Algorithms();
    if (!req.algorithm.empty() &&
        std::find(algorithms.begin(), algorithms.end(), req.algorithm) == algorithms.end()) {
      algorithms.push_back("mcts");
      return absl::InvalidArgumentError(absl::StrCat(engine::ToAbsl(state.GameId()),
                                                     " supports the algorithms ",
                                                     absl::StrJoin(algorithms, ", ")));
    }
  }
  if (own != nullptr && req.algorithm != "mcts") {
    if (absl::Status st = own->CheckRequest(req); !st.ok()) return st;
  } else if (!req.eval.empty()) {
    return absl::InvalidArgumentError("evaluation overrides apply to a game's own searcher only");
  }
  if (req.level == 0) return RandomAction(state, req.seed);
  if (own != nullptr && req.algorithm != "mcts") return own->Choose(state, req);
  BotAnswer a;
  a.algorithm = "mcts";
  SearchLimits limits = LimitsFor(req, state);
  if (req.level == 1) limits.nodes = 200;  // a token search for the greedy level
  a.result = MctsSearch(state, limits);
  return a;
}

absl::StatusOr<BotAnswer> ChooseBotMove(const BotRequest& req) {
  const engine::Game* game = engine::FindGame(req.game);
  if (game == nullptr)
    return absl::InvalidArgumentError(absl::StrCat("unknown game '", req.game, "'"));
  absl::StatusOr<engine::Variant> variant = engine::Variant::Parse(req.variant);
  if (!variant.ok()) return absl::InvalidArgumentError(variant.status().message());
  absl::StatusOr<std::unique_ptr<State>> state = game->Parse(req.position, *variant);
  if (!state.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("position: ", state.status().message()));
  }
  return ChooseBotMoveForState(**state, req);
}

}  // namespace arena::bots
