// The Chestonia chess player: dart decisions by expectation, level 1 greedy, levels 2 and up
// ChestoniaSearcher (paranoid alpha-beta for two players; the three-player default chosen by
// experiment, docs/bots.md), with optional evaluation overrides for experiments.
#include <memory>

#include "absl/strings/str_cat.h"
#include "bots/chestonia_chess/chestonia_search.h"
#include "bots/core/game_bot.h"
#include "engine/chestonia_chess/chestonia_chess_game.h"
#include "engine/chestonia_chess/notation.h"

namespace arena::bots {
namespace {

using engine::chestonia_chess::CellName;
using engine::chestonia_chess::MoveText;
using engine::chestonia_chess::Phase;
using engine::chestonia_chess::Position;

absl::StatusOr<MultiAlgorithm> ParseAlgorithm(const std::string& name, int players) {
  if (name.empty()) return players == 2 ? MultiAlgorithm::kParanoid : kDefaultThreePlayerAlgorithm;
  if (name == "paranoid" || name == "alphabeta") return MultiAlgorithm::kParanoid;
  if (name == "brs") return MultiAlgorithm::kBestReply;
  if (name == "maxn") return MultiAlgorithm::kMaxN;
  return absl::InvalidArgumentError(absl::StrCat("unknown algorithm '", name, "'"));
}

class ChestoniaBot : public GameBot {
 public:
  std::string_view GameId() const override { return "chestonia-chess"; }
  std::vector<std::string> Algorithms() const override {
    return {"paranoid", "alphabeta", "brs", "maxn"};
  }

  absl::Status CheckRequest(const BotRequest& req) const override {
    ChestoniaEvalWeights weights = DefaultChestoniaEvalWeights();
    return req.eval.empty() ? absl::OkStatus() : ApplyChestoniaEvalOverrides(req.eval, &weights);
  }

  absl::StatusOr<BotAnswer> Choose(const engine::State& state,
                                   const BotRequest& req) const override {
    const Position& pos =
        static_cast<const engine::chestonia_chess::ChestoniaChessState&>(state).position();
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
    ChestoniaEvalWeights weights = DefaultChestoniaEvalWeights();
    if (!req.eval.empty()) {
      if (absl::Status st = ApplyChestoniaEvalOverrides(req.eval, &weights); !st.ok()) return st;
    }
    auto searcher = std::make_unique<ChestoniaSearcher>();
    searcher->set_weights(weights);
    a.algorithm = pos.rules.players == 2 && *alg == MultiAlgorithm::kParanoid
                      ? "alphabeta"
                      : MultiAlgorithmName(*alg);
    a.result = searcher->Search(pos, *alg, LimitsFor(req, state));
    return a;
  }

  std::vector<int> SeatScores(const engine::State& state) const override {
    const Position& pos =
        static_cast<const engine::chestonia_chess::ChestoniaChessState&>(state).position();
    const auto scores = ChestoniaSeatScores(pos, DefaultChestoniaEvalWeights());
    return std::vector<int>(scores.begin(), scores.begin() + pos.rules.players);
  }
};

}  // namespace

const GameBot& RegisteredBot_chestonia_chess() {
  static const ChestoniaBot* bot = new ChestoniaBot();
  return *bot;
}

}  // namespace arena::bots
