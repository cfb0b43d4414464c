#include "engine/toy/hex_tictactoe.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace arena::engine::toy {
namespace {

constexpr char kMarks[2] = {'x', 'o'};

absl::StatusOr<std::pair<int, int>> SizeOf(const Variant& variant) {
  if (absl::Status s = variant.CheckKeys(HexTicTacToeGame::Instance().VariantKeys()); !s.ok())
    return s;
  absl::StatusOr<int> radius = variant.GetInt("radius", 2);
  if (!radius.ok()) return radius.status();
  absl::StatusOr<int> line = variant.GetInt("line", 3);
  if (!line.ok()) return line.status();
  if (*radius < 1 || *radius > 4) return absl::InvalidArgumentError("radius must be 1..4");
  if (*line < 2 || *line > 2 * *radius + 1) {
    return absl::InvalidArgumentError("line must be 2..(2 radius + 1)");
  }
  return std::make_pair(*radius, *line);
}

}  // namespace

HexTicTacToeState::HexTicTacToeState(int radius, int line)
    : grid_(&hex::Grid::Get(radius)), line_(line), stones_(grid_->size(), -1) {}

std::unique_ptr<State> HexTicTacToeState::Clone() const {
  return std::make_unique<HexTicTacToeState>(*this);
}

int HexTicTacToeState::ToMove() const {
  return outcome_.finished() ? kTerminalSeat : placed_ % 2;
}

std::string HexTicTacToeState::Phase() const {
  return outcome_.finished() ? "finished" : "move";
}

std::vector<std::string> HexTicTacToeState::LegalActions() const {
  std::vector<std::string> out;
  if (outcome_.finished()) return out;
  for (int c = 0; c < grid_->size(); ++c) {
    if (stones_[c] < 0) out.push_back(hex::CellText(grid_->At(c)));
  }
  return out;
}

absl::Status HexTicTacToeState::Apply(std::string_view action) {
  absl::StatusOr<hex::Axial> a = hex::ParseCellText(action);
  if (!a.ok()) return a.status();
  const int cell = grid_->Index(*a);
  if (cell < 0) return absl::InvalidArgumentError("that cell is off the board");
  if (outcome_.finished()) return absl::FailedPreconditionError("the game is over");
  if (stones_[cell] >= 0) return absl::FailedPreconditionError("that cell is taken");
  stones_[cell] = static_cast<int8_t>(ToMove());
  ++placed_;
  CheckEnd(cell);
  return absl::OkStatus();
}

void HexTicTacToeState::CheckEnd(int cell) {
  const int seat = stones_[cell];
  for (int dir = 0; dir < 3; ++dir) {  // the three straight axes
    int run = 1;
    for (int d : {dir, dir + 3}) {
      for (int c = grid_->Step(cell, d); c >= 0 && stones_[c] == seat; c = grid_->Step(c, d)) ++run;
    }
    if (run >= line_) {
      outcome_ = {Outcome::Kind::kWin, {seat}, {seat == 0 ? 0 : 1, seat == 1 ? 0 : 1}, "line"};
      return;
    }
  }
  if (placed_ == grid_->size()) outcome_ = {Outcome::Kind::kDraw, {}, {0, 0}, "board-full"};
}

absl::Status HexTicTacToeState::ApplySeatEvent(int seat, SeatEvent event) {
  if (seat != 0 && seat != 1) return absl::InvalidArgumentError("no such seat");
  if (outcome_.finished()) return absl::FailedPreconditionError("the game is over");
  if (event != SeatEvent::kResign && event != SeatEvent::kTimeout) {
    return absl::FailedPreconditionError("hex tic-tac-toe has no draw offers");
  }
  const int other = 1 - seat;
  outcome_ = {Outcome::Kind::kWin,
              {other},
              {other == 0 ? 0 : 1, other == 1 ? 0 : 1},
              event == SeatEvent::kResign ? "resignation" : "timeout"};
  return absl::OkStatus();
}

std::string HexTicTacToeState::Serialize() const {
  std::string stones;
  for (int8_t s : stones_) stones += s < 0 ? '.' : kMarks[s];
  std::string text = absl::StrCat("hex-tictactoe ", grid_->radius(), " ", line_, " ", stones);
  if (outcome_.finished()) {
    absl::StrAppend(&text, " ", outcome_.reason, ":",
                    outcome_.winners.empty() ? "-" : std::string(1, kMarks[outcome_.winners[0]]));
  }
  return text;
}

