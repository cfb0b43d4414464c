#include "bots/hex_checkers/hex_search.h"

#include <algorithm>
#include <cstdlib>

#include "engine/hex_checkers/notation.h"

namespace arena::bots {

using engine::hex_checkers::DirsOf;
using engine::hex_checkers::KindOf;
using engine::hex_checkers::kKing;
using engine::hex_checkers::kMan;
using engine::hex_checkers::kMaxSeats;
using engine::hex_checkers::PieceDirs;
using engine::hex_checkers::Position;
using engine::hex_checkers::SeatOf;
using engine::hex_checkers::Turn;
using engine::hex_checkers::TurnList;

namespace {
constexpr int kInf = 1 << 29;
constexpr int kMaxPly = 96;
constexpr int kMaxCellsAcross = 2 * engine::hex_checkers::kMaxRadius + 1;
}  // namespace

std::array<int, kMaxSeats> HexCheckersSeatScores(const Position& pos,
                                                 const HexCheckersEvalWeights& w) {
  std::array<int, kMaxSeats> scores{};
  const engine::hex::Grid& g = pos.grid();
  const int radius = pos.rules.radius;
  for (int s = 0; s < pos.rules.players; ++s) {
    if (!pos.Alive(s)) {
      scores[s] = -w.out;
      continue;
    }
    int v = 0;
    pos.pieces[s].ForEach([&](int c) {
      if (KindOf(pos.cells[c]) == kKing) {
        v += w.king;
      } else {
        const int ring = g.Ring(c);
        v += w.man + w.advance * (radius - ring) + (ring == 1 ? w.centre_next : 0);
      }
    });
    scores[s] = v;
  }
  return scores;
}

namespace {

// How many jumps the other seats could make at once on `seat`'s pieces (a piece two can
// jump counts twice).
int Hanging(const Position& pos, int seat) {
  const engine::hex::Grid& g = pos.grid();
  int jumps = 0;
  for (int s = 0; s < pos.rules.players; ++s) {
    if (s == seat || !pos.Alive(s)) continue;
    pos.pieces[s].ForEach([&](int c) {
      const PieceDirs dirs = DirsOf(pos, pos.cells[c]);
      for (int i = 0; i < dirs.count; ++i) {
        const int d = dirs.dirs[i];
        const int over = g.Step(c, d);
        if (over < 0 || !pos.cells[over] || SeatOf(pos.cells[over]) != seat) continue;
        const int to = g.Step(over, d);
        if (to >= 0 && !pos.cells[to]) ++jumps;
      }
    });
  }
  return jumps;
}

// The empty cells `seat`'s pieces could step to.
int StepMobility(const Position& pos, int seat) {
  const engine::hex::Grid& g = pos.grid();
  int steps = 0;
  pos.pieces[seat].ForEach([&](int c) {
    const PieceDirs dirs = DirsOf(pos, pos.cells[c]);
    for (int i = 0; i < dirs.count; ++i) {
      const int to = g.Step(c, dirs.dirs[i]);
      if (to >= 0 && !pos.cells[to]) ++steps;
    }
  });
  return steps;
}

// The mean distance from `seat`'s kings to the nearest piece of `enemy` (0 without kings).
int KingDistance(const Position& pos, int seat, int enemy) {
  const engine::hex::Grid& g = pos.grid();
  int sum = 0, kings = 0;
  pos.pieces[seat].ForEach([&](int c) {
    if (KindOf(pos.cells[c]) != kKing) return;
    int nearest = 2 * kMaxCellsAcross;
    pos.pieces[enemy].ForEach(
        [&](int e) { nearest = std::min(nearest, engine::hex::Distance(g.At(c), g.At(e))); });
    sum += nearest;
    ++kings;
  });
  return kings > 0 ? sum / kings : 0;
}

}  // namespace

int HexCheckersValueFor(const Position& pos, int seat, const HexCheckersEvalWeights& w) {
  const std::array<int, kMaxSeats> scores = HexCheckersSeatScores(pos, w);
  const int n = pos.rules.players;
  int others = 0;
  for (int s = 0; s < n; ++s) others += s == seat ? 0 : scores[s];
  int v = scores[seat] - others / (n - 1);
  if (w.hanging != 0) v -= w.hanging * Hanging(pos, seat);
  if ((w.endgame_mobility != 0 || w.endgame_closeness != 0) && pos.NumAlive() == 2 &&
      pos.Alive(seat)) {
    int enemy = 0;
    while (enemy == seat || !pos.Alive(enemy)) ++enemy;
    v -= w.endgame_mobility * StepMobility(pos, enemy);
    if (scores[seat] > scores[enemy]) v -= w.endgame_closeness * KingDistance(pos, seat, enemy);
  }
  return v;
}

int HexCheckersSearcher::Leaf(const Pos& pos, int ply) const {
  if (pos.Over()) {
    if (pos.winner == root_) return options_.weights.win - ply;
    if (pos.winner >= 0) return -options_.weights.win + ply;
    return 0;  // a draw
  }
  // With three or more seats the root seat going out ends the line; sooner is worse.
  if (!pos.Alive(root_)) return -options_.weights.win / 2 + ply;
  return HexCheckersValueFor(pos, root_, options_.weights);
}

bool HexCheckersSearcher::OutOfBudget() {
  if (aborted_) return true;
  if ((limits_.nodes > 0 && nodes_ >= limits_.nodes) ||
      (nodes_ % kStopPollNodes == 0 && StopRequested(limits_))) {
    aborted_ = true;
  }
  return aborted_;
}

int HexCheckersSearcher::NextAlive(const Pos& pos) const {
  const int n = pos.rules.players;
  for (int k = 1; k <= n; ++k) {
    const int s = (pos.turn + k) % n;
    if (pos.Alive(s)) return s;
  }
  return pos.turn;
}

void HexCheckersSearcher::Order(const Pos& pos, const TurnList& list, int ply,
                                std::vector<int>& order) const {
  order.resize(list.size());
  std::vector<int> keys(list.size());
  const int centre = pos.layout().centre;
  for (int i = 0; i < list.size(); ++i) {
    order[i] = i;
    const Turn t = list[i];
    int key = t.len * 16;  // longer chains take more
    if (KindOf(pos.cells[t.from()]) == kMan && t.to() == centre) key += 100;
    // A fixed, seed-dependent tie-break so equal moves are not always tried in cell order.
    key = key * 64 +
          static_cast<int>((seed_ + static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ULL) >> 58);
    keys[i] = key;
  }
  if (ply == 0 && root_first_ >= 0 && root_first_ < list.size()) keys[root_first_] = kInf;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] > keys[b]; });
}

