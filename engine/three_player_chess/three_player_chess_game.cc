#include "engine/three_player_chess/three_player_chess_game.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/three_player_chess/movegen.h"
#include "engine/three_player_chess/notation.h"

namespace arena::engine::three_player_chess {
namespace {

constexpr std::string_view kSerialPrefix = "three-player-chess1|";

// Seat events in the log: "<event>:<seat letter>".
constexpr std::pair<SeatEvent, std::string_view> kLoggedEvents[] = {
    {SeatEvent::kResign, "resign"},
    {SeatEvent::kTimeout, "timeout"},
    {SeatEvent::kOfferDraw, "claim"},
};

absl::Status GameOver(const Position& pos) {
  return absl::FailedPreconditionError(
      absl::StrCat("the game is over (", ToAbsl(StatusReason(pos.status)), ")"));
}

}  // namespace

ThreePlayerChessState::ThreePlayerChessState(const Position& start) : start_(start), pos_(start) {
  repetition_.push_back(pos_.Key());
}

std::unique_ptr<State> ThreePlayerChessState::Clone() const {
  return std::make_unique<ThreePlayerChessState>(*this);
}

int ThreePlayerChessState::ToMove() const {
  return pos_.Over() ? kTerminalSeat : pos_.turn;
}

std::string ThreePlayerChessState::Phase() const {
  return pos_.Over() ? "finished" : "move";
}

std::vector<std::string> ThreePlayerChessState::LegalActions() const {
  std::vector<std::string> out;
  if (pos_.Over()) return out;
  MoveList list;
  GenerateLegalMoves(pos_, list);
  out.reserve(static_cast<size_t>(list.size));
  for (const Move m : list) out.push_back(MoveText(m));
  std::sort(out.begin(), out.end());
  return out;
}

absl::Status ThreePlayerChessState::Apply(std::string_view action) {
  absl::StatusOr<Move> parsed = ParseMoveText(action);
  if (!parsed.ok()) return parsed.status();
  if (pos_.Over()) return GameOver(pos_);
  MoveList list;
  GenerateLegalMoves(pos_, list);
  const Move* found = std::find(list.begin(), list.end(), *parsed);
  if (found == list.end()) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", absl::string_view(action.data(), action.size()),
                     "' is not a legal move of ", ToAbsl(ColourName(pos_.turn)), " here"));
  }
  pos_.ApplyMove(*found);
  moves_.push_back(static_cast<int>(log_.size()));
  log_.push_back(MoveText(*found));
  repetition_.push_back(pos_.Key());
  return absl::OkStatus();
}

int ThreePlayerChessState::RepetitionCount() const {
  const int last = static_cast<int>(repetition_.size()) - 1;
  const int reach = std::min<int>(pos_.no_progress, last);
  int seen = 0;
  for (int back = 0; back <= reach; ++back) {
    if (repetition_[static_cast<size_t>(last - back)] == repetition_[static_cast<size_t>(last)]) {
      ++seen;
    }
  }
  return seen;
}

absl::Status ThreePlayerChessState::ApplySeatEvent(int seat, SeatEvent event) {
  if (seat < 0 || seat >= kNumColours) {
    return absl::InvalidArgumentError(absl::StrCat("seat ", seat, " does not exist"));
  }
  if (pos_.Over()) return GameOver(pos_);
  switch (event) {
    case SeatEvent::kResign:
      if (!pos_.In(seat)) return absl::FailedPreconditionError("that seat is already out");
      pos_.Withdraw(seat, Status::kResignation);
      break;
    case SeatEvent::kTimeout:
      if (seat != pos_.turn) {
        return absl::FailedPreconditionError("only the seat to move can run out of time");
      }
      pos_.Withdraw(seat, Status::kTimeout);
      break;
    case SeatEvent::kOfferDraw:
      if (seat != pos_.turn) {
        return absl::FailedPreconditionError("only the seat to move may claim a repetition");
      }
      if (RepetitionCount() < 3) {
        return absl::FailedPreconditionError(
            "a draw is claimed only on a threefold repetition; there are no draws by agreement");
      }
      pos_.status = Status::kThreefoldRepetition;
      break;
    case SeatEvent::kAcceptDraw:
    case SeatEvent::kDeclineDraw:
      return absl::FailedPreconditionError("three-player chess has no draws by agreement");
  }
  for (const auto& [logged, word] : kLoggedEvents) {
    if (logged == event)
      log_.push_back(absl::StrCat(ToAbsl(word), ":", std::string(1, ColourLetter(seat))));
  }
  return absl::OkStatus();
}

