#include "engine/hex_checkers/notation.h"

#include <map>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/core/game.h"

namespace arena::engine::hex_checkers {

std::string CellName(const hex::Grid& grid, int cell) {
  return hex::CellText(grid.At(cell));
}

absl::StatusOr<int> ParseCell(const hex::Grid& grid, std::string_view text) {
  absl::StatusOr<hex::Axial> a = hex::ParseCellText(text);
  if (!a.ok()) return a.status();
  const int cell = grid.Index(*a);
  if (cell < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cell ", ToAbsl(text), " is off the board of radius ", grid.radius()));
  }
  return cell;
}

char PieceLetter(int kind) {
  return kind == kKing ? 'K' : 'M';
}

char SeatLetter(int players, int seat) {
  return FaceLetter(SeatFace(players, seat));
}

int SeatFromLetter(int players, char letter) {
  for (int s = 0; s < players; ++s) {
    if (SeatLetter(players, s) == letter) return s;
  }
  return -1;
}

std::string TurnText(const hex::Grid& grid, const Turn& t) {
  std::string out;
  for (int i = 0; i < t.len; ++i) absl::StrAppend(&out, i ? ":" : "", CellName(grid, t.path[i]));
  return out;
}

absl::StatusOr<std::vector<uint8_t>> ParseTurnText(const hex::Grid& grid, std::string_view text) {
  std::vector<uint8_t> path;
  for (absl::string_view part : absl::StrSplit(ToAbsl(text), ':')) {
    absl::StatusOr<int> cell = ParseCell(grid, ToStd(part));
    if (!cell.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", ToAbsl(text), "' is not a turn (q,r:q,r[:q,r...]): ", cell.status().message()));
    }
    path.push_back(static_cast<uint8_t>(*cell));
  }
  if (path.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", ToAbsl(text), "' is not a turn: it needs an origin and a landing"));
  }
  return path;
}

namespace {

std::string SeatMask(int players, uint8_t mask) {
  std::string out;
  for (int s = 0; s < players; ++s) {
    if ((mask >> s) & 1) out += SeatLetter(players, s);
  }
  return out.empty() ? "-" : out;
}

absl::StatusOr<uint8_t> ParseSeatMask(int players, std::string_view text) {
  uint8_t mask = 0;
  if (text == "-") return mask;
  for (char c : text) {
    const int s = SeatFromLetter(players, c);
    if (s < 0)
      return absl::InvalidArgumentError(absl::StrCat("'", std::string(1, c), "' is no seat"));
    mask |= static_cast<uint8_t>(1u << s);
  }
  return mask;
}

absl::Status Bad(std::string_view field, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("hex-checkers position, field ", ToAbsl(field), ": ", ToAbsl(why)));
}

}  // namespace

std::string SerializePosition(const Position& pos) {
  const Rules& r = pos.rules;
  const hex::Grid& g = pos.grid();
  std::vector<std::string> pieces;
  for (int c = 0; c < g.size(); ++c) {
    const Piece p = pos.cells[c];
    if (!p) continue;
    pieces.push_back(absl::StrCat(std::string(1, SeatLetter(r.players, SeatOf(p))),
                                  std::string(1, PieceLetter(KindOf(p))), CellName(g, c)));
  }
  // Seats out, in the order they went out (seat order within one turn).
  std::vector<std::pair<int, int>> outs;
  for (int s = 0; s < r.players; ++s) {
    if (pos.out_at[s] >= 0) outs.emplace_back(pos.out_at[s], s);
  }
  std::sort(outs.begin(), outs.end());
  std::vector<std::string> out_text;
  for (const auto& [at, s] : outs) {
    out_text.push_back(absl::StrCat(std::string(1, SeatLetter(r.players, s)), "@", at));
  }
  std::vector<std::string> captured;
  pos.last.captured.ForEach([&](int c) { captured.push_back(CellName(g, c)); });
  std::string result = "-";
  if (pos.Over()) {
    result = pos.winner >= 0
                 ? absl::StrCat("win:", std::string(1, SeatLetter(r.players, pos.winner)))
                 : "draw";
  }
  return absl::StrCat("hex-checkers players=", r.players, " radius=", r.radius,
                      " movecap=", r.movecap,
                      " first=", std::string(1, SeatLetter(r.players, r.first)),
                      " turn=", std::string(1, SeatLetter(r.players, pos.turn)),
                      " pieces=", pieces.empty() ? "-" : absl::StrJoin(pieces, ";"),
                      " out=", out_text.empty() ? "-" : absl::StrJoin(out_text, ";"),
                      " moves=", pos.moves_played, " actions=", pos.action_count,
                      " result=", result, " reason=", ToAbsl(EndReasonName(pos.reason)),
                      " captured=", captured.empty() ? "-" : absl::StrJoin(captured, ";"),
                      " promoted=", pos.last.promoted ? 1 : 0,
                      " eliminated=", SeatMask(r.players, pos.last.eliminated),
                      " skipped=", SeatMask(r.players, pos.last.skipped),
                      " offers=", SeatMask(r.players, pos.draw_offers));
}

