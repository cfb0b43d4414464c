#include "services/game_state/pgn_export.h"

#include "engine/chess/chess_game.h"

namespace arena::game_state {

std::string ExportPgnIfChess(const engine::State& state,
                             std::vector<std::pair<std::string, std::string>> tags,
                             std::vector<std::optional<int64_t>> clocks) {
  const auto* chess = dynamic_cast<const engine::chess::ChessState*>(&state);
  if (chess == nullptr) return "";
  return chess->ToPgn(std::move(tags), std::move(clocks));
}

}  // namespace arena::game_state
