// What a model is told on its turn, and how its answer is read.
//
// The prompt is built only through the engine facade, so every registered game gets a correct
// one without the gateway knowing it: the game's own rules brief for this variant and the
// exact format of every action it may ask for (State::Brief), the position as the game's text
// serialization between the markers kPositionBegin/kPositionEnd (machine-readable: the local
// stand-in for Abacus reads it back) and as the board view's drawing from the seat's own edge,
// the move history, the seat's name, what is owed with an example taken from the seat's own
// legal actions, the legal moves when the table shows them (at most kMaxLegalShown), at a table
// with clues the clue (one labelled line: the move a bot of a named level suggests, which the
// model may ignore), and the answer format: one JSON object {"move": "...", "reasoning": "..."};
// a final line "MOVE: ..." is accepted too. How the answer is read is gateway/move_extraction.h.
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
// The most legal actions a turn lists (State::BoundedLegalActions), as the bots do
// (bots/core/search_common.h): a Chestonia checkers king can have hundreds of thousands of
// turns, whose full list takes minutes and gigabytes. An answer outside the list is still read:
// any text the game's Apply accepts is legal (gateway/move_extraction.h).
inline constexpr int kMaxLegalListed = 4096;
// The most of them a prompt shows: past this a list costs more tokens than it helps.
inline constexpr size_t kMaxLegalShown = 300;

// A position at which a seat must act, loaded through the facade.
struct TurnPosition {
  std::string game_id;  // engine id
  std::string variant;  // canonical "k=v,..." text ("" for the default)
  int seat = 0;
  std::unique_ptr<engine::State> state;
  std::vector<std::string> history;
  // The seat's legal actions, canonical text: State::BoundedLegalActions(kMaxLegalListed), so
  // every one of them when they are few, else those the game finds first.
  std::vector<std::string> legal;
  std::string phase;  // what is owed
  bool show_legal_moves = false;
  // The clue of a table with clues on (one of `legal`, and the suggesting bot's level 1..8);
  // empty: no clue, and the prompt has no clue line.
  std::string clue_move;
  int clue_level = 0;
};

// Parses `position` (the state's serialization) for `game_id`. INVALID_ARGUMENT for an
// unknown game, bad variant or unreadable position; FAILED_PRECONDITION when it is not
// `seat`'s turn or the seat has nothing legal to do.
absl::StatusOr<TurnPosition> LoadTurnPosition(const std::string& game_id,
                                              const std::string& variant_text,
                                              const std::string& position, int seat,
                                              std::vector<std::string> history,
                                              bool show_legal_moves);

// The seat's name as the game gives it ("white", "blue", ...), and what it owes now: the
// action kind, its exact format from the game's brief and an example from its legal actions.
std::string SeatName(const TurnPosition& turn);
std::string OwedText(const TurnPosition& turn);
// "Legal moves (choose exactly one): ..." with the turn's legal actions, or, past
// kMaxLegalShown of them, the first kMaxLegalShown and a word that any other legal one is
// accepted too.
std::string LegalMovesText(const TurnPosition& turn);
std::string SystemPrompt();
std::string BuildTurnPrompt(const TurnPosition& turn);

// The serialization, game id and variant the prompt carries between its markers.
struct PromptedPosition {
  std::string game_id;
  std::string variant;
  std::string position;
};
absl::StatusOr<PromptedPosition> FindPromptedPosition(const std::string& prompt);

// The clue line: "Clue (a level-4 bot suggests): e2e4 -- you may follow it or not."
inline constexpr char kClueLinePrefix[] = "Clue (a level-";
std::string ClueLine(const std::string& move, int level);
// The clue a prompt carries (its move and level), or NOT_FOUND when it has no clue line.
struct PromptedClue {
  std::string move;
  int level = 0;
};
absl::StatusOr<PromptedClue> FindPromptedClue(const std::string& prompt);

}  // namespace arena::gateway
