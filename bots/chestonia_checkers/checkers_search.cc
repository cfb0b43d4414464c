#include "bots/chestonia_checkers/checkers_search.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "engine/chestonia_checkers/movegen.h"
#include "engine/chestonia_checkers/notation.h"

namespace arena::bots {
namespace {

using engine::chestonia_checkers::BoardGrid;
using engine::chestonia_checkers::CanCapture;
using engine::chestonia_checkers::GenerateTurns;
using engine::chestonia_checkers::KindOf;
using engine::chestonia_checkers::kKing;
using engine::chestonia_checkers::kRadius;
using engine::chestonia_checkers::Phase;
using engine::chestonia_checkers::Position;
using engine::chestonia_checkers::SeatOf;
using engine::chestonia_checkers::TurnList;
using engine::chestonia_checkers::TurnText;

constexpr int kWin = 30000;
constexpr int kManValue = 100;
constexpr int kKingValue = 300;
constexpr int kAdvanceValue = 3;         // per row a man stands in front of its own edge
constexpr int kMaxCaptureExtension = 6;  // plies past the horizon while a capture is owed
// Level 1's look past its one ply, per turn: the forced capture replies (at most this many nodes).
constexpr int64_t kGreedyReplyNodes = 64;

// How far `cell` is from `seat`'s own edge row (0 on it, 14 on the opposite rim).
int Advance(const Position& pos, int seat, int cell) {
  const engine::hex::Axial a =
      engine::hex::Rotate(BoardGrid().At(cell), -pos.layout().seats[seat].sixths);
  return a.r + kRadius;
}

std::array<int, 3> Material(const Position& pos) {
  std::array<int, 3> m{};
  for (int s = 0; s < pos.rules.players; ++s) {
    pos.pieces[s].ForEach([&](int c) {
      m[s] += KindOf(pos.cells[c]) == kKing ? kKingValue
                                            : kManValue + kAdvanceValue * Advance(pos, s, c);
    });
  }
  return m;
}

// Experimental (CheckersAlgorithm::kBrs only): king and men's advance in PairwiseScore.
constexpr int kKing3 = 600;
constexpr int kAdv3 = 3;
constexpr int kAdvSq3 = 10;
constexpr int kOutValue = 3000;  // PairwiseScore: an opponent out

// Three-seat search material: a king, a man and its advance (with a square term for the men
// near a crowning).
std::array<int, 3> Material3(const Position& pos) {
  std::array<int, 3> m{};
  for (int s = 0; s < pos.rules.players; ++s) {
    pos.pieces[s].ForEach([&](int c) {
      if (KindOf(pos.cells[c]) == kKing) {
        m[s] += kKing3;
      } else {
        const int a = Advance(pos, s, c);
        m[s] += kManValue + kAdv3 * a + kAdvSq3 * a * a / 10;
      }
    });
  }
  return m;
}

// The three-seat search's race standing (paranoid, not reverse): the game is a race to crown,
// because a flying king on this board usually takes dozens of pieces in one chain. A king 800,
// a man 100 plus kRaceRunner * (kRaceSpan - d)^2 / kRaceSpan when it is d < kRaceSpan steps
// from a crowning cell (docs/bots.md, "Chestonia checkers": 69.6% -> 92.3% against level 1).
constexpr int kRaceKing = 800;
constexpr int kRaceRunner = 30;
constexpr int kRaceSpan = 8;

// Single man steps from each cell to the nearest crowning cell of `seat` on an empty board
// (every man step lowers the distance to one of the rows it may crown on by one, so this is
// what a free run takes, two-cell moves counting two).
using StepTable = std::array<uint8_t, engine::chestonia_checkers::kNumCells>;
const StepTable& CrownSteps(int players, int seat) {
  static const auto* tables = [] {
    auto* t = new std::array<std::array<StepTable, 3>, 2>();  // players 2 and 3
    const engine::hex::Grid& g = BoardGrid();
    for (int players = 2; players <= 3; ++players) {
      const engine::chestonia_checkers::Layout& layout =
          engine::chestonia_checkers::LayoutFor(players);
      for (int seat = 0; seat < players; ++seat) {
        StepTable& steps = (*t)[players - 2][seat];
        steps.fill(std::numeric_limits<uint8_t>::max());
        std::vector<int> queue;
        layout.seats[seat].crowning.ForEach([&](int c) {
          steps[c] = 0;
          queue.push_back(c);
        });
        for (size_t i = 0; i < queue.size(); ++i) {
          const int c = queue[i];
          for (int d : layout.seats[seat].man_dirs) {
            const int from = g.Step(c, engine::hex::OppositeDirection(d));
            if (from >= 0 && steps[from] > steps[c] + 1) {
              steps[from] = static_cast<uint8_t>(steps[c] + 1);
              queue.push_back(from);
            }
          }
        }
      }
    }
    return t;
  }();
  return (*tables)[players - 2][seat];
}

std::array<int, 3> RaceMaterial(const Position& pos) {
  std::array<int, 3> m{};
  for (int s = 0; s < pos.rules.players; ++s) {
    const StepTable& steps = CrownSteps(pos.rules.players, s);
    pos.pieces[s].ForEach([&](int c) {
      if (KindOf(pos.cells[c]) == kKing) {
        m[s] += kRaceKing;
        return;
      }
      m[s] += kManValue;
      const int d = steps[c];
      if (d < kRaceSpan) m[s] += kRaceRunner * (kRaceSpan - d) * (kRaceSpan - d) / kRaceSpan;
    });
  }
  return m;
}

// `seat`'s race standing: its race material less the mean of the opponents' still in.
int RaceScore(const Position& pos, int seat) {
  if (pos.phase == Phase::kOver || !pos.Active(seat)) return CheckersSeatScores(pos)[seat];
  const std::array<int, 3> m = RaceMaterial(pos);
  int others = 0, count = 0;
  for (int o = 0; o < pos.rules.players; ++o) {
    if (o != seat && pos.Active(o)) {
      others += m[o];
      ++count;
    }
  }
  return m[seat] - (count > 0 ? others / count : 0);
}

// How a search scores its leaves and orders its children.
enum class LeafEval { kSeatScores, kPairwise, kRace };

struct Context {
  int root = 0;
  int64_t budget = 0;
  int64_t nodes = 0;
  const std::atomic<bool>* stop = nullptr;
  bool stopped = false;
  LeafEval eval = LeafEval::kSeatScores;