int HexCheckersSearcher::Paranoid(const Pos& pos, int depth, int ply, int alpha, int beta) {
  if (pos.Over() || !pos.Alive(root_) || ply >= kMaxPly) return Leaf(pos, ply);
  TurnList& list = lists_[ply];
  engine::hex_checkers::GenerateTurns(pos, list);
  if (depth <= 0 && (!list.captures || depth <= -kQuiescencePlies)) return Leaf(pos, ply);
  std::vector<int>& order = orders_[ply];
  Order(pos, list, ply, order);
  const bool maximise = pos.turn == root_;
  int best = maximise ? -kInf : kInf;
  for (int i : order) {
    if (OutOfBudget()) break;
    ++nodes_;
    Pos child = pos;
    child.ApplyTurn(lists_[ply][i]);
    const int v = Paranoid(child, depth - 1, ply + 1, alpha, beta);
    if (aborted_) break;
    if (maximise) {
      if (v > best) {
        best = v;
        if (ply == 0) root_first_ = i;
      }
      alpha = std::max(alpha, v);
    } else {
      best = std::min(best, v);
      beta = std::min(beta, v);
    }
    if (alpha >= beta) break;
  }
  if (best == kInf || best == -kInf) return Leaf(pos, ply);
  return best;
}

int HexCheckersSearcher::PasserMove(const Pos& pos, int ply) {
  const std::vector<int>& order = orders_[ply];
  if (!options_.greedy_passers || order.size() == 1) return order[0];
  // The plain standing (material and advance) of the seat to move after each of its turns.
  static constexpr HexCheckersEvalWeights kPlain;
  int best = order[0], best_value = -kInf;
  for (int i : order) {
    ++nodes_;
    Pos child = pos;
    child.ApplyTurn(lists_[ply][i]);
    const int v = HexCheckersValueFor(child, pos.turn, kPlain);
    if (v > best_value) {
      best_value = v;
      best = i;
    }
  }
  return best;
}

