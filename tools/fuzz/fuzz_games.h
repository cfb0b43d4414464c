// What the games' fuzz target (fuzz_games.cc) and the program writing its corpus
// (games_corpus.cc) share: the states an "apply" input starts from.
#pragma once

#include <memory>

#include "engine/core/game.h"

namespace arena::fuzz {

// An "apply" input names at most this many actions to play before its own.
inline constexpr int kMaxPlayedSteps = 80;

// `state` after `steps` legal actions (chance outcomes included) chosen by a generator seeded
// from `steps` alone: the same input always reaches the same state, so a crash reproduces and
// a corpus action stays legal where it is applied.
std::unique_ptr<engine::State> PlayedState(std::unique_ptr<engine::State> state, int steps);

}  // namespace arena::fuzz
