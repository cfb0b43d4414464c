// The Chestonia Go player on positions with a clear answer, through ChooseBotMove as arena-bot
// calls it.
#include "bots/core/bot.h"
#include "engine/chestonia_go/chestonia_go_game.h"
#include "engine/chestonia_go/notation.h"
#include "gtest/gtest.h"

namespace arena::bots {
namespace {

std::string Board(const std::vector<std::pair<std::string, char>>& stones) {
  std::string text(engine::chestonia_go::kNumCells, '.');
  for (const auto& [cell, seat] : stones) text[*engine::chestonia_go::ParseCell(cell)] = seat;
  return text;
}

BotRequest Request(const std::string& position, int level) {
  BotRequest req;
  req.game = "chestonia-go";
  req.variant = "players=2";
  req.position = position;
  req.seat = 0;
  req.level = level;
  req.seed = 7;
  return req;
}

// White's six-stone chain at the corner has the single liberty 7,-7.
const std::string kCapture = "chestonia-go turn=b phase=start stones=" + Board({{"6,-7", 'w'},
                                                                                {"6,-6", 'w'},
                                                                                {"7,-6", 'w'},
                                                                                {"5,-6", 'w'},
                                                                                {"5,-5", 'w'},
                                                                                {"6,-5", 'w'},
                                                                                {"4,-7", 'b'},
                                                                                {"4,-6", 'b'},
                                                                                {"4,-5", 'b'},
                                                                                {"4,-4", 'b'},
                                                                                {"5,-4", 'b'},
                                                                                {"6,-4", 'b'},
                                                                                {"7,-4", 'b'},
                                                                                {"7,-5", 'b'},
                                                                                {"5,-7", 'b'}});

TEST(ChestoniaGoBot, EveryLevelTakesTheBigCapture) {
  for (int level : {1, 2, 3}) {
    absl::StatusOr<BotAnswer> a = ChooseBotMove(Request(kCapture, level));
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_EQ(a->result.move, "7,-7") << "level " << level << " (" << a->algorithm << ")";
  }
}

TEST(ChestoniaGoBot, SameRequestSameMove) {
  const std::string empty = "chestonia-go turn=b phase=start";
  absl::StatusOr<BotAnswer> a = ChooseBotMove(Request(empty, 3));
  absl::StatusOr<BotAnswer> b = ChooseBotMove(Request(empty, 3));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->result.move, b->result.move);
  EXPECT_EQ(a->algorithm, "rave");
  EXPECT_NE(a->result.move, "pass");
}

TEST(ChestoniaGoBot, PassesToWinWhenTheOpponentHasPassed) {
  // One open region touching both: blue's five stones (10 half points) beat white's one stone
  // and komi (2 + 7). White has passed: blue's pass counts the board and wins.
  const std::string won =
      "chestonia-go turn=b phase=start passes=1 stones=" +
      Board(
          {{"0,0", 'b'}, {"1,0", 'b'}, {"0,1", 'b'}, {"-1,0", 'b'}, {"0,-1", 'b'}, {"-5,5", 'w'}});
  absl::StatusOr<BotAnswer> a = ChooseBotMove(Request(won, 3));
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->result.move, "pass");
}

// Scores are centipawn-like from the mover's side, as SearchResult says: adjudication at a move
// cap reads their sign, so a side far behind must score below zero and far ahead above it.
TEST(ChestoniaGoBot, ScoresAreFromTheMoversSideAndCentred) {
  // Blue has walled off most of the board's centre; white has one stone at the rim.
  std::vector<std::pair<std::string, char>> stones;
  for (const char* c : {"0,0", "1,0", "0,1", "-1,0", "0,-1", "1,-1", "-1,1", "2,0", "0,2", "-2,0",
                        "0,-2", "2,-2", "-2,2", "2,-1", "-1,2", "1,1", "-1,-1", "1,-2", "-2,1"}) {
    stones.push_back({c, 'b'});
  }
  stones.push_back({"-7,7", 'w'});
  const std::string board = Board(stones);
  absl::StatusOr<BotAnswer> ahead =
      ChooseBotMove(Request("chestonia-go turn=b phase=start stones=" + board, 3));
  ASSERT_TRUE(ahead.ok()) << ahead.status();
  EXPECT_GT(ahead->result.score, 0) << ahead->result.move;
  BotRequest behind = Request("chestonia-go turn=w phase=start stones=" + board, 3);
  behind.seat = 1;
  absl::StatusOr<BotAnswer> b = ChooseBotMove(behind);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_LT(b->result.score, 0) << b->result.move;
  EXPECT_GE(b->result.score, -1000);

  // A pass that counts the board and wins is a won game.
  const std::string won =
      "chestonia-go turn=b phase=start passes=1 stones=" +
      Board(
          {{"0,0", 'b'}, {"1,0", 'b'}, {"0,1", 'b'}, {"-1,0", 'b'}, {"0,-1", 'b'}, {"-5,5", 'w'}});
  absl::StatusOr<BotAnswer> w = ChooseBotMove(Request(won, 3));
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(w->result.score, 30000);
}

TEST(ChestoniaGoBot, DartDecisionsAreLegal) {
  const std::string aim = "chestonia-go darts=on turn=b phase=aim dartround=1 stones=" +
                          Board({{"1,0", 'w'}, {"0,1", 'w'}});
  BotRequest req = Request(aim, 2);
  req.variant = "players=2,darts=on";
  absl::StatusOr<BotAnswer> a = ChooseBotMove(req);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->result.move.rfind("aim ", 0), 0u) << a->result.move;
  req.position = "chestonia-go darts=on turn=b phase=penalty dartround=1 stones=" +
                 Board({{"1,0", 'b'}, {"0,1", 'w'}});
  a = ChooseBotMove(req);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->result.move, "penalty 1,0");
  req.position = "chestonia-go darts=on turn=b phase=placement dartround=1 stones=" +
                 Board({{"1,0", 'b'}, {"0,1", 'w'}});
  a = ChooseBotMove(req);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(a->result.move == "skip" || a->result.move.rfind("place ", 0) == 0) << a->result.move;
}

}  // namespace
}  // namespace arena::bots
