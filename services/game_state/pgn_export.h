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
std::string ExportPgnIfChess(const engine::State& state,
                             std::vector<std::pair<std::string, std::string>> tags,
                             std::vector<std::optional<int64_t>> clocks);

}  // namespace arena::game_state
