// The Chestonia checkers player: dart decisions by rule of thumb (checkers_search.h), level 1
// the best one-ply turn (forced capture replies resolved), levels 2 and up alpha-beta on the
// level's node budget (paranoid with three seats; docs/bots.md has the ladder).
#include "bots/chestonia_checkers/checkers_search.h"
#include "bots/core/game_bot.h"
#include "engine/chestonia_checkers/chestonia_checkers_game.h"
#include "engine/chestonia_checkers/notation.h"
#include "engine/hex/dart_round.h"

namespace arena::bots {
namespace {

using engine::chestonia_checkers::BoardGrid;
using engine::chestonia_checkers::CellName;
using engine::chestonia_checkers::kKing;
using engine::chestonia_checkers::kMan;
using engine::chestonia_checkers::Phase;
using engine::chestonia_checkers::PieceLetter;
using engine::chestonia_checkers::Position;

const Position& PositionOf(const engine::State& state) {
  return static_cast<const engine::chestonia_checkers::ChestoniaCheckersState&>(state).position();
}

class CheckersBot : public GameBot {
 public:
  std::string_view GameId() const override { return "chestonia-checkers"; }
  std::vector<std::string> Algorithms() const override { return {"alphabeta", "paranoid", "brs"}; }

  absl::StatusOr<BotAnswer> Choose(const engine::State& state,
                                   const BotRequest& req) const override {
    const Position& pos = PositionOf(state);
    BotAnswer a;
    a.result.nodes = 1;
    a.algorithm = "rule";
    switch (pos.phase) {
      case Phase::kAim:
        a.result.move = "aim " + CellName(CheckersChooseAim(pos));
        break;
      case Phase::kPlacement: {
        const int cell = CheckersChoosePlacement(pos);
        a.result.move = cell < 0 ? std::string(engine::hex::kSkipAction)
                                 : engine::hex::PlacementAction(
                                       BoardGrid(),
                                       PieceLetter(pos.dart.reward_zone == 1 ? kKing : kMan), cell);
        break;
      }
      case Phase::kPenalty:
        a.result.move = engine::hex::PenaltyAction(BoardGrid(), CheckersChoosePenalty(pos));
        break;
      case Phase::kMove: {
        SearchLimits limits = LimitsFor(req, state);
        if (req.level == 1) limits.nodes = 0;
        const CheckersAlgorithm algorithm = req.algorithm == "paranoid"
                                                ? CheckersAlgorithm::kParanoid
                                            : req.algorithm == "brs" ? CheckersAlgorithm::kBrs
                                                                     : CheckersAlgorithm::kDefault;
        a.algorithm = req.level == 1                         ? "greedy"
                      : pos.rules.players == 2               ? "alphabeta"
                      : algorithm == CheckersAlgorithm::kBrs ? "brs"
                                                             : "paranoid";
        a.result = CheckersSearch(pos, limits, algorithm);
        return a;
      }
      default:
        return absl::FailedPreconditionError("no decision is owed in this phase");
    }
    a.result.pv = {a.result.move};
    return a;
  }

  std::vector<int> SeatScores(const engine::State& state) const override {
    const Position& pos = PositionOf(state);
    const auto scores = CheckersSeatScores(pos);
    return std::vector<int>(scores.begin(), scores.begin() + pos.rules.players);
  }
};

}  // namespace

const GameBot& RegisteredBot_chestonia_checkers() {
  static const CheckersBot* bot = new CheckersBot();
  return *bot;
}

}  // namespace arena::bots
