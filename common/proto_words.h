// The proto words left between the wire and the engine: the ActionKind a client sends with an
// engine action text (and the short forms it may send), the retired GameKind of old records,
// and the word each typed model-turn failure is recorded under. Everything else about a game
// comes from the engine's facade.
#pragma once

#include <string>
#include <string_view>

#include "arena/v1/game_state.pb.h"
#include "arena/v1/gateway.pb.h"

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

// The engine text for a wire kind and text: the short forms clients may send are completed
// ("0,0" as DART_AIM -> "aim 0,0", PLACEMENT "Q 1,2" -> "place Q 1,2", PLACEMENT_SKIP ->
// "skip", PENALTY_CHOICE "3,4" -> "penalty 3,4", PASS "" -> "pass"); other kinds unchanged.
inline std::string EngineTextOf(v1::ActionKind kind, std::string text) {
  auto prefixed = [&](std::string_view prefix) {
    return text.compare(0, prefix.size(), prefix) == 0 ? text : std::string(prefix) + text;
  };
  switch (kind) {
    case v1::ACTION_KIND_PASS:
      return text.empty() ? "pass" : text;
    case v1::ACTION_KIND_DART_AIM:
      return prefixed("aim ");
    case v1::ACTION_KIND_PLACEMENT:
      return prefixed("place ");
    case v1::ACTION_KIND_PLACEMENT_SKIP:
      return "skip";
    case v1::ACTION_KIND_PENALTY_CHOICE:
      return prefixed("penalty ");
    default:
      return text;
  }
}

// The engine phase a wire kind answers ("dart-aim", "placement", "penalty"); "" for a move or
// a pass, which answer the phases the game itself names.
inline std::string_view PhaseOfKind(v1::ActionKind kind) {
  switch (kind) {
    case v1::ACTION_KIND_DART_AIM:
      return "dart-aim";
    case v1::ACTION_KIND_PLACEMENT:
    case v1::ACTION_KIND_PLACEMENT_SKIP:
      return "placement";
    case v1::ACTION_KIND_PENALTY_CHOICE:
      return "penalty";
    default:
      return "";
  }
}

// The engine id a table's settings name: `engine_game`, or for a record written before engine
// ids named every game, the deprecated GameKind's name in lower case with '-' for '_', after
// "GAME_KIND_" (the ids of the games those records were written in); "" when neither names a
// game.
inline std::string EngineGameIdOf(const v1::TableSettings& settings) {
  if (!settings.engine_game().empty()) return settings.engine_game();
  if (settings.game() == v1::GAME_KIND_UNSPECIFIED) return "";
  std::string name = v1::GameKind_Name(settings.game()).substr(10);  // after "GAME_KIND_"
  for (char& c : name) c = c == '_' ? '-' : static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return name;
}

// The word a model-turn failure is logged and recorded under (ai_turns.outcome, match
// statistics): "illegal", "truncated", "cost_cap", "provider", "out_of_credits", "auth",
// "key_needed"; "" for none.
inline std::string TurnFailureWord(v1::TurnFailure kind) {
  switch (kind) {
    case v1::TURN_FAILURE_ILLEGAL:
      return "illegal";
    case v1::TURN_FAILURE_TRUNCATED:
      return "truncated";
    case v1::TURN_FAILURE_COST_CAP:
      return "cost_cap";
    case v1::TURN_FAILURE_PROVIDER:
      return "provider";
    case v1::TURN_FAILURE_OUT_OF_CREDITS:
      return "out_of_credits";
    case v1::TURN_FAILURE_AUTH:
      return "auth";
    case v1::TURN_FAILURE_KEY_NEEDED:
      return "key_needed";
    default:
      return "";
  }
}

}  // namespace arena::common
