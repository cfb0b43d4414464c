#include "services/arena/ratings/bradley_terry.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace arena::ratings {
namespace {

// Ratings are worked in natural units: x = rating * ln10 / 400, so P(i beats j) = σ(x_i - x_j).
constexpr double kLn10Over400 = 2.302585092994046 / 400.0;
// No Newton step moves a rating further than this (Elo); step halving does the rest.
constexpr double kMaxStepElo = 400.0;
// Without a prior, a rating this far from every anchor means the maximum does not exist.
constexpr double kDivergedElo = 5000.0;

double Sigmoid(double d) {
  return 1.0 / (1.0 + std::exp(-d));
}

// log σ(d), stable for large |d|.
double LogSigmoid(double d) {
  return d >= 0 ? -std::log1p(std::exp(-d)) : d - std::log1p(std::exp(d));
}

// Inverts a small symmetric matrix in place (Gauss–Jordan with partial pivoting). False when
// it is singular to working precision.
bool Invert(std::vector<std::vector<double>>& m) {
  const size_t n = m.size();
  double scale = 0;
  for (size_t i = 0; i < n; ++i) scale = std::max(scale, std::abs(m[i][i]));
  std::vector<std::vector<double>> inv(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i) inv[i][i] = 1.0;
  for (size_t c = 0; c < n; ++c) {
    size_t pivot = c;
    for (size_t r = c + 1; r < n; ++r) {
      if (std::abs(m[r][c]) > std::abs(m[pivot][c])) pivot = r;
    }
    if (!(std::abs(m[pivot][c]) > 1e-12 * scale)) return false;
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

// The log-posterior (log-likelihood plus log-prior, up to a constant) and, on request, its
// gradient and information (negative Hessian) over the free participants.
struct Posterior {
  const std::vector<PairResult>& results;
  const std::vector<int>& free_index;
  const std::vector<int>& free;
  double prior_mean;       // natural units
  double prior_precision;  // 1 / sd², natural units; 0 = no prior

  double Value(const std::vector<double>& x) const {
    double v = 0;
    for (const PairResult& r : results) {
      double d = x[r.a] - x[r.b];
      v += r.score * LogSigmoid(d) + (1 - r.score) * LogSigmoid(-d);
    }
    for (int i : free) v -= 0.5 * prior_precision * (x[i] - prior_mean) * (x[i] - prior_mean);
    return v;
  }

  void Derivatives(const std::vector<double>& x, std::vector<double>& grad,
                   std::vector<std::vector<double>>& info) const {
    const size_t m = free.size();
    grad.assign(m, 0.0);
    info.assign(m, std::vector<double>(m, 0.0));
    for (size_t k = 0; k < m; ++k) {
      grad[k] -= prior_precision * (x[free[k]] - prior_mean);
      info[k][k] += prior_precision;
    }
    for (const PairResult& r : results) {
      double p = Sigmoid(x[r.a] - x[r.b]);
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
  }
};

}  // namespace

absl::StatusOr<std::vector<BtRating>> FitBradleyTerry(const std::vector<BtParticipant>& people,
                                                      const std::vector<PairResult>& results,
                                                      const BtOptions& options) {
  if (!(options.prior_sd >= 0) || !std::isfinite(options.prior_rating)) {
    return absl::InvalidArgumentError("prior_sd must be zero or positive, prior_rating finite");
  }
  const int n = static_cast<int>(people.size());
  std::vector<BtRating> out(n);
  for (const PairResult& r : results) {
    if (r.a < 0 || r.a >= n || r.b < 0 || r.b >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("result names participant ", r.a, " or ", r.b, " of ", n));
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
  const double prior_mean = options.prior_rating * kLn10Over400;
  std::vector<double> x(n, prior_mean);
  for (int i = 0; i < n; ++i) {
    if (people[i].anchor) {
      if (!std::isfinite(*people[i].anchor)) {
        return absl::InvalidArgumentError(absl::StrCat("anchor of participant ", i));
      }
      x[i] = *people[i].anchor * kLn10Over400;
    } else {
      free_index[i] = static_cast<int>(free.size());
      free.push_back(i);
    }
  }
  const bool with_prior = options.prior_sd > 0;
  const double sd = options.prior_sd * kLn10Over400;
  Posterior post{results, free_index, free, prior_mean, with_prior ? 1.0 / (sd * sd) : 0.0};
  const size_t m = free.size();
  std::vector<double> grad;
  std::vector<std::vector<double>> info;
  auto no_maximum = [] {
    return absl::FailedPreconditionError(
        "plain maximum likelihood has no finite answer: a participant never won or never "
        "lost, or part of the comparison graph has no anchor");
  };
  double value = post.Value(x);
  for (int iter = 0; iter < options.max_iterations && m > 0; ++iter) {
    post.Derivatives(x, grad, info);
    std::vector<std::vector<double>> cov = info;
    if (!Invert(cov)) {
      if (with_prior) return absl::InternalError("posterior information is singular");
      return no_maximum();
    }
    std::vector<double> step(m, 0.0);
    double largest = 0;
    for (size_t k = 0; k < m; ++k) {
      for (size_t l = 0; l < m; ++l) step[k] += cov[k][l] * grad[l];
      largest = std::max(largest, std::abs(step[k]) / kLn10Over400);
    }
    double t = largest > kMaxStepElo ? kMaxStepElo / largest : 1.0;
    // Step halving: the log-posterior is concave, so some fraction of the Newton step gains.
    std::vector<double> next = x;
    double next_value = value;
    for (int halving = 0; halving < 40; ++halving, t *= 0.5) {
      for (size_t k = 0; k < m; ++k) next[free[k]] = x[free[k]] + t * step[k];
      next_value = post.Value(next);
      if (next_value >= value - 1e-12 * std::abs(value)) break;
    }
    x = next;
    value = next_value;
    if (!with_prior) {
      for (int i : free) {
        if (std::abs(x[i] - prior_mean) / kLn10Over400 > kDivergedElo) return no_maximum();
      }
    }
    if (t * largest < options.tolerance) break;
  }
  // The interval uses the information at the optimum.
  std::vector<std::vector<double>> cov;
  if (m > 0) {
    post.Derivatives(x, grad, info);
    cov = info;
    if (!Invert(cov)) {
      if (with_prior) return absl::InternalError("posterior information is singular");
      return no_maximum();
    }
  }
  for (int i = 0; i < n; ++i) {
    out[i].rating = people[i].anchor ? *people[i].anchor : x[i] / kLn10Over400;
    out[i].low95 = out[i].high95 = out[i].rating;
    if (free_index[i] >= 0) {
      int k = free_index[i];
      double se = std::sqrt(std::max(0.0, cov[k][k])) / kLn10Over400;
      out[i].low95 = out[i].rating - 1.96 * se;
      out[i].high95 = out[i].rating + 1.96 * se;
    }
  }
  return out;
}

}  // namespace arena::ratings
