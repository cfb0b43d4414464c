#include "engine/hex/position_text.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace arena::engine::hex {

absl::Status BadPositionText(std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("position text: ", ToAbsl(what)));
}

absl::StatusOr<int> PositionInt(const std::string& value, std::string_view key, int lo, int hi) {
  int v = 0;
  if (!absl::SimpleAtoi(value, &v) || v < lo || v > hi) {
    return BadPositionText(
        absl::StrCat(ToAbsl(key), "=", value, " is not an integer in ", lo, "..", hi));
  }
  return v;
}

absl::StatusOr<PositionFields> PositionFields::Parse(std::string_view text, std::string_view word,
                                                     const std::vector<std::string>& keys) {
  std::vector<std::string> words = absl::StrSplit(ToAbsl(text), ' ', absl::SkipWhitespace());
  if (words.empty() || words[0] != word) {
    return BadPositionText(absl::StrCat("must start with the word ", ToAbsl(word)));
  }
  PositionFields out;
  for (size_t i = 1; i < words.size(); ++i) {
    std::vector<std::string> kv = absl::StrSplit(words[i], absl::MaxSplits('=', 1));
    if (kv.size() != 2 || kv[1].empty()) {
      return BadPositionText(absl::StrCat("field '", words[i], "'"));
    }
    if (!out.fields_.emplace(kv[0], kv[1]).second) {
      return BadPositionText(absl::StrCat("field ", kv[0], " twice"));
    }
  }
  for (const auto& [key, value] : out.fields_) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      return BadPositionText(absl::StrCat("unknown field ", key));
    }
  }
  return out;
}

std::string PositionFields::Get(const std::string& key, const std::string& fallback) const {
  auto it = fields_.find(key);
  return it == fields_.end() ? fallback : it->second;
}

absl::StatusOr<bool> PositionFields::OnOff(const std::string& key, bool fallback) const {
  const std::string v = Get(key, fallback ? "on" : "off");
  if (v != "on" && v != "off") return BadPositionText(absl::StrCat(key, " must be on or off"));
  return v == "on";
}

absl::StatusOr<int> PositionFields::Int(const std::string& key, int fallback, int lo,
                                        int hi) const {
  return PositionInt(Get(key, absl::StrCat(fallback)), key, lo, hi);
}

absl::StatusOr<int> PositionFields::Seat(const std::string& key, int players, int fallback) const {
  const std::string v = Get(key, std::string(1, SeatLetter(players, fallback)));
  const int s = v.size() == 1 ? SeatFromLetter(players, v[0]) : -1;
  if (s < 0) return BadPositionText(absl::StrCat(key, "=", v, " is not a seat of this game"));
  return s;
}

absl::StatusOr<ChestoniaOptions> PositionFields::Rules(const ChestoniaOptions& defaults) const {
  ChestoniaOptions rules = defaults;
  absl::StatusOr<int> players = Int("players", defaults.players, 2, 3);
  if (!players.ok()) return players.status();
  rules.players = *players;
  const int n = rules.players;
  const std::string board = Get("board", std::string(BoardKindName(defaults.board)));
  bool board_ok = false;
  for (BoardKind b :
       {BoardKind::kAlternating, BoardKind::kPlain, BoardKind::kCircles, BoardKind::kTarget}) {
    if (BoardKindName(b) == board) {
      rules.board = b;
      board_ok = true;
    }
  }
  if (!board_ok) return BadPositionText(absl::StrCat("unknown board ", board));
  absl::StatusOr<bool> darts = OnOff("darts", defaults.darts);
  if (!darts.ok()) return darts.status();
  absl::StatusOr<bool> reverse = OnOff("reverse", defaults.reverse);
  if (!reverse.ok()) return reverse.status();
  rules.darts = *darts;
  rules.reverse = *reverse;
  absl::StatusOr<int> movecap = Int("movecap", defaults.movecap, 0, 1 << 30);
  if (!movecap.ok()) return movecap.status();
  rules.movecap = *movecap;
  absl::StatusOr<int> first = Seat("first", n, defaults.first < n ? defaults.first : 0);
  if (!first.ok()) return first.status();
  rules.first = *first;
  return rules;
}

