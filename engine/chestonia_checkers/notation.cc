#include "engine/chestonia_checkers/notation.h"

#include <algorithm>
#include <map>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/core/game.h"

namespace arena::engine::chestonia_checkers {

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

char PieceLetter(int kind) {
  return kind == kKing ? 'K' : 'M';
}

int PieceKindFromLetter(char letter) {
  if (letter == 'M') return kMan;
  if (letter == 'K') return kKing;
  return kEmpty;
}

std::string TurnText(const Turn& t) {
  std::string out;
  for (int i = 0; i < t.len; ++i) absl::StrAppend(&out, i ? ":" : "", CellName(t.path[i]));
  return out;
}

absl::StatusOr<std::vector<uint8_t>> ParseTurnText(std::string_view text) {
  std::vector<uint8_t> cells;
  for (absl::string_view part : absl::StrSplit(ToAbsl(text), ':')) {
    absl::StatusOr<int> cell = ParseCell(ToStd(part));
    if (!cell.ok()) return cell.status();
    cells.push_back(static_cast<uint8_t>(*cell));
  }
  if (cells.size() < 2 || cells.size() > kNumCells) {
    return absl::InvalidArgumentError(
        absl::StrCat("turn '", ToAbsl(text), "' is not of the form q,r:q,r[:q,r...]"));
  }
  return cells;
}

namespace {

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

std::string SerializePosition(const Position& pos) {
  const int n = pos.rules.players;
  auto seat = [&](int s) { return std::string(1, SeatLetter(n, s)); };
  std::vector<std::string> pieces;
  for (int c = 0; c < kNumCells; ++c) {
    const Piece p = pos.cells[c];
    if (!p) continue;
    pieces.push_back(
        absl::StrCat(seat(SeatOf(p)), std::string(1, PieceLetter(KindOf(p))), CellName(c)));
  }
  std::string out_seats;
  for (int i = 0; i < pos.num_out; ++i) out_seats += SeatLetter(n, pos.out_order[i]);
  std::string result = "-";
  if (pos.phase == Phase::kOver) {
    result = pos.draw
                 ? absl::StrCat("draw:", ToAbsl(EndReasonName(pos.reason)))
                 : absl::StrCat("win:", seat(pos.winner), ":", ToAbsl(EndReasonName(pos.reason)));
  }
  return absl::StrCat(
      "chestonia-checkers players=", n, " setup=", ToAbsl(SetupName(pos.rules.setup)),
      " board=", ToAbsl(BoardKindName(pos.rules.board)), " darts=", pos.rules.darts ? "on" : "off",
      " reverse=", pos.rules.reverse ? "on" : "off", " movecap=", pos.rules.movecap,
      " first=", seat(pos.rules.first), " turn=", seat(pos.turn),
      " phase=", ToAbsl(hex::TurnPhaseWord(pos.phase)),
      " pieces=", pieces.empty() ? "-" : absl::StrJoin(pieces, ";"),
      " out=", out_seats.empty() ? "-" : out_seats, " moves=", pos.moves_played,
      " noprogress=", pos.no_progress, " rounds=", pos.dart.rounds_since_dart,
      " dartround=", pos.dart.dart_round ? 1 : 0,
      " aim=", pos.dart.aim >= 0 ? CellName(pos.dart.aim) : "-", " reward=", pos.dart.reward_zone,
      " actions=", pos.action_count, " result=", result);
}

absl::StatusOr<Position> ParsePosition(std::string_view text, const Rules& defaults) {
  std::vector<std::string> words = absl::StrSplit(ToAbsl(text), ' ', absl::SkipWhitespace());
  if (words.empty() || words[0] != "chestonia-checkers") {
    return Bad("must start with the word chestonia-checkers");
  }
  std::map<std::string, std::string> fields;
  for (size_t i = 1; i < words.size(); ++i) {
    std::vector<std::string> kv = absl::StrSplit(words[i], absl::MaxSplits('=', 1));
    if (kv.size() != 2 || kv[1].empty()) return Bad(absl::StrCat("field '", words[i], "'"));
    if (!fields.emplace(kv[0], kv[1]).second) return Bad(absl::StrCat("field ", kv[0], " twice"));
  }
  static const std::vector<std::string> kKeys = {
      "players",   "setup", "board",  "darts",   "reverse", "movecap",    "first",
      "turn",      "phase", "pieces", "out",     "moves",   "noprogress", "rounds",
      "dartround", "aim",   "reward", "actions", "result"};
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
  const std::string setup = get("setup", std::string(SetupName(defaults.setup)));
  if (setup != "normal" && setup != "long") return Bad(absl::StrCat("unknown setup ", setup));
  rules.setup = setup == "long" ? Setup::kLong : Setup::kNormal;
  const std::string board = get("board", std::string(BoardKindName(defaults.board)));
  bool board_ok = false;
  for (BoardKind b :
       {BoardKind::kPlain, BoardKind::kAlternating, BoardKind::kCircles, BoardKind::kTarget}) {
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

  const std::string piece_text = get("pieces", "-");
  if (piece_text != "-") {
    const std::vector<std::string> tokens = absl::StrSplit(piece_text, ';');
    for (const std::string& token : tokens) {
      if (token.size() < 5) return Bad(absl::StrCat("piece '", token, "'"));
      const int seat = SeatFromLetter(n, token[0]);
      const int kind = PieceKindFromLetter(token[1]);
      if (seat < 0 || kind == kEmpty) return Bad(absl::StrCat("piece '", token, "'"));
      absl::StatusOr<int> cell = ParseCell(std::string_view(token).substr(2));
      if (!cell.ok()) return Bad(absl::StrCat("piece '", token, "': ", cell.status().message()));
      if (pos.cells[*cell]) return Bad(absl::StrCat("two pieces on ", CellName(*cell)));
      pos.Put(*cell, MakePiece(seat, kind));
    }
  }
  pos.active = static_cast<uint8_t>((1u << n) - 1);
  const std::string out = get("out", "-");
  if (out != "-") {
    for (char c : out) {
      const int s = SeatFromLetter(n, c);
      if (s < 0 || !pos.Active(s)) return Bad(absl::StrCat("out=", out));
      pos.active &= static_cast<uint8_t>(~(1u << s));
      pos.out_order[pos.num_out++] = static_cast<int8_t>(s);
    }
  }
  struct IntField {
    const char* key;
    int lo, hi;
    int* dst;
  };
  int moves = 0, noprogress = 0, rounds = 0, dartround = 0, reward = 0, actions = 0;
  for (const IntField& f :
       {IntField{"moves", 0, 1 << 30, &moves},
        IntField{"noprogress", 0, kNoProgressLimit, &noprogress},
        IntField{"rounds", 0, kMaxRoundsBetweenDarts, &rounds},
        IntField{"dartround", 0, 1, &dartround}, IntField{"reward", 0, 3, &reward},
        IntField{"actions", 0, 1 << 30, &actions}}) {
    absl::StatusOr<int> v = Int(get(f.key, "0"), f.key, f.lo, f.hi);
    if (!v.ok()) return v.status();
    *f.dst = *v;
  }
  pos.moves_played = moves;
  pos.no_progress = static_cast<int16_t>(noprogress);
  pos.dart.rounds_since_dart = static_cast<int8_t>(rounds);
  pos.dart.dart_round = dartround == 1;
  pos.dart.reward_zone = static_cast<int8_t>(reward);
  pos.action_count = actions;
  const std::string aim = get("aim", "-");
  if (aim != "-") {
    absl::StatusOr<int> cell = ParseCell(aim);
    if (!cell.ok()) return cell.status();
    pos.dart.aim = static_cast<int16_t>(*cell);
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
  if (phase == "start") {
    pos.BeginTurnFromSetup();
    return pos;
  }
  const std::optional<Phase> owed = hex::TurnPhaseFromWord(phase);
  if (!owed || *owed == Phase::kOver) return Bad(absl::StrCat("unknown phase ", phase));
  pos.phase = *owed;
  if (pos.phase != Phase::kRoundChance && !pos.Active(pos.turn)) {
    return Bad("the seat to act is out");
  }
  if (pos.phase == Phase::kLanding && pos.dart.aim < 0) return Bad("phase=land needs aim");
  if (pos.phase == Phase::kPlacement && pos.dart.reward_zone == 0)
    return Bad("placement needs reward");
  if (pos.phase == Phase::kPenalty && pos.MenOf(pos.turn).Empty()) {
    return Bad("phase=penalty needs a man to lose");
  }
  if (pos.phase != Phase::kMove && !rules.darts) return Bad("a dart phase needs darts=on");
  if (pos.phase == Phase::kMove && !HasLegalTurn(pos)) {
    return Bad("phase=move but the seat to move has no legal turn (use phase=start)");
  }
  return pos;
}

std::string RenderBoard(const Position& pos, int perspective, bool coordinates) {
  const hex::Grid& g = BoardGrid();
  const int n = pos.rules.players;
  // View frame: the perspective seat's frame turned half a circle, so its edge is the bottom
  // row (r' = +7) with its right-hand end on the right.
  const int to_view = 3 - pos.layout().seats[perspective].sixths;
  std::string out;
  for (int vr = -kRadius; vr <= kRadius; ++vr) {
    out.append(static_cast<size_t>(std::abs(vr)) * 2, ' ');
    const int q_lo = std::max(-kRadius, -kRadius - vr), q_hi = std::min(kRadius, kRadius - vr);
    int first_cell = -1, last_cell = -1;
    for (int vq = q_lo; vq <= q_hi; ++vq) {
      const int cell = g.Index(hex::Rotate(hex::Axial{vq, vr}, -to_view));
      if (first_cell < 0) first_cell = cell;
      last_cell = cell;
      const Piece p = pos.cells[cell];
      if (!p) {
        out += "..";
      } else {
        out += SeatLetter(n, SeatOf(p));
        const char letter = PieceLetter(KindOf(p));
        out += pos.Active(SeatOf(p)) ? letter : static_cast<char>(letter - 'A' + 'a');
      }
      if (vq < q_hi) out += "  ";
    }
    if (coordinates) {
      absl::StrAppend(&out, "    ", CellName(first_cell), " .. ", CellName(last_cell));
    }
    out += '\n';
  }
  absl::StrAppend(&out, "to act: ", ToAbsl(SeatColour(n, pos.turn)), "\n");
  return out;
}

}  // namespace arena::engine::chestonia_checkers
