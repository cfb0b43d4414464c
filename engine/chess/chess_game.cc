#include "engine/chess/chess_game.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"

namespace arena::engine::chess {
namespace {

constexpr std::string_view kSerialPrefix = "chess1|";

char SeatLetter(int seat) {
  return seat == 0 ? 'w' : 'b';
}
int SeatFromLetter(std::string_view s) {
  return s == "w" ? 0 : s == "b" ? 1 : -1;
}

std::vector<std::string> SortedUci(const Position& pos) {
  MoveList list;
  GenerateLegal(pos, list);
  std::vector<std::string> out;
  out.reserve(size_t(list.size()));
  for (Move m : list) out.push_back(MoveToUci(m));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

ChessState::ChessState(const Position& start) : start_(start), pos_(start) {
  repetition_keys_.push_back(pos_.RepetitionKey());
  UpdateOutcome();
}

std::unique_ptr<State> ChessState::Clone() const {
  return std::make_unique<ChessState>(*this);
}

int ChessState::ToMove() const {
  return outcome_.finished() ? kTerminalSeat : int(pos_.side_to_move());
}

std::string ChessState::Phase() const {
  return outcome_.finished() ? "finished" : "move";
}

std::vector<std::string> ChessState::LegalActions() const {
  if (outcome_.finished()) return {};
  return SortedUci(pos_);
}

void ChessState::Finish(Outcome::Kind kind, int winner, std::string reason) {
  outcome_.kind = kind;
  outcome_.reason = std::move(reason);
  if (kind == Outcome::Kind::kWin) {
    outcome_.winners = {winner};
    outcome_.ranks = {winner == 0 ? 0 : 1, winner == 1 ? 0 : 1};
  } else {
    outcome_.winners.clear();
    outcome_.ranks = {0, 0};
  }
  open_offer_ = -1;  // a standing offer lapses when the game ends
}

void ChessState::UpdateOutcome() {
  MoveList legal;
  GenerateLegal(pos_, legal);
  if (legal.empty()) {
    if (pos_.InCheck()) {
      Finish(Outcome::Kind::kWin, int(~pos_.side_to_move()), "checkmate");
    } else {
      Finish(Outcome::Kind::kDraw, -1, "stalemate");
    }
    return;
  }
  if (pos_.InsufficientMaterial()) {
    Finish(Outcome::Kind::kDraw, -1, "insufficient-material");
    return;
  }
  // Threefold: the same key (side, placement, castling, legal ep) among positions since the
  // last capture or pawn move, every second ply back.
  const int last = int(repetition_keys_.size()) - 1;
  const int reach = std::min(pos_.rule50(), last);
  int seen = 1;
  for (int back = 4; back <= reach; back += 2) {
    if (repetition_keys_[size_t(last - back)] == repetition_keys_[size_t(last)]) ++seen;
  }
  if (seen >= 3) {
    Finish(Outcome::Kind::kDraw, -1, "threefold-repetition");
    return;
  }
  if (pos_.rule50() >= 100) Finish(Outcome::Kind::kDraw, -1, "fifty-move");
}

void ChessState::PlayMove(Move m) {
  const int mover = int(pos_.side_to_move());
  Position::Undo undo;
  pos_.DoMove(m, undo);
  moves_.push_back(m);
  repetition_keys_.push_back(pos_.RepetitionKey());
  // Moving answers (declines) the opponent's standing offer; the mover's own offer stands.
  if (open_offer_ == 1 - mover) open_offer_ = -1;
  UpdateOutcome();
}

absl::Status ChessState::Apply(std::string_view action) {
  if (outcome_.finished()) {
    return absl::FailedPreconditionError(absl::StrCat("the game is over (", outcome_.reason, ")"));
  }
  auto move = ParseMove(pos_, action);
  if (!move.ok()) return move.status();
  PlayMove(*move);
  return absl::OkStatus();
}

absl::Status ChessState::ApplySeatEvent(int seat, SeatEvent event) {
  if (seat != 0 && seat != 1) {
    return absl::InvalidArgumentError(absl::StrCat("seat ", seat, " does not exist in chess"));
  }
  if (outcome_.finished()) {
    return absl::FailedPreconditionError(absl::StrCat("the game is over (", outcome_.reason, ")"));
  }
  const int other = 1 - seat;
  switch (event) {
    case SeatEvent::kResign:
      Finish(Outcome::Kind::kWin, other, "resignation");
      end_event_ = absl::StrCat("resign:", std::string(1, SeatLetter(seat)));
      return absl::OkStatus();
    case SeatEvent::kTimeout:
      if (pos_.CannotMate(Color(other))) {
        Finish(Outcome::Kind::kDraw, -1, "timeout-insufficient-material");
      } else {
        Finish(Outcome::Kind::kWin, other, "timeout");
      }
      end_event_ = absl::StrCat("timeout:", std::string(1, SeatLetter(seat)));
      return absl::OkStatus();
    case SeatEvent::kOfferDraw:
      if (open_offer_ != -1) {
        return absl::FailedPreconditionError(
            open_offer_ == seat ? "your draw offer is still open"
                                : "a draw offer from your opponent is open: accept or decline it");
      }
      if (offers_[seat] >= kMaxDrawOffers) {
        return absl::FailedPreconditionError(
            absl::StrCat("no draw offers left (", kMaxDrawOffers, " per player per game)"));
      }
      ++offers_[seat];
      open_offer_ = seat;
      return absl::OkStatus();
    case SeatEvent::kAcceptDraw:
    case SeatEvent::kDeclineDraw:
      if (open_offer_ != other) {
        return absl::FailedPreconditionError("there is no draw offer from your opponent to answer");
      }
      if (event == SeatEvent::kDeclineDraw) {
        open_offer_ = -1;
        return absl::OkStatus();
      }
      Finish(Outcome::Kind::kDraw, -1, "agreed-draw");
      end_event_ = "agreed";
      return absl::OkStatus();
  }
  return absl::InvalidArgumentError("unknown seat event");
}

std::string ChessState::Serialize() const {
  std::vector<std::string> uci;
  uci.reserve(moves_.size());
  for (Move m : moves_) uci.push_back(MoveToUci(m));
  return absl::StrCat(ToAbsl(kSerialPrefix), start_.Fen(), "|", absl::StrJoin(uci, " "), "|",
                      offers_[0], ",", offers_[1], ",",
                      open_offer_ < 0 ? std::string("-") : std::string(1, SeatLetter(open_offer_)),
                      "|", end_event_);
}

absl::StatusOr<std::unique_ptr<ChessState>> ChessState::Parse(std::string_view text) {
  absl::string_view body = ToAbsl(text);
  if (!absl::ConsumePrefix(&body, ToAbsl(kSerialPrefix))) {
    auto pos = Position::FromFen(text);
    if (!pos.ok()) return pos.status();
    return std::make_unique<ChessState>(*pos);
  }
  std::vector<absl::string_view> parts = absl::StrSplit(body, '|');
  if (parts.size() != 4) {
    return absl::InvalidArgumentError(
        "chess state: expected 'chess1|<fen>|<moves>|<offers>|<end>'");
  }
  auto start = Position::FromFen(ToStd(parts[0]));
  if (!start.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("chess state start: ", start.status().message()));
  }
  auto state = std::make_unique<ChessState>(*start);
  int index = 0;
  for (absl::string_view uci : absl::StrSplit(parts[1], ' ', absl::SkipEmpty())) {
    ++index;
    if (state->outcome_.finished()) {
      return absl::InvalidArgumentError(absl::StrCat("chess state: move ", index, " '", uci,
                                                     "' comes after the game ended (",
                                                     state->outcome_.reason, ")"));
    }
    auto move = ParseUci(state->pos_, ToStd(uci));
    if (!move.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("chess state: move ", index, ": ", move.status().message()));
    }
    state->PlayMove(*move);
  }
  std::vector<absl::string_view> offers = absl::StrSplit(parts[2], ',');
  int white = 0, black = 0;
  if (offers.size() != 3 || !absl::SimpleAtoi(offers[0], &white) ||
      !absl::SimpleAtoi(offers[1], &black) || white < 0 || white > kMaxDrawOffers || black < 0 ||
      black > kMaxDrawOffers || (offers[2] != "-" && SeatFromLetter(ToStd(offers[2])) < 0) ||
      offers[0].size() != 1 || offers[1].size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "chess state offers: expected '<white 0-3>,<black 0-3>,<w|b|->', got '", parts[2], "'"));
  }
  state->offers_[0] = white;
  state->offers_[1] = black;
  const int open = offers[2] == "-" ? -1 : SeatFromLetter(ToStd(offers[2]));
  if (open >= 0 && (state->offers_[open] == 0 || state->outcome_.finished())) {
    return absl::InvalidArgumentError(
        "chess state offers: an open offer needs an offer made and a game in progress");
  }
  state->open_offer_ = open;
  absl::string_view end = parts[3];
  if (end != "-") {
    if (state->outcome_.finished() || open >= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "chess state end: '", end, "' but the game already ended or has an open offer"));
    }
    absl::Status s;
    if (end == "agreed") {
      // Replay an accepted offer; the counters already include it.
      state->Finish(Outcome::Kind::kDraw, -1, "agreed-draw");
      state->end_event_ = "agreed";
      if (white + black == 0) {
        return absl::InvalidArgumentError("chess state end: agreed draw without any offer");
      }
    } else if (end == "resign:w" || end == "resign:b") {
      s = state->ApplySeatEvent(SeatFromLetter(ToStd(end.substr(7))), SeatEvent::kResign);
    } else if (end == "timeout:w" || end == "timeout:b") {
      s = state->ApplySeatEvent(SeatFromLetter(ToStd(end.substr(8))), SeatEvent::kTimeout);
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "chess state end: expected '-', 'agreed', 'resign:w|b' or 'timeout:w|b', got '", end,
          "'"));
    }
    if (!s.ok()) return s;
  }
  return state;
}

