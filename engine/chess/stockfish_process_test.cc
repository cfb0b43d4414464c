#include "engine/chess/stockfish_process.h"

#include <unistd.h>

#include "gtest/gtest.h"

namespace arena::engine::chess {
namespace {

bool HaveStockfish() {
  return access(std::string(kDefaultStockfishPath).c_str(), X_OK) == 0;
}

TEST(StockfishProcessTest, PerftOfStartPosition) {
  if (!HaveStockfish()) GTEST_SKIP() << "no stockfish installed";
  auto engine = StockfishProcess::Start();
  ASSERT_TRUE(engine.ok()) << engine.status();
  auto result = (*engine)->Perft("startpos", 3);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->nodes, 8902u);
  ASSERT_EQ(result->divide.size(), 20u);
  uint64_t sum = 0;
  for (const auto& [move, count] : result->divide) sum += count;
  EXPECT_EQ(sum, result->nodes);
  EXPECT_GE(result->seconds, 0.0);
  // A second command on the same process works (the reader kept its place).
  auto kiwipete =
      (*engine)->Perft("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2);
  ASSERT_TRUE(kiwipete.ok()) << kiwipete.status();
  EXPECT_EQ(kiwipete->nodes, 2039u);
  auto after = (*engine)->PerftAfter("position startpos moves e2e4", 1);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->nodes, 20u);
  EXPECT_EQ(after->divide.size(), 20u);
}

TEST(StockfishProcessTest, MissingBinaryIsAnError) {
  auto engine = StockfishProcess::Start("/nonexistent/engine");
  EXPECT_FALSE(engine.ok());
}

}  // namespace
}  // namespace arena::engine::chess
