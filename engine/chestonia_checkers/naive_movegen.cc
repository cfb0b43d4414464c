#include "engine/chestonia_checkers/naive_movegen.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "engine/chestonia_checkers/movegen.h"

namespace arena::engine::chestonia_checkers::naive {
namespace {

struct Hex {
  int q, r;
  bool operator<(const Hex& o) const { return q != o.q ? q < o.q : r < o.r; }
  bool operator==(const Hex& o) const { return q == o.q && r == o.r; }
  Hex operator+(const Hex& o) const { return {q + o.q, r + o.r}; }
};

bool OnBoard(Hex h) {
  const int s = -h.q - h.r;
  return std::abs(h.q) <= 7 && std::abs(h.r) <= 7 && std::abs(s) <= 7;
}

// The six straight directions, then the six diagonals, written out by hand.
const Hex kLines[12] = {{1, 0},  {1, -1}, {0, -1},  {-1, 0}, {-1, 1}, {0, 1},
                        {2, -1}, {1, -2}, {-1, -1}, {-2, 1}, {-1, 2}, {1, 1}};

// Rotating a vector by one sixth clockwise: (q, r, s) -> (-r, -s, -q).
Hex Turn60(Hex h, int sixths) {
  for (int i = 0; i < ((sixths % 6) + 6) % 6; ++i) h = {-h.r, h.q + h.r};
  return h;
}

using Board = std::map<Hex, Piece>;

struct Context {
  const Position* pos;
  int seat;
  int sixths;
  std::vector<Hex> man_dirs;  // forward, forward, sideways, sideways
};

bool IsEnemy(const Context& ctx, const Board& board, Hex h) {
  auto it = board.find(h);
  if (it == board.end()) return false;
  const int owner = SeatOf(it->second);
  return owner != ctx.seat && ctx.pos->Active(owner);
}

bool Empty(const Board& board, Hex h) {
  return OnBoard(h) && board.find(h) == board.end();
}

// Whether a man of ctx.seat is crowned on `h`: the rim row of another seat of the game.
bool Crowns(const Context& ctx, Hex h) {
  for (int other = 0; other < ctx.pos->rules.players; ++other) {
    if (other == ctx.seat) continue;
    const int sixths = ctx.pos->rules.players == 2 ? 3 * other : 2 * other;
    // Turn the cell back into that seat's frame: its rim row is r = -7 there.
    if (Turn60(h, 6 - sixths).r == -7) return true;
  }
  return false;
}

int Index(Hex h) {
  return BoardGrid().Index({h.q, h.r});
}

struct ChainState {
  const Context* ctx;
  Hex origin;
  bool king;
  std::set<std::pair<Hex, std::set<Hex>>> seen;
  std::map<std::tuple<int, int, std::vector<int>>, NaiveTurn> out;
};

void Record(ChainState& st, Hex at, const std::set<Hex>& taken, const std::vector<uint8_t>& path) {
  NaiveTurn t;
  t.from = Index(st.origin);
  t.to = Index(at);
  for (Hex h : taken) t.taken.push_back(Index(h));
  std::sort(t.taken.begin(), t.taken.end());
  t.path = path;
  st.out.emplace(std::make_tuple(t.from, t.to, t.taken), t);
}

void Chains(ChainState& st, const Board& board, Hex at, const std::set<Hex>& taken,
            std::vector<uint8_t>& path) {
  const Context& ctx = *st.ctx;
  bool any = false;
  auto hop = [&](Hex victim, Hex land) {
    any = true;
    std::set<Hex> now = taken;
    now.insert(victim);
    if (!st.seen.insert({land, now}).second) return;
    Board next = board;
    next.erase(victim);
    path.push_back(static_cast<uint8_t>(Index(land)));
    if (!st.king && Crowns(ctx, land)) {
      Record(st, land, now, path);
    } else {
      Chains(st, next, land, now, path);
    }
    path.pop_back();
  };
  for (const Hex d : kLines) {
    if (!st.king) {
      const Hex victim = at + d, land = victim + d;
      if (IsEnemy(ctx, board, victim) && Empty(board, land)) hop(victim, land);
    } else {
      Hex h = at + d;
      while (Empty(board, h)) h = h + d;
      if (!OnBoard(h) || !IsEnemy(ctx, board, h)) continue;
      for (Hex land = h + d; Empty(board, land); land = land + d) hop(h, land);
    }
  }
  if (!any && !taken.empty()) Record(st, at, taken, path);
}

}  // namespace

std::vector<NaiveTurn> LegalTurns(const Position& pos) {
  const hex::Grid& g = BoardGrid();
  Context ctx;
  ctx.pos = &pos;
  ctx.seat = pos.turn;
  ctx.sixths = pos.rules.players == 2 ? 3 * pos.turn : 2 * pos.turn;
  for (Hex d : {Hex{0, 1}, Hex{-1, 1}, Hex{1, 0}, Hex{-1, 0}}) {
    ctx.man_dirs.push_back(Turn60(d, ctx.sixths));
  }
  Board board;
  for (int c = 0; c < g.size(); ++c) {
    if (pos.cells[c]) board[{g.At(c).q, g.At(c).r}] = pos.cells[c];
  }
  std::map<std::tuple<int, int, std::vector<int>>, NaiveTurn> captures, quiet;
  auto add_quiet = [&](Hex from, Hex to) {
    NaiveTurn t;
    t.from = Index(from);
    t.to = Index(to);
    t.path = {static_cast<uint8_t>(t.from), static_cast<uint8_t>(t.to)};
    quiet.emplace(std::make_tuple(t.from, t.to, t.taken), t);
  };
  for (const auto& [h, piece] : board) {
    if (SeatOf(piece) != ctx.seat) continue;
    ChainState st;
    st.ctx = &ctx;
    st.origin = h;
    st.king = KindOf(piece) == kKing;
    Board lifted = board;
    lifted.erase(h);
    std::vector<uint8_t> path = {static_cast<uint8_t>(Index(h))};
    Chains(st, lifted, h, {}, path);
    for (auto& [key, t] : st.out) captures.emplace(key, t);
    if (st.king) {
      for (const Hex d : kLines) {
        for (Hex to = h + d; Empty(board, to); to = to + d) add_quiet(h, to);
      }
    } else {
      for (const Hex a : ctx.man_dirs) {
        if (!Empty(board, h + a)) continue;
        add_quiet(h, h + a);
        for (const Hex b : ctx.man_dirs) {
          const Hex to = h + a + b;
          if (!(to == h) && Empty(board, to)) add_quiet(h, to);
        }
      }
    }
  }
  const auto& chosen = captures.empty() ? quiet : captures;
  std::vector<NaiveTurn> out;
  for (const auto& [key, t] : chosen) out.push_back(t);
  return out;
}

uint64_t Perft(const Position& pos, int depth) {
  if (depth <= 0 || pos.phase != Phase::kMove) return 1;
  const std::vector<NaiveTurn> turns = LegalTurns(pos);
  if (depth == 1) return turns.size();
  uint64_t total = 0;
  for (const NaiveTurn& t : turns) {
    Position child = pos;
    child.ApplyTurn(Turn{t.path.data(), static_cast<int>(t.path.size())});
    total += naive::Perft(child, depth - 1);
  }
  return total;
}

}  // namespace arena::engine::chestonia_checkers::naive
