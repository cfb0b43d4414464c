#include "tools/arenactl/game_check.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace arena::arenactl {

std::string GameIds() {
  std::vector<std::string> ids;
  for (const engine::Game* g : engine::AllGames()) ids.emplace_back(g->Id());
  return absl::StrJoin(ids, ", ");
}

absl::StatusOr<CheckedGame> CheckGame(const std::string& game_id, const std::string& variant_text) {
  CheckedGame out;
  out.game = engine::FindGame(game_id);
  if (out.game == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("unknown game '", game_id, "'; the games are ", GameIds()));
  }
  auto variant = engine::Variant::Parse(variant_text);
  if (!variant.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--variant: ", variant.status().message()));
  }
  auto initial = out.game->NewInitialState(*variant);
  if (!initial.ok()) {
    const std::vector<std::string> keys = out.game->VariantKeys();
    return absl::InvalidArgumentError(
        absl::StrCat("--variant=", variant_text, ": ", initial.status().message(), " (", game_id,
                     " takes ", keys.empty() ? "no variant keys" : absl::StrJoin(keys, ", "), ")"));
  }
  out.initial = *std::move(initial);
  for (const auto& [key, value] : variant->options()) {
    (*out.variant.mutable_options())[key] = value;
  }
  return out;
}

}  // namespace arena::arenactl
