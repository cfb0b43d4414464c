#include "services/arena/ratings/bradley_terry.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace arena::ratings {
namespace {

constexpr double kLn10Over400 = 2.302585092994046 / 400.0;

double WinProbability(double ri, double rj) {
  return 1.0 / (1.0 + std::exp(-(ri - rj) * kLn10Over400));
}

// Inverts a small symmetric positive definite matrix in place (Gauss–Jordan with pivoting).
bool Invert(std::vector<std::vector<double>>& m) {
  const size_t n = m.size();
  std::vector<std::vector<double>> inv(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i) inv[i][i] = 1.0;
  for (size_t c = 0; c < n; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < n; ++r) {
      if (std::abs(m[r][c]) > std::abs(m[pivot][c])) pivot = r;
    }
    if (std::abs(m[pivot][c]) < 1e-15) return false;
    std::swap(m[c], m[pivot]);
    std::swap(inv[c], inv[pivot]);
    double d = m[c][c];
    for (size_t k = 0; k < n; ++k) {
      m[c][k] /= d;
      inv[c][k] /= d;
    }
    for (size_t r = 0; r < n; ++r) {
      if (r == c) continue;
      double f = m[r][c];
      if (f == 0) continue;
      for (size_t k = 0; k < n; ++k) {
        m[r][k] -= f * m[c][k];
        inv[r][k] -= f * inv[c][k];
      }
    }
  }
  m = std::move(inv);
  return true;
}

}  // namespace

absl::StatusOr<std::vector<BtRating>> FitBradleyTerry(const std::vector<BtParticipant>& people,
                                                      const std::vector<PairResult>& results,
                                                      const BtOptions& options) {
  const int n = static_cast<int>(people.size());
  std::vector<BtRating> out(n);
  for (const PairResult& r : results) {
    if (r.a < 0 || r.a >= n || r.b < 0 || r.b >= n) {
      return absl::InvalidArgumentError(absl::StrCat("result names participant out of range"));
    }
    if (r.a == r.b) return absl::InvalidArgumentError("a participant cannot play itself");
    if (!(r.score >= 0.0 && r.score <= 1.0)) {
      return absl::InvalidArgumentError(absl::StrCat("score ", r.score, " outside [0, 1]"));
    }
    ++out[r.a].games;
    ++out[r.b].games;
  }
  // Free parameters: every participant without an anchor.
  std::vector<int> free_index(n, -1);
  std::vector<int> free;
  std::vector<double> rating(n, options.prior_rating);
  for (int i = 0; i < n; ++i) {
    if (people[i].anchor) {
      rating[i] = *people[i].anchor;
    } else {
      free_index[i] = static_cast<int>(free.size());
      free.push_back(i);
    }
  }
  const size_t m = free.size();
  std::vector<std::vector<double>> info(m, std::vector<double>(m, 0.0));
  for (int iter = 0; iter < options.max_iterations; ++iter) {
    // Gradient and observed information (negative Hessian) of the log-likelihood, in natural
    // units (ratings scaled by ln10/400).
    std::vector<double> grad(m, 0.0);
    for (auto& row : info) std::fill(row.begin(), row.end(), 0.0);
    for (size_t k = 0; k < m; ++k) {
      int i = free[k];
      double p = WinProbability(rating[i], options.prior_rating);
      grad[k] += options.prior_games * (0.5 - p);
      info[k][k] += options.prior_games * p * (1 - p);
    }
    for (const PairResult& r : results) {
      double p = WinProbability(rating[r.a], rating[r.b]);
      double w = p * (1 - p);
      int ka = free_index[r.a], kb = free_index[r.b];
      if (ka >= 0) {
        grad[ka] += r.score - p;
        info[ka][ka] += w;
      }
      if (kb >= 0) {
        grad[kb] -= r.score - p;
        info[kb][kb] += w;
      }
      if (ka >= 0 && kb >= 0) {
        info[ka][kb] -= w;
        info[kb][ka] -= w;
      }
    }
    std::vector<std::vector<double>> cov = info;
    if (!Invert(cov)) return absl::InternalError("information matrix is singular");
    double largest = 0;
    for (size_t k = 0; k < m; ++k) {
      double step = 0;
      for (size_t l = 0; l < m; ++l) step += cov[k][l] * grad[l];
      step /= kLn10Over400;
      rating[free[k]] += step;
      largest = std::max(largest, std::abs(step));
    }
    if (largest < options.tolerance) break;
  }
  // The interval uses the information at the optimum.
  std::vector<std::vector<double>> cov = info;
  Invert(cov);
  for (int i = 0; i < n; ++i) {
    out[i].rating = rating[i];
    out[i].low95 = out[i].high95 = rating[i];
    if (free_index[i] >= 0) {
      int k = free_index[i];
      double se = std::sqrt(std::max(0.0, cov[k][k])) / kLn10Over400;
      out[i].low95 = rating[i] - 1.96 * se;
      out[i].high95 = rating[i] + 1.96 * se;
    }
  }
  return out;
}

}  // namespace arena::ratings
