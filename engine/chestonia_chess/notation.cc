#include "engine/chestonia_chess/notation.h"

#include <map>
#include <optional>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/chestonia_chess/movegen.h"
#include "engine/core/game.h"
#include "engine/hex/chestonia_state.h"
#include "engine/hex/position_text.h"

namespace arena::engine::chestonia_chess {

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

char PieceLetter(int type) {
  return " PNBRQK"[type & 7];
}

int PieceTypeFromLetter(char letter) {
  for (int t = kPawn; t <= kKing; ++t) {
    if (PieceLetter(t) == letter) return t;
  }
  return kEmpty;
}

std::string MoveText(Move m) {
  return absl::StrCat(CellName(m.from), ":", CellName(m.to));
}

absl::StatusOr<Move> ParseMoveText(std::string_view text) {
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("move '", ToAbsl(text), "' is not of the form q,r:q,r"));
  }
  absl::StatusOr<int> from = ParseCell(text.substr(0, colon));
  if (!from.ok()) return from.status();
  absl::StatusOr<int> to = ParseCell(text.substr(colon + 1));
  if (!to.ok()) return to.status();
  return Move{static_cast<uint8_t>(*from), static_cast<uint8_t>(*to)};
}

namespace {

using hex::BadPositionText;

}  // namespace

std::string SerializePosition(const Position& pos) {
  const int n = pos.rules.players;
  auto seat = [&](int s) { return std::string(1, SeatLetter(n, s)); };
  std::vector<std::string> pieces;
  for (int c = 0; c < kNumCells; ++c) {
    const Piece p = pos.cells[c];
    if (!p) continue;
    pieces.push_back(absl::StrCat(seat(SeatOf(p)), std::string(1, PieceLetter(TypeOf(p))),
                                  HasMoved(p) ? "*" : "", CellName(c)));
  }
  std::string out_seats;
  for (int i = 0; i < pos.num_out; ++i) out_seats += SeatLetter(n, pos.out_order[i]);
  std::vector<int> checks(pos.check_turns.begin(), pos.check_turns.begin() + n);
  const std::string result = hex::ResultText(pos.phase == Phase::kOver, pos.draw, pos.winner, n,
                                             EndReasonName(pos.reason));
  return absl::StrCat(
      "chestonia-chess ", hex::RulesText(hex::OptionsOf(pos.rules)), " turn=", seat(pos.turn),
      " phase=", ToAbsl(hex::TurnPhaseWord(pos.phase)),
      " pieces=", pieces.empty() ? "-" : absl::StrJoin(pieces, ";"),
      " out=", out_seats.empty() ? "-" : out_seats, " moves=", pos.moves_played,
      " noprogress=", pos.no_progress, " rounds=", pos.dart.rounds_since_dart,
      " dartround=", pos.dart.dart_round ? 1 : 0, " checks=", absl::StrJoin(checks, "/"),
      " skips=", pos.skips, " aim=", pos.dart.aim >= 0 ? CellName(pos.dart.aim) : "-",
      " reward=", pos.dart.reward_zone, " actions=", pos.action_count, " result=", result);
}

