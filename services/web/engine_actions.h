// What the page asks of the rules without knowing the game (it has only the board view and
// the position's public text): the games this build serves, the cells of given actions (to
// light a piece's legal destinations at beginner level), and the action a click from one
// cell to another means (any level: the page never builds action text itself). Answers are
// JSON; the position comes from a GameView the caller already holds, so nothing here reveals
// more than the table does: ActionFor answers NOT_FOUND for an illegal click, exactly the
// refusal game-state would give at no cost.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace arena::web {

// [{"id", "name", "min_seats", "max_seats", "variant_keys", "example_variants"}, ...]
std::string GamesJson();

// Body {"engine_game", "variant_text", "position", "actions": [text, ...]}
// -> {"actions": [{"action", "kind", "cells": [...]}, ...]} (actions that do not parse are left
// out).
absl::StatusOr<std::string> DescribeActionsJson(std::string_view body);

// Body {"engine_game", "variant_text", "position", "from", "to"} -> {"action": text}: the legal
// action whose first touched cell is `from` and last is `to` (for one-cell actions, a dart aim
// or a placement, from = to). Several (a promotion) -> the first, and "choices" lists all.
// NOT_FOUND when there is none.
absl::StatusOr<std::string> ActionForJson(std::string_view body);

}  // namespace arena::web
