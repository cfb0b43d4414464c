// The dart landing path: when a chance node is a dart landing ("land q,r" / "land miss"
// outcomes), its 32 draw bytes go through the engine's documented scatter
// (engine/hex/dart.h: bytes -> two uniforms -> Box-Muller -> cube rounding) from the aim the
// thrower named, instead of the generic inverse CDF. The service and `arenactl verify` share
// this function, so both compute the same landing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "services/chance/fair_rng.h"

namespace arena::game_state {

// The landing action ("land q,r" or "land miss") for a landing chance node, given the
// thrower's aim action ("aim q,r"). nullopt when the node is not a landing, the aim does not
// parse, or the scatter's answer is not among the outcomes (the caller then uses the inverse
// CDF and records that path).
std::optional<std::string> DartLandingAction(const std::vector<engine::ChanceOutcome>& outcomes,
                                             const std::string& aim_action, const DrawBytes& bytes);

}  // namespace arena::game_state
