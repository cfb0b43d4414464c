// The Chestonia Go player: dart decisions by expectation, level 1 greedy (the largest capture),
// levels 2 and up MCTS with RAVE and a prior on the engine's own position (go_search.h).
#include "absl/strings/str_cat.h"
#include "bots/chestonia_go/go_search.h"
#include "bots/core/game_bot.h"
#include "engine/chestonia_go/chestonia_go_game.h"
#include "engine/chestonia_go/notation.h"

namespace arena::bots {
namespace {

using engine::chestonia_go::CellName;
using engine::chestonia_go::ChestoniaGoState;
using engine::chestonia_go::Phase;
using engine::chestonia_go::Position;

class ChestoniaGoBot : public GameBot {
 public:
  std::string_view GameId() const override { return "chestonia-go"; }
  std::vector<std::string> Algorithms() const override { return {"rave"}; }

  absl::StatusOr<BotAnswer> Choose(const engine::State& state,
                                   const BotRequest& req) const override {
    const auto& go = static_cast<const ChestoniaGoState&>(state);
    const Position& pos = go.position();
    BotAnswer a;
    a.result.nodes = 1;
    switch (pos.phase) {
      case Phase::kAim: {
        double ev = 0;
        a.algorithm = "dart-expectation";
        a.result.move = "aim " + CellName(GoChooseAim(pos, &ev));
        a.result.score = static_cast<int>(1000 * ev);
        a.result.pv = {a.result.move};
        return a;
      }
      case Phase::kPenalty:
        a.algorithm = "greedy";
        a.result.move = "penalty " + CellName(GoChoosePenalty(pos));
        a.result.pv = {a.result.move};
        return a;
      case Phase::kPlacement:
      case Phase::kMove:
        break;
      default:
        return absl::FailedPreconditionError("no decision is owed in this phase");
    }
    // A free stone is chosen as a move would be; a pass means skipping it.
    Position as_move = pos;
    as_move.phase = Phase::kMove;
    if (req.level == 1) {
      a.algorithm = "greedy";
      a.result.move = GoGreedyMove(as_move, go.history(), req.seed);
    } else {
      a.algorithm = "rave";
      a.result = GoSearch(as_move, go.history(), LimitsFor(req, state));
    }
    if (pos.phase == Phase::kPlacement) {
      a.result.move = a.result.move == "pass" ? "skip" : "place " + a.result.move;
    }
    a.result.pv = {a.result.move};
    return a;
  }

  std::vector<int> SeatScores(const engine::State& state) const override {
    const Position& pos = static_cast<const ChestoniaGoState&>(state).position();
    const auto score = GoCountNow(pos);
    std::vector<int> out;
    // Half points of the count as it stands, in centipawn-like units (a point is 100).
    for (int s = 0; s < pos.rules.players; ++s)
      out.push_back(score[s] < 0 ? -100000 : 50 * score[s]);
    return out;
  }
};

}  // namespace

const GameBot& RegisteredBot_chestonia_go() {
  static const ChestoniaGoBot* bot = new ChestoniaGoBot();
  return *bot;
}

}  // namespace arena::bots
