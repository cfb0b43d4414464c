#include "engine/hex_checkers/hex_checkers_game.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/hex/chestonia_rules.h"
#include "engine/hex/chestonia_state.h"
#include "engine/hex_checkers/movegen.h"
#include "engine/hex_checkers/notation.h"

namespace arena::engine::hex_checkers {
namespace {

absl::Status NotLegal(std::string_view action, std::string_view why) {
  return absl::FailedPreconditionError(
      absl::StrCat("'", ToAbsl(action), "' is not legal here: ", ToAbsl(why)));
}

std::string DirectionText(int dir) {
  const hex::Axial d = hex::kDirections[dir];
  return absl::StrCat("(", d.q, ",", d.r, ")");
}

// The rim a face is, in words, for the brief.
std::string FaceText(int face, int radius) {
  static constexpr const char* kForms[] = {"r = -", "q = +", "s = -", "r = +", "q = -", "s = +"};
  return absl::StrCat(kForms[face], radius);
}

}  // namespace

absl::StatusOr<Rules> RulesFromVariant(const Variant& variant) {
  absl::Status keys = variant.CheckKeys(HexCheckersGame::Instance().VariantKeys());
  if (!keys.ok()) return keys;
  Rules rules;
  absl::StatusOr<int> players = variant.GetInt("players", 2);
  if (!players.ok()) return players.status();
  if (*players < kMinSeats || *players > kMaxSeats) {
    return absl::InvalidArgumentError(absl::StrCat("players must be 2 to 6, got ", *players));
  }
  absl::StatusOr<int> radius = variant.GetInt("radius", kDefaultRadius);
  if (!radius.ok()) return radius.status();
  if (*radius < kMinRadius || *radius > kMaxRadius) {
    return absl::InvalidArgumentError(absl::StrCat("radius must be 4 to 8, got ", *radius));
  }
  absl::StatusOr<int> movecap = hex::ParseMoveCap(variant);
  if (!movecap.ok()) return movecap.status();
  rules.players = *players;
  rules.radius = *radius;
  rules.movecap = *movecap;
  absl::StatusOr<int> first = hex::ParseFirstSeat(variant, rules.players, &SeatFromLetter);
  if (!first.ok()) return first.status();
  rules.first = *first;
  return rules;
}

// --- State ----------------------------------------------------------------------------------

std::unique_ptr<State> HexCheckersState::Clone() const {
  return std::make_unique<HexCheckersState>(pos_);
}

int HexCheckersState::ToMove() const {
  return pos_.Over() ? kTerminalSeat : pos_.turn;
}

std::string HexCheckersState::Phase() const {
  return pos_.Over() ? "finished" : "move";
}

std::vector<std::string> HexCheckersState::LegalActions() const {
  std::vector<std::string> actions;
  TurnList list;
  GenerateTurns(pos_, list);
  for (int i = 0; i < list.size(); ++i) actions.push_back(TurnText(pos_.grid(), list[i]));
  std::sort(actions.begin(), actions.end());
  return actions;
}

absl::Status HexCheckersState::Apply(std::string_view action) {
  if (pos_.Over()) return absl::FailedPreconditionError("the game is over");
  absl::StatusOr<std::vector<uint8_t>> path = ParseTurnText(pos_.grid(), action);
  if (!path.ok()) return path.status();
  const int len = static_cast<int>(path->size());
  if (!IsLegalTurn(pos_, path->data(), len)) {
    const Piece p = pos_.cells[(*path)[0]];
    if (!p || SeatOf(p) != pos_.turn) return NotLegal(action, "no piece of yours on its origin");
    return NotLegal(action, CanCapture(pos_) ? "no such turn (a capture is compulsory, and a "
                                               "chain goes on while the piece can jump)"
                                             : "no such turn");
  }
  Position next = pos_;
  next.last = TurnReport{};
  next.ApplyTurn(Turn{path->data(), len, CanCapture(pos_)}, &next.last);
  ++next.action_count;
  pos_ = next;
  return absl::OkStatus();
}

absl::Status HexCheckersState::ApplySeatEvent(int seat, SeatEvent event) {
  if (seat < 0 || seat >= pos_.rules.players) return absl::InvalidArgumentError("no such seat");
  if (pos_.Over()) return absl::FailedPreconditionError("the game is over");
  if (!pos_.Alive(seat)) return absl::FailedPreconditionError("that seat is already out");
  Position next = pos_;
  next.last = TurnReport{};
  switch (event) {
    case SeatEvent::kResign:
      next.ApplyResign(seat, &next.last);
      break;
    case SeatEvent::kTimeout:
      if (ToMove() != seat) {
        return absl::FailedPreconditionError("only the seat to move can time out");
      }
      next.ApplyTimeout(&next.last);
      break;
    case SeatEvent::kOfferDraw:
      next.ApplyDrawAgreement(seat);
      break;
    case SeatEvent::kAcceptDraw:
      if (pos_.draw_offers == 0) return absl::FailedPreconditionError("no draw is on offer");
      next.ApplyDrawAgreement(seat);
      break;
    case SeatEvent::kDeclineDraw:
      if (pos_.draw_offers == 0) return absl::FailedPreconditionError("no draw is on offer");
      next.draw_offers = 0;
      break;
    default:
      return absl::InvalidArgumentError("unknown seat event");
  }
  ++next.action_count;
  pos_ = next;
  return absl::OkStatus();
}

Outcome HexCheckersState::GetOutcome() const {
  Outcome o;
  if (!pos_.Over()) return o;
  const int n = pos_.rules.players;
  o.kind = pos_.winner >= 0 ? Outcome::Kind::kWin : Outcome::Kind::kDraw;
  o.reason = std::string(EndReasonName(pos_.reason));
  if (pos_.winner >= 0) o.winners.push_back(pos_.winner);
  // Seats still in share the best place; the others follow by when they went out, the last
  // out best, seats out at the same turn sharing a place.
  auto later = [&](int s) { return pos_.Alive(s) ? (1 << 30) : pos_.out_at[s]; };
  o.ranks.assign(n, 0);
  for (int s = 0; s < n; ++s) {
    for (int t = 0; t < n; ++t) o.ranks[s] += later(t) > later(s) ? 1 : 0;
  }
  return o;
}

std::string HexCheckersState::Serialize() const {
  return SerializePosition(pos_);
}

uint64_t HexCheckersState::Hash() const {
  return hex::TextHash(Serialize());
}

std::string HexCheckersState::Render(const RenderOptions& options) const {
  return DrawBoardText(Board(options.perspective), options.coordinates);
}

uint64_t HexCheckersState::Perft(int depth) const {
  return hex_checkers::Perft(pos_, depth);
}

// --- What the game tells the layers above ---------------------------------------------------

std::vector<SeatInfo> HexCheckersState::Seats() const {
  std::vector<SeatInfo> seats;
  for (int s = 0; s < pos_.rules.players; ++s) {
    const int face = pos_.layout().face[s];
    seats.push_back({std::string(FaceName(face)), std::string(FaceColour(face))});
  }
  return seats;
}

absl::StatusOr<ActionFacts> HexCheckersState::DescribeAction(std::string_view action) const {
  absl::StatusOr<std::vector<uint8_t>> path = ParseTurnText(pos_.grid(), action);
  if (!path.ok()) return path.status();
  ActionFacts facts;
  facts.kind = kActionMove;
  facts.ends_turn = true;
  for (uint8_t c : *path) facts.cells.push_back(CellName(pos_.grid(), c));
  // A man's step is progress (men never go back), and so is any jump.
  const Piece p = pos_.cells[(*path)[0]];
  const bool jump = hex::Distance(pos_.grid().At((*path)[0]), pos_.grid().At((*path)[1])) == 2;
  facts.irreversible = jump || KindOf(p) != kKing;
  return facts;
}

RulesBrief HexCheckersState::Brief() const {
  const Rules& r = pos_.rules;
  const Layout& l = pos_.layout();
  RulesBrief brief;
  std::vector<std::string> seat_lines;
  for (int s = 0; s < r.players; ++s) {
    std::vector<std::string> dirs;
    for (int d : l.man_dirs[s]) dirs.push_back(DirectionText(d));
    seat_lines.push_back(absl::StrCat(ToAbsl(FaceName(l.face[s])), " (edge ",
                                      FaceText(l.face[s], r.radius), ", men move ",
                                      absl::StrJoin(dirs, " "), ")"));
  }
  const int cells = pos_.NumCells();
  brief.text = absl::StrCat(
      "Hex checkers: checkers on a hexagonal board of ", cells, " cells (radius ", r.radius,
      ") for ", r.players, " players, each against all the others, moving in this order: ",
      absl::StrJoin(seat_lines, "; "),
      ". Cells are written in axial coordinates \"q,r\" with max(|q|, |r|, |q+r|) <= ", r.radius,
      "; the centre is 0,0. The six neighbours of a cell are at (1,0) (1,-1) (0,-1) (-1,0) (-1,1) "
      "(0,1). Each army starts as ",
      l.home[0].Count(),
      " men (M) on the two rows in front of its edge, except the seam cells shared with a "
      "neighbouring edge's rows. A man moves one cell in its four directions (two forward, two "
      "sideways, never back toward its own edge). A capture is a short jump in those same "
      "directions over an adjacent enemy piece onto the empty cell just beyond; the jumped "
      "piece leaves the board at once. Capturing is compulsory: if any jump exists you must "
      "jump (you choose which), and the jumping piece must go on jumping while it can, all in "
      "the same turn. A man that lands on the centre 0,0 (by a step or a jump) becomes a king "
      "(K) and its turn ends there, even in the middle of a chain. A king moves and jumps one "
      "cell in all six directions. The centre gives no protection. A player who loses its last "
      "piece is out; a player with pieces but no legal move is skipped. The last player with "
      "pieces wins; if no player still in can move, the game is drawn.",
      r.movecap > 0
          ? absl::StrCat(" The game is drawn when ", r.movecap, " turns have been played.")
          : "",
      " Your whole turn is ONE action listing every cell the piece stands on.");
  brief.formats.push_back(
      {kActionMove, "<from>:<to>[:<next landing>...] with cells as q,r, e.g. 0,-3:0,-1:2,-1",
       "Your whole turn: a one-cell step from:to, or a capture chain with every landing cell."});
  return brief;
}

BoardView HexCheckersState::Board(int perspective) const {
  const Rules& r = pos_.rules;
  BoardView view;
  view.game = "hex-checkers";
  view.shape = "hex";
  view.perspective = hex::PerspectiveOrZero(perspective, r.players);
  view.seats = Seats();
  // Turning by (3 - face) sixths puts the perspective seat's edge at the bottom (r = +R).
  const int to_view = ((3 - pos_.layout().face[view.perspective]) % 6 + 6) % 6;
  const hex::Grid& g = pos_.grid();
  std::array<CellSet, hex::kNumFaces> armies;
  for (int f = 0; f < hex::kNumFaces; ++f) armies[f] = HomeCells(f, r.radius);
  for (int cell = 0; cell < g.size(); ++cell) {
    const hex::Axial v = hex::Rotate(g.At(cell), to_view);
    int shade = cell == pos_.layout().centre ? 1 : 0;
    for (int f = 0; f < hex::kNumFaces; ++f) shade = armies[f].Test(cell) ? 2 + f : shade;
    view.cells.push_back({CellName(g, cell), std::sqrt(3.0) * (v.q + v.r / 2.0), 1.5 * v.r, shade});
    const Piece p = pos_.cells[cell];
    if (p) {
      view.pieces.push_back({CellName(g, cell), SeatOf(p), KindOf(p) == kKing ? "king" : "man",
                             std::string(1, PieceLetter(KindOf(p))), false});
    }
  }
  // The seats out, in the order they went out (none of their pieces stays on the board).
  std::vector<std::pair<int, int>> outs;
  for (int seat = 0; seat < r.players; ++seat) {
    if (pos_.out_at[seat] >= 0) outs.emplace_back(pos_.out_at[seat], seat);
  }
  std::sort(outs.begin(), outs.end());
  for (const auto& [at, seat] : outs) view.frozen_seats.push_back(seat);
  view.to_move = ToMove();
  view.phase = Phase();
  return view;
}

// --- Game -----------------------------------------------------------------------------------

const HexCheckersGame& HexCheckersGame::Instance() {
  static const HexCheckersGame game;
  return game;
}

std::vector<std::string> HexCheckersGame::VariantKeys() const {
  return {"players", "radius", "movecap", "first"};
}

std::vector<std::string> HexCheckersGame::ExampleVariants() const {
  // Every player count and radii 4 to 8. Random play often ends with kings shuffling for
  // ever (the rules have no draw), so each carries a cap that keeps the generic test cheap;
  // agreement_test.cc plays games to the end.
  return {"players=2,radius=4,movecap=300",        "players=2,radius=7,first=w,movecap=300",
          "players=3,radius=5,movecap=300",        "players=4,radius=6,movecap=300",
          "players=5,radius=7,movecap=300",        "players=6,radius=5,movecap=300",
          "players=6,radius=8,first=3,movecap=300"};
}

absl::StatusOr<std::unique_ptr<State>> HexCheckersGame::NewInitialState(
    const Variant& variant) const {
  absl::StatusOr<Rules> rules = RulesFromVariant(variant);
  if (!rules.ok()) return rules.status();
  return std::make_unique<HexCheckersState>(Position::Initial(*rules));
}

absl::StatusOr<std::unique_ptr<State>> HexCheckersGame::Parse(std::string_view text,
                                                              const Variant& variant) const {
  absl::StatusOr<Rules> rules = RulesFromVariant(variant);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<Position> pos = ParsePosition(text, *rules);
  if (!pos.ok()) return pos.status();
  return std::make_unique<HexCheckersState>(*pos);
}

}  // namespace arena::engine::hex_checkers

namespace arena::engine {
const Game& RegisteredGame_hex_checkers() {
  return hex_checkers::HexCheckersGame::Instance();
}
}  // namespace arena::engine