absl::StatusOr<DartRound> PositionFields::Dart(const Grid& grid, bool darts_on) const {
  DartRound dart;
  absl::StatusOr<int> rounds = Int("rounds", 0, 0, kMaxRoundsBetweenDarts);
  if (!rounds.ok()) return rounds.status();
  absl::StatusOr<int> dart_round = Int("dartround", 0, 0, 1);
  if (!dart_round.ok()) return dart_round.status();
  absl::StatusOr<int> reward = Int("reward", 0, 0, 3);
  if (!reward.ok()) return reward.status();
  dart.rounds_since_dart = static_cast<int8_t>(*rounds);
  dart.dart_round = *dart_round == 1;
  dart.reward_zone = static_cast<int8_t>(*reward);
  const std::string aim = Get("aim", "-");
  if (aim != "-") {
    absl::StatusOr<Axial> a = ParseCellText(aim);
    if (!a.ok()) return a.status();
    const int cell = grid.Index(*a);
    if (cell < 0) {
      return absl::InvalidArgumentError(absl::StrCat("cell ", aim, " is off the board"));
    }
    dart.aim = static_cast<int16_t>(cell);
  }
  if (dart.dart_round && dart.rounds_since_dart != 0) {
    return BadPositionText("dartround=1 needs rounds=0");
  }
  return darts_on ? dart : DartRound{};
}

std::string RulesText(const ChestoniaOptions& rules, std::string_view after_players) {
  return absl::StrCat("players=", rules.players, ToAbsl(after_players),
                      " board=", ToAbsl(BoardKindName(rules.board)),
                      " darts=", rules.darts ? "on" : "off",
                      " reverse=", rules.reverse ? "on" : "off", " movecap=", rules.movecap,
                      " first=", std::string(1, SeatLetter(rules.players, rules.first)));
}

// --- The result ------------------------------------------------------------------------------

std::string ResultText(bool over, bool draw, int winner, int players, std::string_view reason) {
  if (!over) return "-";
  if (draw) return absl::StrCat("draw:", ToAbsl(reason));
  return absl::StrCat("win:", std::string(1, SeatLetter(players, winner)), ":", ToAbsl(reason));
}

absl::StatusOr<GameResult> ParseResult(const std::string& result, int players, int last_reason,
                                       const std::function<std::string_view(int)>& reason_name) {
  std::vector<std::string> parts = absl::StrSplit(result, ':');
  GameResult out;
  for (int r = 1; r <= last_reason; ++r) {
    if (!parts.empty() && reason_name(r) == parts.back()) out.reason = r;
  }
  if (out.reason == 0) return BadPositionText(absl::StrCat("result=", result));
  if (parts.size() == 2 && parts[0] == "draw") {
    out.draw = true;
  } else if (parts.size() == 3 && parts[0] == "win" && parts[1].size() == 1 &&
             SeatFromLetter(players, parts[1][0]) >= 0) {
    out.winner = SeatFromLetter(players, parts[1][0]);
  } else {
    return BadPositionText(absl::StrCat("result=", result));
  }
  return out;
}

// --- The phase -------------------------------------------------------------------------------

absl::StatusOr<TurnPhase> ParseOwedPhase(const std::string& word) {
  const std::optional<TurnPhase> owed = TurnPhaseFromWord(word);
  if (!owed || *owed == TurnPhase::kOver) {
    return BadPositionText(absl::StrCat("unknown phase ", word));
  }
  return *owed;
}

std::string PhaseWord(const std::string& word, bool darts_on) {
  if (darts_on) return word;
  if (word == TurnPhaseWord(TurnPhase::kRoundChance)) return "start";
  if (word == TurnPhaseWord(TurnPhase::kAim)) return std::string(TurnPhaseWord(TurnPhase::kMove));
  return word;
}

absl::Status CheckOwedPhase(TurnPhase phase, const DartRound& dart, bool turn_active, bool darts_on,
                            bool placement_needs_reward) {
  if (phase != TurnPhase::kRoundChance && !turn_active) {
    return BadPositionText("the seat to act is out");
  }
  // The round chance comes only at a round boundary with enough rounds since the last darts
  // (DartRound::OnRoundBoundary), where no dart round is under way.
  if (phase == TurnPhase::kRoundChance &&
      (dart.rounds_since_dart < kMinRoundsBeforeDart || dart.dart_round)) {
    return BadPositionText(absl::StrCat("a round chance needs rounds=", kMinRoundsBeforeDart,
                                        " or more and dartround=0"));
  }
  if (phase == TurnPhase::kLanding && dart.aim < 0) return BadPositionText("phase=land needs aim");
  if (placement_needs_reward && phase == TurnPhase::kPlacement && dart.reward_zone == 0) {
    return BadPositionText("placement needs reward");
  }
  if (phase != TurnPhase::kMove && !darts_on) return BadPositionText("a dart phase needs darts=on");
  return absl::OkStatus();
}

}  // namespace arena::engine::hex
