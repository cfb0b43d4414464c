// A host's board or darts change to a game under way (the seed: "the host can change the
// board, the darts and the clock while the game is running ... a board change takes effect
// from the next turn").
//
// Only the keys in kMidGameVariantKeys may differ between the running variant and the new one:
// the number of seats, the army, the seat that leads and the rest stay as the game began. The
// position keeps every piece, clock and count; only the rules those keys set change. The game
// serializes its state and parses it again under the new variant with those keys' words left
// out, so the new variant decides them: a game whose text does not carry them that way (or
// refuses the result) cannot change them mid-game, and the host is told so.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/game.h"

namespace arena::game_state {

inline const std::vector<std::string>& MidGameVariantKeys() {
  static const std::vector<std::string> keys = {"board", "darts"};
  return keys;
}

// FAILED_PRECONDITION when another key differs, or the game cannot take the change (its
// message says which); else `state` under `to`, same seat to move, same position (at a chance
// the new rules do not owe, such as a round chance with darts turned off, the seat whose turn
// begins there moves instead).
absl::StatusOr<std::unique_ptr<engine::State>> ChangeVariantMidGame(const engine::Game& game,
                                                                    const engine::State& state,
                                                                    const engine::Variant& from,
                                                                    const engine::Variant& to);

}  // namespace arena::game_state
