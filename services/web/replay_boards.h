// Every position of a game's record as a board view, for the page's replay: the record's
// events replayed through the engine facade (as `arenactl verify` replays them, without the
// draw checks), so the page steps through any game without knowing its rules. The cells are
// given once; each position has the pieces, the last action's cells, a dart's aim and landing
// and whose turn it is.
//
// JSON: {"game", "shape", "perspective", "seats": [...], "cells": [...],
//        "positions": [{"sequence", "action", "seat", "pieces": [...], "frozen_seats",
//                       "to_move", "phase", "last_action_cells", "dart_aim",
//                       "dart_landing"}, ...]}
// Position 0 is the start (after the leader draw); position i follows the i-th action or
// chance outcome.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "arena/v1/game_state.pb.h"

namespace arena::web {

// FAILED_PRECONDITION for a game unknown to this build or a record that does not replay.
absl::StatusOr<std::string> ReplayBoardsJson(const v1::GameRecord& record, int perspective);

}  // namespace arena::web