uint64_t ChessState::Hash() const {
  // The position key, mixed with what else makes states differ (offers and how it ended).
  uint64_t h = pos_.key();
  auto mix = [&h](uint64_t v) { h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2); };
  mix(uint64_t(offers_[0]) | uint64_t(offers_[1]) << 4 | uint64_t(open_offer_ + 1) << 8);
  for (char c : end_event_) mix(uint64_t(uint8_t(c)));
  return h;
}

std::string ChessState::Render(const RenderOptions& options) const {
  static constexpr std::string_view kChars = "PNBRQK  pnbrqk";
  const bool flipped = options.perspective == 1;
  std::string out;
  for (int row = 0; row < 8; ++row) {
    const int rank = flipped ? row : 7 - row;
    if (options.coordinates) absl::StrAppend(&out, rank + 1, " ");
    for (int col = 0; col < 8; ++col) {
      const int file = flipped ? 7 - col : col;
      const Piece p = pos_.piece_on(MakeSquare(file, rank));
      if (col) out.push_back(' ');
      out.push_back(p == kNoPiece ? '.' : kChars[p]);
    }
    out.push_back('\n');
  }
  if (options.coordinates) {
    out += " ";
    for (int col = 0; col < 8; ++col) {
      out.push_back(' ');
      out.push_back(char('a' + (flipped ? 7 - col : col)));
    }
    out.push_back('\n');
  }
  return out;
}

