#include "services/game_state/pgn_export.h"

#include "engine/chess/chess_game.h"

namespace arena::game_state {

std::string ExportPgnIfChess(const engine::State& state,
                             std::vector<std::pair<std::string, std::string>> tags,
                             std::vector<std::optional<int64_t>> clocks,
                             std::optional<std::string> result) {
  const auto* chess = dynamic_cast<const engine::chess::ChessState*>(&state);
  if (chess == nullptr) return "";
  if (!result || chess->GetOutcome().finished())
    return chess->ToPgn(std::move(tags), std::move(clocks));
  engine::chess::PgnGame game;
  game.tags = std::move(tags);
  game.start_fen = chess->start_position().Fen();
  game.moves = chess->moves();
  game.clocks = std::move(clocks);
  game.result = *result;
  return engine::chess::ExportPgn(game);
}

}  // namespace arena::game_state
