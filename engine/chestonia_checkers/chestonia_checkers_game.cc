#include "engine/chestonia_checkers/chestonia_checkers_game.h"

#include <algorithm>
#include <span>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/chestonia_checkers/movegen.h"
#include "engine/chestonia_checkers/notation.h"
#include "engine/hex/chestonia_state.h"
#include "engine/hex/dart_round.h"

namespace arena::engine::chestonia_checkers {
namespace {

// Reward kinds by zone: 1 a crowned man; 2 and 3 a man.
int RewardKind(int zone) {
  if (zone == 1) return kKing;
  if (zone == 2 || zone == 3) return kMan;
  return kEmpty;
}

// The placement texts' letters: K for the bullseye's crowned man, M otherwise.
constexpr hex::RewardLetters kRewardLetters{"MK", "<K|M>", "unknown piece letter (K or M)",
                                            "<K|M>"};

}  // namespace

absl::StatusOr<Rules> RulesFromVariant(const Variant& variant) {
  absl::StatusOr<hex::ChestoniaOptions> options = hex::ParseChestoniaOptions(
      variant, ChestoniaCheckersGame::Instance().VariantKeys(), BoardKind::kPlain);
  if (!options.ok()) return options.status();
  const std::string setup = variant.Get("setup", "normal");
  if (setup != "normal" && setup != "long") {
    return absl::InvalidArgumentError(absl::StrCat("setup must be normal or long, got ", setup));
  }
  Rules rules;
  hex::SetOptions(*options, rules);
  rules.setup = setup == "long" ? Setup::kLong : Setup::kNormal;
  return rules;
}

// --- State ----------------------------------------------------------------------------------

std::unique_ptr<State> ChestoniaCheckersState::Clone() const {
  return std::make_unique<ChestoniaCheckersState>(pos_);
}

int ChestoniaCheckersState::ToMove() const {
  return hex::SeatToAct(pos_.phase, pos_.turn);
}

std::string ChestoniaCheckersState::Phase() const {
  return std::string(hex::TurnPhaseName(pos_.phase));
}

std::vector<std::string> ChestoniaCheckersState::LegalActions() const {
  std::vector<std::string> actions;
  switch (pos_.phase) {
    case Phase::kMove: {
      TurnList list;
      GenerateTurns(pos_, list);
      for (int i = 0; i < list.size(); ++i) actions.push_back(TurnText(list[i]));
      break;
    }
    case Phase::kAim:
      actions = hex::AimActions(BoardGrid());
      break;
    case Phase::kPlacement: {
      actions.push_back(std::string(hex::kSkipAction));
      const char letter = PieceLetter(RewardKind(pos_.dart.reward_zone));
      pos_.HomeCells(pos_.turn).ForEach([&](int c) {
        if (!pos_.cells[c]) actions.push_back(hex::PlacementAction(BoardGrid(), letter, c));
      });
      break;
    }
    case Phase::kPenalty:
      pos_.MenOf(pos_.turn).ForEach(
          [&](int c) { actions.push_back(hex::PenaltyAction(BoardGrid(), c)); });
      break;
    default:
      break;
  }
  std::sort(actions.begin(), actions.end());
  return actions;
}

std::vector<std::string> ChestoniaCheckersState::BoundedLegalActions(int limit) const {
  if (pos_.phase != Phase::kMove || limit <= 0) return State::BoundedLegalActions(limit);
  TurnList list;
  GenerateTurns(pos_, list, limit);
  std::vector<std::string> actions;
  for (int i = 0; i < list.size() && i < limit; ++i) actions.push_back(TurnText(list[i]));
  std::sort(actions.begin(), actions.end());
  return actions;
}

std::vector<std::string> ChestoniaCheckersState::BoundedPieceActions(std::string_view cell,
                                                                     int limit) const {
  if (pos_.phase != Phase::kMove || limit <= 0) return State::BoundedPieceActions(cell, limit);
  absl::StatusOr<int> from = ParseCell(cell);
  if (!from.ok()) return {};
  TurnList list;
  GenerateTurns(pos_, list, limit);
  std::vector<std::string> actions;
  for (int i = 0; i < list.size() && static_cast<int>(actions.size()) < limit; ++i) {
    if (list[i].from() == *from) actions.push_back(TurnText(list[i]));
  }
  std::sort(actions.begin(), actions.end());
  return actions;
}

std::vector<ChanceOutcome> ChestoniaCheckersState::ChanceOutcomes() const {
  return hex::ChanceOutcomesOf(pos_.phase, pos_.dart, BoardGrid());
}

absl::Status ChestoniaCheckersState::Apply(std::string_view action) {
  if (pos_.phase == Phase::kOver) return absl::FailedPreconditionError("the game is over");
  Position next = pos_;
  absl::Status applied =
      pos_.phase == Phase::kMove ? ApplyMoveText(action, next) : ApplyDartText(action, next);
  if (!applied.ok()) return applied;
  ++next.action_count;
  pos_ = next;
  return absl::OkStatus();
}

absl::Status ChestoniaCheckersState::ApplyDartText(std::string_view action, Position& next) const {
  absl::StatusOr<hex::DartAction> dart =
      hex::ParseDartAction(pos_.phase, action, BoardGrid(), pos_.dart, kRewardLetters);
  if (!dart.ok()) return dart.status();
  if (hex::ApplySharedDartAction(*dart, next)) return absl::OkStatus();
  switch (dart->kind) {
    case hex::DartAction::Kind::kPlace: {
      const int kind = PieceKindFromLetter(dart->letter);
      if (kind != RewardKind(pos_.dart.reward_zone)) {
        return hex::NotLegalHere(action, "that piece is not this zone's reward");
      }
      if (!pos_.HomeCells(pos_.turn).Test(dart->cell) || pos_.cells[dart->cell]) {
        return hex::NotLegalHere(action, "rewards go on a free cell of your starting rows");
      }
      next.ApplyPlacement(kind, dart->cell);
      break;
    }
    case hex::DartAction::Kind::kPenalty:
      if (!pos_.MenOf(pos_.turn).Test(dart->cell)) {
        return hex::NotLegalHere(action, "not one of your men");
      }
      next.ApplyPenalty(dart->cell);
      break;
    default:
      break;
  }
  return absl::OkStatus();
}

absl::Status ChestoniaCheckersState::ApplyMoveText(std::string_view action, Position& next) const {
  absl::StatusOr<std::vector<uint8_t>> path = ParseTurnText(action);
  if (!path.ok()) return path.status();
  const int len = static_cast<int>(path->size());
  // Any route to a legal turn's result is that turn (movegen.h, TurnKey); checked without
  // listing every turn, which can be many.
  absl::StatusOr<TurnKey> key = ReplayTurn(pos_, path->data(), len);
  if (!key.ok()) return hex::NotLegalHere(action, ToStd(key.status().message()));
  if (!IsLegalTurn(pos_, path->data(), len)) {
    return hex::NotLegalHere(action, CanCapture(pos_)
                                         ? "no such turn (a capture is compulsory, and a chain "
                                           "goes on while the piece can take)"
                                         : "no such turn");
  }
  next.ApplyTurn(Turn{path->data(), len});
  return absl::OkStatus();
}

absl::Status ChestoniaCheckersState::ApplySeatEvent(int seat, SeatEvent event) {
  return hex::ApplyChestoniaSeatEvent(pos_, seat, event, ToMove());
}

Outcome ChestoniaCheckersState::GetOutcome() const {
  if (pos_.phase != Phase::kOver) return Outcome{};
  return hex::RankedOutcome(pos_.rules.players, pos_.draw, pos_.winner, EndReasonName(pos_.reason),
                            pos_.active, std::span(pos_.out_order.data(), pos_.num_out));
}

std::string ChestoniaCheckersState::Serialize() const {
  return SerializePosition(pos_);
}

uint64_t ChestoniaCheckersState::Hash() const {
  return hex::TextHash(Serialize());
}

std::string ChestoniaCheckersState::Render(const RenderOptions& options) const {
  return RenderBoard(pos_, hex::PerspectiveOrZero(options.perspective, pos_.rules.players),
                     options.coordinates);
}

uint64_t ChestoniaCheckersState::Perft(int depth) const {
  // Perft counts whole turns with darts off; with darts on the facade walk is used.
  if (pos_.rules.darts) return State::Perft(depth);
  return chestonia_checkers::Perft(pos_, depth);
}

// --- What the game tells the layers above ---------------------------------------------------

std::vector<SeatInfo> ChestoniaCheckersState::Seats() const {
  return hex::SeatInfos(pos_.rules.players);
}

absl::StatusOr<ActionFacts> ChestoniaCheckersState::DescribeAction(std::string_view action) const {
  if (auto dart = hex::DescribeDartAction(action, BoardGrid(), kRewardLetters)) return *dart;
  absl::StatusOr<std::vector<uint8_t>> path = ParseTurnText(action);
  if (!path.ok()) return path.status();
  ActionFacts facts;
  facts.kind = kActionMove;
  facts.ends_turn = true;
  for (uint8_t c : *path) facts.cells.push_back(CellName(c));
  // A man's move is progress; so is any hop over a piece (a capture).
  bool irreversible = KindOf(pos_.cells[(*path)[0]]) == kMan || path->size() > 2;
  const hex::Grid& g = BoardGrid();
  const int from = (*path)[0], to = (*path)[1];
  const int dir = g.LineDirection(from, to);
  if (!irreversible && dir >= 0) {
    for (int16_t c : g.Ray(from, dir)) {
      if (c == to) break;
      if (pos_.cells[c]) {
        irreversible = true;
        break;
      }
    }
  }
  facts.irreversible = irreversible;
  return facts;
}

RulesBrief ChestoniaCheckersState::Brief() const {
  const Rules& r = pos_.rules;
  RulesBrief brief;
  const std::string seats = hex::SeatList(Seats());
  brief.text = absl::StrCat(
      "Chestonia checkers: draughts on a hexagonal board of 169 cells for ", r.players,
      " players (", seats,
      ", moving in that order around the board). Cells are written in axial coordinates "
      "\"q,r\" with max(|q|, |r|, |q+r|) <= 7; the centre is 0,0. The twelve lines out of a "
      "cell are the 6 straight directions (1,0) (1,-1) (0,-1) (-1,0) (-1,1) (0,1) and the 6 "
      "diagonals (2,-1) (1,-2) (-1,-1) (-2,1) (-1,2) (1,1); a diagonal passes between two cells "
      "and only a piece on the line itself blocks it. Each seat starts with ",
      r.setup == Setup::kLong ? "27 men on the three rows nearest its edge"
                              : "15 men on the two rows in front of its (empty) edge row",
      ". A man (M) moves one or two cells along its four straight directions forward and "
      "sideways (never straight back); a two-cell move may turn a corner and needs an empty "
      "destination and at least one empty middle cell on the way. A man captures along any of "
      "the twelve lines, backwards too: it hops an enemy piece on the next cell of the line and "
      "lands on the empty cell just beyond. A king (K) flies any distance along the twelve "
      "lines; it captures the first piece on a line when that is an enemy with an empty cell "
      "behind it, and lands on any empty cell beyond it. Capturing is compulsory: if any "
      "capture exists you must capture, and the capturing piece must go on taking while it "
      "can, in the same turn; captured pieces leave the board at once. A man that ends a move "
      "or a hop on the edge row of any other seat is crowned a king, and that ends the turn. "
      "Your whole turn is ONE action listing every cell the piece stands on.",
      r.reverse ? " This is REVERSE checkers, so your aim is to lose all your pieces: the first "
                  "seat left with no pieces, or with no legal move at its turn, WINS at once."
                : " A seat with no pieces or no legal move at its turn is out (with three "
                  "players its remaining pieces freeze: they block but are never taken); the "
                  "last seat left wins.",
      " The game is drawn after 60 moves with nothing taken, no man moved and no dart event.",
      r.movecap > 0 ? absl::StrCat(" It is drawn when ", r.movecap, " moves have been played.")
                    : "",
      r.darts ? " Darts are on: every 3 to 10 rounds a dart round comes, and at the start of "
                "its turn each seat aims a dart at a cell. Where it lands (it may scatter) the "
                "piece on that cell is knocked off (not a king, not a frozen piece); the "
                "bullseye (0,0) pays a king, the next two circles (rings 1 to 4) a man, placed "
                "on a free cell of your starting rows; a miss costs you a man of your choice."
              : "");
  brief.formats.push_back(
      {kActionMove, "<from>:<to>[:<next landing>...] with cells as q,r, e.g. 0,-5:0,-3:2,-3",
       "Your whole turn: a quiet move from:to, or a capture chain with every landing cell."});
  if (r.darts) {
    brief.formats.push_back({kActionDartAim, "aim <q,r>, e.g. aim 0,0",
                             "In a dart round, name the cell your dart aims at."});
    brief.formats.push_back({kActionPlacement, "place <K|M> <q,r>, e.g. place M 2,-6, or skip",
                             "Place the piece your dart won on a free cell of your starting "
                             "rows (K for the bullseye, M otherwise), or skip."});
    brief.formats.push_back({kActionPenalty, "penalty <q,r>, e.g. penalty 1,-6",
                             "After a miss, name the man of yours that is removed."});
  }
  return brief;
}

BoardView ChestoniaCheckersState::Board(int perspective) const {
  BoardView view = hex::ChestoniaBoardView("chestonia-checkers", pos_.rules.players, perspective,
                                           pos_.rules.board);
  for (int cell = 0; cell < kNumCells; ++cell) {
    const Piece p = pos_.cells[cell];
    if (p) {
      view.pieces.push_back({CellName(cell), SeatOf(p), KindOf(p) == kKing ? "king" : "man",
                             std::string(1, PieceLetter(KindOf(p))), !pos_.Active(SeatOf(p))});
    }
  }
  for (int i = 0; i < pos_.num_out; ++i) {
    if (pos_.out_order[i] >= 0) view.frozen_seats.push_back(pos_.out_order[i]);
  }
  view.to_move = ToMove();
  view.phase = Phase();
  if (pos_.phase == Phase::kLanding && pos_.dart.aim >= 0) view.dart_aim = CellName(pos_.dart.aim);
  return view;
}

// --- Game -----------------------------------------------------------------------------------

const ChestoniaCheckersGame& ChestoniaCheckersGame::Instance() {
  static const ChestoniaCheckersGame game;
  return game;
}

std::vector<std::string> ChestoniaCheckersGame::VariantKeys() const {
  return {"players", "setup", "board", "darts", "reverse", "movecap", "first"};
}

std::vector<std::string> ChestoniaCheckersGame::ExampleVariants() const {
  // Short move caps: random play soon reaches positions where listing every turn takes
  // seconds to minutes, soonest with three players (docs/rules/chestonia-checkers.md, "How
  // many turns"; an open problem).
  return {"players=2,setup=normal,darts=off,movecap=30",
          "players=2,setup=long,board=circles,movecap=30",
          "players=3,setup=normal,board=target,movecap=12",
          "players=3,setup=long,darts=off,first=k,movecap=12",
          "players=2,setup=normal,reverse=on,darts=on,board=alternating,movecap=30",
          "players=3,setup=normal,reverse=on,darts=off,movecap=12"};
}

absl::StatusOr<std::unique_ptr<State>> ChestoniaCheckersGame::NewInitialState(
    const Variant& variant) const {
  absl::StatusOr<Rules> rules = RulesFromVariant(variant);
  if (!rules.ok()) return rules.status();
  return std::make_unique<ChestoniaCheckersState>(Position::Initial(*rules));
}

absl::StatusOr<std::unique_ptr<State>> ChestoniaCheckersGame::Parse(std::string_view text,
                                                                    const Variant& variant) const {
  absl::StatusOr<Rules> rules = RulesFromVariant(variant);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<Position> pos = ParsePosition(text, *rules);
  if (!pos.ok()) return pos.status();
  return std::make_unique<ChestoniaCheckersState>(*pos);
}

}  // namespace arena::engine::chestonia_checkers

namespace arena::engine {
const Game& RegisteredGame_chestonia_checkers() {
  return chestonia_checkers::ChestoniaCheckersGame::Instance();
}
}  // namespace arena::engine
