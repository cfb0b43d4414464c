// What a model is told on its turn, and how its answer is read.
//
// The prompt is built only through the engine facade (Render, PublicSerialize, LegalActions,
// Phase), so every registered game gets one: a short rules brief (chess and chestonia-chess
// have their own; any other game gets a generic one), the position as the game's text
// serialization between the markers kPositionBegin/kPositionEnd (machine-readable: the local
// stand-in for Abacus reads it back) and as a drawing with coordinates, the move history,
// whose turn it is and what is owed, the legal moves when the table shows them, and the answer
// format: one JSON object {"move": "...", "reasoning": "..."}; a final line "MOVE: ..." is
// accepted too. How the answer is read is gateway/move_extraction.h.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/game.h"

namespace arena::gateway {

inline constexpr char kPositionBegin[] = "<<<POSITION";
inline constexpr char kPositionEnd[] = "POSITION>>>";
inline constexpr size_t kMaxHistoryShown = 400;

// A position at which a seat must act, loaded through the facade.
struct TurnPosition {
  std::string game_id;  // engine id
  std::string variant;  // canonical "k=v,..." text ("" for the default)
  int seat = 0;
  std::unique_ptr<engine::State> state;
  std::vector<std::string> history;
  std::vector<std::string> legal;  // the seat's legal actions, canonical text
  std::string phase;               // what is owed
  bool show_legal_moves = false;
};

// Parses `position` (the state's serialization) for `game_id`. INVALID_ARGUMENT for an
// unknown game, bad variant or unreadable position; FAILED_PRECONDITION when it is not
// `seat`'s turn or the seat has nothing legal to do.
absl::StatusOr<TurnPosition> LoadTurnPosition(const std::string& game_id,
                                              const std::string& variant_text,
                                              const std::string& position, int seat,
                                              std::vector<std::string> history,
                                              bool show_legal_moves);

std::string RulesBrief(const std::string& game_id);
std::string SystemPrompt();
std::string BuildTurnPrompt(const TurnPosition& turn);

// The serialization, game id and variant the prompt carries between its markers.
struct PromptedPosition {
  std::string game_id;
  std::string variant;
  std::string position;
};
absl::StatusOr<PromptedPosition> FindPromptedPosition(const std::string& prompt);

}  // namespace arena::gateway
