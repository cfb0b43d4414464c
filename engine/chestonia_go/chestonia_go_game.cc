#include "engine/chestonia_go/chestonia_go_game.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/chestonia_go/notation.h"
#include "engine/hex/dart.h"

namespace arena::engine::chestonia_go {
namespace {

absl::Status NotLegal(std::string_view action, std::string_view why) {
  return absl::FailedPreconditionError(
      absl::StrCat("'", ToAbsl(action), "' is not legal here: ", ToAbsl(why)));
}

// Why a stone of `seat` on `cell` is refused, or "" when it is legal.
std::string_view RefusalOfPlay(const Position& pos, const BoardHistory& history, int cell,
                               int seat) {
  if (pos.stone[cell] != 0) return "the cell is occupied";
  uint64_t after = 0;
  if (!pos.IsLegalIgnoringSuperko(cell, seat, &after)) {
    return "the stone would capture nothing and have no liberty (self-capture)";
  }
  if (history.Contains(after)) return "it would repeat an earlier board position (superko)";
  return "";
}

void AddLegalCells(const Position& pos, const BoardHistory& history, std::string_view prefix,
                   std::vector<std::string>* actions) {
  for (int c = 0; c < kNumCells; ++c) {
    if (pos.stone[c] == 0 && pos.IsLegalPlay(c, pos.turn, history)) {
      actions->push_back(absl::StrCat(ToAbsl(prefix), CellName(c)));
    }
  }
}

std::string Points(int half_points) {
  return half_points % 2 ? absl::StrCat(half_points / 2, ".5") : absl::StrCat(half_points / 2);
}

}  // namespace

absl::StatusOr<Rules> RulesFromVariant(const Variant& variant) {
  absl::Status keys = variant.CheckKeys(ChestoniaGoGame::Instance().VariantKeys());
  if (!keys.ok()) return keys;
  Rules rules;
  absl::StatusOr<int> players = variant.GetInt("players", 2);
  if (!players.ok()) return players.status();
  if (*players != 2 && *players != 3) return absl::InvalidArgumentError("players must be 2 or 3");
  rules.players = *players;
  const std::string board = variant.Get("board", "alternating");
  bool board_ok = false;
  for (BoardKind b :
       {BoardKind::kAlternating, BoardKind::kPlain, BoardKind::kCircles, BoardKind::kTarget}) {
    if (BoardKindName(b) == board) {
      rules.board = b;
      board_ok = true;
    }
  }
  if (!board_ok) {
    return absl::InvalidArgumentError(
        absl::StrCat("board must be alternating, plain, circles or target, got ", board));
  }
  const bool dart_board = rules.board == BoardKind::kCircles || rules.board == BoardKind::kTarget;
  absl::StatusOr<bool> darts = variant.GetBool("darts", dart_board);
  if (!darts.ok()) return darts.status();
  absl::StatusOr<bool> reverse = variant.GetBool("reverse", false);
  if (!reverse.ok()) return reverse.status();
  absl::StatusOr<int> movecap = variant.GetInt("movecap", 0);
  if (!movecap.ok()) return movecap.status();
  if (*movecap < 0) return absl::InvalidArgumentError("movecap must be 0 (none) or positive");
  rules.darts = *darts;
  rules.reverse = *reverse;
  rules.movecap = *movecap;
  const std::string first = variant.Get("first", "0");
  int seat = -1;
  if (first.size() == 1 && first[0] >= '0' && first[0] < '0' + rules.players) {
    seat = first[0] - '0';
  } else if (first.size() == 1) {
    seat = SeatFromLetter(rules.players, first[0]);
  }
  if (seat < 0) return absl::InvalidArgumentError(absl::StrCat("first=", first, " is no seat"));
  rules.first = seat;
  return rules;
}

// --- State ----------------------------------------------------------------------------------

std::unique_ptr<State> ChestoniaGoState::Clone() const {
  return std::make_unique<ChestoniaGoState>(pos_, history_);
}

int ChestoniaGoState::ToMove() const {
  switch (pos_.phase) {
    case Phase::kOver:
      return kTerminalSeat;
    case Phase::kRoundChance:
    case Phase::kLanding:
      return kChanceSeat;
    default:
      return pos_.turn;
  }
}

std::string ChestoniaGoState::Phase() const {
  switch (pos_.phase) {
    case Phase::kRoundChance:
    case Phase::kLanding:
      return "chance";
    case Phase::kAim:
      return "dart-aim";
    case Phase::kPlacement:
      return "placement";
    case Phase::kPenalty:
      return "penalty";
    case Phase::kMove:
      return "move";
    case Phase::kOver:
      return "finished";
  }
  return "finished";
}

std::vector<std::string> ChestoniaGoState::LegalActions() const {
  std::vector<std::string> actions;
  switch (pos_.phase) {
    case Phase::kMove:
      actions.push_back("pass");
      AddLegalCells(pos_, history_, "", &actions);
      break;
    case Phase::kAim:
      for (int c = 0; c < kNumCells; ++c) actions.push_back("aim " + CellName(c));
      break;
    case Phase::kPlacement:
      actions.push_back("skip");
      AddLegalCells(pos_, history_, "place ", &actions);
      break;
    case Phase::kPenalty:
      for (int c = 0; c < kNumCells; ++c) {
        if (pos_.stone[c] == pos_.turn + 1) actions.push_back("penalty " + CellName(c));
      }
      break;
    default:
      break;
  }
  std::sort(actions.begin(), actions.end());
  return actions;
}

std::vector<ChanceOutcome> ChestoniaGoState::ChanceOutcomes() const {
  std::vector<ChanceOutcome> out;
  if (pos_.phase == Phase::kRoundChance) {
    // Given k full rounds since the last dart round, it comes now with probability 1/(11-k).
    const double p = 1.0 / (kMaxRoundsBetweenDarts + 1 - pos_.rounds_since_dart);
    out.push_back({"dart-round", p});
    if (p < 1.0) out.push_back({"no-dart-round", 1.0 - p});
  } else if (pos_.phase == Phase::kLanding) {
    const std::vector<double>& dist = hex::DartScatter::ForRadius(kRadius).Distribution(pos_.aim);
    for (int c = 0; c < kNumCells; ++c) out.push_back({"land " + CellName(c), dist[c]});
    out.push_back({"land miss", dist[kNumCells]});
  }
  return out;
}

absl::Status ChestoniaGoState::Apply(std::string_view action) {
  Position next = pos_;
  auto cell_after = [&](std::string_view word) -> absl::StatusOr<int> {
    if (!absl::StartsWith(ToAbsl(action), ToAbsl(word))) {
      return absl::InvalidArgumentError(absl::StrCat("expected ", ToAbsl(word), "q,r in phase ",
                                                     Phase(), ", got '", ToAbsl(action), "'"));
    }
    return ParseCell(action.substr(word.size()));
  };
  switch (pos_.phase) {
    case Phase::kOver:
      return absl::FailedPreconditionError("the game is over");
    case Phase::kRoundChance:
      if (action == "dart-round") {
        if (pos_.rounds_since_dart < 3) return NotLegal(action, "too early for a dart round");
        next.ApplyRoundChance(true);
      } else if (action == "no-dart-round") {
        if (pos_.rounds_since_dart >= kMaxRoundsBetweenDarts) {
          return NotLegal(action, "the dart round is due");
        }
        next.ApplyRoundChance(false);
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("expected dart-round or no-dart-round, got '", ToAbsl(action), "'"));
      }
      break;
    case Phase::kLanding:
      if (action == "land miss") {
        next.ApplyLanding(-1);
      } else {
        absl::StatusOr<int> cell = cell_after("land ");
        if (!cell.ok()) return cell.status();
        next.ApplyLanding(*cell);
      }
      break;
    case Phase::kAim: {
      absl::StatusOr<int> cell = cell_after("aim ");
      if (!cell.ok()) return cell.status();
      next.ApplyAim(*cell);
      break;
    }
    case Phase::kPlacement: {
      if (action == "skip") {
        next.ApplySkipPlacement();
        break;
      }
      absl::StatusOr<int> cell = cell_after("place ");
      if (!cell.ok()) return cell.status();
      const std::string_view why = RefusalOfPlay(pos_, history_, *cell, pos_.turn);
      if (!why.empty()) return NotLegal(action, why);
      next.ApplyPlacement(*cell);
      break;
    }
    case Phase::kPenalty: {
      absl::StatusOr<int> cell = cell_after("penalty ");
      if (!cell.ok()) return cell.status();
      if (pos_.stone[*cell] != pos_.turn + 1) return NotLegal(action, "not one of your stones");
      next.ApplyPenalty(*cell);
      break;
    }
    case Phase::kMove: {
      if (action == "pass") {
        next.ApplyPass();
        break;
      }
      absl::StatusOr<int> cell = ParseCell(action);
      if (!cell.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("expected a cell q,r or pass, got '", ToAbsl(action), "'"));
      }
      const std::string_view why = RefusalOfPlay(pos_, history_, *cell, pos_.turn);
      if (!why.empty()) return NotLegal(action, why);
      next.ApplyPlay(*cell);
      break;
    }
  }
  ++next.action_count;
  if (next.hash != pos_.hash) history_.Add(next.hash);
  pos_ = next;
  return absl::OkStatus();
}

