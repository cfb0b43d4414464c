#include "services/arena/ranked/time_control.h"

namespace arena::ranked {

std::string_view TimeControlName(TimeControl tc) {
  switch (tc) {
    case TimeControl::k3Plus2:
      return "3+2";
    case TimeControl::k5Plus0:
      return "5+0";
    case TimeControl::k10Plus0:
      return "10+0";
  }
  return "?";
}

std::optional<TimeControl> ParseTimeControl(std::string_view name) {
  for (TimeControl tc : kTimeControls) {
    if (TimeControlName(tc) == name) return tc;
  }
  return std::nullopt;
}

int64_t InitialMs(TimeControl tc) {
  switch (tc) {
    case TimeControl::k3Plus2:
      return 3 * 60'000;
    case TimeControl::k5Plus0:
      return 5 * 60'000;
    case TimeControl::k10Plus0:
      return 10 * 60'000;
  }
  return 0;
}

int64_t IncrementMs(TimeControl tc) {
  return tc == TimeControl::k3Plus2 ? 2'000 : 0;
}

}  // namespace arena::ranked
