// The engine's board view (engine/core/board_view.h) as the wire message clients draw from,
// and back: the one place the two meet.
#pragma once

#include "arena/v1/common.pb.h"
#include "engine/core/board_view.h"

namespace arena::common {

v1::BoardView ToProto(const engine::BoardView& view);
engine::BoardView FromProto(const v1::BoardView& view);

}  // namespace arena::common
