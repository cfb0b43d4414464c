#include "engine/chestonia_chess/chestonia_chess_game.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/chestonia_chess/movegen.h"
#include "engine/chestonia_chess/notation.h"
#include "engine/hex/dart.h"

namespace arena::engine::chestonia_chess {
namespace {

// Reward types by zone: 1 a queen; 2 a rook, bishop or knight; 3 a pawn.
std::vector<int> RewardTypes(int zone) {
  if (zone == 1) return {kQueen};
  if (zone == 2) return {kRook, kBishop, kKnight};
  if (zone == 3) return {kPawn};
  return {};
}

absl::Status NotLegal(std::string_view action, std::string_view why) {
  return absl::FailedPreconditionError(
      absl::StrCat("'", ToAbsl(action), "' is not legal here: ", ToAbsl(why)));
}

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
  switch (pos_.phase) {
    case Phase::kOver: return kTerminalSeat;
    case Phase::kRoundChance:
    case Phase::kLanding: return kChanceSeat;
    default: return pos_.turn;
  }
}

std::string ChestoniaChessState::Phase() const {
  switch (pos_.phase) {
    case Phase::kRoundChance:
    case Phase::kLanding: return "chance";
    case Phase::kAim: return "dart-aim";
    case Phase::kPlacement: return "placement";
    case Phase::kPenalty: return "penalty";
    case Phase::kMove: return "move";
    case Phase::kOver: return "finished";
  }
  return "finished";
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
      for (int c = 0; c < g.size(); ++c) actions.push_back("aim " + CellName(c));
      break;
    case Phase::kPlacement: {
      actions.push_back("skip");
      for (int type : RewardTypes(pos_.reward_zone)) {
        pos_.layout().seats[pos_.turn].home_rows.ForEach([&](int c) {
          if (!pos_.cells[c]) {
            actions.push_back(absl::StrCat("place ", std::string(1, PieceLetter(type)), " ",
                                           CellName(c)));
          }
        });
      }
      break;
    }
    case Phase::kPenalty:
      pos_.PawnsOf(pos_.turn).ForEach([&](int c) { actions.push_back("penalty " + CellName(c)); });
      break;
    default: break;
  }
  std::sort(actions.begin(), actions.end());
  return actions;
}

std::vector<ChanceOutcome> ChestoniaChessState::ChanceOutcomes() const {
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

absl::Status ChestoniaChessState::Apply(std::string_view action) {
  Position next = pos_;
  auto after_word = [&](std::string_view word) -> std::string_view {
    return action.substr(word.size());
  };
  switch (pos_.phase) {
    case Phase::kOver: return absl::FailedPreconditionError("the game is over");
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
      } else if (absl::StartsWith(ToAbsl(action), "land ")) {
        absl::StatusOr<int> cell = ParseCell(after_word("land "));
        if (!cell.ok()) return cell.status();
        next.ApplyLanding(*cell);
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("expected land q,r or land miss, got '", ToAbsl(action), "'"));
      }
      break;
    case Phase::kAim: {
      if (!absl::StartsWith(ToAbsl(action), "aim ")) {
        return absl::InvalidArgumentError(
            absl::StrCat("expected aim q,r, got '", ToAbsl(action), "'"));
      }
      absl::StatusOr<int> cell = ParseCell(after_word("aim "));
      if (!cell.ok()) return cell.status();
      next.ApplyAim(*cell);
      break;
    }
    case Phase::kPlacement: {
      if (action == "skip") {
        next.ApplySkipPlacement();
        break;
      }
      if (!absl::StartsWith(ToAbsl(action), "place ") || action.size() < 9 || action[7] != ' ') {
        return absl::InvalidArgumentError(
            absl::StrCat("expected place <piece> q,r or skip, got '", ToAbsl(action), "'"));
      }
      const int type = PieceTypeFromLetter(action[6]);
      absl::StatusOr<int> cell = ParseCell(action.substr(8));
      if (type == kEmpty) return absl::InvalidArgumentError("unknown piece letter");
      if (!cell.ok()) return cell.status();
      const std::vector<int> allowed = RewardTypes(pos_.reward_zone);
      if (std::find(allowed.begin(), allowed.end(), type) == allowed.end()) {
        return NotLegal(action, "that piece is not this zone's reward");
      }
      if (!pos_.layout().seats[pos_.turn].home_rows.Test(*cell) || pos_.cells[*cell]) {
        return NotLegal(action, "rewards go on a free cell of your back row or pawn row");
      }
      next.ApplyPlacement(type, *cell);
      break;
    }
    case Phase::kPenalty: {
      if (!absl::StartsWith(ToAbsl(action), "penalty ")) {
        return absl::InvalidArgumentError(
            absl::StrCat("expected penalty q,r, got '", ToAbsl(action), "'"));
      }
      absl::StatusOr<int> cell = ParseCell(after_word("penalty "));
      if (!cell.ok()) return cell.status();
      if (!pos_.PawnsOf(pos_.turn).Test(*cell)) return NotLegal(action, "not one of your pawns");
      next.ApplyPenalty(*cell);
      break;
    }
    case Phase::kMove: {
      absl::StatusOr<Move> move = ParseMoveText(action);
      if (!move.ok()) return move.status();
      auto list = std::make_unique<MoveList>();
      GenerateLegalMoves(pos_, *list);
      if (std::find(list->begin(), list->end(), *move) == list->end()) {
        return NotLegal(action, "no such legal move");
      }
      next.ApplyMove(*move);
      break;
    }
  }
  ++next.action_count;
  pos_ = next;
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

std::string ChestoniaChessState::Serialize() const { return SerializePosition(pos_); }

uint64_t ChestoniaChessState::Hash() const {
  // FNV-1a over the serialization: equal states hash equally, across processes too.
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : Serialize()) h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::string ChestoniaChessState::Render(const RenderOptions& options) const {
  const int perspective =
      options.perspective >= 0 && options.perspective < pos_.rules.players ? options.perspective : 0;
  return RenderBoard(pos_, perspective, options.coordinates);
}

uint64_t ChestoniaChessState::Perft(int depth) const {
  // Perft counts board moves with darts off; with darts on the facade walk is used.
  if (pos_.rules.darts) return State::Perft(depth);
  return chestonia_chess::Perft(pos_, depth);
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
