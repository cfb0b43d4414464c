// A leaderboard fitted under the Bradley–Terry model, on the Elo scale:
// P(i beats j) = 1 / (1 + 10^((r_j - r_i) / 400)). Draws count as half a win each way.
//
// Some participants are anchors (bots at fixed levels, Stockfish at fixed UCI_Elo) whose
// ratings are given, not fitted, so that a model's figure means the same across leagues.
// Everyone else gets a weak Gaussian prior, N(prior_rating, prior_sd²), and is fitted by the
// maximum of the posterior (Newton's method with step halving). The prior makes the problem
// strictly concave, so the fit always exists and is finite: a participant who never won, never
// lost, played once, or sits in a part of the comparison graph with no anchor still gets a
// rating and a 95% interval (from the inverse of the posterior's information, the Laplace
// approximation). With many games the prior's pull is small and the fit agrees with plain
// maximum likelihood; prior_sd = 0 asks for plain maximum likelihood, which may not exist.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace arena::ratings {

struct PairResult {
  int a = 0;  // participant index
  int b = 0;
  double score = 0;  // a's score: 1 win, 0.5 draw, 0 loss
};

struct BtParticipant {
  std::optional<double> anchor;  // fixed rating when set
};

struct BtRating {
  double rating = 0;
  double low95 = 0;  // equal to rating for anchors
  double high95 = 0;
  int games = 0;  // pairwise results this figure rests on
};

struct BtOptions {
  double prior_rating = 1500.0;  // mean of the prior on every free participant
  double prior_sd = 400.0;       // Elo; 0 = no prior (plain maximum likelihood)
  int max_iterations = 200;
  double tolerance = 1e-7;  // Elo: stop when no rating moves more than this
};

// INVALID_ARGUMENT for indices out of range, scores outside [0,1], a participant playing
// itself or a negative prior_sd. Without a prior (prior_sd = 0), FAILED_PRECONDITION when the
// maximum-likelihood ratings do not exist (someone never won or never lost, or a part of the
// comparison graph has no anchor).
absl::StatusOr<std::vector<BtRating>> FitBradleyTerry(const std::vector<BtParticipant>& people,
                                                      const std::vector<PairResult>& results,
                                                      const BtOptions& options = {});

}  // namespace arena::ratings
