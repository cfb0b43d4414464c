// A leaderboard fitted by maximum likelihood under the Bradley–Terry model, on the Elo scale:
// P(i beats j) = 1 / (1 + 10^((r_j - r_i) / 400)). Draws count as half a win each way.
//
// Some participants are anchors (bots at fixed levels) whose ratings are given, not fitted, so
// that a model's figure means the same across leagues. Everyone else is fitted by Newton's
// method; the 95% interval of each comes from the inverse of the observed information. A weak
// prior (one virtual draw against a participant at `prior_rating`) keeps the fit finite for a
// participant who has won or lost every game.
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
  int games = 0;
};

struct BtOptions {
  double prior_rating = 1500.0;
  double prior_games = 1.0;  // weight of the virtual draw
  int max_iterations = 100;
  double tolerance = 1e-9;
};

// INVALID_ARGUMENT for indices out of range, scores outside [0,1] or a participant playing
// itself.
absl::StatusOr<std::vector<BtRating>> FitBradleyTerry(const std::vector<BtParticipant>& people,
                                                      const std::vector<PairResult>& results,
                                                      const BtOptions& options = {});

}  // namespace arena::ratings
