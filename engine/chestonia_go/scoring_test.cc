// The area scorer and the incremental chains against deliberately simple counters, on random
// final positions: random games (stones on random legal cells, never filling a cell whose
// every neighbour is the mover's own, as playouts do) played until nobody has such a cell, in
// two- and three-player games, some with a seat frozen part way. CI checks a share; the slow
// build (CHESTONIA_GO_SLOW) checks 10,000.
#include <deque>
#include <random>
#include <set>

#include "engine/chestonia_go/position.h"
#include "gtest/gtest.h"

namespace arena::engine::chestonia_go {
namespace {

#ifdef CHESTONIA_GO_SLOW
constexpr int kPositions = 10'000;
#else
constexpr int kPositions = 600;
#endif

// Each empty cell on its own: walk its empty region breadth-first and note which seats still
// in touch it; it counts for a seat when exactly one does. Stones of seats still in count for
// their owner.
std::array<int, kMaxSeats> NaiveAreas(const Position& pos) {
  const hex::Grid& g = BoardGrid();
  std::array<int, kMaxSeats> area{};
  for (int c = 0; c < g.size(); ++c) {
    if (pos.stone[c] != 0) {
      if (pos.Active(pos.stone[c] - 1)) ++area[pos.stone[c] - 1];
      continue;
    }
    std::set<int> region{c}, touching;
    std::deque<int> todo{c};
    while (!todo.empty()) {
      const int x = todo.front();
      todo.pop_front();
      for (int d = 0; d < 6; ++d) {
        const int n = g.Step(x, d);
        if (n < 0) continue;
        if (pos.stone[n] == 0) {
          if (region.insert(n).second) todo.push_back(n);
        } else if (pos.Active(pos.stone[n] - 1)) {
          touching.insert(pos.stone[n] - 1);
        }
      }
    }
    if (touching.size() == 1) ++area[*touching.begin()];
  }
  return area;
}

bool OwnEye(const Position& pos, int cell, int seat) {
  for (int n : NeighbourTable().of[cell]) {
    if (n >= 0 && pos.stone[n] != seat + 1) return false;
  }
  return true;
}

// Plays a random game to its end as described above; returns the number of stones played.
int RandomGame(Position& pos, std::mt19937_64& rng, int freeze_at) {
  int played = 0;
  int stuck = 0;
  std::vector<int> cells;
  while (stuck < pos.NumActive() && played < 2000) {
    if (played == freeze_at && pos.NumActive() == 3) pos.active &= ~(1u << (rng() % 3));
    int seat = pos.turn;
    while (!pos.Active(seat)) seat = (seat + 1) % pos.rules.players;
    cells.clear();
    for (int c = 0; c < kNumCells; ++c) {
      if (pos.stone[c] == 0 && !OwnEye(pos, c, seat) &&
          pos.IsLegalIgnoringSuperko(c, seat, nullptr)) {
        cells.push_back(c);
      }
    }
    if (cells.empty()) {
      ++stuck;
    } else {
      stuck = 0;
      pos.PlaceStone(cells[rng() % cells.size()], seat);
      ++played;
    }
    pos.turn = static_cast<int8_t>((seat + 1) % pos.rules.players);
  }
  return played;
}

TEST(ChestoniaGoScoring, AgreesWithAFloodFillCounterOnRandomFinalPositions) {
  std::mt19937_64 rng(20261202);
  long total_stones = 0;
  for (int i = 0; i < kPositions; ++i) {
    Rules rules;
    rules.players = 2 + static_cast<int>(rng() % 2);
    Position pos = Position::Initial(rules);
    const int freeze_at = rules.players == 3 && rng() % 2 ? static_cast<int>(rng() % 200) : -1;
    total_stones += RandomGame(pos, rng, freeze_at);

    // The incremental chains and hash agree with a rebuild from the stones alone.
    Position rebuilt = pos;
    rebuilt.RebuildChains();
    ASSERT_EQ(rebuilt.hash, pos.hash) << "position " << i;
    for (int c = 0; c < kNumCells; ++c) {
      if (pos.stone[c] == 0) continue;
      for (int d = c + 1; d < kNumCells; ++d) {
        if (pos.stone[d] == 0) continue;
        ASSERT_EQ(pos.chain_head[c] == pos.chain_head[d],
                  rebuilt.chain_head[c] == rebuilt.chain_head[d])
            << "position " << i << " cells " << c << " " << d;
      }
      ASSERT_EQ(pos.chain_libs[pos.chain_head[c]], rebuilt.chain_libs[rebuilt.chain_head[c]]);
      ASSERT_EQ(pos.chain_size[pos.chain_head[c]], rebuilt.chain_size[rebuilt.chain_head[c]]);
      if (pos.Active(pos.stone[c] - 1)) {
        ASSERT_GT(pos.Liberties(c), 0);
      }
    }
    ASSERT_EQ(pos.Areas(), NaiveAreas(pos)) << "position " << i;
  }
  RecordProperty("stones", std::to_string(total_stones));
}

}  // namespace
}  // namespace arena::engine::chestonia_go
