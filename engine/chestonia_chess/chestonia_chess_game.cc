#include "engine/chestonia_chess/chestonia_chess_game.h"

#include <algorithm>
#include <span>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/chestonia_chess/movegen.h"
#include "engine/chestonia_chess/notation.h"
#include "engine/hex/chestonia_state.h"
#include "engine/hex/dart_round.h"

namespace arena::engine::chestonia_chess {
namespace {

// Reward types by zone: 1 a queen; 2 a rook, bishop or knight; 3 a pawn.
std::vector<int> RewardTypes(int zone) {
  if (zone == 1) return {kQueen};
  if (zone == 2) return {kRook, kBishop, kKnight};
  if (zone == 3) return {kPawn};
  return {};
}

// The placement texts' letters (any piece letter reads; the zone decides which is legal).
constexpr hex::RewardLetters kRewardLetters{"PNBRQK", "<piece>", "unknown piece letter",
                                            "<Q|R|B|N|P>"};

}  // namespace

absl::StatusOr<Rules> RulesFromVariant(const Variant& variant) {
  absl::StatusOr<hex::ChestoniaOptions> options = hex::ParseChestoniaOptions(
      variant, ChestoniaChessGame::Instance().VariantKeys(), BoardKind::kAlternating);
  if (!options.ok()) return options.status();
  Rules rules;
  hex::SetOptions(*options, rules);
  return rules;
}

// --- State ----------------------------------------------------------------------------------

std::unique_ptr<State> ChestoniaChessState::Clone() const {
  return std::make_unique<ChestoniaChessState>(pos_);
}

int ChestoniaChessState::ToMove() const {
  return hex::SeatToAct(pos_.phase, pos_.turn);
}

std::string ChestoniaChessState::Phase() const {
  return std::string(hex::TurnPhaseName(pos_.phase));
}

std::vector<std::string> ChestoniaChessState::LegalActions() const {
  std::vector<std::string> actions;
  const hex::Grid& g = BoardGrid();
  switch (pos_.phase) {
    case Phase::kMove: {
      auto list = std::make_unique<MoveList>();
      GenerateLegalMoves(pos_, *list);
      for (const Move m : *list) actions.push_back(MoveText(m));
      break;
    }
    case Phase::kAim:
      actions = hex::AimActions(g);
      break;
    case Phase::kPlacement: {
      actions.push_back(std::string(hex::kSkipAction));
      for (int type : RewardTypes(pos_.dart.reward_zone)) {
        pos_.layout().seats[pos_.turn].home_rows.ForEach([&](int c) {
          if (!pos_.cells[c]) actions.push_back(hex::PlacementAction(g, PieceLetter(type), c));
        });
      }
      break;
    }
    case Phase::kPenalty:
      pos_.PawnsOf(pos_.turn).ForEach([&](int c) { actions.push_back(hex::PenaltyAction(g, c)); });
      break;
    default:
      break;
  }
  std::sort(actions.begin(), actions.end());
  return actions;
}

std::vector<ChanceOutcome> ChestoniaChessState::ChanceOutcomes() const {
  return hex::ChanceOutcomesOf(pos_.phase, pos_.dart, BoardGrid());
}

absl::Status ChestoniaChessState::Apply(std::string_view action) {
  if (pos_.phase == Phase::kOver) return absl::FailedPreconditionError("the game is over");
  Position next = pos_;
  absl::Status applied =
      pos_.phase == Phase::kMove ? ApplyMoveText(action, next) : ApplyDartText(action, next);
  if (!applied.ok()) return applied;
  ++next.action_count;
  pos_ = next;
  return absl::OkStatus();
}

absl::Status ChestoniaChessState::ApplyDartText(std::string_view action, Position& next) const {
  absl::StatusOr<hex::DartAction> dart =
      hex::ParseDartAction(pos_.phase, action, BoardGrid(), pos_.dart, kRewardLetters);
  if (!dart.ok()) return dart.status();
  if (hex::ApplySharedDartAction(*dart, next)) return absl::OkStatus();
  switch (dart->kind) {
    case hex::DartAction::Kind::kPlace: {
      const int type = PieceTypeFromLetter(dart->letter);
      const std::vector<int> allowed = RewardTypes(pos_.dart.reward_zone);
      if (std::find(allowed.begin(), allowed.end(), type) == allowed.end()) {
        return hex::NotLegalHere(action, "that piece is not this zone's reward");
      }
      if (!pos_.layout().seats[pos_.turn].home_rows.Test(dart->cell) || pos_.cells[dart->cell]) {
        return hex::NotLegalHere(action, "rewards go on a free cell of your back row or pawn row");
      }
      next.ApplyPlacement(type, dart->cell);
      break;
    }
    case hex::DartAction::Kind::kPenalty:
      if (!pos_.PawnsOf(pos_.turn).Test(dart->cell)) {
        return hex::NotLegalHere(action, "not one of your pawns");
      }
      next.ApplyPenalty(dart->cell);
      break;
    default:
      break;
  }
  return absl::OkStatus();
}

absl::Status ChestoniaChessState::ApplyMoveText(std::string_view action, Position& next) const {
  absl::StatusOr<Move> move = ParseMoveText(action);
  if (!move.ok()) return move.status();
  auto list = std::make_unique<MoveList>();
  GenerateLegalMoves(pos_, *list);
  if (std::find(list->begin(), list->end(), *move) == list->end()) {
    return hex::NotLegalHere(action, "no such legal move");
  }
  next.ApplyMove(*move);
  return absl::OkStatus();
}

absl::Status ChestoniaChessState::ApplySeatEvent(int seat, SeatEvent event) {
  return hex::ApplyChestoniaSeatEvent(pos_, seat, event, ToMove());
}

Outcome ChestoniaChessState::GetOutcome() const {
  if (pos_.phase != Phase::kOver) return Outcome{};
  return hex::RankedOutcome(pos_.rules.players, pos_.draw, pos_.winner, EndReasonName(pos_.reason),
                            pos_.active, std::span(pos_.out_order.data(), pos_.num_out));
}

std::string ChestoniaChessState::Serialize() const {
  return SerializePosition(pos_);
}

uint64_t ChestoniaChessState::Hash() const {
  return hex::TextHash(Serialize());
}

std::string ChestoniaChessState::Render(const RenderOptions& options) const {
  return RenderBoard(pos_, hex::PerspectiveOrZero(options.perspective, pos_.rules.players),
                     options.coordinates);
}

uint64_t ChestoniaChessState::Perft(int depth) const {
  // Perft counts board moves with darts off; with darts on the facade walk is used.
  if (pos_.rules.darts) return State::Perft(depth);
  return chestonia_chess::Perft(pos_, depth);
}

// --- What the game tells the layers above ---------------------------------------------------

std::vector<SeatInfo> ChestoniaChessState::Seats() const {
  return hex::SeatInfos(pos_.rules.players);
}

absl::StatusOr<ActionFacts> ChestoniaChessState::DescribeAction(std::string_view action) const {
  if (auto dart = hex::DescribeDartAction(action, BoardGrid(), kRewardLetters)) return *dart;
  absl::StatusOr<Move> move = ParseMoveText(action);
  if (!move.ok()) return move.status();
  ActionFacts facts;
  facts.kind = kActionMove;
  facts.ends_turn = true;
  facts.cells = {CellName(move->from), CellName(move->to)};
  facts.irreversible = TypeOf(pos_.cells[move->from]) == kPawn || pos_.cells[move->to] != 0;
  return facts;
}

RulesBrief ChestoniaChessState::Brief() const {
  const Rules& r = pos_.rules;
  RulesBrief brief;
  const std::string seats = hex::SeatList(Seats());
  brief.text = absl::StrCat(
      "Chestonia chess: chess on a hexagonal board of 169 cells for ", r.players, " players (",
      seats,
      ", moving in that order around the board). Cells are written in axial coordinates "
      "\"q,r\" with max(|q|, |r|, |q+r|) <= 7; the centre is 0,0. Rooks move along the 6 "
      "straight lines through cell edges, bishops along the 6 diagonal lines (passing between "
      "two cells; only a piece on the line itself blocks), queens along all 12, the king one "
      "step along any of the 12. A knight leaps to the 24 cells two or three steps along a "
      "straight line and one step turned 60 degrees, jumping over everything. A pawn runs 1 to "
      "4 empty cells (1 to 3 once it has moved) along either of its two forward directions, or "
      "steps one cell sideways without capturing; it captures on the adjacent cell in either "
      "forward or either sideways direction; there is no en passant and no castling. A pawn "
      "that ends its move on the back row of any other seat becomes a queen.",
      r.board == BoardKind::kAlternating ? ""
                                         : " On this board design, on the very first move of "
                                           "the game a queen or bishop may not capture on a "
                                           "back-row cell.",
      r.reverse
          ? " This is REVERSE chess: the aim is to LOSE all your pieces (or to be left without "
            "a legal move) first. Captures are compulsory; there is no check or checkmate and "
            "the king is an ordinary piece that can be captured."
          : " Kings are never captured: you may not leave your king attacked by any seat still "
            "in the game. A seat with no legal move at the start of its turn is checkmated if "
            "its king is attacked (it is out and its army freezes where it stands) and skipped "
            "otherwise. The last seat still in wins.",
      " The game is drawn after 60 moves without a capture, pawn move or dart event, by "
      "perpetual check (10 turns in a row begun in check with two seats left), or when nobody "
      "can move.",
      r.movecap > 0 ? absl::StrCat(" It is drawn when ", r.movecap, " moves have been played.")
                    : "",
      r.darts ? " Darts are on: every 3 to 10 rounds a dart round comes, and at the start of "
                "its turn each seat aims a dart at a cell. Where it lands (it may scatter) the "
                "piece on that cell is knocked off (not a king, not a frozen piece); landing "
                "in the centre zones pays a queen (zone 1), a rook, bishop or knight (zone 2) "
                "or a pawn (zone 3), placed on a free cell of your back row or pawn row; a miss "
                "costs you a pawn of your choice."
              : "");
  brief.formats.push_back({kActionMove, "<from>:<to> with cells as q,r, e.g. 3,-6:3,-3",
                           "Move one of your pieces; promotion to a queen is automatic."});
  if (r.darts) {
    brief.formats.push_back({kActionDartAim, "aim <q,r>, e.g. aim 0,0",
                             "In a dart round, name the cell your dart aims at."});
    brief.formats.push_back(
        {kActionPlacement, "place <Q|R|B|N|P> <q,r>, e.g. place Q 2,-7, or skip",
         "Place the piece your dart won on a free cell of your back row or pawn row."});
    brief.formats.push_back({kActionPenalty, "penalty <q,r>, e.g. penalty 1,-6",
                             "After a miss, name the pawn of yours that is removed."});
  }
  return brief;
}

BoardView ChestoniaChessState::Board(int perspective) const {
  static constexpr std::string_view kKinds[7] = {"",     "pawn",  "knight", "bishop",
                                                 "rook", "queen", "king"};
  BoardView view =
      hex::ChestoniaBoardView("chestonia-chess", pos_.rules.players, perspective, pos_.rules.board);
  for (int cell = 0; cell < kNumCells; ++cell) {
    const Piece p = pos_.cells[cell];
    if (p) {
      view.pieces.push_back({CellName(cell), SeatOf(p), std::string(kKinds[TypeOf(p)]),
                             std::string(1, PieceLetter(TypeOf(p))), !pos_.Active(SeatOf(p))});
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

const ChestoniaChessGame& ChestoniaChessGame::Instance() {
  static const ChestoniaChessGame game;
  return game;
}

std::vector<std::string> ChestoniaChessGame::VariantKeys() const {
  return {"players", "board", "darts", "reverse", "movecap", "first"};
}

std::vector<std::string> ChestoniaChessGame::ExampleVariants() const {
  return {"players=2,board=alternating",
          "players=2,board=plain,darts=on",
          "players=3,board=circles,movecap=400",
          "players=3,board=plain,darts=off",
          "players=2,board=target,reverse=on",
          "players=3,board=alternating,reverse=on,darts=on,first=k",
          "players=3,board=plain,reverse=on,darts=off,movecap=300"};
}

absl::StatusOr<std::unique_ptr<State>> ChestoniaChessGame::NewInitialState(
    const Variant& variant) const {
  absl::StatusOr<Rules> rules = RulesFromVariant(variant);
  if (!rules.ok()) return rules.status();
  return std::make_unique<ChestoniaChessState>(Position::Initial(*rules));
}

absl::StatusOr<std::unique_ptr<State>> ChestoniaChessGame::Parse(std::string_view text,
                                                                 const Variant& variant) const {
  absl::StatusOr<Rules> rules = RulesFromVariant(variant);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<Position> pos = ParsePosition(text, *rules);
  if (!pos.ok()) return pos.status();
  return std::make_unique<ChestoniaChessState>(*pos);
}

}  // namespace arena::engine::chestonia_chess

namespace arena::engine {
const Game& RegisteredGame_chestonia_chess() {
  return chestonia_chess::ChestoniaChessGame::Instance();
}
}  // namespace arena::engine
