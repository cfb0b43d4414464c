// A game and variant named on the command line, checked against the engine the way the
// servers will check them, so a typo is a usage error that says what exists (exit 2) before
// any call is made.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "arena/v1/common.pb.h"
#include "engine/core/game.h"

namespace arena::arenactl {

struct CheckedGame {
  const engine::Game* game = nullptr;
  std::unique_ptr<engine::State> initial;  // the variant's initial state: its seats, its names
  v1::VariantOptions variant;
};

// INVALID_ARGUMENT for an unknown game (listing the games), a variant text that does not parse
// or a variant the game refuses (listing its keys).
absl::StatusOr<CheckedGame> CheckGame(const std::string& game_id, const std::string& variant_text);

// "chess, chestonia-chess, ..." : every engine game id.
std::string GameIds();

}  // namespace arena::arenactl
