// Stockfish levels against the real /usr/games/stockfish (skipped when it is not installed).
#include "bots/chess/stockfish_player.h"

#include <unistd.h>

#include <set>

#include "engine/core/game.h"
#include "gtest/gtest.h"

namespace arena::bots {
namespace {

bool HaveStockfish() {
  return access(StockfishPath().c_str(), X_OK) == 0;
}

std::unique_ptr<engine::State> Chess(const std::string& fen) {
  auto s = engine::FindGame("chess")->Parse(fen, engine::Variant());
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *std::move(s) : nullptr;
}

bool Legal(const engine::State& s, const std::string& move) {
  for (const std::string& m : s.LegalActions()) {
    if (m == move) return true;
  }
  return false;
}

TEST(StockfishPlayerTest, FullStrengthFindsMateInOne) {
  if (!HaveStockfish()) GTEST_SKIP() << "no stockfish installed";
  StockfishRequest r;
  r.start_fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
  r.depth = 6;
  auto a = StockfishMove(r);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->move, "d1d8");
  EXPECT_GE(a->score_cp, 29000);  // mate, from the mover's view
  EXPECT_GT(a->nodes, 0);
}

TEST(StockfishPlayerTest, MovesAfterTheStartPositionAreHonoured) {
  if (!HaveStockfish()) GTEST_SKIP() << "no stockfish installed";
  // After 1.f3 e5 2.g4 black mates with Qh4; the engine sees the moves, not only the start.
  StockfishRequest r;
  r.start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  r.moves = {"f2f3", "e7e5", "g2g4"};
  r.depth = 4;
  auto a = StockfishMove(r);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->move, "d8h4");
}

TEST(StockfishPlayerTest, ADepthLimitedSearchIsTheSameWhateverCameBefore) {
  if (!HaveStockfish()) GTEST_SKIP() << "no stockfish installed";
  // A middlegame with many near-equal moves, where a hash table filled by other searches would
  // change the search: the answer, its score and its node count must not change.
  StockfishRequest r;
  r.start_fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9";
  r.depth = 11;
  auto first = StockfishMove(r);
  ASSERT_TRUE(first.ok()) << first.status();
  StockfishRequest other;
  other.start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  other.moves = {"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3"};
  other.depth = 12;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(StockfishMove(other).ok());
    auto again = StockfishMove(r);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(again->move, first->move);
    EXPECT_EQ(again->score_cp, first->score_cp);
    EXPECT_EQ(again->nodes, first->nodes);
    other.moves.push_back(i == 0 ? "a7a6" : i == 1 ? "c1e3" : "e7e5");
  }
}

TEST(StockfishPlayerTest, BotRequestPlaysALegalMoveAtALimitedElo) {
  if (!HaveStockfish()) GTEST_SKIP() << "no stockfish installed";
  auto state = Chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  ASSERT_NE(state, nullptr);
  BotRequest req;
  req.seat = 0;
  req.stockfish_elo = 1350;
  req.time_cap_ms = 50;
  // Weakened play picks among several moves; over a dozen tries it does not always agree.
  std::set<std::string> seen;
  for (int i = 0; i < 12; ++i) {
    auto a = StockfishBotMove(*state, req);
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_TRUE(Legal(*state, a->result.move)) << a->result.move;
    EXPECT_EQ(a->algorithm, "stockfish-elo-1350");
    seen.insert(a->result.move);
  }
  EXPECT_GE(seen.size(), 2u);
}

TEST(StockfishPlayerTest, ChooseBotMoveRoutesStockfishLevels) {
  if (!HaveStockfish()) GTEST_SKIP() << "no stockfish installed";
  BotRequest req;
  req.game = "chess";
  req.position = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
  req.stockfish_elo = 2850;
  req.level = 99;  // ignored: the Stockfish family has its own levels
  auto a = ChooseBotMove(req);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->result.move, "d1d8");
}

TEST(StockfishPlayerTest, RefusesWhatIsNotAStockfishLevel) {
  StockfishRequest r;
  r.start_fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
  r.elo = 1000;
  EXPECT_EQ(StockfishMove(r).status().code(), absl::StatusCode::kInvalidArgument);
  r.elo = 3000;
  EXPECT_EQ(StockfishMove(r).status().code(), absl::StatusCode::kInvalidArgument);

  auto hex = engine::FindGame("chestonia-chess")->NewInitialState(engine::Variant());
  ASSERT_TRUE(hex.ok());
  BotRequest req;
  req.stockfish_elo = 1500;
  EXPECT_EQ(StockfishBotMove(**hex, req).status().code(), absl::StatusCode::kInvalidArgument);

  auto chess = Chess("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
  ASSERT_NE(chess, nullptr);
  req.seat = 1;  // black is not to move
  EXPECT_EQ(StockfishBotMove(*chess, req).status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace arena::bots
