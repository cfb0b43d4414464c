// Monte-Carlo tree search over the engine facade (engine/core/game.h), for any game: UCT
// selection, one expansion per iteration, a uniformly random playout (seeded) to the end or
// to a ply cap, and max-n backup: every node keeps the mean reward of the seat that chose the
// action leading to it, so each seat maximises its own reward. Rewards come from the outcome's
// ranks: 1 for first place, 0 for last, linear between, shared places averaged; a playout cut
// at the cap scores every seat alike. Chance nodes are sampled by their probabilities while
// walking down (open loop: a node's children are re-checked against the state reached).
//
// The budget counts applied actions (tree walk and playouts), so it is comparable to the
// node budgets of the alpha-beta searchers and deterministic.
#pragma once

#include "bots/core/search_common.h"
#include "engine/core/game.h"

namespace arena::bots {

struct MctsOptions {
  double exploration = 1.2;
  int playout_cap = 200;
};

// `state` must be a decision node of a seat (not chance, not finished).
SearchResult MctsSearch(const engine::State& state, const SearchLimits& limits,
                        const MctsOptions& options = {});

// Draws one chance outcome by its probability.
std::string SampleChance(const engine::State& state, Rng& rng);

}  // namespace arena::bots
