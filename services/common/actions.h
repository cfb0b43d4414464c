// The game-state action kind that carries an engine action text, and the game-kind enum that
// names an engine game: what every client that submits actions (seat drivers, arenactl, tests)
// needs to say the same way.
#pragma once

#include <string>
#include <string_view>

#include "arena/v1/game_state.pb.h"

namespace arena::common {

// "aim 0,0" -> DART_AIM, "place Q 1,2" -> PLACEMENT, "skip" -> PLACEMENT_SKIP,
// "penalty 3,4" -> PENALTY_CHOICE, "pass" -> PASS, anything else -> MOVE.
inline v1::ActionKind ActionKindOfText(std::string_view text) {
  auto starts = [&](std::string_view p) { return text.substr(0, p.size()) == p; };
  if (starts("aim ")) return v1::ACTION_KIND_DART_AIM;
  if (starts("place ")) return v1::ACTION_KIND_PLACEMENT;
  if (text == "skip") return v1::ACTION_KIND_PLACEMENT_SKIP;
  if (starts("penalty ")) return v1::ACTION_KIND_PENALTY_CHOICE;
  if (text == "pass") return v1::ACTION_KIND_PASS;
  return v1::ACTION_KIND_MOVE;
}

// "chess" -> GAME_KIND_CHESS, "chestonia-chess" -> GAME_KIND_CHESTONIA_CHESS, ...; UNSPECIFIED
// for an engine id with no enum value (the settings' engine_game names it then).
inline v1::GameKind GameKindOfEngineId(std::string_view id) {
  std::string name = "GAME_KIND_";
  for (char c : id) name += c == '-' ? '_' : static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  v1::GameKind kind = v1::GAME_KIND_UNSPECIFIED;
  return v1::GameKind_Parse(name, &kind) ? kind : v1::GAME_KIND_UNSPECIFIED;
}

// The engine id a table's settings name: `engine_game` when set, else the GameKind's name
// ("GAME_KIND_CHESTONIA_CHESS" -> "chestonia-chess"); "" when neither names a game.
inline std::string EngineGameIdOf(const v1::TableSettings& settings) {
  if (!settings.engine_game().empty()) return settings.engine_game();
  if (settings.game() == v1::GAME_KIND_UNSPECIFIED) return "";
  std::string name = v1::GameKind_Name(settings.game()).substr(10);  // after "GAME_KIND_"
  for (char& c : name) c = c == '_' ? '-' : static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return name;
}

}  // namespace arena::common
