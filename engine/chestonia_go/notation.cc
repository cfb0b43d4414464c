#include "engine/chestonia_go/notation.h"

#include <algorithm>
#include <map>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/core/game.h"
#include "engine/hex/position_text.h"

namespace arena::engine::chestonia_go {

std::string CellName(int cell) {
  return hex::CellText(BoardGrid().At(cell));
}

absl::StatusOr<int> ParseCell(std::string_view text) {
  absl::StatusOr<hex::Axial> a = hex::ParseCellText(text);
  if (!a.ok()) return a.status();
  const int cell = BoardGrid().Index(*a);
  if (cell < 0) {
    return absl::InvalidArgumentError(absl::StrCat("cell ", ToAbsl(text), " is off the board"));
  }
  return cell;
}

namespace {

using hex::BadPositionText;

}  // namespace

std::string SerializePosition(const Position& pos, const BoardHistory& history) {
  const int n = pos.rules.players;
  auto seat = [&](int s) { return std::string(1, SeatLetter(n, s)); };
  std::string stones(kNumCells, '.');
  for (int c = 0; c < kNumCells; ++c) {
    if (pos.stone[c]) stones[c] = SeatLetter(n, pos.stone[c] - 1);
  }
  std::vector<std::string> out, scores;
  for (int s = 0; s < n; ++s) {
    out.push_back(absl::StrCat(pos.out[s]));
    scores.push_back(pos.count_score[s] < 0 ? "-" : absl::StrCat(pos.count_score[s]));
  }
  const std::string result = hex::ResultText(pos.phase == Phase::kOver, pos.draw, pos.winner, n,
                                             EndReasonName(pos.reason));
  std::vector<std::string> hashes;
  hashes.reserve(history.hashes().size());
  for (uint64_t h : history.hashes()) hashes.push_back(absl::StrFormat("%x", h));
  return absl::StrCat("chestonia-go ", hex::RulesText(hex::OptionsOf(pos.rules)),
                      " turn=", seat(pos.turn), " phase=", ToAbsl(hex::TurnPhaseWord(pos.phase)),
                      " stones=", stones, " out=", absl::StrJoin(out, "/"), " passes=", pos.passes,
                      " counts=", pos.counts, " moves=", pos.moves_played,
                      " rounds=", pos.rounds_since_dart, " dartround=", pos.dart_round ? 1 : 0,
                      " aim=", pos.aim >= 0 ? CellName(pos.aim) : "-",
                      " last=", pos.last_play >= 0 ? CellName(pos.last_play) : "-",
                      " scores=", absl::StrJoin(scores, "/"), " actions=", pos.action_count,
                      " result=", result, " history=", absl::StrJoin(hashes, ","));
}

absl::StatusOr<Position> ParsePosition(std::string_view text, const Rules& defaults,
                                       BoardHistory* history) {
  static const std::vector<std::string> kKeys = {
      "players",   "board",  "darts", "reverse", "movecap", "first",  "turn",
      "phase",     "stones", "out",   "passes",  "counts",  "moves",  "rounds",
      "dartround", "aim",    "last",  "scores",  "actions", "result", "history"};
  absl::StatusOr<hex::PositionFields> fields =
      hex::PositionFields::Parse(text, "chestonia-go", kKeys);
  if (!fields.ok()) return fields.status();
  absl::StatusOr<hex::ChestoniaOptions> options = fields->Rules(hex::OptionsOf(defaults));
  if (!options.ok()) return options.status();
  Rules rules = defaults;
  hex::SetOptions(*options, rules);
  const int n = rules.players;

  Position pos(rules);
  absl::StatusOr<int> turn = fields->Seat("turn", n, rules.first);
  if (!turn.ok()) return turn.status();
  pos.turn = static_cast<int8_t>(*turn);

  const std::string stones = fields->Get("stones", std::string(kNumCells, '.'));
  if (stones.size() != static_cast<size_t>(kNumCells)) {
    return BadPositionText(
        absl::StrCat("stones needs ", kNumCells, " characters, got ", stones.size()));
  }
  for (int c = 0; c < kNumCells; ++c) {
    if (stones[c] == '.') continue;
    const int s = SeatFromLetter(n, stones[c]);
    if (s < 0)
      return BadPositionText(absl::StrCat("stones: '", std::string(1, stones[c]), "' is no seat"));
    pos.stone[c] = static_cast<uint8_t>(s + 1);
  }
  pos.RebuildChains();

  pos.active = static_cast<uint8_t>((1u << n) - 1);
  const std::string out = fields->Get("out", "-");
  if (out != "-") {
    std::vector<std::string> parts = absl::StrSplit(out, '/');
    if (static_cast<int>(parts.size()) != n)
      return BadPositionText("out needs one number per seat");
    for (int s = 0; s < n; ++s) {
      absl::StatusOr<int> v = hex::PositionInt(parts[s], "out", 0, n);
      if (!v.ok()) return v.status();
      pos.out[s] = static_cast<int8_t>(*v);
      pos.out_events = std::max<int8_t>(pos.out_events, pos.out[s]);
      if (*v > 0) pos.active &= static_cast<uint8_t>(~(1u << s));
    }
  }
  const std::string scores = fields->Get("scores", "-");
  if (scores != "-") {
    std::vector<std::string> parts = absl::StrSplit(scores, '/');
    if (static_cast<int>(parts.size()) != n)
      return BadPositionText("scores needs one entry per seat");
    for (int s = 0; s < n; ++s) {
      if (parts[s] == "-") continue;
      absl::StatusOr<int> v =
          hex::PositionInt(parts[s], "scores", 0, 2 * kNumCells + kKomiHalfPoints);
      if (!v.ok()) return v.status();
      pos.count_score[s] = static_cast<int16_t>(*v);
    }
  }
  for (int c = 0; c < kNumCells; ++c) {
    if (pos.stone[c] && pos.chain_head[c] == c && !pos.Frozen(c) && pos.chain_libs[c] == 0) {
      return BadPositionText(absl::StrCat("the chain at ", CellName(c), " has no liberty"));
    }
  }
  struct IntField {
    const char* key;
    int lo, hi;
    int* dst;
  };
  int passes = 0, counts = 0, moves = 0, actions = 0;
  for (const IntField& f :
       {IntField{"passes", 0, n, &passes}, IntField{"counts", 0, 2, &counts},
        IntField{"moves", 0, 1 << 30, &moves}, IntField{"actions", 0, 1 << 30, &actions}}) {
    absl::StatusOr<int> v = fields->Int(f.key, 0, f.lo, f.hi);
    if (!v.ok()) return v.status();
    *f.dst = *v;
  }
  pos.passes = static_cast<int8_t>(passes);
  pos.counts = static_cast<int8_t>(counts);
  pos.moves_played = moves;
  pos.action_count = actions;
  absl::StatusOr<hex::DartRound> dart = fields->Dart(BoardGrid(), rules.darts);
  if (!dart.ok()) return dart.status();
  pos.rounds_since_dart = dart->rounds_since_dart;
  pos.dart_round = dart->dart_round;
  pos.aim = dart->aim;
  const std::string last = fields->Get("last", "-");
  if (last != "-") {
    absl::StatusOr<int> cell = ParseCell(last);
    if (!cell.ok()) return cell.status();
    pos.last_play = static_cast<int16_t>(*cell);
  }

  history->Clear();
  const std::string hist = fields->Get("history", "-");
  if (hist == "-") {
    history->Add(pos.hash);
  } else {
    for (absl::string_view h : absl::StrSplit(hist, ',')) {
      uint64_t v = 0;
      if (!absl::SimpleHexAtoi(h, &v))
        return BadPositionText(absl::StrCat("history entry '", h, "'"));
      history->Add(v);
    }
    if (history->hashes().back() != pos.hash) {
      return BadPositionText("the history's last entry is not the board's hash");
    }
  }

  const std::string phase = hex::PhaseWord(fields->Get("phase", "start"), rules.darts);
  const std::string result = fields->Get("result", "-");
  if (phase == "over") {
    absl::StatusOr<hex::GameResult> over =
        hex::ParseResult(result, n, static_cast<int>(EndReason::kMoveCap),
                         [](int r) { return EndReasonName(static_cast<EndReason>(r)); });
    if (!over.ok()) return over.status();
    pos.phase = Phase::kOver;
    pos.reason = static_cast<EndReason>(over->reason);
    pos.draw = over->draw;
    pos.winner = static_cast<int8_t>(over->winner);
    return pos;
  }
  if (result != "-") return BadPositionText("a result needs phase=over");
  if (pos.NumActive() < 2) return BadPositionText("an unfinished game needs two seats still in");
  if (pos.passes >= pos.NumActive()) {
    return BadPositionText("as many passes as seats in: the count is due");
  }
  if (phase == "start") {
    pos.BeginTurnFromSetup();
    return pos;
  }
  absl::StatusOr<Phase> owed = hex::ParseOwedPhase(phase);
  if (!owed.ok()) return owed.status();
  pos.phase = *owed;
  // The free stone owes no zone: any legal cell takes it.
  absl::Status owed_ok = hex::CheckOwedPhase(pos.phase, pos.dart(), pos.Active(pos.turn),
                                             rules.darts, /*placement_needs_reward=*/false);
  if (!owed_ok.ok()) return owed_ok;
  if (pos.phase != Phase::kLanding && pos.aim >= 0) {
    return BadPositionText("aim is only set in phase=land");
  }
  return pos;
}

}  // namespace arena::engine::chestonia_go