Outcome ThreePlayerChessState::GetOutcome() const {
  Outcome o;
  if (!pos_.Over()) return o;
  o.reason = std::string(StatusReason(pos_.status));
  o.ranks.assign(kNumColours, 0);
  const int winner = pos_.Winner();
  o.kind = winner >= 0 ? Outcome::Kind::kWin : Outcome::Kind::kDraw;
  if (winner >= 0) o.winners = {winner};
  // Players still in share the first place (the winner alone holds it); those out follow, the
  // last one out ranked best.
  int next = 1;
  for (int i = kNumColours - 1; i >= 0; --i) {
    if (pos_.out_order[i] >= 0) o.ranks[pos_.out_order[i]] = next++;
  }
  return o;
}

std::string ThreePlayerChessState::Serialize() const {
  return absl::StrCat(ToAbsl(kSerialPrefix), three_player_chess::PositionText(start_), "|",
                      absl::StrJoin(log_, " "));
}

uint64_t ThreePlayerChessState::Hash() const {
  return pos_.Key() ^ (static_cast<uint64_t>(pos_.status) * 0x9e3779b97f4a7c15ULL);
}

std::string ThreePlayerChessState::Render(const RenderOptions& options) const {
  return RenderBoard(pos_, options.coordinates);
}

std::string ThreePlayerChessState::PositionText() const {
  return three_player_chess::PositionText(pos_);
}

uint64_t ThreePlayerChessState::Perft(int depth) const {
  return three_player_chess::Perft(pos_, depth);
}

// --- What the game tells the layers above ---------------------------------------------------

std::vector<SeatInfo> ThreePlayerChessState::Seats() const {
  return {{"white", "#f4f1e8"}, {"black", "#26221e"}, {"red", "#c8322d"}};
}

absl::StatusOr<ActionFacts> ThreePlayerChessState::DescribeAction(std::string_view action) const {
  absl::StatusOr<Move> move = ParseMoveText(action);
  if (!move.ok()) return move.status();
  ActionFacts facts;
  facts.kind = kActionMove;
  facts.ends_turn = true;
  facts.cells = {CellName(move->from), CellName(move->to)};
  const Piece p = pos_.cells[move->from];
  facts.irreversible = TypeOf(p) == kPawn || pos_.cells[move->to] != kEmpty;
  return facts;
}

RulesBrief ThreePlayerChessState::Brief() const {
  RulesBrief brief;
  brief.text =
      "Three-player chess: white, black and red play in that order on a hexagonal board of 96 "
      "cells in three segments of 4 x 8 (White: columns A-H rows 1-4; Black: A-D and I-L rows "
      "5-8; Red: E-H and I-L rows 9-12; E5-H8, I1-L4 and A9-D12 do not exist). Each player has "
      "the standard army (back rank R N B Q K B N R from its own left, pawns one row in): White "
      "K E1 Q D1, Black K D8 Q I8, Red K I12 Q E12. Lines run straight through the centre: "
      "going up column D from D4 leads to D5 and on to D8, column E from E4 to E9; diagonals "
      "through the centre cells (D4, E4, E9, I9, I5, D5) branch, so a bishop on C3 reaches "
      "both E9 and I5 past D4. Pawns move toward the centre in their own segment and, once "
      "across, toward the far back rank of the segment they are in, where they promote (to Q, "
      "R, B or N); a pawn that has not moved may step two cells, en passant is allowed on each "
      "enemy's next turn, and a pawn on a centre cell captures in three directions. Castling "
      "is as in chess. Kings are never captured; you may not leave your king attacked by any "
      "opponent. After every move each opponent is tested: one in check without a legal move "
      "is checkmated, its king leaves the board and its other pieces become the mover's, who "
      "from then on moves one piece of either colour a turn (your pieces never capture each "
      "other). A player without a legal move who is not in check skips the turn. The second "
      "checkmate wins. Draws: 75 moves by all players without a capture or pawn move, "
      "insufficient material (kings with at most one bishop or knight), or a threefold "
      "repetition claimed by the player to move.";
  brief.formats.push_back(
      {kActionMove, "<from><to>[=Q|R|B|N] with cells as column letter and row, e.g. E2E4, D7D8=Q",
       "Move one of your pieces (of any colour you control); castle by moving the king two "
       "cells (E1G1); a pawn reaching a back rank names its promotion."});
  return brief;
}

