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

BotAnswer Ask(const engine::State& state, int level, uint64_t seed = 1,
              const std::string& algorithm = "", int max_depth = 0) {
  BotRequest req;
  req.game = "three-player-chess";
  req.seat = state.ToMove();
  req.level = level;
  req.seed = seed;
  req.algorithm = algorithm;
  req.max_depth = max_depth;
  absl::StatusOr<BotAnswer> a = ChooseBotMoveForState(state, req);
  EXPECT_TRUE(a.ok()) << a.status();
  return a.ok() ? *a : BotAnswer{};
}

TEST(ThreePlayerChessBot, EveryLevelPlaysLegallyAndRepeatably) {
  std::unique_ptr<engine::State> state =
      *engine::FindGame("three-player-chess")->NewInitialState(engine::Variant());
  std::mt19937_64 rng(3);
  for (int ply = 0; ply < 30 && !state->IsTerminal(); ++ply) {
    const int level = ply % 3;  // 0..2 (level 3 is the same search with a larger budget)
    const BotAnswer a = Ask(*state, level, 9);
    const std::vector<std::string> legal = state->LegalActions();
    ASSERT_NE(std::find(legal.begin(), legal.end(), a.result.move), legal.end()) << a.result.move;
    EXPECT_EQ(Ask(*state, level, 9).result.move, a.result.move);
    if (level >= 2) {
      const BotAnswer brs = Ask(*state, level, 9, "brs");
      EXPECT_EQ(brs.algorithm, "brs");
      EXPECT_NE(std::find(legal.begin(), legal.end(), brs.result.move), legal.end());
    }
    ASSERT_TRUE(state->Apply(a.result.move).ok());
  }
  EXPECT_EQ(MaxLevel("three-player-chess", 3), 3);
}

TEST(ThreePlayerChessBot, GreedyTakesTheHangingQueen) {
  // The white rook looks up column A across the centre at the black queen.
  auto hanging = FromText("wR6wK/8/8/8/bK7/8/8/7bQ/7rK/8/8/8 w wbr - - 0 0 -");
  EXPECT_EQ(Ask(*hanging, 1).result.move, "A1A5");
}

TEST(ThreePlayerChessBot, QuiescenceSeesTheRecaptureGreedyMisses) {
  // White's queen on D1 can take the black knight on D3, which the knight on B4 guards; the
  // rook on A1 (and the queen) can take the unguarded pawn on A4. Greedy takes the knight and
  // loses the queen; the search, even one ply deep, resolves the recapture in quiescence.
  auto state = FromText("wR2wQ3wK/8/3bN4/bPbN6/4bK3/8/8/8/4rK3/8/8/8 w wbr - - 0 0 -");
  EXPECT_EQ(Ask(*state, 1).result.move, "D1D3");
  for (const std::string algorithm : {"paranoid", "brs"}) {
    const BotAnswer one_ply = Ask(*state, 2, 1, algorithm, /*max_depth=*/1);
    EXPECT_EQ(one_ply.result.depth, 1);
    EXPECT_TRUE(one_ply.result.move == "A1A4" || one_ply.result.move == "D1A4")
        << algorithm << " " << one_ply.result.move;
    const std::string deep = Ask(*state, 3, 1, algorithm).result.move;  // the top level
    EXPECT_TRUE(deep == "A1A4" || deep == "D1A4") << algorithm << " " << deep;
  }
}

TEST(ThreePlayerChessBot, SearchTakesTheCheckmateThatInheritsAnArmy) {
  // White's queen B5-B7 mates Black's king on A8 (the rook on B2 guards B7).
  auto state = FromText("4wK3/1wR6/8/8/6bNbK/8/8/bN5wQ1/7rK/7rP/8/8 w wbr - - 0 0 -");
  EXPECT_EQ(Ask(*state, 2).result.move, "B5B7");
  EXPECT_EQ(Ask(*state, 2, 1, "brs").result.move, "B5B7");
}

}  // namespace
}  // namespace arena::bots
