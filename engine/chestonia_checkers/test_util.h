// Helpers shared by the Chestonia checkers tests: positions from text and random play.
#pragma once

#include <random>
#include <string>
#include <string_view>

#include "engine/chestonia_checkers/position.h"

namespace arena::engine::chestonia_checkers::testing_util {

// Parses position text (notation.h); aborts the test binary on error with the message.
Position Setup(std::string_view text);

// Applies one random action (chance outcomes drawn by their probabilities) to a position
// that is not over. Returns the action's text.
std::string RandomStep(Position& pos, std::mt19937_64& rng);

}  // namespace arena::engine::chestonia_checkers::testing_util
