#include "bots/chestonia_go/go_search.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/chestonia_go/notation.h"
#include "engine/hex/dart.h"

namespace arena::bots {

using engine::chestonia_go::BoardGrid;
using engine::chestonia_go::BoardHistory;
using engine::chestonia_go::CellName;
using engine::chestonia_go::kMaxRoundsBetweenDarts;
using engine::chestonia_go::kMaxSeats;
using engine::chestonia_go::kNumCells;
using engine::chestonia_go::kRadius;
using engine::chestonia_go::NeighbourTable;
using engine::chestonia_go::Phase;
using engine::chestonia_go::Position;

namespace {

constexpr int kPass = -1;

// Every neighbour is the seat's own stone, a frozen stone or the rim.
bool OwnEye(const Position& pos, int cell, int seat) {
  for (int n : NeighbourTable().of[cell]) {
    if (n < 0 || pos.stone[n] == seat + 1) continue;
    if (pos.stone[n] != 0 && !pos.Active(pos.stone[n] - 1)) continue;
    return false;
  }
  return true;
}

// The single liberty of the chain through `cell`, or -1 when it has none or several.
int OnlyLiberty(const Position& pos, int cell) {
  const auto& nb = NeighbourTable().of;
  int lib = -1;
  const int head = pos.chain_head[cell];
  int c = head;
  do {
    for (int n : nb[c]) {
      if (n < 0 || pos.stone[n] != 0 || n == lib) continue;
      if (lib >= 0) return -1;
      lib = n;
    }
    c = pos.chain_next[c];
  } while (c != head);
  return lib;
}

int CentreCell() {
  static const int centre = BoardGrid().Index({0, 0});
  return centre;
}

// The playout policy's cell for the seat to move, or kPass.
int PolicyCell(const Position& pos, Rng& rng) {
  const int seat = pos.turn;
  if (pos.last_play >= 0) {
    // Tactics around the last stone: take a chain left in atari, or save one's own.
    std::array<int16_t, 7> around;
    around[0] = pos.last_play;
    for (int d = 0; d < 6; ++d) around[d + 1] = NeighbourTable().of[pos.last_play][d];
    for (int cell : around) {
      if (cell < 0 || pos.stone[cell] == 0 || pos.Frozen(cell)) continue;
      const int lib = OnlyLiberty(pos, cell);
      if (lib < 0 || !pos.IsLegalIgnoringSuperko(lib, seat, nullptr)) continue;
      if (pos.Owner(cell) != seat) return lib;
      Position after = pos;
      after.PlaceStone(lib, seat);
      if (after.Liberties(lib) >= 2) return lib;
    }
  }
  std::array<int16_t, kNumCells> empty;
  int m = 0;
  for (int c = 0; c < kNumCells; ++c) {
    if (pos.stone[c] == 0) empty[m++] = static_cast<int16_t>(c);
  }
  while (m > 0) {
    const int i = static_cast<int>(rng.Below(m));
    const int c = empty[i];
    if (!OwnEye(pos, c, seat) && pos.IsLegalIgnoringSuperko(c, seat, nullptr)) return c;
    empty[i] = empty[--m];
  }
  return kPass;
}

int SampleLanding(const Position& pos, Rng& rng) {
  const std::vector<double>& dist =
      engine::hex::DartScatter::ForRadius(kRadius).Distribution(pos.aim);
  double x = rng.Uniform();
  for (int c = 0; c < kNumCells; ++c) {
    x -= dist[c];
    if (x < 0) return c;
  }
  return -1;
}

// Plays the dart round's parts (and the round chance) until a move is owed or the game is
// over; returns the actions applied.
int ResolveInterlude(Position& pos, Rng& rng) {
  int applied = 0;
  while (pos.phase != Phase::kMove && pos.phase != Phase::kOver) {
    switch (pos.phase) {
      case Phase::kRoundChance:
        pos.ApplyRoundChance(rng.Uniform() * (kMaxRoundsBetweenDarts + 1 - pos.rounds_since_dart) <
                             1.0);
        break;
      case Phase::kAim:
        pos.ApplyAim(CentreCell());
        break;
      case Phase::kLanding:
        pos.ApplyLanding(SampleLanding(pos, rng));
        break;
      case Phase::kPlacement: {
        const int c = PolicyCell(pos, rng);
        if (c >= 0) {
          pos.ApplyPlacement(c);
        } else {
          pos.ApplySkipPlacement();
        }
        break;
      }
      case Phase::kPenalty:
        pos.ApplyPenalty(GoChoosePenalty(pos));
        break;
      default:
        break;
    }
    ++applied;
  }
  return applied;
}

// Rewards in [0, 1] from places (1 first, 0 last, shared places averaged). An unfinished
// position is placed by the count it would make now (seats out below the seats in).
std::array<double, kMaxSeats> Rewards(const Position& pos) {
  const int n = pos.rules.players;
  std::array<int, kMaxSeats> ranks{};
  if (pos.phase == Phase::kOver) {
    ranks = pos.Ranks();
  } else {
    const std::array<int, kMaxSeats> score = GoCountNow(pos);
    for (int s = 0; s < n; ++s) {
      for (int t = 0; t < n; ++t) {
        const int ks =
            pos.Active(s) ? (pos.rules.reverse ? -score[s] : score[s]) : -1000 + pos.out[s];
        const int kt =
            pos.Active(t) ? (pos.rules.reverse ? -score[t] : score[t]) : -1000 + pos.out[t];
        ranks[s] += kt > ks;
      }
    }
  }
  std::array<double, kMaxSeats> reward{};
  for (int s = 0; s < n; ++s) {
    int better = 0, equal = 0;
    for (int t = 0; t < n; ++t) {
      better += ranks[t] < ranks[s];
      equal += ranks[t] == ranks[s];
    }
    reward[s] = 1.0 - (better + (equal - 1) / 2.0) / (n - 1);
  }
  return reward;
}

// The prior of a stone of `seat` on `cell` (legal), in [0, 1].
double Prior(const Position& pos, int cell, int seat) {
  const auto& nb = NeighbourTable().of[cell];
  double v = 0.45;
  bool saves = false;
  bool contact = false;
  for (int n : nb) {
    if (n < 0 || pos.stone[n] == 0) continue;
    contact = true;
    if (pos.Owner(n) == seat && OnlyLiberty(pos, n) == cell) saves = true;
  }
  Position after = pos;
  const int captured = after.PlaceStone(cell, seat);
  const int libs = after.Liberties(cell);
  if (captured > 0) v += 0.25 + 0.04 * std::min(captured, 5);
  if (saves && libs >= 2) v += 0.2;
  if (libs == 1 && captured == 0) v -= after.chain_size[after.chain_head[cell]] > 1 ? 0.3 : 0.15;
  for (int n : nb) {
    if (n >= 0 && after.stone[n] != 0 && after.Owner(n) != seat && !after.Frozen(n) &&
        OnlyLiberty(after, n) >= 0) {
      v += 0.08;
      break;
    }
  }
  if (OwnEye(pos, cell, seat)) v -= 0.35;
  const int ring = BoardGrid().Ring(cell);
  if (ring == kRadius) v -= 0.15;
  if (ring == kRadius - 1) v -= 0.04;
  if (contact) v += 0.03;
  return std::clamp(v, 0.02, 0.98);
}

struct Node {
  int first_child = -1;
  int num_children = 0;
  int16_t move = kPass;  // the cell played to get here, or kPass
  int8_t mover = -1;     // the seat that chose it
  bool expanded = false;
  double visits = 0;
  double wins = 0;  // rewards of `mover`
  double amaf_visits = 0;
  double amaf_wins = 0;
};

class Tree {
 public:
  Tree(const BoardHistory& history, const GoSearchOptions& options)
      : history_(history), options_(options) {}