  bool OutOfNodes() {
    if (stopped) return true;
    if ((budget > 0 && nodes >= budget) || (stop != nullptr && stop->load())) stopped = true;
    return stopped;
  }
};

// `seat`'s standing against each opponent in turn, summed (the ladder scores finishing ahead
// of each opponent): the material difference against one still in, a sure win against one
// out. Three seats only; the game over is CheckersSeatScores'.
int PairwiseScore(const Position& pos, int seat) {
  if (pos.phase == Phase::kOver || !pos.Active(seat)) return CheckersSeatScores(pos)[seat];
  const std::array<int, 3> m = Material3(pos);
  int v = 0;
  for (int o = 0; o < pos.rules.players; ++o) {
    if (o == seat) continue;
    if (!pos.Active(o)) {
      v += kOutValue;
    } else {
      v += pos.rules.reverse ? m[o] - m[seat] : m[seat] - m[o];
    }
  }
  return v;
}

// `seat`'s standing by the context's evaluation.
int Standing(const Position& pos, int seat, const Context& ctx) {
  switch (ctx.eval) {
    case LeafEval::kPairwise:
      return PairwiseScore(pos, seat);
    case LeafEval::kRace:
      return RaceScore(pos, seat);
    case LeafEval::kSeatScores:
      break;
  }
  return CheckersSeatScores(pos)[seat];
}

// The root seat's score of a leaf, a win sooner (and a loss later) scored further from 0.
int Leaf(const Position& pos, const Context& ctx, int ply) {
  const int v = Standing(pos, ctx.root, ctx);
  if (v >= kWin) return kWin - ply;
  if (v <= -kWin) return -kWin + ply;
  return v;
}

int AlphaBeta(const Position& pos, int depth, int alpha, int beta, int ply, int extension,
              Context& ctx) {
  ++ctx.nodes;
  if (pos.phase != Phase::kMove) return Leaf(pos, ctx, ply);
  if (depth <= 0) {
    // Captures are compulsory: a position where one is owed is not quiet, so look on.
    if (extension >= kMaxCaptureExtension || !CanCapture(pos)) return Leaf(pos, ctx, ply);
    ++extension;
  }
  if (ctx.OutOfNodes()) return Leaf(pos, ctx, ply);
  TurnList list;
  GenerateTurns(pos, list, kCheckersTurnBudget);
  const bool maximise = pos.turn == ctx.root;
  int best = maximise ? -kWin - 1 : kWin + 1;
  for (int i = 0; i < list.size(); ++i) {
    Position child = pos;
    child.ApplyTurn(list[i]);
    const int v = AlphaBeta(child, depth - 1, alpha, beta, ply + 1, extension, ctx);
    if (maximise) {
      best = std::max(best, v);
      alpha = std::max(alpha, v);
    } else {
      best = std::min(best, v);
      beta = std::min(beta, v);
    }
    if (alpha >= beta || ctx.stopped) break;
  }
  return best;
}

// A child of a node and the key its turns are ordered by.
struct Child {
  Position pos;
  int key = 0;
  int index = 0;
};

// The turns of `pos` applied, best first for the seat to move by the static evaluation (its own
// seat score; ties keep the generator's order). Every child made counts a node.
void OrderedChildren(const Position& pos, const TurnList& list, std::vector<Child>& out,
                     Context& ctx) {
  out.clear();
  out.reserve(list.size());
  const int mover = pos.turn;
  for (int i = 0; i < list.size(); ++i) {
    Child c{.pos = pos, .index = i};
    c.pos.ApplyTurn(list[i]);
    ++ctx.nodes;
    c.key = Standing(c.pos, mover, ctx);
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Child& a, const Child& b) { return a.key > b.key; });
}

// The seat to move after `pos.turn`, skipping seats that are out.
int NextActive(const Position& pos) {
  const int n = pos.rules.players;
  for (int k = 1; k <= n; ++k) {
    const int s = (pos.turn + k) % n;
    if (pos.Active(s)) return s;
  }
  return pos.turn;
}

// Best-reply search (BRS+): between two turns of the root seat only one opponent searches all
// its turns (a ply); the other plays its first turn by the ordering (its greediest, no ply).
// `reply_used`: an opponent has already searched its turns since the root's last turn.
int Brs(const Position& pos, int depth, int alpha, int beta, int ply, int extension,
        bool reply_used, Context& ctx) {
  if (pos.phase != Phase::kMove || !pos.Active(ctx.root)) return Leaf(pos, ctx, ply);
  const bool root_turn = pos.turn == ctx.root;
  if (depth <= 0 && (root_turn || !reply_used)) {
    // Captures are compulsory: a position where one is owed is not quiet, so look on.
    if (extension >= kMaxCaptureExtension || !CanCapture(pos)) return Leaf(pos, ctx, ply);
    ++extension;
  }
  if (ctx.OutOfNodes()) return Leaf(pos, ctx, ply);
  TurnList list;
  GenerateTurns(pos, list, kCheckersTurnBudget);
  if (list.size() == 0) return Leaf(pos, ctx, ply);
  std::vector<Child> children;
  if (!root_turn && reply_used) {
    // Already replied: this opponent plays its first turn only, without using a ply.
    Child first{.pos = pos};
    int best_key = 0;
    for (int i = 0; i < list.size(); ++i) {
      Position c = pos;
      c.ApplyTurn(list[i]);
      ++ctx.nodes;
      const int key = Standing(c, pos.turn, ctx);
      if (i == 0 || key > best_key) {
        best_key = key;
        first.pos = std::move(c);
      }
    }
    return Brs(first.pos, depth, alpha, beta, ply + 1, extension, true, ctx);
  }
  OrderedChildren(pos, list, children, ctx);
  if (root_turn) {
    int best = -kWin - 1;
    for (const Child& c : children) {
      const int v = Brs(c.pos, depth - 1, alpha, beta, ply + 1, extension, false, ctx);
      best = std::max(best, v);
      alpha = std::max(alpha, v);
      if (alpha >= beta || ctx.stopped) break;
    }
    return best;
  }
  // An opponent before any reply: its first turn with the next opponent replying (when one
  // moves before the root again), then each of its turns as the reply.
  int best = kWin + 1;
  if (NextActive(pos) != ctx.root) {
    best = Brs(children[0].pos, depth, alpha, beta, ply + 1, extension, false, ctx);
    beta = std::min(beta, best);
  }
  for (const Child& c : children) {
    if (alpha >= beta || ctx.stopped) break;
    const int v = Brs(c.pos, depth - 1, alpha, beta, ply + 1, extension, true, ctx);
    best = std::min(best, v);
    beta = std::min(beta, v);
  }
  return best;
}

// The root's turns in an order that depends on the seed only (ties go to the first).
std::vector<int> RootOrder(int n, uint64_t seed) {
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  Rng rng(seed);
  for (int i = n - 1; i > 0; --i) std::swap(order[i], order[rng.Below(i + 1)]);
  return order;
}

}  // namespace

