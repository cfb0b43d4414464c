#include "services/web/engine_actions.h"

#include "absl/strings/str_cat.h"
#include "engine/core/game.h"
#include "nlohmann/json.hpp"

namespace arena::web {
namespace {

using nlohmann::json;

struct Parsed {
  json body;
  std::unique_ptr<engine::State> state;
};

absl::StatusOr<Parsed> ParseState(std::string_view text) {
  Parsed p;
  p.body = json::parse(text, nullptr, false);
  if (p.body.is_discarded() || !p.body.is_object()) {
    return absl::InvalidArgumentError("the body must be a JSON object");
  }
  for (const char* k : {"engine_game", "variant_text", "position"}) {
    if (!p.body.value(k, json()).is_string()) {
      return absl::InvalidArgumentError(absl::StrCat(k, ": a string is required"));
    }
  }
  const engine::Game* game = engine::FindGame(p.body["engine_game"].get<std::string>());
  if (!game) return absl::NotFoundError("engine_game: no such game in this build");
  auto variant = engine::Variant::Parse(p.body["variant_text"].get<std::string>());
  if (!variant.ok())
    return absl::InvalidArgumentError("variant_text: " + std::string(variant.status().message()));
  auto state = game->Parse(p.body["position"].get<std::string>(), *variant);
  if (!state.ok()) {
    return absl::InvalidArgumentError("position: " + std::string(state.status().message()));
  }
  p.state = *std::move(state);
  return p;
}

}  // namespace

std::string GamesJson() {
  json out = json::array();
  for (const engine::Game* g : engine::AllGames()) {
    out.push_back({{"id", std::string(g->Id())},
                   {"name", std::string(g->DisplayName())},
                   {"min_seats", g->MinSeats()},
                   {"max_seats", g->MaxSeats()},
                   {"variant_keys", g->VariantKeys()},
                   {"example_variants", g->ExampleVariants()}});
  }
  return out.dump();
}

absl::StatusOr<std::string> DescribeActionsJson(std::string_view body) {
  auto p = ParseState(body);
  if (!p.ok()) return p.status();
  const json& actions = p->body.value("actions", json::array());
  if (!actions.is_array() || actions.size() > 4096) {
    return absl::InvalidArgumentError("actions: a list of at most 4096 action texts");
  }
  json out = json::array();
  for (const json& a : actions) {
    if (!a.is_string()) continue;
    auto facts = p->state->DescribeAction(a.get<std::string>());
    if (!facts.ok()) continue;
    out.push_back({{"action", a}, {"kind", facts->kind}, {"cells", facts->cells}});
  }
  return json{{"actions", out}}.dump();
}

absl::StatusOr<std::string> ActionForJson(std::string_view body) {
  auto p = ParseState(body);
  if (!p.ok()) return p.status();
  if (!p->body.value("from", json()).is_string() || !p->body.value("to", json()).is_string()) {
    return absl::InvalidArgumentError("from and to: cell ids are required");
  }
  const std::string from = p->body["from"], to = p->body["to"];
  std::vector<std::string> choices;
  // Only the clicked piece's actions, bounded: the position comes from the caller, and every
  // turn of a Chestonia checkers king amid many enemies can number in the millions.
  for (const std::string& a : engine::PieceActions(*p->state, from)) {
    auto facts = p->state->DescribeAction(a);
    if (!facts.ok() || facts->cells.empty()) continue;
    if (facts->cells.back() == to) choices.push_back(a);  // PieceActions: all start at `from`
  }
  if (choices.empty()) {
    return absl::NotFoundError(
        absl::StrCat("no legal action from ", from.substr(0, 16), " to ", to.substr(0, 16)));
  }
  return json{{"action", choices.front()}, {"choices", choices}}.dump();
}

}  // namespace arena::web
