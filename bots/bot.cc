#include "bots/bot.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "bots/chess_search.h"
#include "bots/chestonia_search.h"
#include "bots/mcts.h"
#include "bots/stockfish_player.h"
#include "engine/chess/chess_game.h"
#include "engine/chess/notation.h"
#include "engine/chestonia_chess/chestonia_chess_game.h"
#include "engine/chestonia_chess/notation.h"

namespace arena::bots {

namespace {

using engine::State;

SearchLimits LimitsFor(const BotRequest& req, int seats) {
  SearchLimits limits;
  limits.nodes = req.node_budget > 0 ? req.node_budget : LevelNodeBudget(req.level, seats);
  limits.stop = req.stop;
  limits.seed = req.seed;
  if (req.max_depth > 0) limits.depth = req.max_depth;
  return limits;
}

BotAnswer RandomAction(const State& state, uint64_t seed) {
  Rng rng(seed);
  const std::vector<std::string> acts = state.LegalActions();
  BotAnswer a;
  a.algorithm = "random";
  a.result.move = acts.empty() ? "" : acts[rng.Below(acts.size())];
  a.result.pv = {a.result.move};
  return a;
}

absl::StatusOr<BotAnswer> ChessMove(const engine::chess::ChessState& state, const BotRequest& req) {
  using namespace engine::chess;
  BotAnswer a;
  if (req.level == 1) {
    a.algorithm = "greedy";
    a.result.move = MoveToUci(ChessGreedyMove(state.position(), req.seed));
    a.result.pv = {a.result.move};
    a.result.nodes = 1;
    return a;
  }
  // Keys of the positions before the current one, for repetition draws.
  std::vector<uint64_t> history;
  Position p = state.start_position();
  for (const Move m : state.moves()) {
    history.push_back(p.key());
    Position::Undo undo;
    p.DoMove(m, undo);
  }
  auto searcher = std::make_unique<ChessSearcher>(4);
  a.algorithm = "alphabeta";
  a.result = searcher->Search(state.position(), history, LimitsFor(req, 2));
  return a;
}

absl::StatusOr<MultiAlgorithm> ParseAlgorithm(const std::string& name, int players) {
  if (name.empty()) return players == 2 ? MultiAlgorithm::kParanoid : kDefaultThreePlayerAlgorithm;
  if (name == "paranoid" || name == "alphabeta") return MultiAlgorithm::kParanoid;
  if (name == "brs") return MultiAlgorithm::kBestReply;
  if (name == "maxn") return MultiAlgorithm::kMaxN;
  return absl::InvalidArgumentError(absl::StrCat("unknown algorithm '", name, "'"));
}

// `weights`: the request's evaluation, already parsed (the defaults unless it names overrides).
absl::StatusOr<BotAnswer> ChestoniaMove(const engine::chestonia_chess::ChestoniaChessState& state,
                                        const BotRequest& req,
                                        const ChestoniaEvalWeights& weights) {
  using namespace engine::chestonia_chess;
  const Position& pos = state.position();
  BotAnswer a;
  a.result.nodes = 1;
  switch (pos.phase) {
    case Phase::kAim: {
      double ev = 0;
      const int aim = ChestoniaChooseAim(pos, req.seed, &ev);
      a.algorithm = "dart-expectation";
      a.result.move = "aim " + CellName(aim);
      a.result.score = int(ev);
      a.result.pv = {a.result.move};
      return a;
    }
    case Phase::kPlacement:
    case Phase::kPenalty:
      a.algorithm = "greedy";
      a.result.move = ChestoniaChooseRewardOrPenalty(pos, req.seed);
      a.result.pv = {a.result.move};
      return a;
    case Phase::kMove:
      break;
    default:
      return absl::FailedPreconditionError("no decision is owed in this phase");
  }
  if (req.level == 1) {
    a.algorithm = "greedy";
    a.result.move = MoveText(ChestoniaGreedyMove(pos, req.seed));
    a.result.pv = {a.result.move};
    return a;
  }
  absl::StatusOr<MultiAlgorithm> alg = ParseAlgorithm(req.algorithm, pos.rules.players);
  if (!alg.ok()) return alg.status();
  auto searcher = std::make_unique<ChestoniaSearcher>();
  searcher->set_weights(weights);
  a.algorithm = pos.rules.players == 2 && *alg == MultiAlgorithm::kParanoid
                    ? "alphabeta"
                    : MultiAlgorithmName(*alg);
  a.result = searcher->Search(pos, *alg, LimitsFor(req, pos.rules.players));
  return a;
}

}  // namespace

absl::StatusOr<BotAnswer> ChooseBotMoveForState(const State& state, const BotRequest& req) {
  if (req.stockfish_elo != 0) return StockfishBotMove(state, req);  // its own levels
  if (req.level < 0 || req.level > MaxLevel(state.NumSeats())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a game of ", state.NumSeats(), " seats has the levels 0..", MaxLevel(state.NumSeats())));
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
  const auto* hexchess = dynamic_cast<const engine::chestonia_chess::ChestoniaChessState*>(&state);
  // Checked before any level's work, so a bad override fails at every level.
  ChestoniaEvalWeights weights = DefaultChestoniaEvalWeights();
  if (!req.eval.empty()) {
    if (hexchess == nullptr || req.algorithm == "mcts") {
      return absl::InvalidArgumentError(
          "evaluation overrides apply to Chestonia chess searches only");
    }
    if (absl::Status st = ApplyChestoniaEvalOverrides(req.eval, &weights); !st.ok()) return st;
  }
  if (req.level == 0) return RandomAction(state, req.seed);
  if (req.algorithm != "mcts") {
    if (const auto* chess = dynamic_cast<const engine::chess::ChessState*>(&state)) {
      if (!req.algorithm.empty() && req.algorithm != "alphabeta") {
        return absl::InvalidArgumentError("chess supports the algorithms alphabeta and mcts");
      }
      return ChessMove(*chess, req);
    }
    if (hexchess != nullptr) return ChestoniaMove(*hexchess, req, weights);
  }
  if (!req.algorithm.empty() && req.algorithm != "mcts") {
    return absl::InvalidArgumentError("this game supports only the mcts algorithm");
  }
  BotAnswer a;
  a.algorithm = "mcts";
  SearchLimits limits = LimitsFor(req, state.NumSeats());
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
