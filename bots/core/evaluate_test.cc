// EvaluateMove on real positions: a free queen left, a mate missed and the best move itself are
// judged as they should be; three seats report only the preferred move; bad requests are refused.
#include "bots/core/evaluate.h"

#include <memory>
#include <string>

#include "bots/core/levels.h"
#include "engine/core/game.h"
#include "gtest/gtest.h"

namespace arena::bots {
namespace {

BotRequest Chess(const std::string& fen) {
  BotRequest r;
  r.game = "chess";
  r.position = fen;
  r.seat = 0;
  r.level = 4;
  r.seed = 7;
  return r;
}

// White to move; the black queen on d5 is free to the e4 pawn.
constexpr char kFreeQueen[] = "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1";
// White to move; Ra8 is mate.
constexpr char kMateInOne[] = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";

TEST(EvaluateMove, LeavingAFreeQueenIsABlunderAndTakingItLosesNothing) {
  auto kept = EvaluateMove(Chess(kFreeQueen), "e1f2");
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(kept->best_move, "e4d5");
  EXPECT_FALSE(kept->matched);
  ASSERT_TRUE(kept->has_loss);
  EXPECT_GT(kept->loss_cp, 700);
  EXPECT_EQ(kept->mark, "blunder");
  EXPECT_GT(kept->share_lost, kBlunderShare);

  auto taken = EvaluateMove(Chess(kFreeQueen), "e4d5");
  ASSERT_TRUE(taken.ok()) << taken.status();
  EXPECT_TRUE(taken->matched);
  ASSERT_TRUE(taken->has_loss);
  EXPECT_EQ(taken->loss_cp, 0);
  EXPECT_EQ(taken->mark, "");
  EXPECT_GE(taken->played_cp, 0);                      // the queen is gone: a pawn up
  EXPECT_GT(taken->played_cp - kept->played_cp, 700);  // against a queen down
}

TEST(EvaluateMove, AMateIsWorthTheWinAndMissingItIsMarked) {
  auto mate = EvaluateMove(Chess(kMateInOne), "a1a8");
  ASSERT_TRUE(mate.ok()) << mate.status();
  EXPECT_TRUE(mate->matched);
  EXPECT_EQ(mate->played_cp, 30000);
  EXPECT_EQ(mate->loss_cp, 0);

  // A quiet rook move keeps a won ending won on material but gives the mate away.
  auto missed = EvaluateMove(Chess(kMateInOne), "a1b1");
  ASSERT_TRUE(missed.ok()) << missed.status();
  EXPECT_EQ(missed->best_move, "a1a8");
  EXPECT_EQ(missed->best_cp, 30000);
  EXPECT_LT(missed->played_cp, 30000);
  EXPECT_GT(missed->loss_cp, 0);
  EXPECT_NE(missed->mark, "");
}

TEST(EvaluateMove, TheDefaultLevelIsTheGamesTopWithinItsBudget) {
  BotRequest r = Chess(kFreeQueen);
  r.level = 0;
  auto e = EvaluateMove(r, "e4d5");
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_TRUE(e->matched);
  EXPECT_GT(e->nodes, 0);
  EXPECT_LE(e->nodes, 2 * 81'000 + 1000);  // the root and one child, each within its budget
}

TEST(EvaluateMove, EveryTwoSeatGameJudgesItsOwnBestMoveAsLosingNothing) {
  for (const engine::Game* g : engine::AllGames()) {
    if (g->MinSeats() > 2) continue;
    auto variant = engine::Variant::Parse("");
    ASSERT_TRUE(variant.ok());
    auto state = g->NewInitialState(*variant);
    if (!state.ok() || (*state)->NumSeats() != 2 || (*state)->ToMove() < 0) continue;
    BotRequest r;
    r.game = std::string(g->Id());
    r.seat = (*state)->ToMove();
    r.level = 2;
    r.node_budget = 1500;
    auto first = ChooseBotMoveForState(**state, r);
    ASSERT_TRUE(first.ok()) << g->Id() << ": " << first.status();
    auto e = EvaluateMoveForState(**state, r, first->result.move);
    ASSERT_TRUE(e.ok()) << g->Id() << ": " << e.status();
    EXPECT_TRUE(e->matched) << g->Id();
    if (e->has_loss) {
      EXPECT_EQ(e->loss_cp, 0) << g->Id();
      EXPECT_EQ(e->mark, "") << g->Id();
    }
    // Any other legal move loses nothing or something, never less than nothing.
    const auto legal = (*state)->LegalActions();
    ASSERT_FALSE(legal.empty());
    auto other = EvaluateMoveForState(**state, r, legal.back());
    ASSERT_TRUE(other.ok()) << g->Id() << ": " << other.status();
    if (other->has_loss) {
      EXPECT_GE(other->loss_cp, 0) << g->Id();
      EXPECT_GE(other->share_lost, 0) << g->Id();
    }
  }
}

TEST(EvaluateMove, ThreeSeatsGiveTheBestMoveButNoLoss) {
  BotRequest r;
  r.game = "three-player-chess";
  r.level = 2;
  r.node_budget = 1000;
  const engine::Game* g = engine::FindGame(r.game);
  ASSERT_NE(g, nullptr);
  auto state = g->NewInitialState(*engine::Variant::Parse(""));
  ASSERT_TRUE(state.ok());
  r.position = (*state)->Serialize();
  const std::string played = (*state)->LegalActions().front();
  auto e = EvaluateMove(r, played);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_FALSE(e->has_loss);
  EXPECT_EQ(e->mark, "");
  EXPECT_TRUE((*state)->Apply(e->best_move).ok()) << e->best_move;
}

TEST(EvaluateMove, BadRequestsAreRefusedPrecisely) {
  EXPECT_EQ(EvaluateMove(Chess(kFreeQueen), "e4e6").status().code(),
            absl::StatusCode::kInvalidArgument);  // not legal
  EXPECT_EQ(EvaluateMove(Chess(kFreeQueen), "zz").status().code(),
            absl::StatusCode::kInvalidArgument);  // not a move
  EXPECT_EQ(EvaluateMove(Chess("not a position"), "e4d5").status().code(),
            absl::StatusCode::kInvalidArgument);
  BotRequest black = Chess(kFreeQueen);
  black.seat = 1;  // not to move
  EXPECT_EQ(EvaluateMove(black, "d5e4").status().code(), absl::StatusCode::kFailedPrecondition);
  BotRequest unknown = Chess(kFreeQueen);
  unknown.game = "tiddlywinks";
  EXPECT_EQ(EvaluateMove(unknown, "e4d5").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(WinShare, GrowsWithTheValueAndMarksReadItsDrop) {
  EXPECT_DOUBLE_EQ(WinShare(0), 50.0);
  EXPECT_NEAR(WinShare(200), 67.6, 0.5);
  EXPECT_LT(WinShare(-300), WinShare(-100));
  EXPECT_NEAR(WinShare(30000), 100.0, 1e-6);
  EXPECT_NEAR(WinShare(99999), WinShare(30000), 1e-9);  // decided values are clamped
  EXPECT_EQ(MarkOf(9.9), "");
  EXPECT_EQ(MarkOf(kInaccuracyShare), "inaccuracy");
  EXPECT_EQ(MarkOf(kMistakeShare + 1), "mistake");
  EXPECT_EQ(MarkOf(kBlunderShare), "blunder");
}

}  // namespace
}  // namespace arena::bots
