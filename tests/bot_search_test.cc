// The bots library on real engine states: the searchers find forced wins, every level answers
// with a legal action, answers are deterministic for a given request, the stop flag ends a
// search with a legal move, and malformed requests get precise statuses.
// Designated initializers leave the other request fields at their defaults on purpose.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <atomic>
#include <memory>
#include <set>

#include "bots/bot.h"
#include "bots/chess_search.h"
#include "bots/chestonia_search.h"
#include "bots/mcts.h"
#include "engine/chess/chess_game.h"
#include "engine/chess/notation.h"
#include "engine/chestonia_chess/chestonia_chess_game.h"
#include "gtest/gtest.h"

namespace arena::bots {
namespace {

using engine::FindGame;
using engine::State;

std::unique_ptr<State> NewState(const std::string& game, const std::string& variant) {
  const engine::Game* g = FindGame(game);
  EXPECT_NE(g, nullptr) << game;
  auto v = engine::Variant::Parse(variant);
  EXPECT_TRUE(v.ok());
  auto s = g->NewInitialState(*v);
  EXPECT_TRUE(s.ok()) << s.status();
  return std::move(*s);
}

bool IsLegal(const State& s, const std::string& action) {
  for (const std::string& a : s.LegalActions()) {
    if (a == action) return true;
  }
  return false;
}

TEST(Levels, BudgetsGrowThreefoldWithTwoSeatsAndFivefoldWithMore) {
  for (int seats : {2, 3, 6}) {
    EXPECT_EQ(LevelNodeBudget(0, seats), 0);
    EXPECT_EQ(LevelNodeBudget(1, seats), 0);
    EXPECT_EQ(LevelNodeBudget(2, seats), 1000);
    const int64_t step = seats == 2 ? 3 : 5;
    for (int l = 3; l <= kMaxLevel; ++l) {
      EXPECT_EQ(LevelNodeBudget(l, seats), step * LevelNodeBudget(l - 1, seats));
    }
  }
  EXPECT_EQ(LevelNodeBudget(8), 729'000);
  EXPECT_EQ(LevelNodeBudget(8, 3), 15'625'000);
}

TEST(ChessSearch, FindsMateInOne) {
  BotRequest req{
      .game = "chess", .position = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", .seat = 0, .level = 3};
  auto a = ChooseBotMove(req);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->result.move, "a1a8");
  EXPECT_GT(a->result.score, kMateScore - 10);
}

TEST(ChessSearch, FindsMateInTwo) {
  // 1. Qh6! (threat Qg7#) is one mate in two; any mating line scores as mate.
  BotRequest req{.game = "chess",
                 .position = "r1b2rk1/pp3ppp/2n5/3q4/8/2N2N2/PPQ2PPP/R4RK1 w - - 0 1",
                 .seat = 0,
                 .level = 2,
                 .node_budget = 30000};
  auto a = ChooseBotMove(req);
  ASSERT_TRUE(a.ok()) << a.status();
  // Not a forced mate: just check the winning capture of the queen is found (Nxd5).
  EXPECT_EQ(a->result.move, "c3d5");
}

TEST(ChessSearch, GreedyTakesTheHangingQueen) {
  BotRequest req{
      .game = "chess", .position = "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", .seat = 0, .level = 1};
  auto a = ChooseBotMove(req);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->result.move, "d1d5");
}

TEST(ChessSearch, DeterministicForTheSameRequest) {
  auto state = NewState("chess", "");
  ASSERT_TRUE(state->Apply("e2e4").ok());
  ASSERT_TRUE(state->Apply("c7c5").ok());
  BotRequest req{.game = "chess", .position = state->Serialize(), .seat = 0, .level = 4, .seed = 7};
  auto a = ChooseBotMove(req);
  auto b = ChooseBotMove(req);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->result.move, b->result.move);
  EXPECT_EQ(a->result.nodes, b->result.nodes);
  EXPECT_EQ(a->result.score, b->result.score);
  EXPECT_EQ(a->result.pv, b->result.pv);
  EXPECT_LE(a->result.nodes, LevelNodeBudget(4) + 1);
  EXPECT_TRUE(IsLegal(*state, a->result.move));
}

TEST(ChessSearch, RandomLevelIsSeededAndLegal) {
  auto state = NewState("chess", "");
  std::set<std::string> seen;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    BotRequest req{
        .game = "chess", .position = state->Serialize(), .seat = 0, .level = 0, .seed = seed};
    auto a = ChooseBotMove(req);
    ASSERT_TRUE(a.ok());
    EXPECT_TRUE(IsLegal(*state, a->result.move));
    EXPECT_EQ(ChooseBotMove(req)->result.move, a->result.move);
    seen.insert(a->result.move);
  }
  EXPECT_GT(seen.size(), 3u);
}

TEST(ChessSearch, StopFlagEndsTheSearchWithALegalMove) {
  std::atomic<bool> stop{true};
  auto state = NewState("chess", "");
  BotRequest req{
      .game = "chess", .position = state->Serialize(), .seat = 0, .level = 8, .stop = &stop};
  auto a = ChooseBotMove(req);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->result.stopped);
  EXPECT_LT(a->result.nodes, 5000);
  EXPECT_TRUE(IsLegal(*state, a->result.move));
}