  std::vector<Node> nodes;
  std::vector<uint64_t> path_hashes;  // boards along the current walk (superko in the tree)

  void Expand(int index, const Position& pos) {
    const int seat = pos.turn;
    const int first = static_cast<int>(nodes.size());
    for (int c = 0; c < kNumCells; ++c) {
      if (pos.stone[c] != 0) continue;
      uint64_t after = 0;
      if (!pos.IsLegalIgnoringSuperko(c, seat, &after) || history_.Contains(after) ||
          std::find(path_hashes.begin(), path_hashes.end(), after) != path_hashes.end()) {
        continue;
      }
      AddChild(c, seat, Prior(pos, c, seat));
    }
    AddChild(kPass, seat, 0.25);
    nodes[index].first_child = first;
    nodes[index].num_children = static_cast<int>(nodes.size()) - first;
    nodes[index].expanded = true;
  }

  // The child to walk into: UCT on the RAVE blend, among children legal in `pos`.
  int Select(int index, const Position& pos) const {
    const Node& node = nodes[index];
    const double log_n = std::log(node.visits + 1);
    int best = -1;
    double best_score = -1e9;
    for (int i = node.first_child; i < node.first_child + node.num_children; ++i) {
      const Node& c = nodes[i];
      if (c.move >= 0 &&
          (pos.stone[c.move] != 0 ||
           (pos.rules.darts && !pos.IsLegalIgnoringSuperko(c.move, pos.turn, nullptr)))) {
        continue;  // a dart changed the board under this open-loop node
      }
      const double beta = std::sqrt(options_.rave_k / (3 * c.visits + options_.rave_k));
      const double q = c.visits > 0 ? c.wins / c.visits : 0.5;
      const double aq = c.amaf_visits > 0 ? c.amaf_wins / c.amaf_visits : 0.5;
      const double score =
          (1 - beta) * q + beta * aq + options_.exploration * std::sqrt(log_n / (c.visits + 1));
      if (score > best_score) {
        best_score = score;
        best = i;
      }
    }
    return best;
  }