absl::Status ChestoniaGoState::ApplySeatEvent(int seat, SeatEvent event) {
  if (seat < 0 || seat >= pos_.rules.players) return absl::InvalidArgumentError("no such seat");
  if (pos_.phase == Phase::kOver) return absl::FailedPreconditionError("the game is over");
  const uint64_t before = pos_.hash;
  switch (event) {
    case SeatEvent::kResign:
      if (!pos_.Active(seat)) return absl::FailedPreconditionError("that seat is already out");
      pos_.ApplyResign(seat);
      return absl::OkStatus();
    case SeatEvent::kTimeout:
      if (ToMove() != seat) {
        return absl::FailedPreconditionError("only the seat that owes an action can time out");
      }
      pos_.ApplyTimeout();
      if (pos_.hash != before) history_.Add(pos_.hash);
      return absl::OkStatus();
    case SeatEvent::kOfferDraw:
    case SeatEvent::kAcceptDraw:
    case SeatEvent::kDeclineDraw:
      return absl::FailedPreconditionError("Chestonia has no draws by agreement");
  }
  return absl::InvalidArgumentError("unknown seat event");
}

Outcome ChestoniaGoState::GetOutcome() const {
  Outcome o;
  if (pos_.phase != Phase::kOver) return o;
  const int n = pos_.rules.players;
  o.kind = pos_.draw ? Outcome::Kind::kDraw : Outcome::Kind::kWin;
  o.reason = std::string(EndReasonName(pos_.reason));
  const std::array<int, kMaxSeats> ranks = pos_.Ranks();
  o.ranks.assign(ranks.begin(), ranks.begin() + n);
  if (!pos_.draw) o.winners.push_back(pos_.winner);
  return o;
}