BoardView ThreePlayerChessState::Board(int perspective) const {
  static constexpr std::string_view kKinds[7] = {"",     "pawn",  "knight", "bishop",
                                                 "rook", "queen", "king"};
  BoardView view;
  view.game = "three-player-chess";
  view.shape = "square";
  view.perspective = perspective >= 0 && perspective < kNumColours ? perspective : 0;
  view.seats = Seats();
  // The 12 x 12 letter grid (columns A-L, row 12 at the top) with its 48 missing cells left
  // out: every segment keeps its cells' names in place, so the view is the same from every seat.
  for (int cell = 0; cell < kNumCells; ++cell) {
    const std::string id = CellName(cell);
    view.cells.push_back(
        {id, static_cast<double>(ColumnLetter(cell) - 'A'), 12.0 - RowNumber(cell), IsLight(cell)});
    const Piece p = pos_.cells[cell];
    if (p != kEmpty) {
      view.pieces.push_back({id, pos_.OwnerAt(cell), std::string(kKinds[TypeOf(p)]),
                             std::string(1, PieceLetter(TypeOf(p))), false});
    }
  }
  view.to_move = ToMove();
  view.phase = Phase();
  return view;
}

// --- Game -----------------------------------------------------------------------------------

const ThreePlayerChessGame& ThreePlayerChessGame::Instance() {
  static const ThreePlayerChessGame game;
  return game;
}

absl::StatusOr<std::unique_ptr<State>> ThreePlayerChessGame::NewInitialState(
    const Variant& variant) const {
  absl::Status keys = variant.CheckKeys(VariantKeys());
  if (!keys.ok()) return keys;
  return std::make_unique<ThreePlayerChessState>(Position::Initial());
}

absl::StatusOr<std::unique_ptr<State>> ThreePlayerChessGame::Parse(std::string_view text,
                                                                   const Variant& variant) const {
  absl::Status keys = variant.CheckKeys(VariantKeys());
  if (!keys.ok()) return keys;
  if (!absl::StartsWith(ToAbsl(text), ToAbsl(kSerialPrefix))) {
    absl::StatusOr<Position> pos = ParsePositionText(text);
    if (!pos.ok()) return pos.status();
    return std::make_unique<ThreePlayerChessState>(*pos);
  }
  const std::vector<std::string> parts =
      absl::StrSplit(ToAbsl(text.substr(kSerialPrefix.size())), '|');
  if (parts.size() != 2) return absl::InvalidArgumentError("expected <position>|<actions>");
  absl::StatusOr<Position> start = ParsePositionText(parts[0]);
  if (!start.ok()) return start.status();
  auto state = std::make_unique<ThreePlayerChessState>(*start);
  for (absl::string_view token : absl::StrSplit(parts[1], ' ', absl::SkipEmpty())) {
    absl::Status applied;
    const size_t colon = token.find(':');
    if (colon == absl::string_view::npos) {
      applied = state->Apply(ToStd(token));
    } else {
      const int seat = token.size() == colon + 2 ? ColourFromLetter(token[colon + 1]) : -1;
      const absl::string_view word = token.substr(0, colon);
      applied = absl::InvalidArgumentError(absl::StrCat("unknown event '", token, "'"));
      for (const auto& [event, name] : kLoggedEvents) {
        if (seat >= 0 && word == ToAbsl(name)) applied = state->ApplySeatEvent(seat, event);
      }
    }
    if (!applied.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("replaying '", token, "': ", applied.message()));
    }
  }
  return state;
}

}  // namespace arena::engine::three_player_chess

namespace arena::engine {
const Game& RegisteredGame_three_player_chess() {
  return three_player_chess::ThreePlayerChessGame::Instance();
}
}  // namespace arena::engine