absl::StatusOr<Position> ParsePosition(std::string_view text, const Rules& defaults) {
  static const std::vector<std::string> kKeys = {
      "players", "board",  "darts", "reverse", "movecap",    "first",  "turn",
      "phase",   "pieces", "out",   "moves",   "noprogress", "rounds", "dartround",
      "checks",  "skips",  "aim",   "reward",  "actions",    "result"};
  absl::StatusOr<hex::PositionFields> fields =
      hex::PositionFields::Parse(text, "chestonia-chess", kKeys);
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

  const std::string piece_text = fields->Get("pieces", "-");
  if (piece_text != "-") {
    const std::vector<std::string> tokens = absl::StrSplit(piece_text, ';');
    for (const std::string& token : tokens) {
      if (token.size() < 5) return BadPositionText(absl::StrCat("piece '", token, "'"));
      const int seat = SeatFromLetter(n, token[0]);
      const int type = PieceTypeFromLetter(token[1]);
      const bool moved = token[2] == '*';
      if (seat < 0 || type == kEmpty || (moved && type != kPawn)) {
        return BadPositionText(absl::StrCat("piece '", token, "'"));
      }
      absl::StatusOr<int> cell = ParseCell(std::string_view(token).substr(moved ? 3 : 2));
      if (!cell.ok())
        return BadPositionText(absl::StrCat("piece '", token, "': ", cell.status().message()));
      if (pos.cells[*cell]) return BadPositionText(absl::StrCat("two pieces on ", CellName(*cell)));
      if (type == kKing && pos.king[seat] >= 0) return BadPositionText("two kings of one seat");
      pos.Put(*cell, MakePiece(seat, type, moved));
    }
  }
  pos.active = static_cast<uint8_t>((1u << n) - 1);
  const std::string out = fields->Get("out", "-");
  if (out != "-") {
    for (char c : out) {
      const int s = SeatFromLetter(n, c);
      if (s < 0 || !pos.Active(s)) return BadPositionText(absl::StrCat("out=", out));
      pos.active &= static_cast<uint8_t>(~(1u << s));
      pos.out_order[pos.num_out++] = static_cast<int8_t>(s);
    }
  }
  if (!rules.reverse) {
    for (int s = 0; s < n; ++s) {
      if (pos.Active(s) && pos.king[s] < 0) {
        return BadPositionText(
            absl::StrCat("seat ", std::string(1, SeatLetter(n, s)), " has no king"));
      }
    }
  }
  struct IntField {
    const char* key;
    int lo, hi;
    int* dst;
  };
  int moves = 0, noprogress = 0, skips = 0, actions = 0;
  for (const IntField& f :
       {IntField{"moves", 0, 1 << 30, &moves},
        IntField{"noprogress", 0, kNoProgressLimit, &noprogress}, IntField{"skips", 0, n, &skips},
        IntField{"actions", 0, 1 << 30, &actions}}) {
    absl::StatusOr<int> v = fields->Int(f.key, 0, f.lo, f.hi);
    if (!v.ok()) return v.status();
    *f.dst = *v;
  }
  pos.moves_played = moves;
  pos.no_progress = static_cast<int16_t>(noprogress);
  pos.skips = static_cast<int8_t>(skips);
  pos.action_count = actions;
  absl::StatusOr<hex::DartRound> dart = fields->Dart(BoardGrid(), rules.darts);
  if (!dart.ok()) return dart.status();
  pos.dart = *dart;
  const std::string checks = fields->Get("checks", "-");
  if (checks != "-") {
    std::vector<std::string> parts = absl::StrSplit(checks, '/');
    if (static_cast<int>(parts.size()) != n)
      return BadPositionText("checks needs one count per seat");
    for (int s = 0; s < n; ++s) {
      absl::StatusOr<int> v = hex::PositionInt(parts[s], "checks", 0, 100);
      if (!v.ok()) return v.status();
      pos.check_turns[s] = static_cast<int8_t>(*v);
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
  if (phase == "start") {
    pos.BeginTurnFromSetup();
    return pos;
  }
  absl::StatusOr<Phase> owed = hex::ParseOwedPhase(phase);
  if (!owed.ok()) return owed.status();
  pos.phase = *owed;
  absl::Status owed_ok =
      hex::CheckOwedPhase(pos.phase, pos.dart, pos.Active(pos.turn), rules.darts);
  if (!owed_ok.ok()) return owed_ok;
  if (pos.phase == Phase::kMove && !HasLegalMove(pos)) {
    return BadPositionText("phase=move but the seat to move has no legal move (use phase=start)");
  }
  return pos;
}

std::string RenderBoard(const Position& pos, int perspective, bool coordinates) {
  const int n = pos.rules.players;
  return hex::RenderChestoniaBoard(n, perspective, pos.turn, coordinates, [&](int cell) {
    const Piece p = pos.cells[cell];
    if (!p) return std::string("..");
    const char letter = PieceLetter(TypeOf(p));
    return std::string{SeatLetter(n, SeatOf(p)),
                       pos.Active(SeatOf(p)) ? letter : static_cast<char>(letter - 'A' + 'a')};
  });
}

}  // namespace arena::engine::chestonia_chess
