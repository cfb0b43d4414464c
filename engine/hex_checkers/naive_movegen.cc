#include "engine/hex_checkers/naive_movegen.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <utility>

#include "engine/hex_checkers/movegen.h"

namespace arena::engine::hex_checkers::naive {
namespace {

using Cell = std::pair<int, int>;  // (q, r)
using Board = std::map<Cell, Piece>;

struct Vec {
  int q, r;
};

Vec TurnSixth(Vec v) {
  const int s = -v.q - v.r;
  return {-v.r, -s};  // (q, r, s) -> (-r, -s, -q)
}

int FaceOf(int players, int seat) {
  return static_cast<int>(std::floor(seat * 6.0 / players + 0.5)) % 6;
}

std::vector<Vec> ManVectors(int face) {
  std::vector<Vec> v = {{0, 1}, {-1, 1}, {1, 0}, {-1, 0}};
  for (Vec& d : v) {
    for (int k = 0; k < face; ++k) d = TurnSixth(d);
  }
  return v;
}

std::vector<Vec> KingVectors() {
  return {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}};
}

bool OnBoard(Cell c, int radius) {
  const int s = -c.first - c.second;
  return std::max({std::abs(c.first), std::abs(c.second), std::abs(s)}) <= radius;
}

// Distance in from each face's rim, faces as RULES-NOTES names them.
int Depth(Cell c, int face, int radius) {
  const int q = c.first, r = c.second, s = -q - r;
  const int by_face[6] = {r + radius, radius - q, s + radius, radius - r, q + radius, radius - s};
  return by_face[face];
}

struct Search {
  int radius = 0;
  Cell centre{0, 0};
  std::vector<std::vector<Cell>> out;

  void Chains(const Board& board, Cell at, Piece p, const std::vector<Vec>& dirs,
              std::vector<Cell>& path) {
    bool jumped = false;
    for (const Vec& d : dirs) {
      const Cell over{at.first + d.q, at.second + d.r};
      const Cell land{at.first + 2 * d.q, at.second + 2 * d.r};
      if (!OnBoard(land, radius)) continue;
      auto it = board.find(over);
      if (it == board.end() || SeatOf(it->second) == SeatOf(p)) continue;
      if (board.count(land)) continue;
      jumped = true;
      Board next = board;  // a copy per hop: plain and slow on purpose
      next.erase(over);
      path.push_back(land);
      if (KindOf(p) == kMan && land == centre) {
        out.push_back(path);
      } else {
        Chains(next, land, p, dirs, path);
      }
      path.pop_back();
    }
    if (!jumped && path.size() > 1) out.push_back(path);
  }
};

}  // namespace

std::vector<int> StartCells(int players, int radius, int seat) {
  const hex::Grid& g = hex::Grid::Get(radius);
  const int face = FaceOf(players, seat);
  std::vector<int> cells;
  for (int q = -radius; q <= radius; ++q) {
    for (int r = -radius; r <= radius; ++r) {
      const Cell c{q, r};
      if (!OnBoard(c, radius)) continue;
      const int own = Depth(c, face, radius);
      if (own != 1 && own != 2) continue;
      bool seam = false;
      for (int f = 0; f < 6; ++f) {
        const int d = Depth(c, f, radius);
        if (f != face && (d == 1 || d == 2)) seam = true;
      }
      if (!seam) cells.push_back(g.Index({q, r}));
    }
  }
  std::sort(cells.begin(), cells.end());
  return cells;
}

std::vector<std::vector<int>> LegalTurns(const Position& pos) {
  const hex::Grid& g = pos.grid();
  const int radius = pos.rules.radius;
  if (pos.Over()) return {};
  Board board;
  for (int c = 0; c < g.size(); ++c) {
    if (pos.cells[c]) board[{g.At(c).q, g.At(c).r}] = pos.cells[c];
  }
  Search search;
  search.radius = radius;
  std::vector<std::pair<Cell, Piece>> mine;
  for (const auto& [cell, p] : board) {
    if (SeatOf(p) == pos.turn) mine.emplace_back(cell, p);
  }
  auto dirs_of = [&](Piece p) {
    return KindOf(p) == kKing ? KingVectors() : ManVectors(FaceOf(pos.rules.players, SeatOf(p)));
  };
  for (const auto& [cell, p] : mine) {
    Board lifted = board;
    lifted.erase(cell);
    std::vector<Cell> path = {cell};
    search.Chains(lifted, cell, p, dirs_of(p), path);
  }
  if (search.out.empty()) {
    for (const auto& [cell, p] : mine) {
      for (const Vec& d : dirs_of(p)) {
        const Cell to{cell.first + d.q, cell.second + d.r};
        if (OnBoard(to, radius) && !board.count(to)) search.out.push_back({cell, to});
      }
    }
  }
  std::vector<std::vector<int>> turns;
  for (const std::vector<Cell>& path : search.out) {
    std::vector<int> t;
    for (const Cell& c : path) t.push_back(g.Index({c.first, c.second}));
    turns.push_back(t);
  }
  std::sort(turns.begin(), turns.end());
  return turns;
}

uint64_t Perft(const Position& pos, int depth) {
  if (depth == 0 || pos.Over()) return 1;
  const std::vector<std::vector<int>> turns = LegalTurns(pos);
  if (depth == 1) return turns.size();
  uint64_t n = 0;
  for (const std::vector<int>& cells : turns) {
    const std::vector<uint8_t> t(cells.begin(), cells.end());
    Position next = pos;
    next.ApplyTurn(
        Turn{t.data(), static_cast<int>(t.size()),
             t.size() > 1 && hex::Distance(pos.grid().At(t[0]), pos.grid().At(t[1])) == 2});
    n += naive::Perft(next, depth - 1);
  }
  return n;
}

}  // namespace arena::engine::hex_checkers::naive
