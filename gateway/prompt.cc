#include "gateway/prompt.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"

namespace arena::gateway {
namespace {

std::string Trim(absl::string_view s) {
  return std::string(absl::StripAsciiWhitespace(s));
}

// The format line of the action kind `phase` from the game's brief, or nullptr.
const engine::ActionFormat* FormatOf(const engine::RulesBrief& brief, const std::string& phase) {
  for (const engine::ActionFormat& f : brief.formats) {
    if (f.kind == phase) return &f;
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<TurnPosition> LoadTurnPosition(const std::string& game_id,
                                              const std::string& variant_text,
                                              const std::string& position, int seat,
                                              std::vector<std::string> history,
                                              bool show_legal_moves) {
  const engine::Game* game = engine::FindGame(game_id);
  if (game == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("game '", game_id, "' is not served"));
  }
  auto variant = engine::Variant::Parse(variant_text);
  if (!variant.ok()) return variant.status();
  auto state = game->Parse(position, *variant);
  if (!state.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("position does not parse: ", state.status().message()));
  }
  TurnPosition turn;
  turn.game_id = game_id;
  turn.variant = variant->ToString();
  turn.seat = seat;
  turn.state = *std::move(state);
  if (turn.state->ToMove() != seat) {
    return absl::FailedPreconditionError(
        absl::StrCat("it is not seat ", seat, "'s turn (to move: ", turn.state->ToMove(), ")"));
  }
  turn.legal = turn.state->BoundedLegalActions(kMaxLegalListed);
  if (turn.legal.empty()) return absl::FailedPreconditionError("the seat has no legal action");
  turn.phase = turn.state->Phase();
  turn.history = std::move(history);
  turn.show_legal_moves = show_legal_moves;
  return turn;
}

std::string SeatName(const TurnPosition& turn) {
  const std::vector<engine::SeatInfo> seats = turn.state->Seats();
  if (turn.seat >= 0 && turn.seat < static_cast<int>(seats.size())) return seats[turn.seat].name;
  return absl::StrCat("seat ", turn.seat);
}

std::string OwedText(const TurnPosition& turn) {
  const engine::RulesBrief brief = turn.state->Brief();
  const engine::ActionFormat* format = FormatOf(brief, turn.phase);
  if (format == nullptr) return absl::StrCat("an action of kind '", turn.phase, "'");
  // The example is one of the seat's own legal actions, so its form is exactly the engine's.
  return absl::StrCat("a ", turn.phase, " action, written ", format->format, ". ", format->meaning,
                      " For example: ", turn.legal.front());
}

std::string LegalMovesText(const TurnPosition& turn) {
  if (turn.legal.size() <= kMaxLegalShown) {
    return absl::StrCat("Legal moves (choose exactly one): ", absl::StrJoin(turn.legal, " "));
  }
  return absl::StrCat("Legal moves (", kMaxLegalShown, " of the ", turn.legal.size(),
                      " found; any other legal move is accepted too; choose exactly one): ",
                      absl::StrJoin(turn.legal.begin(), turn.legal.begin() + kMaxLegalShown, " "));
}

std::string SystemPrompt() {
  return "You are a careful board-game player. You read the position, think briefly, and "
         "answer with exactly one JSON object: {\"move\": \"<your move>\", \"reasoning\": "
         "\"<one or two sentences>\"}. The move must be written in the notation the user "
         "describes. If you cannot produce JSON, end your answer with a line \"MOVE: <your "
         "move>\".";
}

std::string BuildTurnPrompt(const TurnPosition& turn) {
  const engine::State& s = *turn.state;
  std::string out;
  const engine::RulesBrief brief = s.Brief();
  absl::StrAppend(&out, "Rules in brief: ", brief.text, "\n\n");
  absl::StrAppend(&out, "How actions are written:\n");
  for (const engine::ActionFormat& f : brief.formats) {
    absl::StrAppend(&out, "- ", f.kind, ": ", f.format, ". ", f.meaning, "\n");
  }
  absl::StrAppend(&out, "\n");
  absl::StrAppend(&out, "Game id: ", turn.game_id, "\n");
  absl::StrAppend(&out, "Variant: ", turn.variant.empty() ? "(default)" : turn.variant, "\n");
  absl::StrAppend(&out, "Players: ", s.NumSeats(), "\n\n");
  absl::StrAppend(&out, "Position (the game's notation, between the markers):\n", kPositionBegin,
                  "\n", s.PublicSerialize(), "\n", kPositionEnd, "\n\n");
  std::string seat_key;
  for (const engine::SeatInfo& seat : s.Seats()) {
    absl::StrAppend(&seat_key, seat_key.empty() ? "" : ", ", seat.name.substr(0, 1), " = ",
                    seat.name);
  }
  absl::StrAppend(&out,
                  "Board (drawn from your side; each cell is the owner's initial and the piece "
                  "letter, lower case for a frozen army, .. for empty; each row ends with the "
                  "ids of its first and last cells; owners: ",
                  seat_key, "):\n", engine::DrawBoardText(s.Board(turn.seat), true), "\n");
  if (turn.history.empty()) {
    absl::StrAppend(&out, "Move history: none yet.\n");
  } else {
    size_t first =
        turn.history.size() > kMaxHistoryShown ? turn.history.size() - kMaxHistoryShown : 0;
    absl::StrAppend(&out, "Move history (", turn.history.size(), " actions",
                    first > 0 ? absl::StrCat(", the last ", kMaxHistoryShown, " shown") : "", "):");
    for (size_t i = first; i < turn.history.size(); ++i) {
      absl::StrAppend(&out, " ", i + 1, ".", turn.history[i]);
    }
    absl::StrAppend(&out, "\n");
  }
  absl::StrAppend(&out, "\nYou play ", SeatName(turn), " (seat ", turn.seat,
                  "). It is your turn. You owe ", OwedText(turn), ".\n");
  if (turn.show_legal_moves) absl::StrAppend(&out, LegalMovesText(turn), "\n");
  if (!turn.clue_move.empty())
    absl::StrAppend(&out, ClueLine(turn.clue_move, turn.clue_level), "\n");
  absl::StrAppend(&out,
                  "\nAnswer with one JSON object and nothing else: {\"move\": \"<move>\", "
                  "\"reasoning\": \"<why, briefly>\"}.\n");
  return out;
}

absl::StatusOr<PromptedPosition> FindPromptedPosition(const std::string& prompt) {
  PromptedPosition p;
  size_t begin = prompt.find(kPositionBegin);
  size_t end = prompt.find(kPositionEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin) {
    return absl::NotFoundError("no position markers");
  }
  begin += sizeof(kPositionBegin) - 1;
  p.position = Trim(absl::string_view(prompt).substr(begin, end - begin));
  auto line_after = [&](const char* label) -> std::string {
    size_t at = prompt.find(label);
    if (at == std::string::npos) return "";
    at += std::string_view(label).size();
    size_t nl = prompt.find('\n', at);
    return Trim(absl::string_view(prompt).substr(at, nl == std::string::npos ? nl : nl - at));
  };
  p.game_id = line_after("Game id: ");
  p.variant = line_after("Variant: ");
  if (p.variant == "(default)") p.variant.clear();
  if (p.game_id.empty()) return absl::NotFoundError("no game id");
  return p;
}

namespace {
constexpr char kClueLevelEnd[] = " bot suggests): ";
constexpr char kClueLineEnd[] = " -- you may follow it or not.";
}  // namespace

std::string ClueLine(const std::string& move, int level) {
  return absl::StrCat(kClueLinePrefix, level, kClueLevelEnd, move, kClueLineEnd);
}

absl::StatusOr<PromptedClue> FindPromptedClue(const std::string& prompt) {
  // The line starts a line of its own.
  size_t at = 0;
  while (true) {
    at = prompt.find(kClueLinePrefix, at);
    if (at == std::string::npos) return absl::NotFoundError("no clue line");
    if (at == 0 || prompt[at - 1] == '\n') break;
    ++at;
  }
  const size_t nl = prompt.find('\n', at);
  const absl::string_view line =
      absl::string_view(prompt).substr(at, nl == std::string::npos ? std::string::npos : nl - at);
  absl::string_view rest = line.substr(sizeof(kClueLinePrefix) - 1);
  const size_t level_end = rest.find(kClueLevelEnd);
  if (level_end == absl::string_view::npos || !absl::EndsWith(rest, kClueLineEnd)) {
    return absl::NotFoundError("a malformed clue line");
  }
  PromptedClue clue;
  if (!absl::SimpleAtoi(rest.substr(0, level_end), &clue.level)) {
    return absl::NotFoundError("a clue line without a level");
  }
  rest.remove_prefix(level_end + sizeof(kClueLevelEnd) - 1);
  rest.remove_suffix(sizeof(kClueLineEnd) - 1);
  clue.move = std::string(rest);
  if (clue.move.empty()) return absl::NotFoundError("a clue line without a move");
  return clue;
}

}  // namespace arena::gateway
