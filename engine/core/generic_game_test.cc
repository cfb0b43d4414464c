// Tests every registered game passes: random games to the end, serialize round-trip at every
// step, refusal of garbage without change, and replay from the action log.
#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>

#include "engine/core/game.h"
#include "gtest/gtest.h"

namespace arena::engine {
namespace {

int GamesPerVariant() {
  const char* env = std::getenv("ARENA_GENERIC_GAMES");
  return env ? std::max(1, std::atoi(env)) : 6;
}

constexpr int kMaxActions = 1500;

std::string PickChance(const State& state, std::mt19937_64& rng) {
  std::vector<ChanceOutcome> outcomes = state.ChanceOutcomes();
  EXPECT_FALSE(outcomes.empty()) << "chance node without outcomes";
  double total = 0;
  for (const auto& o : outcomes) total += o.probability;
  EXPECT_NEAR(total, 1.0, 1e-9);
  double x = std::uniform_real_distribution<double>(0, total)(rng);
  for (const auto& o : outcomes) {
    if (x < o.probability) return o.action;
    x -= o.probability;
  }
  return outcomes.back().action;
}

void CheckRoundTrip(const Game& game, const Variant& variant, const State& state) {
  std::string text = state.Serialize();
  auto parsed = game.Parse(text, variant);
  ASSERT_TRUE(parsed.ok()) << parsed.status() << "\n" << text;
  EXPECT_EQ((*parsed)->Serialize(), text);
  EXPECT_EQ((*parsed)->Hash(), state.Hash());
  EXPECT_EQ((*parsed)->ToMove(), state.ToMove());
  EXPECT_EQ((*parsed)->Phase(), state.Phase());
  EXPECT_EQ((*parsed)->LegalActions(), state.LegalActions());
}

// What the facade says about a state agrees with the state itself: seats, board view, action
// facts, rules brief, piece actions.
void CheckDescription(const State& state, std::set<std::string>* phases_seen) {
  ASSERT_EQ(static_cast<int>(state.Seats().size()), state.NumSeats());
  for (const SeatInfo& seat : state.Seats()) {
    EXPECT_FALSE(seat.name.empty());
    EXPECT_FALSE(seat.colour.empty());
  }
  const BoardView view = state.Board(0);
  EXPECT_EQ(view.game, state.GameId());
  EXPECT_TRUE(view.shape == "hex" || view.shape == "square") << view.shape;
  EXPECT_EQ(view.to_move, state.ToMove());
  EXPECT_EQ(view.phase, state.Phase());
  std::set<std::string> cells;
  for (const BoardCell& c : view.cells) EXPECT_TRUE(cells.insert(c.id).second) << c.id;
  std::set<std::string> occupied;
  for (const BoardPiece& p : view.pieces) {
    EXPECT_TRUE(cells.count(p.cell)) << "piece on unknown cell " << p.cell;
    EXPECT_TRUE(occupied.insert(p.cell).second) << "two pieces on " << p.cell;
    EXPECT_GE(p.seat, 0);
    EXPECT_LT(p.seat, state.NumSeats());
    EXPECT_FALSE(p.kind.empty());
    EXPECT_EQ(p.symbol.size(), 1u);
  }
  // The view turned to another seat has the same cells and pieces, moved.
  const BoardView other = state.Board(state.NumSeats() - 1);
  EXPECT_EQ(other.cells.size(), view.cells.size());
  EXPECT_EQ(other.pieces.size(), view.pieces.size());
  auto json = BoardView::FromJson(view.ToJson());
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_EQ(json->ToJson(), view.ToJson());
  EXPECT_FALSE(DrawBoardText(view, true).empty());

  const RulesBrief brief = state.Brief();
  EXPECT_FALSE(brief.text.empty());
  if (state.ToMove() >= 0) {
    phases_seen->insert(state.Phase());
    bool described = false;
    for (const ActionFormat& f : brief.formats) described |= f.kind == state.Phase();
    EXPECT_TRUE(described) << "the brief has no format for the phase " << state.Phase();
  }
  std::set<std::string> moved_from;
  for (const std::string& action : state.LegalActions()) {
    absl::StatusOr<ActionFacts> facts = state.DescribeAction(action);
    ASSERT_TRUE(facts.ok()) << facts.status() << " describing " << action;
    // A pass is the one action of another kind a phase may offer: it is how a move is declined.
    if (!(facts->kind == kActionPass && state.Phase() == kActionMove)) {
      EXPECT_EQ(facts->kind, state.Phase()) << action;
    }
    EXPECT_EQ(facts->ends_turn, facts->kind == kActionMove || facts->kind == kActionPass) << action;
    for (const std::string& c : facts->cells) EXPECT_TRUE(cells.count(c)) << action << " " << c;
    if (facts->kind == kActionMove && !facts->cells.empty()) moved_from.insert(facts->cells[0]);
  }
  for (const ChanceOutcome& o : state.ChanceOutcomes()) {
    absl::StatusOr<ActionFacts> facts = state.DescribeAction(o.action);
    ASSERT_TRUE(facts.ok()) << facts.status() << " describing " << o.action;
    EXPECT_FALSE(facts->ends_turn) << o.action;
  }
  // Beginner highlighting: the piece actions of an origin are exactly the moves from it (two
  // origins per position keep the test's cost linear).
  if (moved_from.size() > 2) moved_from.erase(std::next(moved_from.begin(), 2), moved_from.end());
  // They are exactly the legal actions from that cell (the game's own bounded listing agrees
  // with filtering the whole list while the list is short).
  for (const std::string& from : moved_from) {
    std::vector<std::string> expected;
    for (const std::string& a : state.LegalActions()) {
      const absl::StatusOr<ActionFacts> facts = state.DescribeAction(a);
      if (facts.ok() && !facts->cells.empty() && facts->cells.front() == from) {
        expected.push_back(a);
      }
    }
    std::vector<std::string> got = PieceActions(state, from);
    std::sort(expected.begin(), expected.end());
    std::sort(got.begin(), got.end());
    if (expected.size() <= static_cast<size_t>(kMaxPieceActions)) {
      EXPECT_EQ(got, expected) << from;
    }
    EXPECT_FALSE(got.empty());
  }
  EXPECT_FALSE(state.DescribeAction("not a move !!").ok());
}

class GenericGameTest : public testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(GenericGameTest, RandomGamesRoundTripAndReplay) {
  const auto& [game_id, variant_text] = GetParam();
  const Game* game = FindGame(game_id);
  ASSERT_NE(game, nullptr);
  auto variant = Variant::Parse(variant_text);
  ASSERT_TRUE(variant.ok());
  std::mt19937_64 rng(std::hash<std::string>{}(game_id + variant_text));
  int finished = 0;
  std::set<std::string> phases_seen;
  for (int g = 0; g < GamesPerVariant(); ++g) {
    auto initial = game->NewInitialState(*variant);
    ASSERT_TRUE(initial.ok()) << initial.status();
    std::unique_ptr<State> state = (*initial)->Clone();
    std::vector<std::string> log;
    for (int n = 0; n < kMaxActions && !state->IsTerminal(); ++n) {
      ASSERT_EQ(state->ActionCount(), static_cast<int>(log.size()));
      CheckRoundTrip(*game, *variant, *state);
      if (n % 9 == 0) CheckDescription(*state, &phases_seen);
      if (HasFatalFailure()) return;
      std::string action;
      if (state->ToMove() == kChanceSeat) {
        action = PickChance(*state, rng);
      } else {
        std::vector<std::string> legal = state->LegalActions();
        ASSERT_FALSE(legal.empty()) << "no legal action but not finished:\n" << state->Serialize();
        action = legal[rng() % legal.size()];
      }
      if (n % 17 == 0) {
        std::string before = state->Serialize();
        EXPECT_FALSE(state->Apply("not a move !!").ok());
        EXPECT_EQ(state->Serialize(), before) << "a refused action changed the state";
      }
      absl::Status s = state->Apply(action);
      ASSERT_TRUE(s.ok()) << s << " applying '" << action << "' to\n" << state->Serialize();
      log.push_back(action);
    }
    if (state->IsTerminal()) {
      ++finished;
      EXPECT_TRUE(state->LegalActions().empty());
      EXPECT_EQ(state->ToMove(), kTerminalSeat);
      EXPECT_FALSE(state->GetOutcome().reason.empty());
    }
    // Replay from the log gives the same state.
    std::unique_ptr<State> replay = (*initial)->Clone();
    for (const std::string& action : log) ASSERT_TRUE(replay->Apply(action).ok()) << action;
    EXPECT_EQ(replay->Serialize(), state->Serialize());
    EXPECT_EQ(replay->Hash(), state->Hash());
  }
  RecordProperty("finished", finished);
}

std::vector<std::pair<std::string, std::string>> AllVariants() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Game* game : AllGames()) {
    for (const std::string& v : game->ExampleVariants()) out.emplace_back(game->Id(), v);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllGames, GenericGameTest, testing::ValuesIn(AllVariants()),
                         [](const auto& info) {
                           std::string name = info.param.first + "_" + info.param.second;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name + "_" + std::to_string(info.index);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GenericGameTest);

}  // namespace
}  // namespace arena::engine