std::string ChestoniaGoState::Serialize() const {
  return SerializePosition(pos_, history_);
}

uint64_t ChestoniaGoState::Hash() const {
  // FNV-1a over the serialization: equal states hash equally, across processes too.
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : Serialize()) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::string ChestoniaGoState::Render(const RenderOptions& options) const {
  std::string text = DrawBoardText(Board(options.perspective), options.coordinates);
  const std::array<int, kMaxSeats> area = pos_.Areas();
  std::vector<std::string> parts;
  for (int s = 0; s < pos_.rules.players; ++s) {
    if (!pos_.Active(s)) continue;
    parts.push_back(absl::StrCat(ToAbsl(SeatColour(pos_.rules.players, s)), " ",
                                 Points(pos_.ScoreHalfPoints(s, area[s]))));
  }
  absl::StrAppend(&text, "score now (area + komi): ", absl::StrJoin(parts, ", "), "\n");
  return text;
}

// --- What the game tells the layers above ---------------------------------------------------

std::vector<SeatInfo> ChestoniaGoState::Seats() const {
  std::vector<SeatInfo> seats;
  for (int s = 0; s < pos_.rules.players; ++s) {
    const std::string_view name = SeatColour(pos_.rules.players, s);
    const char* colour = name == "blue" ? "#2f6fd0" : name == "black" ? "#26221e" : "#f4f1e8";
    seats.push_back({std::string(name), colour});
  }
  return seats;
}

