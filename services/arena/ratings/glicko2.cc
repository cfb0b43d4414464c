#include "services/arena/ratings/glicko2.h"

#include <algorithm>
#include <cmath>

namespace arena::ratings {
namespace {

constexpr double kScale = 173.7178;  // 400 / ln(10): Glicko <-> Glicko-2 scale
constexpr double kPi = 3.14159265358979323846;

double G(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (kPi * kPi));
}

double E(double mu, double mu_j, double phi_j) {
  return 1.0 / (1.0 + std::exp(-G(phi_j) * (mu - mu_j)));
}

}  // namespace

Glicko2Rating Glicko2Update(const Glicko2Rating& player, const std::vector<Glicko2Result>& games,
                            const Glicko2Options& options) {
  const double mu = (player.rating - 1500.0) / kScale;
  const double phi = player.deviation / kScale;
  const double sigma = player.volatility;
  if (games.empty()) {
    // Step 6 alone: the deviation grows by the volatility.
    double phi_star = std::sqrt(phi * phi + sigma * sigma);
    return {player.rating, std::min(phi_star * kScale, options.max_deviation), sigma};
  }

  // Steps 3 and 4: estimated variance and improvement.
  double v_inv = 0.0;
  double delta_sum = 0.0;
  for (const Glicko2Result& g : games) {
    double mu_j = (g.opponent.rating - 1500.0) / kScale;
    double phi_j = g.opponent.deviation / kScale;
    double e = E(mu, mu_j, phi_j);
    double gj = G(phi_j);
    v_inv += gj * gj * e * (1.0 - e);
    delta_sum += gj * (g.score - e);
  }
  const double v = 1.0 / v_inv;
  const double delta = v * delta_sum;

  // Step 5: new volatility by the Illinois algorithm on f(x) = 0.
  const double a = std::log(sigma * sigma);
  const double tau2 = options.tau * options.tau;
  auto f = [&](double x) {
    double ex = std::exp(x);
    double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / tau2;
  };
  double A = a;
  double B;
  if (delta * delta > phi * phi + v) {
    B = std::log(delta * delta - phi * phi - v);
  } else {
    int k = 1;
    while (f(a - k * options.tau) < 0) ++k;
    B = a - k * options.tau;
  }
  double fA = f(A);
  double fB = f(B);
  for (int iter = 0; iter < 200 && std::abs(B - A) > options.epsilon; ++iter) {
    double C = A + (A - B) * fA / (fB - fA);
    double fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2.0;
    }
    B = C;
    fB = fC;
  }
  const double sigma_new = std::exp(A / 2.0);

  // Steps 6 to 8.
  const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
  const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
  const double mu_new = mu + phi_new * phi_new * delta_sum;
  return {mu_new * kScale + 1500.0, std::min(phi_new * kScale, options.max_deviation), sigma_new};
}

std::vector<std::vector<PairwiseScore>> PairwiseResults(const std::vector<int>& ranks) {
  const int n = static_cast<int>(ranks.size());
  std::vector<std::vector<PairwiseScore>> out(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if (i == j) continue;
      double s = ranks[i] < ranks[j] ? 1.0 : ranks[i] == ranks[j] ? 0.5 : 0.0;
      out[i].push_back({j, s});
    }
  }
  return out;
}

}  // namespace arena::ratings
