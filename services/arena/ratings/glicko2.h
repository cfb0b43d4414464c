// Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013).
//
// A player's rating is (rating, rating deviation, volatility) on the Glicko scale (1500 mean).
// Update() takes every game a player finished in one rating period, as pairwise results
// against opponents' pre-period ratings, and returns the new triple. A player with no games
// in the period only grows less certain (RD widens). Multi-player games enter as pairwise
// results: see PairwiseResults().
#pragma once

#include <vector>

namespace arena::ratings {

struct Glicko2Rating {
  double rating = 1500.0;
  double deviation = 350.0;  // RD
  double volatility = 0.06;  // sigma
};

struct Glicko2Result {
  Glicko2Rating opponent;  // the opponent's rating before the period
  double score = 0.0;      // 1 win, 0.5 draw, 0 loss
};

struct Glicko2Options {
  double tau = 0.5;       // constrains volatility change; 0.3..1.2 in the paper
  double epsilon = 1e-6;  // convergence tolerance of the volatility iteration
  double max_deviation = 350.0;
};

Glicko2Rating Glicko2Update(const Glicko2Rating& player, const std::vector<Glicko2Result>& games,
                            const Glicko2Options& options = {});

// Decomposes a finished multi-player game into pairwise scores: for ranks (0 = best) of n
// seats, every pair (i, j) gives i a score of 1 if it placed above j, 0.5 if level, 0 below.
// Returns, for each seat, the list of (opponent seat, score).
struct PairwiseScore {
  int opponent = 0;
  double score = 0.0;
};
std::vector<std::vector<PairwiseScore>> PairwiseResults(const std::vector<int>& ranks);

}  // namespace arena::ratings
