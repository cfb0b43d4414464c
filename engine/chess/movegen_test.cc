#include "engine/chess/movegen.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace arena::engine::chess {
namespace {

// The chessprogramming.org perft suite (https://www.chessprogramming.org/Perft_Results).
struct PerftCase {
  const char* name;
  const char* fen;
  uint64_t nodes[7];  // nodes[d] for depth d; 0 = not listed
};

constexpr PerftCase kSuite[] = {
    {"start",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     {1, 20, 400, 8902, 197281, 4865609, 119060324}},
    {"kiwipete",
     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     {1, 48, 2039, 97862, 4085603, 193690690, 8031647685}},
    {"position3",
     "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
     {1, 14, 191, 2812, 43238, 674624, 11030083}},
    {"position4",
     "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     {1, 6, 264, 9467, 422333, 15833292, 706045033}},
    {"position4-mirrored",
     "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
     {1, 6, 264, 9467, 422333, 15833292, 706045033}},
    {"position5",
     "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     {1, 44, 1486, 62379, 2103487, 89941194, 0}},
    {"position6",
     "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     {1, 46, 2079, 89890, 3894594, 164075551, 6923051137}},
};

// Depth cap for the unit run: ARENA_PERFT_FULL=1 (the slow test) lifts it.
int MaxDepth() {
  return std::getenv("ARENA_PERFT_FULL") ? 6 : 4;
}

class PerftSuiteTest : public testing::TestWithParam<PerftCase> {};

TEST_P(PerftSuiteTest, MatchesPublishedCounts) {
  const PerftCase& c = GetParam();
  auto pos = Position::FromFen(c.fen);
  ASSERT_TRUE(pos.ok()) << pos.status();
  for (int depth = 1; depth <= MaxDepth(); ++depth) {
    if (c.nodes[depth] == 0) continue;
    Position copy = *pos;
    EXPECT_EQ(Perft(copy, depth), c.nodes[depth]) << c.name << " depth " << depth;
    EXPECT_EQ(copy.Fen(), pos->Fen()) << "make/unmake did not restore the position";
    EXPECT_EQ(copy.key(), pos->key());
  }
}

INSTANTIATE_TEST_SUITE_P(Suite, PerftSuiteTest, testing::ValuesIn(kSuite), [](const auto& info) {
  std::string name = info.param.name;
  for (char& ch : name) {
    if (ch == '-') ch = '_';
  }
  return name;
});

// Generation and counting agree, and make/unmake restores the key incrementally computed.
TEST(MovegenTest, CountMatchesListAndKeysAreIncremental) {
  for (const PerftCase& c : kSuite) {
    auto pos = Position::FromFen(c.fen);
    ASSERT_TRUE(pos.ok());
    MoveList list;
    GenerateLegal(*pos, list);
    EXPECT_EQ(list.size(), CountLegal(*pos));
    for (Move m : list) {
      Position child = *pos;
      Position::Undo undo;
      child.DoMove(m, undo);
      auto reparsed = Position::FromFen(child.Fen());
      ASSERT_TRUE(reparsed.ok()) << reparsed.status() << " " << child.Fen();
      EXPECT_EQ(reparsed->key(), child.key()) << child.Fen();
      child.UndoMove(m, undo);
      EXPECT_EQ(child.Fen(), pos->Fen());
      EXPECT_EQ(child.key(), pos->key());
    }
  }
}

// Walks the tree `depth` plies deep and checks at every node that GenerateTactical gives
// exactly the legal captures and queen promotions (every legal move when in check).
void CheckTactical(Position& pos, int depth, int& nodes) {
  MoveList all, tactical;
  GenerateLegal(pos, all);
  GenerateTactical(pos, tactical);
  ++nodes;
  std::vector<uint16_t> want, got;
  const bool in_check = pos.InCheck();
  for (Move m : all) {
    const bool capture = pos.piece_on(m.to()) != kNoPiece || m.kind() == kEnPassant;
    const bool under_promo = m.kind() == kPromotion && m.promotion() != kQueen;
    const bool queen_promo = m.kind() == kPromotion && !under_promo;
    if (in_check || (capture && !under_promo) || queen_promo) want.push_back(m.raw());
  }
  for (Move m : tactical) got.push_back(m.raw());
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  ASSERT_EQ(got, want) << pos.Fen();
  if (depth == 0) return;
  for (Move m : all) {
    Position::Undo undo;
    pos.DoMove(m, undo);
    CheckTactical(pos, depth - 1, nodes);
    pos.UndoMove(m, undo);
    if (testing::Test::HasFatalFailure()) return;
  }
}

TEST(MovegenTest, TacticalIsTheLegalCapturesAndQueenPromotions) {
  int nodes = 0;
  for (const PerftCase& c : kSuite) {
    auto pos = Position::FromFen(c.fen);
    ASSERT_TRUE(pos.ok());
    CheckTactical(*pos, 2, nodes);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(nodes, 5000);
}

}  // namespace
}  // namespace arena::engine::chess
