#include "bots/core/mcts.h"

#include <cmath>
#include <memory>

namespace arena::bots {

using engine::State;

namespace {

struct Node {
  std::string action;  // the action leading here
  int mover = -1;      // the seat that chose it
  int parent = -1;
  std::vector<int> children;
  std::vector<std::string> untried;
  bool expanded = false;
  int visits = 0;
  double reward = 0;  // sum of rewards of `mover`
};

std::vector<double> Rewards(const State& s) {
  const int n = s.NumSeats();
  std::vector<double> r(n, 0.5);
  const engine::Outcome o = s.GetOutcome();
  if (!o.finished() || int(o.ranks.size()) != n || n < 2) return r;
  for (int i = 0; i < n; ++i) r[i] = 1.0 - double(o.ranks[i]) / double(n - 1);
  return r;
}

}  // namespace

std::string SampleChance(const State& state, Rng& rng) {
  const std::vector<engine::ChanceOutcome> outs = state.ChanceOutcomes();
  double x = rng.Uniform(), acc = 0;
  for (const auto& o : outs) {
    acc += o.probability;
    if (x < acc) return o.action;
  }
  return outs.empty() ? std::string() : outs.back().action;
}

SearchResult MctsSearch(const State& root_state, const SearchLimits& limits,
                        const MctsOptions& options) {
  Rng rng(limits.seed);
  // A move that wins at once is taken without search: random playouts are too noisy to be
  // sure of it within a small budget.
  const int me = root_state.ToMove();
  for (const std::string& a : root_state.BoundedLegalActions(kMaxListedActions)) {
    std::unique_ptr<State> s = root_state.Clone();
    if (!s->Apply(a).ok()) continue;
    const engine::Outcome o = s->GetOutcome();
    if (o.kind == engine::Outcome::Kind::kWin && o.winners.size() == 1 && o.winners[0] == me) {
      SearchResult r;
      r.move = a;
      r.pv = {a};
      r.depth = 1;
      r.nodes = 1;
      r.score = 30000;
      return r;
    }
  }
  std::vector<Node> tree(1);
  int64_t applied = 0;
  bool stopped = false;
  const int64_t budget = limits.nodes > 0 ? limits.nodes : INT64_MAX;
  int iterations = 0;
  // Resolve chance nodes by sampling; returns false when nothing could be applied.
  auto settle = [&](State& s) {
    while (s.ToMove() == engine::kChanceSeat) {
      const std::string a = SampleChance(s, rng);
      if (a.empty() || !s.Apply(a).ok()) return false;
      ++applied;
    }
    return true;
  };
  while (applied < budget) {
    if (iterations > 0 && (iterations & 15) == 0 && StopRequested(limits)) {
      stopped = true;
      break;
    }
    ++iterations;
    std::unique_ptr<State> s = root_state.Clone();
    int node = 0;
    // Selection.
    for (;;) {
      if (!settle(*s) || s->IsTerminal()) break;
      Node& n = tree[node];
      if (!n.expanded) {
        n.untried = s->BoundedLegalActions(kMaxListedActions);
        n.expanded = true;
      }
      if (!n.untried.empty()) {
        // Expansion: a random untried action.
        const size_t k = rng.Below(n.untried.size());
        std::string a = n.untried[k];
        n.untried.erase(n.untried.begin() + long(k));
        const int mover = s->ToMove();
        if (!s->Apply(a).ok()) break;
        ++applied;
        Node child;
        child.action = std::move(a);
        child.mover = mover;
        child.parent = node;
        tree.push_back(std::move(child));
        const int id = int(tree.size()) - 1;
        tree[node].children.push_back(id);
        node = id;
        break;
      }
      if (n.children.empty()) break;
      // UCT among children.
      const double log_n = std::log(double(std::max(1, n.visits)));
      int best = -1;
      double best_u = -1e300;
      for (int c : n.children) {
        const Node& ch = tree[c];
        const double u = ch.visits == 0 ? 1e9
                                        : ch.reward / ch.visits +
                                              options.exploration * std::sqrt(log_n / ch.visits);
        if (u > best_u) {
          best_u = u;
          best = c;
        }
      }
      if (!s->Apply(tree[best].action).ok()) break;  // open loop: chance changed the node
      ++applied;
      node = best;
    }
    // Playout.
    for (int ply = 0; ply < options.playout_cap && applied < budget; ++ply) {
      if (!settle(*s) || s->IsTerminal()) break;
      const std::vector<std::string> acts = s->BoundedLegalActions(kMaxListedActions);
      if (acts.empty()) break;
      if (!s->Apply(acts[rng.Below(acts.size())]).ok()) break;
      ++applied;
    }
    // Backup.
    const std::vector<double> r = Rewards(*s);
    for (int x = node; x >= 0; x = tree[x].parent) {
      ++tree[x].visits;
      if (tree[x].mover >= 0 && tree[x].mover < int(r.size())) tree[x].reward += r[tree[x].mover];
    }
  }
  SearchResult result;
  result.nodes = applied;
  result.stopped = stopped;
  int best = -1;
  for (int c : tree[0].children) {
    if (best < 0 || tree[c].visits > tree[best].visits) best = c;
  }
  if (best < 0) {
    const std::vector<std::string> acts = root_state.BoundedLegalActions(kMaxListedActions);
    if (!acts.empty()) result.move = acts[rng.Below(acts.size())];
  } else {
    result.move = tree[best].action;
    result.score =
        int(std::lround((tree[best].reward / std::max(1, tree[best].visits) - 0.5) * 2000));
    // Principal variation: most visited line.
    for (int x = best; x >= 0;) {
      result.pv.push_back(tree[x].action);
      int next = -1;
      for (int c : tree[x].children) {
        if (next < 0 || tree[c].visits > tree[next].visits) next = c;
      }
      if (next < 0 || tree[next].visits < 2) break;
      x = next;
    }
    result.depth = int(result.pv.size());
  }
  return result;
}

}  // namespace arena::bots
