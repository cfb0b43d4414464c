#include "engine/chestonia_go/chestonia_go_game.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/chestonia_go/notation.h"
#include "engine/hex/chestonia_state.h"
#include "engine/hex/dart_round.h"

namespace arena::engine::chestonia_go {
namespace {

// A placement is "place q,r": the reward is always a stone.
constexpr hex::RewardLetters kStoneReward{};

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
  absl::StatusOr<hex::ChestoniaOptions> options = hex::ParseChestoniaOptions(
      variant, ChestoniaGoGame::Instance().VariantKeys(), BoardKind::kAlternating);
  if (!options.ok()) return options.status();
  Rules rules;
  hex::SetOptions(*options, rules);
  return rules;
}

// --- State ----------------------------------------------------------------------------------

std::unique_ptr<State> ChestoniaGoState::Clone() const {
  return std::make_unique<ChestoniaGoState>(pos_, history_);
}

int ChestoniaGoState::ToMove() const {
  return hex::SeatToAct(pos_.phase, pos_.turn);
}

std::string ChestoniaGoState::Phase() const {
  return std::string(hex::TurnPhaseName(pos_.phase));
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
  return hex::ChanceOutcomesOf(pos_.phase, pos_.dart(), BoardGrid());
}

absl::Status ChestoniaGoState::Apply(std::string_view action) {
  if (pos_.phase == Phase::kOver) return absl::FailedPreconditionError("the game is over");
  Position next = pos_;
  absl::Status applied =
      pos_.phase == Phase::kMove ? ApplyMoveText(action, next) : ApplyDartText(action, next);
  if (!applied.ok()) return applied;
  ++next.action_count;
  if (next.hash != pos_.hash) history_.Add(next.hash);
  pos_ = next;
  return absl::OkStatus();
}

absl::Status ChestoniaGoState::ApplyDartText(std::string_view action, Position& next) const {
  absl::StatusOr<hex::DartAction> dart =
      hex::ParseDartAction(pos_.phase, action, BoardGrid(), pos_.dart(), kStoneReward);
  if (!dart.ok()) return dart.status();
  if (hex::ApplySharedDartAction(*dart, next)) return absl::OkStatus();
  if (dart->kind == hex::DartAction::Kind::kPlace) {
    const std::string_view why = RefusalOfPlay(pos_, history_, dart->cell, pos_.turn);
    if (!why.empty()) return hex::NotLegalHere(action, why);
    next.ApplyPlacement(dart->cell);
  } else {
    if (pos_.stone[dart->cell] != pos_.turn + 1) {
      return hex::NotLegalHere(action, "not one of your stones");
    }
    next.ApplyPenalty(dart->cell);
  }
  return absl::OkStatus();
}

absl::Status ChestoniaGoState::ApplyMoveText(std::string_view action, Position& next) const {
  if (action == "pass") {
    next.ApplyPass();
    return absl::OkStatus();
  }
  absl::StatusOr<int> cell = ParseCell(action);
  if (!cell.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected a cell q,r or pass, got '", ToAbsl(action), "'"));
  }
  const std::string_view why = RefusalOfPlay(pos_, history_, *cell, pos_.turn);
  if (!why.empty()) return hex::NotLegalHere(action, why);
  next.ApplyPlay(*cell);
  return absl::OkStatus();
}

absl::Status ChestoniaGoState::ApplySeatEvent(int seat, SeatEvent event) {
  const uint64_t before = pos_.hash;
  absl::Status applied = hex::ApplyChestoniaSeatEvent(pos_, seat, event, ToMove());
  // A time-out's penalty stone changes the board, which superko remembers.
  if (applied.ok() && pos_.hash != before) history_.Add(pos_.hash);
  return applied;
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
  return hex::TextHash(Serialize());
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
  return hex::SeatInfos(pos_.rules.players);
}

absl::StatusOr<ActionFacts> ChestoniaGoState::DescribeAction(std::string_view action) const {
  if (auto dart = hex::DescribeDartAction(action, BoardGrid(), kStoneReward)) return *dart;
  ActionFacts facts;
  if (action == "pass") {
    facts.kind = kActionPass;
    facts.ends_turn = true;
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
  return facts;
}

RulesBrief ChestoniaGoState::Brief() const {
  const Rules& r = pos_.rules;
  RulesBrief brief;
  const std::string seats = hex::SeatList(Seats());
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
  BoardView view = hex::ChestoniaBoardView("chestonia-go", r.players, perspective, r.board);
  std::array<int8_t, kNumCells> owner;
  pos_.Areas(&owner);
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (pos_.stone[cell] == 0) view.cells[cell].territory = owner[cell];
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
