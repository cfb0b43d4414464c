#include "services/chance/dart_path.h"

#include <cstdio>
#include <span>

#include "engine/hex/dart.h"
#include "engine/hex/geometry.h"

namespace arena::game_state {

std::optional<std::string> DartLandingAction(const std::vector<engine::ChanceOutcome>& outcomes,
                                             const std::string& aim_action,
                                             const DrawBytes& bytes) {
  if (outcomes.size() < 2) return std::nullopt;
  for (const auto& o : outcomes) {
    if (o.action.rfind("land ", 0) != 0) return std::nullopt;
  }
  // The board: outcomes are every cell plus the miss; 3R(R+1)+1 cells.
  int cells = static_cast<int>(outcomes.size()) - 1;
  int radius = -1;
  for (int r = 1; r <= engine::hex::Grid::kMaxRadius; ++r) {
    if (3 * r * (r + 1) + 1 == cells) radius = r;
  }
  if (radius < 0) return std::nullopt;
  int q = 0, r = 0;
  char tail = 0;
  if (std::sscanf(aim_action.c_str(), "aim %d,%d%c", &q, &r, &tail) != 2) return std::nullopt;
  const engine::hex::Grid& grid = engine::hex::Grid::Get(radius);
  int aim = grid.Index({q, r});
  if (aim < 0) return std::nullopt;
  engine::hex::DartLanding landing = engine::hex::DartScatter::ForRadius(radius).Throw(
      aim, std::span<const uint8_t, 32>(bytes.data(), 32));
  std::string action = "land miss";
  if (landing.cell != engine::hex::kDartMiss) {
    engine::hex::Axial a = grid.At(landing.cell);
    action = "land " + std::to_string(a.q) + "," + std::to_string(a.r);
  }
  for (const auto& o : outcomes) {
    if (o.action == action) return action;
  }
  return std::nullopt;
}

}  // namespace arena::game_state
