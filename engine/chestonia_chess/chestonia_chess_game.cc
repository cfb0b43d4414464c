#include "engine/chestonia_chess/chestonia_chess_game.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/chestonia_chess/movegen.h"
#include "engine/chestonia_chess/notation.h"
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
  absl::Status keys = variant.CheckKeys(ChestoniaChessGame::Instance().VariantKeys());
  if (!keys.ok()) return keys;
  Rules rules;
  absl::StatusOr<int> players = variant.GetInt("players", 2);
  if (!players.ok()) return players.status();
  if (*players != 2 && *players != 3) return absl::InvalidArgumentError("players must be 2 or 3");
  rules.players = *players;
  const std::string board = variant.Get("board", "alternating");
  if (board == "alternating") {
    rules.board = BoardKind::kAlternating;
  } else if (board == "plain") {
    rules.board = BoardKind::kPlain;
  } else if (board == "circles") {
    rules.board = BoardKind::kCircles;
  } else if (board == "target") {
    rules.board = BoardKind::kTarget;
  } else {
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

std::unique_ptr<State> ChestoniaChessState::Clone() const {
  return std::make_unique<ChestoniaChessState>(pos_);
}

int ChestoniaChessState::ToMove() const {
  if (pos_.phase == Phase::kOver) return kTerminalSeat;
  return hex::IsChancePhase(pos_.phase) ? kChanceSeat : pos_.turn;
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
  if (pos_.phase == Phase::kRoundChance) return hex::RoundChanceOutcomes(pos_.dart);
  if (pos_.phase == Phase::kLanding) return hex::LandingOutcomes(BoardGrid(), pos_.dart.aim);
  return {};
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
  switch (dart->kind) {
    case hex::DartAction::Kind::kDartRound:
    case hex::DartAction::Kind::kNoDartRound:
      next.ApplyRoundChance(dart->kind == hex::DartAction::Kind::kDartRound);
      break;
    case hex::DartAction::Kind::kAim:
      next.ApplyAim(dart->cell);
      break;
    case hex::DartAction::Kind::kLand:
      next.ApplyLanding(dart->cell);
      break;
    case hex::DartAction::Kind::kSkip:
      next.ApplySkipPlacement();
      break;
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
  if (seat < 0 || seat >= pos_.rules.players) return absl::InvalidArgumentError("no such seat");
  if (pos_.phase == Phase::kOver) return absl::FailedPreconditionError("the game is over");
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
      return absl::OkStatus();
    case SeatEvent::kOfferDraw:
    case SeatEvent::kAcceptDraw:
    case SeatEvent::kDeclineDraw:
      return absl::FailedPreconditionError("Chestonia has no draws by agreement");
  }
  return absl::InvalidArgumentError("unknown seat event");
}

Outcome ChestoniaChessState::GetOutcome() const {
  Outcome o;
  if (pos_.phase != Phase::kOver) return o;
  const int n = pos_.rules.players;
  o.kind = pos_.draw ? Outcome::Kind::kDraw : Outcome::Kind::kWin;
  o.reason = std::string(EndReasonName(pos_.reason));
  o.ranks.assign(n, 0);
  // Seats still in share the best place when drawn; otherwise the winner is first and the
  // others still in come next. Seats that went out follow, the last out ranked best.
  int next_rank = 0;
  if (pos_.draw) {
    next_rank = 1;
  } else {
    o.winners.push_back(pos_.winner);
    o.ranks[pos_.winner] = 0;
    next_rank = 1;
    bool others = false;
    for (int s = 0; s < n; ++s) {
      if (s != pos_.winner && pos_.Active(s)) {
        o.ranks[s] = 1;
        others = true;
      }
    }
    if (others) next_rank = 2;
  }
  for (int i = pos_.num_out - 1; i >= 0; --i) {
    if (pos_.out_order[i] == pos_.winner) continue;
    o.ranks[pos_.out_order[i]] = next_rank++;
  }
  return o;
}

std::string ChestoniaChessState::Serialize() const {
  return SerializePosition(pos_);
}

uint64_t ChestoniaChessState::Hash() const {
  // FNV-1a over the serialization: equal states hash equally, across processes too.
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : Serialize()) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::string ChestoniaChessState::Render(const RenderOptions& options) const {
  const int perspective = options.perspective >= 0 && options.perspective < pos_.rules.players
                              ? options.perspective
                              : 0;
  return RenderBoard(pos_, perspective, options.coordinates);
}

uint64_t ChestoniaChessState::Perft(int depth) const {
  // Perft counts board moves with darts off; with darts on the facade walk is used.
  if (pos_.rules.darts) return State::Perft(depth);
  return chestonia_chess::Perft(pos_, depth);
}

// --- What the game tells the layers above ---------------------------------------------------

std::vector<SeatInfo> ChestoniaChessState::Seats() const {
  std::vector<SeatInfo> seats;
  for (int s = 0; s < pos_.rules.players; ++s) {
    const std::string_view name = SeatColour(pos_.rules.players, s);
    const char* colour = name == "blue" ? "#2f6fd0" : name == "black" ? "#26221e" : "#f4f1e8";
    seats.push_back({std::string(name), colour});
  }
  return seats;
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
  std::string seats;
  for (const SeatInfo& s : Seats()) absl::StrAppend(&seats, seats.empty() ? "" : ", ", s.name);
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
  const Rules& r = pos_.rules;
  BoardView view;
  view.game = "chestonia-chess";
  view.shape = "hex";
  view.perspective = perspective >= 0 && perspective < r.players ? perspective : 0;
  view.seats = Seats();
  // The perspective seat's frame turned half a circle puts its edge at the bottom (r = +7).
  const int to_view = 3 - pos_.layout().seats[view.perspective].sixths;
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
    view.cells.push_back({CellName(cell), std::sqrt(3.0) * (v.q + v.r / 2.0), 1.5 * v.r, shade});
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
