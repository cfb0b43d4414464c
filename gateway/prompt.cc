#include "gateway/prompt.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"

namespace arena::gateway {
namespace {

std::string Trim(absl::string_view s) {
  return std::string(absl::StripAsciiWhitespace(s));
}

std::string SeatName(const std::string& game_id, int seat, int seats) {
  if (game_id == "chess") return seat == 0 ? "White" : "Black";
  if (game_id == "chestonia-chess") {
    static const char* kTwo[] = {"Blue", "White"};
    static const char* kThree[] = {"Blue", "Black", "White"};
    if (seats == 2 && seat < 2) return kTwo[seat];
    if (seats == 3 && seat < 3) return kThree[seat];
  }
  return absl::StrCat("seat ", seat);
}

std::string OwedText(const std::string& phase) {
  if (phase == "move") return "your move";
  if (phase == "dart-aim") return "where to aim your dart (a cell)";
  if (phase == "placement") return "where to place your piece (a cell)";
  if (phase == "penalty") return "your choice of penalty";
  return absl::StrCat("an action of kind '", phase, "'");
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
  turn.legal = turn.state->LegalActions();
  if (turn.legal.empty()) return absl::FailedPreconditionError("the seat has no legal action");
  turn.phase = turn.state->Phase();
  turn.history = std::move(history);
  turn.show_legal_moves = show_legal_moves;
  return turn;
}

std::string RulesBrief(const std::string& game_id) {
  if (game_id == "chess") {
    return "You are playing standard chess (FIDE rules): checkmate wins; stalemate, threefold "
           "repetition, the fifty-move rule and insufficient material draw. Castling, en "
           "passant and promotion are allowed. Moves are written in UCI: from-square then "
           "to-square, e.g. e2e4, g1f3, e1g1 (castling king move), e7e8q (promotion to a "
           "queen). Standard algebraic notation (Nf3) is accepted too.";
  }
  if (game_id == "chestonia-chess") {
    return "You are playing Chestonia chess: chess on a hexagonal board of 169 cells for 2 or "
           "3 players. Cells are written in axial coordinates \"q,r\". Pieces move along the "
           "hexagonal lines (rooks along the 6 edge directions, bishops along the 6 diagonal "
           "directions, queens both, knights jump, kings one step, pawns forward toward the "
           "far side and promote there). Depending on the variant, darts may be thrown at "
           "cells between rounds (you may be asked where to aim) and a reverse rule may apply. "
           "A player whose king is captured or checkmated is out; the last player standing "
           "wins. A move is written \"q,r:q,r\" (from-cell:to-cell); a dart aim is \"aim q,r\".";
  }
  return "You are playing a turn-based board game on a board drawn below. Choose one action "
         "for your seat, written exactly in the game's own move notation as used in the move "
         "history.";
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
  absl::StrAppend(&out, "Rules in brief: ", RulesBrief(turn.game_id), "\n\n");
  absl::StrAppend(&out, "Game id: ", turn.game_id, "\n");
  absl::StrAppend(&out, "Variant: ", turn.variant.empty() ? "(default)" : turn.variant, "\n");
  absl::StrAppend(&out, "Players: ", s.NumSeats(), "\n\n");
  absl::StrAppend(&out, "Position (the game's notation, between the markers):\n", kPositionBegin,
                  "\n", s.PublicSerialize(), "\n", kPositionEnd, "\n\n");
  engine::RenderOptions render;
  render.coordinates = true;
  render.perspective = turn.seat;
  absl::StrAppend(&out, "Board (drawn from your side, with coordinates):\n", s.Render(render),
                  "\n\n");
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
  absl::StrAppend(&out, "\nYou play ", SeatName(turn.game_id, turn.seat, s.NumSeats()), " (seat ",
                  turn.seat, "). It is your turn. You owe: ", OwedText(turn.phase), ".\n");
  if (turn.show_legal_moves) {
    absl::StrAppend(&out, "Legal moves (choose exactly one): ", absl::StrJoin(turn.legal, " "),
                    "\n");
  }
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

}  // namespace arena::gateway
