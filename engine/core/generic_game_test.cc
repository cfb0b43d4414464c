// Tests every registered game passes: random games to the end, serialize round-trip at every
// step, refusal of garbage without change, and replay from the action log.
#include <cstdlib>
#include <random>

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

class GenericGameTest : public testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(GenericGameTest, RandomGamesRoundTripAndReplay) {
  const auto& [game_id, variant_text] = GetParam();
  const Game* game = FindGame(game_id);
  ASSERT_NE(game, nullptr);
  auto variant = Variant::Parse(variant_text);
  ASSERT_TRUE(variant.ok());
  std::mt19937_64 rng(std::hash<std::string>{}(game_id + variant_text));
  int finished = 0;
  for (int g = 0; g < GamesPerVariant(); ++g) {
    auto initial = game->NewInitialState(*variant);
    ASSERT_TRUE(initial.ok()) << initial.status();
    std::unique_ptr<State> state = (*initial)->Clone();
    std::vector<std::string> log;
    for (int n = 0; n < kMaxActions && !state->IsTerminal(); ++n) {
      ASSERT_EQ(state->ActionCount(), static_cast<int>(log.size()));
      CheckRoundTrip(*game, *variant, *state);
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
