// The Chestonia Go player: Monte-Carlo tree search with RAVE and a heuristic prior on the
// engine's own Position (no facade, no allocation in playouts), for two and three seats.
//
//   * Playouts: each seat in turn captures a chain left in atari next to the last stone, or
//     saves its own chain put in atari there, else plays a uniformly random legal cell that is
//     not one of its own eyes (a cell whose every neighbour is its own stone, a frozen stone or
//     the rim); with nothing left it passes. The engine's rules run unchanged, so the count, the
//     cut and the second count happen inside playouts; superko is checked only in the tree.
//     A playout cut at a cap is scored by the count it would make now.
//   * Tree: one node per stone or pass, children made with a prior (captures, ataris,
//     escapes and contact are good; self-atari, own eyes and the rim early are bad) stored as
//     virtual AMAF results; selection by UCT on a RAVE blend (beta = sqrt(k / (3n + k))).
//     Each node keeps the rewards of the seat that chose it (max-n); rewards are 1 for first
//     place, 0 for last, shared places averaged.
//   * Budget: board actions applied (tree and playouts), so levels mean what they mean for
//     every game (bots/core/levels.h). Deterministic for a position, budget and seed.
//   * A pass that counts the board and wins at once is played without search.
//   * Darts: the aim maximises the expected value of the landing (a paid stone, a knocked-off
//     enemy or own stone, a miss's cost) over the exact scatter; a free stone is the tree's
//     choice of move (a pass means skip); a penalty gives up the stone of the chain with the
//     fewest liberties. Dart events inside the tree and playouts are drawn by their chances
//     (aims at the centre, free stones and penalties by the playout policy).
#pragma once

#include <cstdint>
#include <string>

#include "bots/core/search_common.h"
#include "engine/chestonia_go/position.h"

namespace arena::bots {

struct GoSearchOptions {
  double exploration = 0.25;
  double rave_k = 400;       // visits at which the RAVE and the real mean weigh alike
  double prior_weight = 12;  // virtual AMAF visits carrying the prior
  int playout_cap = 600;     // playout moves before the count is read as is
};

struct GoSearchStats {
  int64_t playouts = 0;
  int64_t nodes = 0;  // actions applied
  int tree_nodes = 0;
};

// The move (a cell as "q,r" or "pass") for the seat to move at Phase::kMove. The history is
// every earlier board (superko).
SearchResult GoSearch(const engine::chestonia_go::Position& pos,
                      const engine::chestonia_go::BoardHistory& history, const SearchLimits& limits,
                      const GoSearchOptions& options = {}, GoSearchStats* stats = nullptr);

// Level 1: the largest capture, else a random legal cell that is no own eye and no
// self-atari, else pass.
std::string GoGreedyMove(const engine::chestonia_go::Position& pos,
                         const engine::chestonia_go::BoardHistory& history, uint64_t seed);

// Dart decisions (see above). GoChooseAim returns a cell; GoChoosePenalty a cell of the
// thrower's stones.
int GoChooseAim(const engine::chestonia_go::Position& pos, double* expected = nullptr);
int GoChoosePenalty(const engine::chestonia_go::Position& pos);

// One playout from `pos` to the end (or the cap) under the playout policy; returns the
// number of actions applied. For benchmarks.
int GoPlayout(engine::chestonia_go::Position& pos, Rng& rng, int cap);

// Every seat's score in half points as the board would count now (seats out: -1).
std::array<int, engine::chestonia_go::kMaxSeats> GoCountNow(
    const engine::chestonia_go::Position& pos);

}  // namespace arena::bots
