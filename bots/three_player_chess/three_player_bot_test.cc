// The three-player chess player through the bot dispatch: legal at every level, deterministic,
// greedy takes what hangs, the search takes a checkmate that inherits an army.
#include <algorithm>
#include <memory>
#include <random>

#include "bots/core/bot.h"
#include "bots/core/levels.h"
#include "engine/core/game.h"
#include "gtest/gtest.h"

namespace arena::bots {
namespace {

std::unique_ptr<engine::State> FromText(const std::string& text) {
  auto state = engine::FindGame("three-player-chess")->Parse(text, engine::Variant());
  EXPECT_TRUE(state.ok()) << state.status();
  return std::move(*state);
}

BotAnswer Ask(const engine::State& state, int level, uint64_t seed = 1) {
  BotRequest req;
  req.game = "three-player-chess";
  req.seat = state.ToMove();
  req.level = level;
  req.seed = seed;
  absl::StatusOr<BotAnswer> a = ChooseBotMoveForState(state, req);
  EXPECT_TRUE(a.ok()) << a.status();
  return a.ok() ? *a : BotAnswer{};
}

TEST(ThreePlayerChessBot, EveryLevelPlaysLegallyAndRepeatably) {
  std::unique_ptr<engine::State> state =
      *engine::FindGame("three-player-chess")->NewInitialState(engine::Variant());
  std::mt19937_64 rng(3);
  for (int ply = 0; ply < 30 && !state->IsTerminal(); ++ply) {
    const int level = ply % 4;  // 0..3 (level 4 is the same search with a larger budget)
    const BotAnswer a = Ask(*state, level, 9);
    const std::vector<std::string> legal = state->LegalActions();
    ASSERT_NE(std::find(legal.begin(), legal.end(), a.result.move), legal.end()) << a.result.move;
    EXPECT_EQ(Ask(*state, level, 9).result.move, a.result.move);
    ASSERT_TRUE(state->Apply(a.result.move).ok());
  }
  EXPECT_EQ(MaxLevel("three-player-chess", 3), 4);
}

TEST(ThreePlayerChessBot, GreedyTakesTheHangingQueen) {
  // The white rook looks up column A across the centre at the black queen.
  auto hanging = FromText("wR6wK/8/8/8/bK7/8/8/7bQ/7rK/8/8/8 w wbr - - 0 0 -");
  EXPECT_EQ(Ask(*hanging, 1).result.move, "A1A5");
}

TEST(ThreePlayerChessBot, SearchTakesTheCheckmateThatInheritsAnArmy) {
  // White's queen B5-B7 mates Black's king on A8 (the rook on B2 guards B7).
  auto state = FromText("4wK3/1wR6/8/8/6bNbK/8/8/bN5wQ1/7rK/7rP/8/8 w wbr - - 0 0 -");
  EXPECT_EQ(Ask(*state, 2).result.move, "B5B7");
}

}  // namespace
}  // namespace arena::bots