uint64_t ChessState::Perft(int depth) const {
  Position copy = pos_;
  return chess::Perft(copy, depth);
}

std::vector<std::pair<std::string, uint64_t>> ChessState::PerftDivide(int depth) const {
  std::vector<std::pair<std::string, uint64_t>> out;
  if (depth < 1) return out;
  MoveList list;
  GenerateLegal(pos_, list);
  Position copy = pos_;
  for (Move m : list) {
    Position::Undo undo;
    copy.DoMove(m, undo);
    out.emplace_back(MoveToUci(m), chess::Perft(copy, depth - 1));
    copy.UndoMove(m, undo);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string ChessState::ToPgn(std::vector<std::pair<std::string, std::string>> tags,
                              std::vector<std::optional<int64_t>> clocks) const {
  PgnGame game;
  game.tags = std::move(tags);
  game.start_fen = start_.Fen();
  game.moves = moves_;
  game.clocks = std::move(clocks);
  game.result = outcome_.finished() ? outcome_.ResultText() : "*";
  return ExportPgn(game);
}

// --- What the game tells the layers above ---------------------------------------------------

std::vector<SeatInfo> ChessState::Seats() const {
  return {{"white", "#f4f1e8"}, {"black", "#26221e"}};
}

absl::StatusOr<ActionFacts> ChessState::DescribeAction(std::string_view action) const {
  // A legal move is described from the move itself; other well-formed UCI text from its two
  // squares (it need not be legal here).
  ActionFacts facts;
  facts.ends_turn = true;
  absl::StatusOr<Move> move = ParseMove(pos_, action);
  Square from = kNoSquare, to = kNoSquare;
  if (move.ok()) {
    from = move->from();
    to = move->to();
  } else if (action.size() == 4 || action.size() == 5) {
    auto square = [](std::string_view t) -> Square {
      if (t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8') return kNoSquare;
      return MakeSquare(t[0] - 'a', t[1] - '1');
    };
    from = square(action.substr(0, 2));
    to = square(action.substr(2, 2));
  }
  if (from == kNoSquare || to == kNoSquare) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", ToAbsl(action), "' is not a chess move (UCI such as e2e4, or SAN)"));
  }
  facts.cells = {SquareName(from), SquareName(to)};
  const Piece moving = pos_.piece_on(from);
  facts.irreversible = (moving != kNoPiece && TypeOf(moving) == kPawn) ||
                       pos_.piece_on(to) != kNoPiece || (move.ok() && move->kind() == kCastling);
  return facts;
}

RulesBrief ChessState::Brief() const {
  RulesBrief brief;
  brief.text =
      "Standard chess (FIDE laws of play). White moves first. The aim is to checkmate the other "
      "king; kings are never captured. Castling, en passant and promotion as usual. The game is "
      "drawn by stalemate, threefold repetition, the fifty-move rule or insufficient material, "
      "and either side may resign or offer a draw.";
  brief.formats = {{kActionMove, "UCI long algebraic: <from><to>[promotion], e.g. e2e4, e7e8q",
                    "Move one of your pieces; castling is the king's two-square step (e1g1)."}};
  return brief;
}

BoardView ChessState::Board(int perspective) const {
  static constexpr std::string_view kKinds[6] = {"pawn", "knight", "bishop",
                                                 "rook", "queen",  "king"};
  static constexpr std::string_view kSymbols = "PNBRQK";
  BoardView view;
  view.game = "chess";
  view.shape = "square";
  view.perspective = perspective == 1 ? 1 : 0;
  view.seats = Seats();
  const bool flipped = view.perspective == 1;
  for (int sq = 0; sq < 64; ++sq) {
    const Square s = Square(sq);
    const int col = flipped ? 7 - FileOf(s) : FileOf(s);
    const int row = flipped ? RankOf(s) : 7 - RankOf(s);
    view.cells.push_back({SquareName(s), double(col), double(row), (FileOf(s) + RankOf(s)) % 2});
    const Piece p = pos_.piece_on(s);
    if (p != kNoPiece) {
      view.pieces.push_back({SquareName(s), int(ColorOf(p)), std::string(kKinds[TypeOf(p)]),
                             std::string(1, kSymbols[TypeOf(p)]), false});
    }
  }
  view.to_move = ToMove();
  view.phase = Phase();
  return view;
}

std::string ChessState::ExportRecord(const RecordInfo& info) const {
  PgnGame game;
  game.tags = info.tags;
  game.start_fen = start_.Fen();
  game.moves = moves_;
  game.clocks = info.clocks;
  game.comments = info.comments;
  game.result = info.result && !outcome_.finished() ? *info.result
                : outcome_.finished()               ? outcome_.ResultText()
                                                    : "*";
  return ExportPgn(game);
}

const ChessGame& ChessGame::Instance() {
  static const ChessGame* game = new ChessGame();
  return *game;
}

absl::StatusOr<std::unique_ptr<State>> ChessGame::NewInitialState(const Variant& variant) const {
  if (absl::Status s = variant.CheckKeys(VariantKeys()); !s.ok()) return s;
  return std::unique_ptr<State>(std::make_unique<ChessState>(Position::StartPosition()));
}

absl::StatusOr<std::unique_ptr<State>> ChessGame::Parse(std::string_view text,
                                                        const Variant& variant) const {
  if (absl::Status s = variant.CheckKeys(VariantKeys()); !s.ok()) return s;
  auto state = ChessState::Parse(text);
  if (!state.ok()) return state.status();
  return std::unique_ptr<State>(std::move(*state));
}

}  // namespace arena::engine::chess

namespace arena::engine {
const Game& RegisteredGame_chess() {
  return chess::ChessGame::Instance();
}
}  // namespace arena::engine