std::array<int, 3> CheckersSeatScores(const Position& pos) {
  std::array<int, 3> out{};
  const int n = pos.rules.players;
  if (pos.phase == Phase::kOver) {
    for (int s = 0; s < n; ++s) out[s] = pos.draw ? 0 : (s == pos.winner ? kWin : -kWin);
    return out;
  }
  const std::array<int, 3> m = Material(pos);
  for (int s = 0; s < n; ++s) {
    if (!pos.Active(s)) {
      out[s] = -kWin;
      continue;
    }
    int others = 0, count = 0;
    for (int o = 0; o < n; ++o) {
      if (o != s && pos.Active(o)) {
        others += m[o];
        ++count;
      }
    }
    const int mean = count > 0 ? others / count : 0;
    // Reverse checkers: the aim is to be rid of one's pieces.
    out[s] = pos.rules.reverse ? mean - m[s] : m[s] - mean;
  }
  return out;
}

SearchResult CheckersSearch(const Position& pos, const SearchLimits& limits,
                            CheckersAlgorithm algorithm) {
  SearchResult result;
  TurnList list;
  GenerateTurns(pos, list, kCheckersTurnBudget);
  if (list.size() == 0) return result;
  std::vector<int> order = RootOrder(list.size(), limits.seed);
  Context ctx{.root = pos.turn, .budget = limits.nodes, .stop = limits.stop};
  // BRS+ (with the pairwise evaluation) is on request only: measured so far it does not beat
  // the paranoid default at the levels' budgets (docs/bots.md).
  const bool brs = pos.rules.players > 2 && algorithm == CheckersAlgorithm::kBrs;
  if (brs) {
    ctx.eval = LeafEval::kPairwise;
  } else if (pos.rules.players > 2 && !pos.rules.reverse) {
    ctx.eval = LeafEval::kRace;
  }
  if (brs && list.size() > 1 && limits.nodes > 0) {
    // The root's turns best first by the static evaluation (seeded among equals).
    std::vector<int> key(list.size());
    for (int i = 0; i < list.size(); ++i) {
      Position child = pos;
      child.ApplyTurn(list[i]);
      key[i] = PairwiseScore(child, ctx.root);  // brs only
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key[a] > key[b]; });
  }
  int best = order[0];
  if (list.size() == 1 || limits.nodes <= 0) {
    // One ply, with the forced capture replies it allows resolved: captures are compulsory, so
    // plain one-ply greed walked into recaptures (53.6% against random play with three seats).
    int best_score = -kWin - 1;
    for (int i : order) {
      Position child = pos;
      child.ApplyTurn(list[i]);
      Context replies{.root = ctx.root, .budget = kGreedyReplyNodes};
      const int v = AlphaBeta(child, 0, -kWin - 1, kWin + 1, 1, 0, replies);
      ctx.nodes += replies.nodes;
      if (v > best_score) {
        best_score = v;
        best = i;
      }
    }
    result.depth = 1;
    result.score = best_score;
  } else {
    for (int depth = 1; depth <= limits.depth; ++depth) {
      // The last iteration's best first, so a cut-short iteration can only improve on it.
      std::stable_partition(order.begin(), order.end(), [&](int i) { return i == best; });
      int alpha = -kWin - 1, iteration_best = order[0], iteration_score = -kWin - 1;
      for (int i : order) {
        Position child = pos;
        child.ApplyTurn(list[i]);
        const int v = brs ? Brs(child, depth - 1, alpha, kWin + 1, 1, 0, false, ctx)
                          : AlphaBeta(child, depth - 1, alpha, kWin + 1, 1, 0, ctx);
        if (ctx.stopped) break;
        if (v > iteration_score) {
          iteration_score = v;
          iteration_best = i;
          alpha = v;
        }
      }
      if (ctx.stopped) {
        // Keep what the cut-short iteration proved better than the last one's choice.
        if (iteration_score > result.score && iteration_score > -kWin - 1) best = iteration_best;
        break;
      }
      best = iteration_best;
      result.depth = depth;
      result.score = iteration_score;
      if (iteration_score >= kWin - depth) break;  // a forced win found
    }
  }
  result.nodes = ctx.nodes;
  result.stopped = ctx.stopped && limits.stop != nullptr && limits.stop->load();
  result.move = TurnText(list[best]);
  result.pv = {result.move};
  return result;
}

int CheckersChooseAim(const Position& pos) {
  return BoardGrid().Index({0, 0});
}

int CheckersChoosePlacement(const Position& pos) {
  int best = -1, best_advance = -1;
  pos.HomeCells(pos.turn).ForEach([&](int c) {
    if (pos.cells[c]) return;
    const int a = Advance(pos, pos.turn, c);
    if (a > best_advance) {
      best_advance = a;
      best = c;
    }
  });
  return best;
}

int CheckersChoosePenalty(const Position& pos) {
  return pos.ServicePenaltyMan(pos.turn);
}

}  // namespace arena::bots
