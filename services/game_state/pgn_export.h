// PGN for chess games: the one game-specific export of the record. Other games get "".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/game.h"

namespace arena::game_state {

// `clocks`: the mover's remaining seconds after each move (nullopt without a clock).
// `result`: the PGN result when the service, not the engine, ended the game (the move cap);
// otherwise the engine's ("*" while it has not ended).
std::string ExportPgnIfChess(const engine::State& state,
                             std::vector<std::pair<std::string, std::string>> tags,
                             std::vector<std::optional<int64_t>> clocks,
                             std::optional<std::string> result = std::nullopt);

}  // namespace arena::game_state