absl::StatusOr<std::unique_ptr<HexTicTacToeState>> HexTicTacToeState::Parse(std::string_view text) {
  std::vector<std::string> f = absl::StrSplit(absl::string_view(text.data(), text.size()), ' ');
  int radius = 0, line = 0;
  if (f.size() < 4 || f.size() > 5 || f[0] != "hex-tictactoe" || f[1].size() != 1 ||
      f[2].size() != 1 || (radius = f[1][0] - '0') < 1 || radius > 4 ||
      (line = f[2][0] - '0') < 2 || line > 2 * radius + 1) {
    return absl::InvalidArgumentError("not a hex-tictactoe position");
  }
  auto state = std::make_unique<HexTicTacToeState>(radius, line);
  if (static_cast<int>(f[3].size()) != state->grid_->size()) {
    return absl::InvalidArgumentError("wrong number of cells");
  }
  int count[2] = {0, 0};
  for (size_t c = 0; c < f[3].size(); ++c) {
    const char m = f[3][c];
    if (m == '.') continue;
    if (m != 'x' && m != 'o') return absl::InvalidArgumentError("cells are x, o or .");
    state->stones_[c] = m == 'x' ? 0 : 1;
    ++count[m == 'x' ? 0 : 1];
  }
  if (count[1] != count[0] && count[1] != count[0] - 1) {
    return absl::InvalidArgumentError("cross moves first: the stone counts do not fit");
  }
  state->placed_ = count[0] + count[1];
  if (f.size() == 5) {
    std::vector<std::string> end = absl::StrSplit(f[4], ':');
    if (end.size() != 2) return absl::InvalidArgumentError("bad outcome field");
    if (end[1] == "-") {
      state->outcome_ = {Outcome::Kind::kDraw, {}, {0, 0}, end[0]};
    } else if (end[1] == "x" || end[1] == "o") {
      const int w = end[1] == "x" ? 0 : 1;
      state->outcome_ = {Outcome::Kind::kWin, {w}, {w == 0 ? 0 : 1, w == 1 ? 0 : 1}, end[0]};
    } else {
      return absl::InvalidArgumentError("bad outcome field");
    }
  }
  return state;
}

uint64_t HexTicTacToeState::Hash() const {
  uint64_t h = 1469598103934665603ull;
  for (char c : Serialize()) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

std::string HexTicTacToeState::Render(const RenderOptions& options) const {
  return DrawBoardText(Board(options.perspective), options.coordinates);
}

std::vector<SeatInfo> HexTicTacToeState::Seats() const {
  return {{"cross", "#c0392b"}, {"nought", "#2f6fd0"}};
}

absl::StatusOr<ActionFacts> HexTicTacToeState::DescribeAction(std::string_view action) const {
  absl::StatusOr<hex::Axial> a = hex::ParseCellText(action);
  if (!a.ok()) return a.status();
  ActionFacts facts;
  facts.kind = kActionMove;
  facts.cells = {hex::CellText(*a)};
  facts.ends_turn = true;
  facts.irreversible = true;
  return facts;
}

RulesBrief HexTicTacToeState::Brief() const {
  RulesBrief brief;
  brief.text = absl::StrCat(
      "Hex tic-tac-toe on a hexagonal board of ", grid_->size(),
      " cells (cells written q,r with max(|q|, |r|, |q+r|) <= ", grid_->radius(),
      "). Cross moves first; the players take turns placing a stone on any empty cell. The "
      "first to have ",
      line_,
      " stones in an unbroken row along one of the three straight axes wins; a full "
      "board without such a row is a draw.");
  brief.formats = {{kActionMove, "<q,r>, e.g. 0,0", "Place your stone on that empty cell."}};
  return brief;
}

BoardView HexTicTacToeState::Board(int perspective) const {
  BoardView view;
  view.game = "hex-tictactoe";
  view.shape = "hex";
  view.perspective = perspective == 1 ? 1 : 0;
  view.seats = Seats();
  for (int c = 0; c < grid_->size(); ++c) {
    const hex::Axial v = hex::Rotate(grid_->At(c), view.perspective * 3);
    const std::string id = hex::CellText(grid_->At(c));
    view.cells.push_back({id, std::sqrt(3.0) * (v.q + v.r / 2.0), 1.5 * v.r, 0});
    if (stones_[c] >= 0) {
      view.pieces.push_back({id, stones_[c], "stone", stones_[c] == 0 ? "X" : "O", false});
    }
  }
  view.to_move = ToMove();
  view.phase = Phase();
  return view;
}

const HexTicTacToeGame& HexTicTacToeGame::Instance() {
  static const HexTicTacToeGame* game = new HexTicTacToeGame();
  return *game;
}

absl::StatusOr<std::unique_ptr<State>> HexTicTacToeGame::NewInitialState(
    const Variant& variant) const {
  absl::StatusOr<std::pair<int, int>> size = SizeOf(variant);
  if (!size.ok()) return size.status();
  return std::make_unique<HexTicTacToeState>(size->first, size->second);
}

absl::StatusOr<std::unique_ptr<State>> HexTicTacToeGame::Parse(std::string_view text,
                                                               const Variant& variant) const {
  absl::StatusOr<std::pair<int, int>> size = SizeOf(variant);
  if (!size.ok()) return size.status();
  auto state = HexTicTacToeState::Parse(text);
  if (!state.ok()) return state.status();
  if ((*state)->grid_->radius() != size->first || (*state)->line_ != size->second) {
    return absl::InvalidArgumentError("the position's radius or line is not the variant's");
  }
  return std::unique_ptr<State>(std::move(*state));
}

}  // namespace arena::engine::toy

namespace arena::engine {
const Game& RegisteredGame_toy() {
  return toy::HexTicTacToeGame::Instance();
}
}  // namespace arena::engine
