// The time controls a ranked (staked) chess game may be played at: 3+2, 5+0 and 10+0, Fischer
// minutes + increment seconds. There is no bullet for money (the rules: a phone on a weak
// signal should never lose a stake to the network), so nothing faster exists here.
//
// The text names are the ones people type and the database stores ("3+2"); they match the
// names services/arena/people_record.h gives the same clocks.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace arena::ranked {

enum class TimeControl { k3Plus2, k5Plus0, k10Plus0 };

inline constexpr std::array<TimeControl, 3> kTimeControls = {
    TimeControl::k3Plus2, TimeControl::k5Plus0, TimeControl::k10Plus0};

// "3+2", "5+0", "10+0".
std::string_view TimeControlName(TimeControl tc);

// The inverse of TimeControlName; nothing for any other text (bullet, "untimed", "").
std::optional<TimeControl> ParseTimeControl(std::string_view name);

// Each side's starting bank and the increment added after each of its moves.
int64_t InitialMs(TimeControl tc);
int64_t IncrementMs(TimeControl tc);

}  // namespace arena::ranked
