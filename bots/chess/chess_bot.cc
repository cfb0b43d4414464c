// The chess player: level 1 greedy, levels 2 and up alpha-beta (ChessSearcher) with the
// level's node budget, repetition-aware through the game's own history.
#include <memory>

#include "bots/chess/chess_search.h"
#include "bots/chess/stockfish_player.h"
#include "bots/core/game_bot.h"
#include "engine/chess/chess_game.h"
#include "engine/chess/notation.h"

namespace arena::bots {
namespace {

class ChessBot : public GameBot {
 public:
  std::string_view GameId() const override { return "chess"; }
  std::vector<std::string> Algorithms() const override { return {"alphabeta"}; }
  EloRange ReferenceElos() const override { return {kStockfishMinElo, kStockfishMaxElo}; }
  absl::StatusOr<BotAnswer> ChooseByReference(const engine::State& state,
                                              const BotRequest& req) const override {
    return StockfishBotMove(state, req);
  }

  absl::StatusOr<BotAnswer> Choose(const engine::State& state,
                                   const BotRequest& req) const override {
    using namespace engine::chess;
    const auto& chess = static_cast<const ChessState&>(state);
    BotAnswer a;
    if (req.level == 1) {
      a.algorithm = "greedy";
      a.result.move = MoveToUci(ChessGreedyMove(chess.position(), req.seed));
      a.result.pv = {a.result.move};
      a.result.nodes = 1;
      return a;
    }
    // Keys of the positions before the current one, for repetition draws.
    std::vector<uint64_t> history;
    Position p = chess.start_position();
    for (const Move m : chess.moves()) {
      history.push_back(p.key());
      Position::Undo undo;
      p.DoMove(m, undo);
    }
    auto searcher = std::make_unique<ChessSearcher>(4);
    a.algorithm = "alphabeta";
    a.result = searcher->Search(chess.position(), history, LimitsFor(req, state));
    return a;
  }
};

}  // namespace

const GameBot& RegisteredBot_chess() {
  static const ChessBot* bot = new ChessBot();
  return *bot;
}

}  // namespace arena::bots
