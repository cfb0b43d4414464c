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

std::string_view PhaseWord(Phase phase) {
  switch (phase) {
    case Phase::kRoundChance:
      return "round";
    case Phase::kAim:
      return "aim";
    case Phase::kLanding:
      return "land";
    case Phase::kPlacement:
      return "placement";
    case Phase::kPenalty:
      return "penalty";
    case Phase::kMove:
      return "move";
    case Phase::kOver:
      return "over";
  }
  return "?";
}

absl::Status Bad(std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("position text: ", ToAbsl(what)));
}

absl::StatusOr<int> Int(const std::string& value, std::string_view key, int lo, int hi) {
  int v = 0;
  if (!absl::SimpleAtoi(value, &v) || v < lo || v > hi) {
    return Bad(absl::StrCat(ToAbsl(key), "=", value, " is not an integer in ", lo, "..", hi));
  }
  return v;
}

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
  std::string result = "-";
  if (pos.phase == Phase::kOver) {
    result = pos.draw
                 ? absl::StrCat("draw:", ToAbsl(EndReasonName(pos.reason)))
                 : absl::StrCat("win:", seat(pos.winner), ":", ToAbsl(EndReasonName(pos.reason)));
  }
  std::vector<std::string> hashes;
  hashes.reserve(history.hashes().size());
  for (uint64_t h : history.hashes()) hashes.push_back(absl::StrFormat("%x", h));
  return absl::StrCat(
      "chestonia-go players=", n, " board=", ToAbsl(BoardKindName(pos.rules.board)),
      " darts=", pos.rules.darts ? "on" : "off", " reverse=", pos.rules.reverse ? "on" : "off",
      " movecap=", pos.rules.movecap, " first=", seat(pos.rules.first), " turn=", seat(pos.turn),
      " phase=", ToAbsl(PhaseWord(pos.phase)), " stones=", stones, " out=", absl::StrJoin(out, "/"),
      " passes=", pos.passes, " counts=", pos.counts, " moves=", pos.moves_played,
      " rounds=", pos.rounds_since_dart, " dartround=", pos.dart_round ? 1 : 0,
      " aim=", pos.aim >= 0 ? CellName(pos.aim) : "-",
      " last=", pos.last_play >= 0 ? CellName(pos.last_play) : "-",
      " scores=", absl::StrJoin(scores, "/"), " actions=", pos.action_count, " result=", result,
      " history=", absl::StrJoin(hashes, ","));
}

