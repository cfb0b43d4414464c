#include "services/game_state/variant_change.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace arena::game_state {
namespace {

bool MidGameKey(std::string_view key) {
  const auto& keys = MidGameVariantKeys();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

}  // namespace

absl::StatusOr<std::unique_ptr<engine::State>> ChangeVariantMidGame(const engine::Game& game,
                                                                    const engine::State& state,
                                                                    const engine::Variant& from,
                                                                    const engine::Variant& to) {
  // Every other key must read the same (absent and present keys compared by value).
  std::vector<std::string> keys;
  for (const auto& [k, v] : from.options()) keys.push_back(k);
  for (const auto& [k, v] : to.options()) keys.push_back(k);
  for (const std::string& k : keys) {
    if (MidGameKey(k)) continue;
    if (from.Get(k, "") != to.Get(k, "")) {
      return absl::FailedPreconditionError(
          absl::StrCat("only ", absl::StrJoin(MidGameVariantKeys(), " and "),
                       " can change while the game runs; '", k, "' cannot"));
    }
  }
  const std::string before = state.Serialize();
  std::vector<std::string> words = absl::StrSplit(before, ' ', absl::SkipWhitespace());
  bool carried = false;
  std::vector<std::string> kept;
  for (const std::string& w : words) {
    const size_t eq = w.find('=');
    if (eq != std::string::npos && MidGameKey(std::string_view(w).substr(0, eq))) {
      carried = true;
      continue;
    }
    kept.push_back(w);
  }
  if (!carried) {
    return absl::FailedPreconditionError(absl::StrCat(
        std::string(game.Id()), " has no board or darts to change while the game runs"));
  }
  auto next = game.Parse(absl::StrJoin(kept, " "), to);
  if (!next.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat(std::string(game.Id()),
                     " cannot take this change while the game runs: ", next.status().message()));
  }
  // The same seat acts, unless the old position owed a chance the new rules do not (a round
  // chance with darts turned off): then the next seat's turn begins.
  const bool chance_dropped =
      state.ToMove() == engine::kChanceSeat && (*next)->ToMove() != engine::kChanceSeat;
  if (((*next)->ToMove() != state.ToMove() && !chance_dropped) ||
      (*next)->NumSeats() != state.NumSeats()) {
    return absl::FailedPreconditionError(
        absl::StrCat(std::string(game.Id()), " cannot take this change while the game runs"));
  }
  return next;
}

}  // namespace arena::game_state