 private:
  void AddChild(int move, int seat, double prior) {
    Node n;
    n.move = static_cast<int16_t>(move);
    n.mover = static_cast<int8_t>(seat);
    n.amaf_visits = options_.prior_weight;
    n.amaf_wins = options_.prior_weight * prior;
    nodes.push_back(n);
  }

  const BoardHistory& history_;
  const GoSearchOptions& options_;
};

void ApplyMove(Position& pos, int move) {
  if (move >= 0) {
    pos.ApplyPlay(move);
  } else {
    pos.ApplyPass();
  }
}

std::string MoveName(int move) {
  return move >= 0 ? CellName(move) : "pass";
}

}  // namespace

std::array<int, kMaxSeats> GoCountNow(const Position& pos) {
  const std::array<int, kMaxSeats> area = pos.Areas();
  std::array<int, kMaxSeats> score{-1, -1, -1};
  for (int s = 0; s < pos.rules.players; ++s) {
    if (pos.Active(s)) score[s] = pos.ScoreHalfPoints(s, area[s]);
  }
  return score;
}

int GoPlayout(Position& pos, Rng& rng, int cap) {
  int applied = 0;
  while (pos.phase != Phase::kOver && applied < cap) {
    if (pos.phase != Phase::kMove) {
      applied += ResolveInterlude(pos, rng);
      continue;
    }
    ApplyMove(pos, PolicyCell(pos, rng));
    ++applied;
  }
  return applied;
}

SearchResult GoSearch(const Position& root_pos, const BoardHistory& history,
                      const SearchLimits& limits, const GoSearchOptions& options,
                      GoSearchStats* stats) {
  // A pass that counts the board and wins is taken without search (playouts that keep filling
  // one's own area win too, and would only make the game longer).
  {
    Position after = root_pos;
    after.ApplyPass();
    if (after.phase == Phase::kOver && !after.draw && after.winner == root_pos.turn) {
      SearchResult won;
      won.move = "pass";
      won.pv = {"pass"};
      won.nodes = 1;
      won.depth = 1;
      won.score = 30000;  // a won game, as SearchResult's scale says
      return won;
    }
  }
  Rng rng(limits.seed);
  Tree tree(history, options);
  const int64_t budget = limits.nodes > 0 ? limits.nodes : 10'000;
  tree.nodes.reserve(static_cast<size_t>(std::min<int64_t>(budget / 2 + 512, 4'000'000)));
  tree.nodes.push_back(Node{});
  tree.Expand(0, root_pos);

  // The moves of one walk and playout, (seat, cell), for the AMAF update.
  std::vector<std::pair<int8_t, int16_t>> moves;
  moves.reserve(options.playout_cap + 256);
  std::vector<int> path;
  std::array<uint8_t, kNumCells> played{};  // bit s: seat s played the cell after the node

  int64_t applied = 0, playouts = 0;
  SearchResult result;
  while (applied < budget) {
    if ((playouts & 7) == 0 && StopRequested(limits)) {
      result.stopped = true;
      break;
    }
    Position pos = root_pos;
    path.assign(1, 0);
    moves.clear();
    tree.path_hashes.clear();
    int index = 0;
    // Walk down the tree.
    while (tree.nodes[index].expanded && pos.phase == Phase::kMove) {
      const int child = tree.Select(index, pos);
      if (child < 0) break;
      const int move = tree.nodes[child].move;
      moves.push_back({static_cast<int8_t>(pos.turn), static_cast<int16_t>(move)});
      ApplyMove(pos, move);
      ++applied;
      tree.path_hashes.push_back(pos.hash);
      applied += ResolveInterlude(pos, rng);
      path.push_back(child);
      index = child;
    }
    if (!tree.nodes[index].expanded && pos.phase == Phase::kMove && tree.nodes[index].visits >= 1) {
      tree.Expand(index, pos);
    }
    const size_t tree_moves = moves.size();
    // Playout, recording the stones for AMAF.
    int steps = 0;
    while (pos.phase != Phase::kOver && steps < options.playout_cap) {
      if (pos.phase != Phase::kMove) {
        steps += ResolveInterlude(pos, rng);
        continue;
      }
      const int move = PolicyCell(pos, rng);
      moves.push_back({static_cast<int8_t>(pos.turn), static_cast<int16_t>(move)});
      ApplyMove(pos, move);
      ++steps;
    }
    applied += steps;
    ++playouts;
    const std::array<double, kMaxSeats> reward = Rewards(pos);

    // Back up the real results and the AMAF ones.
    played.fill(0);
    for (size_t i = tree_moves; i < moves.size(); ++i) {
      if (moves[i].second >= 0) played[moves[i].second] |= uint8_t(1u << moves[i].first);
    }
    for (int j = static_cast<int>(path.size()) - 1; j >= 0; --j) {
      if (j < static_cast<int>(tree_moves) && moves[j].second >= 0) {
        played[moves[j].second] |= uint8_t(1u << moves[j].first);
      }
      Node& node = tree.nodes[path[j]];
      node.visits += 1;
      if (node.mover >= 0) node.wins += reward[node.mover];
      if (!node.expanded) continue;
      for (int i = node.first_child; i < node.first_child + node.num_children; ++i) {
        Node& c = tree.nodes[i];
        if (c.move >= 0 && (played[c.move] >> c.mover) & 1) {
          c.amaf_visits += 1;
          c.amaf_wins += reward[c.mover];
        }
      }
    }
  }

  // The most visited root child (ties: the better mean, then the prior).
  const Node& root = tree.nodes[0];
  int best = -1;
  for (int i = root.first_child; i < root.first_child + root.num_children; ++i) {
    const Node& c = tree.nodes[i];
    if (best < 0) {
      best = i;
      continue;
    }
    const Node& b = tree.nodes[best];
    const double cm = c.visits > 0 ? c.wins / c.visits : 0,
                 bm = b.visits > 0 ? b.wins / b.visits : 0;
    const double ca = c.amaf_wins / c.amaf_visits, ba = b.amaf_wins / b.amaf_visits;
    if (c.visits > b.visits || (c.visits == b.visits && (cm > bm || (cm == bm && ca > ba)))) {
      best = i;
    }
  }
  const Node& chosen = tree.nodes[best];
  result.move = MoveName(chosen.move);
  result.nodes = applied;
  result.depth = 1;
  // SearchResult's scale, centred as the generic MCTS's: the chosen child's win rate w (max-n
  // rewards, 0..1) as (w - 1/2) * 2000, so an even position is 0 and a sure loss -1000.
  // (Adjudication at a move cap and the move judge read the sign; a win rate read as 0..1000
  // made every capped game the mover's whenever it had 40% of the chances.)
  result.score = chosen.visits > 0
                     ? static_cast<int>(std::lround((chosen.wins / chosen.visits - 0.5) * 2000))
                     : 0;
  // The principal variation: most visited children down the tree.
  for (int index = best; index >= 0;) {
    result.pv.push_back(MoveName(tree.nodes[index].move));
    const Node& n = tree.nodes[index];
    int next = -1;
    for (int i = n.first_child; n.expanded && i < n.first_child + n.num_children; ++i) {
      if (tree.nodes[i].visits > 0 &&
          (next < 0 || tree.nodes[i].visits > tree.nodes[next].visits)) {
        next = i;
      }
    }
    index = next;
    if (result.pv.size() >= 12) break;
  }
  if (stats) {
    stats->playouts = playouts;
    stats->nodes = applied;
    stats->tree_nodes = static_cast<int>(tree.nodes.size());
  }
  return result;
}

std::string GoGreedyMove(const Position& pos, const BoardHistory& history, uint64_t seed) {
  Rng rng(seed);
  const int seat = pos.turn;
  int best = kPass, best_captured = 0;
  std::vector<int> quiet;
  for (int c = 0; c < kNumCells; ++c) {
    if (pos.stone[c] != 0 || !pos.IsLegalPlay(c, seat, history)) continue;
    Position after = pos;
    const int captured = after.PlaceStone(c, seat);
    if (captured > best_captured) {
      best_captured = captured;
      best = c;
    }
    if (captured == 0 && !OwnEye(pos, c, seat) && after.Liberties(c) >= 2) quiet.push_back(c);
  }
  if (best_captured > 0) return CellName(best);
  if (quiet.empty()) return "pass";
  return CellName(quiet[rng.Below(quiet.size())]);
}

int GoChooseAim(const Position& pos, double* expected) {
  const engine::hex::DartScatter& scatter = engine::hex::DartScatter::ForRadius(kRadius);
  const bool has_stones = pos.StoneCount(pos.turn) > 0;
  int best = CentreCell();
  double best_ev = -1e9;
  for (int aim = 0; aim < kNumCells; ++aim) {
    if (BoardGrid().Ring(aim) > 4) continue;  // outer aims only lose paying landings
    const std::vector<double>& dist = scatter.Distribution(aim);
    double ev = has_stones ? -dist[kNumCells] : 0.0;
    for (int c = 0; c < kNumCells; ++c) {
      double value =
          engine::hex::DartZonePays(engine::hex::DartZone(BoardGrid().Ring(c))) ? 1.0 : 0.0;
      if (pos.stone[c] != 0 && !pos.Frozen(c)) value += pos.Owner(c) == pos.turn ? -1.0 : 1.0;
      ev += dist[c] * value;
    }
    if (ev > best_ev) {
      best_ev = ev;
      best = aim;
    }
  }
  if (expected) *expected = best_ev;
  return best;
}

int GoChoosePenalty(const Position& pos) {
  int best = -1, best_libs = 1 << 20, best_size = 1 << 20;
  for (int c = 0; c < kNumCells; ++c) {
    if (pos.stone[c] != pos.turn + 1) continue;
    const int libs = pos.Liberties(c);
    const int size = pos.chain_size[pos.chain_head[c]];
    if (libs < best_libs || (libs == best_libs && size < best_size)) {
      best = c;
      best_libs = libs;
      best_size = size;
    }
  }
  return best;
}

}  // namespace arena::bots