absl::StatusOr<Position> ParsePosition(std::string_view text, const Rules& defaults,
                                       BoardHistory* history) {
  std::vector<std::string> words = absl::StrSplit(ToAbsl(text), ' ', absl::SkipWhitespace());
  if (words.empty() || words[0] != "chestonia-go") {
    return Bad("must start with the word chestonia-go");
  }
  std::map<std::string, std::string> fields;
  for (size_t i = 1; i < words.size(); ++i) {
    std::vector<std::string> kv = absl::StrSplit(words[i], absl::MaxSplits('=', 1));
    if (kv.size() != 2 || kv[1].empty()) return Bad(absl::StrCat("field '", words[i], "'"));
    if (!fields.emplace(kv[0], kv[1]).second) return Bad(absl::StrCat("field ", kv[0], " twice"));
  }
  static const std::vector<std::string> kKeys = {
      "players",   "board",  "darts", "reverse", "movecap", "first",  "turn",
      "phase",     "stones", "out",   "passes",  "counts",  "moves",  "rounds",
      "dartround", "aim",    "last",  "scores",  "actions", "result", "history"};
  for (const auto& [key, value] : fields) {
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
      return Bad(absl::StrCat("unknown field ", key));
    }
  }
  auto get = [&](const std::string& key, const std::string& fallback) {
    auto it = fields.find(key);
    return it == fields.end() ? fallback : it->second;
  };
  auto on_off = [&](const std::string& key, bool fallback) -> absl::StatusOr<bool> {
    const std::string v = get(key, fallback ? "on" : "off");
    if (v != "on" && v != "off") return Bad(absl::StrCat(key, " must be on or off"));
    return v == "on";
  };

  Rules rules = defaults;
  absl::StatusOr<int> players =
      Int(get("players", absl::StrCat(defaults.players)), "players", 2, 3);
  if (!players.ok()) return players.status();
  rules.players = *players;
  const int n = rules.players;
  const std::string board = get("board", std::string(BoardKindName(defaults.board)));
  bool board_ok = false;
  for (BoardKind b :
       {BoardKind::kAlternating, BoardKind::kPlain, BoardKind::kCircles, BoardKind::kTarget}) {
    if (BoardKindName(b) == board) {
      rules.board = b;
      board_ok = true;
    }
  }
  if (!board_ok) return Bad(absl::StrCat("unknown board ", board));
  absl::StatusOr<bool> darts = on_off("darts", defaults.darts);
  if (!darts.ok()) return darts.status();
  absl::StatusOr<bool> reverse = on_off("reverse", defaults.reverse);
  if (!reverse.ok()) return reverse.status();
  rules.darts = *darts;
  rules.reverse = *reverse;
  absl::StatusOr<int> movecap =
      Int(get("movecap", absl::StrCat(defaults.movecap)), "movecap", 0, 1 << 30);
  if (!movecap.ok()) return movecap.status();
  rules.movecap = *movecap;
  auto seat_field = [&](const std::string& key, int fallback) -> absl::StatusOr<int> {
    const std::string v = get(key, std::string(1, SeatLetter(n, fallback)));
    const int s = v.size() == 1 ? SeatFromLetter(n, v[0]) : -1;
    if (s < 0) return Bad(absl::StrCat(key, "=", v, " is not a seat of this game"));
    return s;
  };
  absl::StatusOr<int> first = seat_field("first", defaults.first < n ? defaults.first : 0);
  if (!first.ok()) return first.status();
  rules.first = *first;

  Position pos(rules);
  absl::StatusOr<int> turn = seat_field("turn", rules.first);
  if (!turn.ok()) return turn.status();
  pos.turn = static_cast<int8_t>(*turn);

  const std::string stones = get("stones", std::string(kNumCells, '.'));
  if (stones.size() != static_cast<size_t>(kNumCells)) {
    return Bad(absl::StrCat("stones needs ", kNumCells, " characters, got ", stones.size()));
  }
  for (int c = 0; c < kNumCells; ++c) {
    if (stones[c] == '.') continue;
    const int s = SeatFromLetter(n, stones[c]);
    if (s < 0) return Bad(absl::StrCat("stones: '", std::string(1, stones[c]), "' is no seat"));
    pos.stone[c] = static_cast<uint8_t>(s + 1);
  }
  pos.RebuildChains();

  pos.active = static_cast<uint8_t>((1u << n) - 1);
  const std::string out = get("out", "-");
  if (out != "-") {
    std::vector<std::string> parts = absl::StrSplit(out, '/');
    if (static_cast<int>(parts.size()) != n) return Bad("out needs one number per seat");
    for (int s = 0; s < n; ++s) {
      absl::StatusOr<int> v = Int(parts[s], "out", 0, n);
      if (!v.ok()) return v.status();
      pos.out[s] = static_cast<int8_t>(*v);
      pos.out_events = std::max<int8_t>(pos.out_events, pos.out[s]);
      if (*v > 0) pos.active &= static_cast<uint8_t>(~(1u << s));
    }
  }
  const std::string scores = get("scores", "-");
  if (scores != "-") {
    std::vector<std::string> parts = absl::StrSplit(scores, '/');
    if (static_cast<int>(parts.size()) != n) return Bad("scores needs one entry per seat");
    for (int s = 0; s < n; ++s) {
      if (parts[s] == "-") continue;
      absl::StatusOr<int> v = Int(parts[s], "scores", 0, 2 * kNumCells + kKomiHalfPoints);
      if (!v.ok()) return v.status();
      pos.count_score[s] = static_cast<int16_t>(*v);
    }
  }
  for (int c = 0; c < kNumCells; ++c) {
    if (pos.stone[c] && pos.chain_head[c] == c && !pos.Frozen(c) && pos.chain_libs[c] == 0) {
      return Bad(absl::StrCat("the chain at ", CellName(c), " has no liberty"));
    }
  }
  struct IntField {
    const char* key;
    int lo, hi;
    int* dst;
  };
  int passes = 0, counts = 0, moves = 0, rounds = 0, dartround = 0, actions = 0;
  for (const IntField& f :
       {IntField{"passes", 0, n, &passes}, IntField{"counts", 0, 2, &counts},
        IntField{"moves", 0, 1 << 30, &moves},
        IntField{"rounds", 0, kMaxRoundsBetweenDarts, &rounds},
        IntField{"dartround", 0, 1, &dartround}, IntField{"actions", 0, 1 << 30, &actions}}) {
    absl::StatusOr<int> v = Int(get(f.key, "0"), f.key, f.lo, f.hi);
    if (!v.ok()) return v.status();
    *f.dst = *v;
  }
  pos.passes = static_cast<int8_t>(passes);
  pos.counts = static_cast<int8_t>(counts);
  pos.moves_played = moves;
  pos.rounds_since_dart = static_cast<int8_t>(rounds);
  pos.dart_round = dartround == 1;
  pos.action_count = actions;
  for (auto [key, dst] : {std::pair<const char*, int16_t*>{"aim", &pos.aim},
                          std::pair<const char*, int16_t*>{"last", &pos.last_play}}) {
    const std::string v = get(key, "-");
    if (v == "-") continue;
    absl::StatusOr<int> cell = ParseCell(v);
    if (!cell.ok()) return cell.status();
    *dst = static_cast<int16_t>(*cell);
  }

  history->Clear();
  const std::string hist = get("history", "-");
  if (hist == "-") {
    history->Add(pos.hash);
  } else {
    for (absl::string_view h : absl::StrSplit(hist, ',')) {
      uint64_t v = 0;
      if (!absl::SimpleHexAtoi(h, &v)) return Bad(absl::StrCat("history entry '", h, "'"));
      history->Add(v);
    }
    if (history->hashes().back() != pos.hash) {
      return Bad("the history's last entry is not the board's hash");
    }
  }

  const std::string phase = get("phase", "start");
  const std::string result = get("result", "-");
  if (phase == "over") {
    std::vector<std::string> parts = absl::StrSplit(result, ':');
    EndReason why = EndReason::kNone;
    for (int r = 1; r <= static_cast<int>(EndReason::kMoveCap); ++r) {
      if (!parts.empty() && EndReasonName(static_cast<EndReason>(r)) == parts.back()) {
        why = static_cast<EndReason>(r);
      }
    }
    if (why == EndReason::kNone) return Bad(absl::StrCat("result=", result));
    pos.phase = Phase::kOver;
    pos.reason = why;
    if (parts.size() == 2 && parts[0] == "draw") {
      pos.draw = true;
    } else if (parts.size() == 3 && parts[0] == "win" && parts[1].size() == 1 &&
               SeatFromLetter(n, parts[1][0]) >= 0) {
      pos.winner = static_cast<int8_t>(SeatFromLetter(n, parts[1][0]));
    } else {
      return Bad(absl::StrCat("result=", result));
    }
    return pos;
  }
  if (result != "-") return Bad("a result needs phase=over");
  if (pos.NumActive() < 2) return Bad("an unfinished game needs two seats still in");
  if (pos.passes >= pos.NumActive()) return Bad("as many passes as seats in: the count is due");
  if (phase == "start") {
    pos.BeginTurnFromSetup();
    return pos;
  }
  bool found = false;
  for (Phase p : {Phase::kRoundChance, Phase::kAim, Phase::kLanding, Phase::kPlacement,
                  Phase::kPenalty, Phase::kMove}) {
    if (PhaseWord(p) == phase) {
      pos.phase = p;
      found = true;
    }
  }
  if (!found) return Bad(absl::StrCat("unknown phase ", phase));
  if (pos.phase != Phase::kRoundChance && !pos.Active(pos.turn)) {
    return Bad("the seat to act is out");
  }
  if (pos.phase == Phase::kLanding && pos.aim < 0) return Bad("phase=land needs aim");
  if (pos.phase != Phase::kLanding && pos.aim >= 0) return Bad("aim is only set in phase=land");
  if (pos.phase != Phase::kMove && !rules.darts) return Bad("a dart phase needs darts=on");
  return pos;
}

}  // namespace arena::engine::chestonia_go