absl::StatusOr<ActionFacts> ChestoniaGoState::DescribeAction(std::string_view action) const {
  ActionFacts facts;
  auto cell_after = [&](std::string_view word) -> absl::StatusOr<std::string> {
    absl::StatusOr<int> cell = ParseCell(action.substr(word.size()));
    if (!cell.ok()) return cell.status();
    return CellName(*cell);
  };
  if (action == "dart-round" || action == "no-dart-round") {
    facts.kind = kActionChance;
  } else if (action == "pass") {
    facts.kind = kActionPass;
    facts.ends_turn = true;
  } else if (action == "skip") {
    facts.kind = kActionPlacement;
  } else if (action == "land miss") {
    facts.kind = kActionDartLanding;
  } else {
    struct Word {
      std::string_view prefix;
      const char* kind;
      bool irreversible;
    };
    static constexpr Word kWords[] = {{"land ", kActionDartLanding, true},
                                      {"aim ", kActionDartAim, false},
                                      {"place ", kActionPlacement, true},
                                      {"penalty ", kActionPenalty, true}};
    for (const Word& w : kWords) {
      if (!absl::StartsWith(ToAbsl(action), ToAbsl(w.prefix))) continue;
      absl::StatusOr<std::string> cell = cell_after(w.prefix);
      if (!cell.ok()) return cell.status();
      facts.kind = w.kind;
      facts.cells = {*cell};
      facts.irreversible = w.irreversible;
      return facts;
    }
    absl::StatusOr<int> cell = ParseCell(action);
    if (!cell.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", ToAbsl(action), "' is not a Chestonia Go action"));
    }
    facts.kind = kActionMove;
    facts.ends_turn = true;
    facts.cells = {CellName(*cell)};
    facts.irreversible = true;  // a stone never moves again
  }
  return facts;
}

RulesBrief ChestoniaGoState::Brief() const {
  const Rules& r = pos_.rules;
  RulesBrief brief;
  std::string seats;
  for (const SeatInfo& s : Seats()) absl::StrAppend(&seats, seats.empty() ? "" : ", ", s.name);
  brief.text = absl::StrCat(
      "Chestonia Go: Go on a hexagonal board of 169 cells for ", r.players, " players (", seats,
      ", playing in that order around the board; ", ToAbsl(SeatColour(r.players, r.first)),
      " leads). Cells are written in axial coordinates \"q,r\" with max(|q|, |r|, |q+r|) <= 7; "
      "the centre is 0,0 and the six neighbours of q,r are q+1,r  q+1,r-1  q,r-1  q-1,r  "
      "q-1,r+1  q,r+1. On your turn place one stone of your colour on an empty cell, or pass. "
      "A chain is a group of your stones connected through neighbours; its liberties are the "
      "empty cells next to it. After your stone goes down, enemy chains left without a "
      "liberty are captured and removed; then, if your own chain has no liberty, the play is "
      "refused (no self-capture, but filling your last liberty is legal when it captures). "
      "You may not play a stone that recreates any board position seen before in the game "
      "(positional superko). When every player still in has passed in succession the board is "
      "counted by area: your stones plus the empty regions bordered only by your stones; "
      "every seat but the leader adds 3.5 points of komi.",
      r.players == 3 ? " With three players the first count is a cut: the lowest score is out "
                       "(two level at the bottom are both out and the top wins; all three level "
                       "is a draw), the stones of whoever is out freeze and count for nobody "
                       "(they wall regions like the rim), and the two left play on from the "
                       "same position until they both pass; the second count decides."
                     : " The count ends the game.",
      r.reverse
          ? " This is REVERSE Go: the count is read upside down and the SMALLEST score wins, so "
            "you aim to lose the count."
          : " The highest score wins.",
      " A resigned player's stones freeze in the same way.",
      r.movecap > 0 ? absl::StrCat(" It is drawn when ", r.movecap, " moves have been played.")
                    : "",
      r.darts ? " Darts are on: every 3 to 10 rounds a dart round comes, and at the start of "
                "its turn each seat aims a dart at a cell. Where it lands (it scatters) a stone "
                "on that cell is knocked off (not a frozen one); landing within 4 rings of the "
                "centre (zones 1 to 3) earns a free stone, placed on any cell you could legally "
                "play, without using your turn; a miss costs you one of your stones, your "
                "choice."
              : "");
  brief.formats.push_back({kActionMove, "<q,r>, e.g. 0,0, or pass",
                           "Place a stone of yours on an empty cell, or pass."});
  brief.formats.push_back({kActionPass, "pass", "Pass your turn; passing is always legal."});
  if (r.darts) {
    brief.formats.push_back({kActionDartAim, "aim <q,r>, e.g. aim 0,0",
                             "In a dart round, name the cell your dart aims at."});
    brief.formats.push_back({kActionPlacement, "place <q,r>, e.g. place 2,-3, or skip",
                             "Play the free stone your dart won on any legal cell, or skip."});
    brief.formats.push_back({kActionPenalty, "penalty <q,r>, e.g. penalty 1,-6",
                             "After a miss, name the stone of yours that is removed."});
  }
  return brief;
}