absl::StatusOr<Position> ParsePosition(std::string_view text, const Rules& defaults) {
  std::vector<absl::string_view> words = absl::StrSplit(ToAbsl(text), ' ', absl::SkipEmpty());
  if (words.empty() || words[0] != "hex-checkers") {
    return absl::InvalidArgumentError("a hex-checkers position starts with the word hex-checkers");
  }
  std::map<std::string, std::string, std::less<>> fields;
  for (size_t i = 1; i < words.size(); ++i) {
    const size_t eq = words[i].find('=');
    if (eq == absl::string_view::npos) return Bad(ToStd(words[i]), "expected key=value");
    if (!fields.emplace(std::string(words[i].substr(0, eq)), std::string(words[i].substr(eq + 1)))
             .second) {
      return Bad(ToStd(words[i].substr(0, eq)), "given twice");
    }
  }
  static const std::vector<std::string> kKnown = {
      "players", "radius", "movecap", "first",    "turn",     "pieces",     "out",     "moves",
      "actions", "result", "reason",  "captured", "promoted", "eliminated", "skipped", "offers"};
  for (const auto& [key, value] : fields) {
    if (std::find(kKnown.begin(), kKnown.end(), key) == kKnown.end()) return Bad(key, "unknown");
  }
  auto get = [&](std::string_view key) -> const std::string* {
    auto it = fields.find(key);
    return it == fields.end() ? nullptr : &it->second;
  };
  auto get_int = [&](std::string_view key, int fallback, int lo, int hi) -> absl::StatusOr<int> {
    const std::string* v = get(key);
    if (!v) return fallback;
    int n = 0;
    if (!absl::SimpleAtoi(*v, &n) || n < lo || n > hi) {
      return Bad(key, absl::StrCat("expected a number from ", lo, " to ", hi, ", got ", *v));
    }
    return n;
  };

  Rules rules = defaults;
  absl::StatusOr<int> players = get_int("players", defaults.players, kMinSeats, kMaxSeats);
  if (!players.ok()) return players.status();
  absl::StatusOr<int> radius = get_int("radius", defaults.radius, kMinRadius, kMaxRadius);
  if (!radius.ok()) return radius.status();
  absl::StatusOr<int> movecap = get_int("movecap", defaults.movecap, 0, 1 << 30);
  if (!movecap.ok()) return movecap.status();
  rules.players = *players;
  rules.radius = *radius;
  rules.movecap = *movecap;
  auto seat_field = [&](std::string_view key, int fallback) -> absl::StatusOr<int> {
    const std::string* v = get(key);
    if (!v) return fallback < rules.players ? fallback : 0;
    const int s = v->size() == 1 ? SeatFromLetter(rules.players, (*v)[0]) : -1;
    if (s < 0) return Bad(key, absl::StrCat(*v, " is no seat of this game"));
    return s;
  };
  absl::StatusOr<int> first = seat_field("first", defaults.first);
  if (!first.ok()) return first.status();
  rules.first = *first;

  Position pos(rules);
  const hex::Grid& g = pos.grid();
  absl::StatusOr<int> turn = seat_field("turn", rules.first);
  if (!turn.ok()) return turn.status();
  pos.turn = static_cast<int8_t>(*turn);
  if (const std::string* v = get("pieces"); v && *v != "-") {
    for (absl::string_view item : absl::StrSplit(*v, ';')) {
      if (item.size() < 5) return Bad("pieces", absl::StrCat("'", item, "' is not <seat><M|K>q,r"));
      const int seat = SeatFromLetter(rules.players, item[0]);
      const int kind = item[1] == 'M' ? kMan : item[1] == 'K' ? kKing : kEmpty;
      if (seat < 0) return Bad("pieces", absl::StrCat("'", item, "': no such seat"));
      if (kind == kEmpty) return Bad("pieces", absl::StrCat("'", item, "': the kind is M or K"));
      absl::StatusOr<int> cell = ParseCell(g, ToStd(item.substr(2)));
      if (!cell.ok()) return Bad("pieces", ToStd(cell.status().message()));
      if (pos.cells[*cell]) return Bad("pieces", absl::StrCat("two pieces on ", item.substr(2)));
      if (kind == kMan && *cell == pos.layout().centre) {
        return Bad("pieces", "a man on the centre would have been promoted");
      }
      pos.Put(*cell, MakePiece(seat, kind));
    }
  }
  absl::StatusOr<int> moves = get_int("moves", 0, 0, 1 << 30);
  if (!moves.ok()) return moves.status();
  absl::StatusOr<int> actions = get_int("actions", 0, 0, 1 << 30);
  if (!actions.ok()) return actions.status();
  pos.moves_played = *moves;
  pos.action_count = *actions;
  if (const std::string* v = get("out"); v && *v != "-") {
    for (absl::string_view item : absl::StrSplit(*v, ';')) {
      const int seat = item.size() >= 3 ? SeatFromLetter(rules.players, item[0]) : -1;
      int at = 0;
      if (seat < 0 || item[1] != '@' || !absl::SimpleAtoi(item.substr(2), &at) || at < 0 ||
          at > pos.moves_played) {
        return Bad("out", absl::StrCat("'", item, "' is not <seat>@<turns played then>"));
      }
      if (!pos.pieces[seat].Empty())
        return Bad("out", absl::StrCat("'", item, "' still has pieces"));
      pos.out_at[seat] = at;
    }
  }
  // What the last action did.
  if (const std::string* v = get("captured"); v && *v != "-") {
    for (absl::string_view item : absl::StrSplit(*v, ';')) {
      absl::StatusOr<int> cell = ParseCell(g, ToStd(item));
      if (!cell.ok()) return Bad("captured", ToStd(cell.status().message()));
      pos.last.captured.Set(*cell);
    }
  }
  if (const std::string* v = get("promoted"); v && *v != "0" && *v != "1") {
    return Bad("promoted", "expected 0 or 1");
  } else if (v) {
    pos.last.promoted = *v == "1";
  }
  for (auto [key, field] :
       {std::pair{"eliminated", &pos.last.eliminated}, std::pair{"skipped", &pos.last.skipped},
        std::pair{"offers", &pos.draw_offers}}) {
    if (const std::string* v = get(key)) {
      absl::StatusOr<uint8_t> mask = ParseSeatMask(rules.players, *v);
      if (!mask.ok()) return Bad(key, ToStd(mask.status().message()));
      *field = *mask;
    }
  }

  const std::string* result = get("result");
  if (!result || *result == "-") {
    pos.Settle();
    return pos;
  }
  // A finished game: the result as written.
  for (int s = 0; s < rules.players; ++s) {
    if (!pos.pieces[s].Empty()) pos.alive |= static_cast<uint8_t>(1u << s);
    if (pos.pieces[s].Empty() && pos.out_at[s] < 0) pos.out_at[s] = pos.moves_played;
  }
  if (*result == "draw") {
    pos.winner = -1;
  } else if (result->size() == 5 && result->substr(0, 4) == "win:" &&
             SeatFromLetter(rules.players, (*result)[4]) >= 0) {
    pos.winner = static_cast<int8_t>(SeatFromLetter(rules.players, (*result)[4]));
    if (!pos.Alive(pos.winner)) return Bad("result", "the winner has no pieces");
  } else {
    return Bad("result", absl::StrCat("expected -, draw or win:<seat>, got ", *result));
  }
  const std::string reason = get("reason") ? *get("reason") : "";
  for (EndReason e : {EndReason::kLastPlayer, EndReason::kResignation, EndReason::kAllFrozen,
                      EndReason::kMoveCap, EndReason::kAgreedDraw}) {
    if (EndReasonName(e) == reason) pos.reason = e;
  }
  if (pos.reason == EndReason::kNone) return Bad("reason", "a finished game needs its reason");
  return pos;
}

}  // namespace arena::engine::hex_checkers
