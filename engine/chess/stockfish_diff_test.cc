// Differential test against Stockfish: on positions reached by seeded random play, our
// per-move perft divide at depth 3 must equal Stockfish's `go perft 3`, move by move.
//
// The random play is biased toward double pawn steps, en-passant captures, castling and
// promotions, and starts from positions rich in them, so the set holds many positions with
// an en-passant square and with castling rights (both counted and required). The number of
// positions comes from ARENA_DIFF_POSITIONS (default 1000).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "engine/chess/stockfish_process.h"
#include "gtest/gtest.h"

namespace arena::engine::chess {
namespace {

int PositionCount() {
  const char* env = std::getenv("ARENA_DIFF_POSITIONS");
  return env ? std::max(1, std::atoi(env)) : 1000;
}

constexpr const char* kSeeds[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    // En-passant pin cases: horizontal pin through both pawns, diagonal pin, ep giving check.
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
    "8/8/8/2k5/3Pp3/8/8/4K2B b - d3 0 1",
    "8/8/3k4/8/2pP4/8/8/4K2R b - d3 0 1",
    "4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
};

// A random legal move, with special moves weighted up so they show up often.
Move PickMove(const Position& pos, const MoveList& list, std::mt19937_64& rng) {
  std::vector<int> weights;
  weights.reserve(size_t(list.size()));
  for (Move m : list) {
    int w = 1;
    if (m.kind() == kEnPassant || m.kind() == kPromotion) w = 12;
    if (TypeOf(pos.piece_on(m.from())) == kPawn && (m.from() ^ m.to()) == 16) w = 8;
    weights.push_back(w);
  }
  std::discrete_distribution<int> pick(weights.begin(), weights.end());
  return list[pick(rng)];
}

std::vector<std::string> RandomPositions(int count) {
  std::mt19937_64 rng(20261129);
  std::set<std::string> seen;
  std::vector<std::string> out;
  for (const char* fen : kSeeds) {
    if (seen.insert(fen).second) out.push_back(fen);
  }
  while (int(out.size()) < count) {
    auto start = Position::FromFen(kSeeds[rng() % std::size(kSeeds)]);
    Position pos = *start;
    const int plies = int(rng() % 40);
    for (int i = 0; i < plies; ++i) {
      MoveList list;
      GenerateLegal(pos, list);
      if (list.empty()) break;
      Position::Undo undo;
      pos.DoMove(PickMove(pos, list, rng), undo);
      // Sample along the way, more often right after a double step (ep square set).
      if ((pos.ep_square() != kNoSquare || rng() % 12 == 0) && CountLegal(pos) > 0 &&
          seen.insert(pos.Fen()).second) {
        out.push_back(pos.Fen());
        if (int(out.size()) >= count) break;
      }
    }
  }
  return out;
}

TEST(StockfishDiffTest, DivideMatchesStockfishAtDepth3) {
  if (access(std::string(chess::kDefaultStockfishPath).c_str(), X_OK) != 0) {
    GTEST_SKIP() << "no stockfish at " << chess::kDefaultStockfishPath;
  }
  auto engine = chess::StockfishProcess::Start();
  ASSERT_TRUE(engine.ok()) << engine.status();

  const std::vector<std::string> fens = RandomPositions(PositionCount());
  int with_ep = 0, with_castling = 0, compared = 0;
  for (const std::string& fen : fens) {
    auto pos = Position::FromFen(fen);
    ASSERT_TRUE(pos.ok()) << pos.status() << " " << fen;
    with_ep += pos->ep_square() != kNoSquare;
    with_castling += pos->castling_rights() != 0;

    std::map<std::string, uint64_t> ours;
    MoveList list;
    GenerateLegal(*pos, list);
    Position work = *pos;
    for (Move m : list) {
      Position::Undo undo;
      work.DoMove(m, undo);
      ours[MoveToUci(m)] = Perft(work, 2);
      work.UndoMove(m, undo);
    }
    auto theirs = (*engine)->Perft(fen, 3);
    ASSERT_TRUE(theirs.ok()) << theirs.status();
    std::map<std::string, uint64_t> sf(theirs->divide.begin(), theirs->divide.end());
    ASSERT_EQ(ours, sf) << "divide differs at depth 3 for " << fen;
    ++compared;
  }
  EXPECT_EQ(compared, int(fens.size()));
  // The set must exercise en passant and castling, or the comparison proves little.
  EXPECT_GE(with_ep, int(fens.size()) / 16) << "too few positions with an ep square";
  EXPECT_GE(with_castling, int(fens.size()) / 5) << "too few positions with castling rights";
  RecordProperty("positions", compared);
  RecordProperty("with_ep", with_ep);
  RecordProperty("with_castling", with_castling);
  std::printf("compared %d positions (%d with an ep square, %d with castling rights)\n", compared,
              with_ep, with_castling);
}

}  // namespace
}  // namespace arena::engine::chess