BoardView ChestoniaGoState::Board(int perspective) const {
  const Rules& r = pos_.rules;
  BoardView view;
  view.game = "chestonia-go";
  view.shape = "hex";
  view.perspective = perspective >= 0 && perspective < r.players ? perspective : 0;
  view.seats = Seats();
  // The perspective seat's frame turned half a circle puts its edge at the bottom (r = +7).
  const int sixths = r.players == 2 ? 3 * view.perspective : 2 * view.perspective;
  const int to_view = 3 - sixths;
  std::array<int8_t, kNumCells> owner;
  pos_.Areas(&owner);
  const hex::Grid& g = BoardGrid();
  for (int cell = 0; cell < kNumCells; ++cell) {
    const hex::Axial a = g.At(cell);
    const hex::Axial v = hex::Rotate(a, to_view);
    const int ring = hex::RingOf(a);
    int shade = 0;
    switch (r.board) {
      case BoardKind::kAlternating:
        shade = ((a.q - a.r) % 3 + 3) % 3;
        break;
      case BoardKind::kPlain:
        break;
      case BoardKind::kCircles:
        shade = hex::DartZone(ring);
        break;
      case BoardKind::kTarget:
        shade = ring;
        break;
    }
    BoardCell bc{CellName(cell), std::sqrt(3.0) * (v.q + v.r / 2.0), 1.5 * v.r, shade};
    if (pos_.stone[cell] == 0) bc.territory = owner[cell];
    view.cells.push_back(bc);
    if (pos_.stone[cell]) {
      view.pieces.push_back({CellName(cell), pos_.Owner(cell), "stone", "O", pos_.Frozen(cell)});
    }
  }
  for (int event = 1; event <= pos_.out_events; ++event) {
    for (int s = 0; s < r.players; ++s) {
      if (pos_.out[s] == event) view.frozen_seats.push_back(s);
    }
  }
  view.to_move = ToMove();
  view.phase = Phase();
  if (pos_.phase == Phase::kLanding && pos_.aim >= 0) view.dart_aim = CellName(pos_.aim);
  return view;
}

// --- Game -----------------------------------------------------------------------------------

const ChestoniaGoGame& ChestoniaGoGame::Instance() {
  static const ChestoniaGoGame game;
  return game;
}

std::vector<std::string> ChestoniaGoGame::VariantKeys() const {
  return {"players", "board", "darts", "reverse", "movecap", "first"};
}

std::vector<std::string> ChestoniaGoGame::ExampleVariants() const {
  return {"players=2",
          "players=3,board=plain",
          "players=2,board=target,darts=on",
          "players=3,board=circles,reverse=on,first=k",
          "players=2,reverse=on,movecap=300",
          "players=3,darts=on,movecap=400"};
}

absl::StatusOr<std::unique_ptr<State>> ChestoniaGoGame::NewInitialState(
    const Variant& variant) const {
  absl::StatusOr<Rules> rules = RulesFromVariant(variant);
  if (!rules.ok()) return rules.status();
  BoardHistory history;
  const Position pos = Position::Initial(*rules);
  history.Add(pos.hash);
  return std::make_unique<ChestoniaGoState>(pos, std::move(history));
}

absl::StatusOr<std::unique_ptr<State>> ChestoniaGoGame::Parse(std::string_view text,
                                                              const Variant& variant) const {
  absl::StatusOr<Rules> rules = RulesFromVariant(variant);
  if (!rules.ok()) return rules.status();
  BoardHistory history;
  absl::StatusOr<Position> pos = ParsePosition(text, *rules, &history);
  if (!pos.ok()) return pos.status();
  return std::make_unique<ChestoniaGoState>(*pos, std::move(history));
}

}  // namespace arena::engine::chestonia_go

namespace arena::engine {
const Game& RegisteredGame_chestonia_go() {
  return chestonia_go::ChestoniaGoGame::Instance();
}
}  // namespace arena::engine