int HexCheckersSearcher::Brs(const Pos& pos, int depth, int ply, int alpha, int beta,
                             bool reply_used) {
  if (pos.Over() || !pos.Alive(root_) || ply >= kMaxPly) return Leaf(pos, ply);
  TurnList& list = lists_[ply];
  engine::hex_checkers::GenerateTurns(pos, list);
  if (depth <= 0 && (!list.captures || depth <= -kQuiescencePlies)) return Leaf(pos, ply);
  std::vector<int>& order = orders_[ply];
  Order(pos, list, ply, order);
  if (pos.turn == root_) {
    int best = -kInf;
    for (int i : order) {
      if (OutOfBudget()) break;
      ++nodes_;
      Pos child = pos;
      child.ApplyTurn(lists_[ply][i]);
      const int v = Brs(child, depth - 1, ply + 1, alpha, beta, false);
      if (aborted_) break;
      if (v > best) {
        best = v;
        if (ply == 0) root_first_ = i;
      }
      alpha = std::max(alpha, v);
      if (alpha >= beta) break;
    }
    return best == -kInf ? Leaf(pos, ply) : best;
  }
  // An opponent: either the best reply (all its moves, a ply) or, while another opponent may
  // still reply before the root moves again, its first move by the ordering (no ply).
  int best = kInf;
  const bool may_pass_on = !reply_used && NextAlive(pos) != root_;
  if (reply_used || may_pass_on) {
    const int pass = PasserMove(pos, ply);
    ++nodes_;
    Pos child = pos;
    child.ApplyTurn(lists_[ply][pass]);
    best = Brs(child, depth, ply + 1, alpha, beta, reply_used);
    if (aborted_) return best;
    beta = std::min(beta, best);
  }
  if (!reply_used) {
    for (int i : order) {
      if (alpha >= beta || OutOfBudget()) break;
      ++nodes_;
      Pos child = pos;
      child.ApplyTurn(lists_[ply][i]);
      const int v = Brs(child, depth - 1, ply + 1, alpha, beta, true);
      if (aborted_) break;
      best = std::min(best, v);
      beta = std::min(beta, v);
    }
  }
  return best == kInf ? Leaf(pos, ply) : best;
}

SearchResult HexCheckersSearcher::Search(const Pos& pos, HexAlgorithm algorithm,
                                         const SearchLimits& limits) {
  limits_ = limits;
  root_ = pos.turn;
  nodes_ = 0;
  aborted_ = false;
  root_first_ = -1;
  seed_ = limits.seed;
  lists_.assign(kMaxPly + 1, TurnList{});
  orders_.assign(kMaxPly + 1, {});
  TurnList root_list;
  engine::hex_checkers::GenerateTurns(pos, root_list);
  SearchResult result;
  if (root_list.size() == 0) return result;
  int best = 0, best_score = 0;
  {
    // Before any iteration: the ordering's first move.
    std::vector<int> order;
    Order(pos, root_list, 1, order);
    best = order[0];
  }
  for (int depth = 1; depth <= limits.depth; ++depth) {
    root_first_ = best;
    const int score = algorithm == HexAlgorithm::kParanoid ? Paranoid(pos, depth, 0, -kInf, kInf)
                                                           : Brs(pos, depth, 0, -kInf, kInf, false);
    // An unfinished iteration still counts once its first (the previous best) move is done.
    if (!aborted_ || root_first_ != best) {
      best = root_first_;
      best_score = score;
      if (!aborted_) result.depth = depth;
    }
    if (aborted_) break;
    if (root_list.size() == 1) break;                        // a forced turn needs no search
    if (std::abs(score) >= options_.weights.win / 2) break;  // decided
  }
  result.move = engine::hex_checkers::TurnText(pos.grid(), root_list[best]);
  result.score = best_score;
  result.nodes = nodes_;
  result.pv = {result.move};
  result.stopped = StopRequested(limits);
  if (result.depth == 0) result.depth = 1;
  return result;
}

}  // namespace arena::bots