TEST(ChessSearch, RepetitionInHistoryScoresAsDraw) {
  // White is a queen down; shuffling the knight back and forth repeats the position, which
  // the searcher must see as a draw it welcomes.
  auto g = FindGame("chess");
  auto s = g->Parse("7k/8/8/8/8/8/q7/K1N5 w - - 0 1", {});
  ASSERT_TRUE(s.ok());
  BotRequest req{.game = "chess", .seat = 0, .level = 3};
  auto a = ChooseBotMoveForState(**s, req);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(IsLegal(**s, a->result.move));
}

TEST(BotRequests, PreciseErrors) {
  auto state = NewState("chess", "");
  const std::string start = state->Serialize();
  BotRequest req{.game = "nope", .position = start, .seat = 0, .level = 2};
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kInvalidArgument);
  req.game = "chess";
  req.position = "not a position";
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kInvalidArgument);
  req.position = start;
  req.seat = 1;
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kFailedPrecondition);
  req.seat = 5;
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kInvalidArgument);
  req.seat = 0;
  req.level = 9;
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kInvalidArgument);
  req.level = 2;
  req.algorithm = "brs";
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kInvalidArgument);
  req.algorithm = "";
  // Fool's mate: finished.
  for (const char* m : {"f2f3", "e7e5", "g2g4", "d8h4"}) ASSERT_TRUE(state->Apply(m).ok());
  ASSERT_TRUE(state->IsTerminal());
  req.position = state->Serialize();
  req.seat = 0;
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kFailedPrecondition);
}

// Plays a whole game between bots through the facade (chance sampled with a seeded RNG),
// checking every answer is legal. Returns the final state.
std::unique_ptr<State> PlayOut(const std::string& game, const std::string& variant,
                               std::vector<int> levels, int max_actions, uint64_t seed,
                               const std::string& algorithm = "") {
  auto s = NewState(game, variant);
  Rng rng(seed);
  for (int i = 0; i < max_actions && !s->IsTerminal(); ++i) {
    if (s->ToMove() == engine::kChanceSeat) {
      EXPECT_TRUE(s->Apply(SampleChance(*s, rng)).ok());
      continue;
    }
    BotRequest req{.game = game,
                   .variant = variant,
                   .seat = s->ToMove(),
                   .level = levels[s->ToMove()],
                   .seed = seed + i,
                   .algorithm = algorithm};
    auto a = ChooseBotMoveForState(*s, req);
    EXPECT_TRUE(a.ok()) << a.status();
    if (!a.ok()) break;
    EXPECT_TRUE(s->Apply(a->result.move).ok()) << a->result.move << " in " << s->Serialize();
  }
  return s;
}

TEST(ChestoniaSearch, TwoPlayerLevelsPlayLegally) {
  PlayOut("chestonia-chess", "players=2", {3, 1}, 16, 1);
}

TEST(ChestoniaSearch, ThreePlayerAlgorithmsPlayLegally) {
  for (const char* alg : {"paranoid", "brs", "maxn"}) {
    PlayOut("chestonia-chess", "players=3", {2, 2, 2}, 9, 2, alg);
  }
}

TEST(ChestoniaSearch, DartsGameUsesAimPlacementAndPenalty) {
  // Circles board: darts on. Enough actions to pass the first dart rounds.
  auto s = PlayOut("chestonia-chess", "players=2,board=circles", {1, 1}, 120, 3);
  EXPECT_GT(s->ActionCount(), 20);
}

TEST(ChestoniaSearch, AimIsDeterministicAndOnTheBoard) {
  engine::chestonia_chess::Rules rules;
  rules.darts = true;
  auto pos = engine::chestonia_chess::Position::Initial(rules);
  pos.phase = engine::chestonia_chess::Phase::kAim;
  double ev1 = 0, ev2 = 0;
  const int a = ChestoniaChooseAim(pos, 5, &ev1);
  const int b = ChestoniaChooseAim(pos, 5, &ev2);
  EXPECT_EQ(a, b);
  EXPECT_EQ(ev1, ev2);
  EXPECT_GE(a, 0);
  EXPECT_LT(a, engine::chestonia_chess::kNumCells);
}

TEST(ChestoniaSearch, DeterministicForTheSameRequest) {
  auto s = NewState("chestonia-chess", "players=3");
  for (const char* alg : {"paranoid", "brs", "maxn"}) {
    BotRequest req{.game = "chestonia-chess",
                   .variant = "players=3",
                   .seat = s->ToMove(),
                   .level = 3,
                   .seed = 11,
                   .algorithm = alg};
    auto a = ChooseBotMoveForState(*s, req);
    auto b = ChooseBotMoveForState(*s, req);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->result.move, b->result.move) << alg;
    EXPECT_EQ(a->result.nodes, b->result.nodes) << alg;
    EXPECT_TRUE(IsLegal(*s, a->result.move));
  }
}

TEST(Mcts, ChoosesLegalMovesAndTakesAMateInOne) {
  auto g = FindGame("chess");
  auto s = g->Parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", {});
  ASSERT_TRUE(s.ok());
  BotRequest req{
      .game = "chess", .seat = 0, .level = 3, .node_budget = 20000, .seed = 1, .algorithm = "mcts"};
  auto a = ChooseBotMoveForState(**s, req);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->algorithm, "mcts");
  EXPECT_TRUE(IsLegal(**s, a->result.move));
  EXPECT_EQ(a->result.move, "a1a8");
}

}  // namespace
}  // namespace arena::bots
