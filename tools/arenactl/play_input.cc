#include "tools/arenactl/play_input.h"

#include <algorithm>
#include <map>

#include "absl/strings/ascii.h"
#include "common/proto_words.h"

namespace arena::arenactl {
namespace {

// The phase's wire kind when a short form is typed: the one whose phase word it is.
v1::ActionKind KindOwedBy(const std::string& phase) {
  for (v1::ActionKind k :
       {v1::ACTION_KIND_DART_AIM, v1::ACTION_KIND_PLACEMENT, v1::ACTION_KIND_PENALTY_CHOICE}) {
    if (common::PhaseOfKind(k) == phase) return k;
  }
  return v1::ACTION_KIND_MOVE;
}

}  // namespace

PlayInput ParsePlayInput(const std::string& line, const std::string& phase,
                         const std::vector<std::string>& legal) {
  PlayInput in;
  const std::string text(absl::StripAsciiWhitespace(line));
  if (text.empty()) return in;
  const std::string word = text.substr(0, text.find(' '));
  const std::string rest = word.size() < text.size()
                               ? std::string(absl::StripAsciiWhitespace(text.substr(word.size())))
                               : "";
  static const std::map<std::string, PlayInput::Kind> kWords = {
      {"resign", PlayInput::Kind::kResign}, {"draw", PlayInput::Kind::kOfferDraw},
      {"accept", PlayInput::Kind::kAccept}, {"decline", PlayInput::Kind::kDecline},
      {"clue", PlayInput::Kind::kClue},     {"moves", PlayInput::Kind::kMoves},
      {"coords", PlayInput::Kind::kCoords}, {"help", PlayInput::Kind::kHelp},
      {"?", PlayInput::Kind::kHelp},        {"quit", PlayInput::Kind::kQuit},
      {"exit", PlayInput::Kind::kQuit}};
  auto it = kWords.find(word);
  if (it != kWords.end() && (rest.empty() || it->second == PlayInput::Kind::kMoves)) {
    in.kind = it->second;
    in.text = rest;
    return in;
  }
  in.kind = PlayInput::Kind::kAction;
  in.text = text;
  if (std::find(legal.begin(), legal.end(), text) != legal.end()) return in;
  v1::ActionKind kind = common::ActionKindOfText(text);
  if (kind == v1::ACTION_KIND_MOVE) kind = KindOwedBy(phase);
  in.text = common::EngineTextOf(kind, text);
  return in;
}

}  // namespace arena::arenactl
