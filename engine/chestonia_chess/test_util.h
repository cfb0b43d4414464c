// Helpers shared by the Chestonia chess tests: positions from text and random play.
#pragma once

#include <random>
#include <string>
#include <string_view>

#include "engine/chestonia_chess/position.h"

namespace arena::engine::chestonia_chess::testing_util {

// Parses position text (notation.h); aborts the test binary on error with the message.
Position Setup(std::string_view text);

// Applies one random action (chance outcomes drawn by their probabilities) to a position
// that is not over. Returns a short description of what was applied.
std::string RandomStep(Position& pos, std::mt19937_64& rng);

}  // namespace arena::engine::chestonia_chess::testing_util
