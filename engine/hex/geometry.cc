#include "engine/hex/geometry.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/core/game.h"

namespace arena::engine::hex {

int RingOf(Axial a) { return std::max({std::abs(a.q), std::abs(a.r), std::abs(a.s())}); }

int Distance(Axial a, Axial b) { return RingOf(a - b); }

Axial Rotate(Axial a, int sixths) {
  sixths = ((sixths % 6) + 6) % 6;
  for (int i = 0; i < sixths; ++i) a = Axial{-a.r, -a.s()};
  return a;
}

Axial Mirror(Axial a) { return Axial{-a.s(), -a.r}; }

int DirectionIndex(Axial d) {
  for (int i = 0; i < kNumDirections; ++i) {
    if (kDirections[i] == d) return i;
  }
  return -1;
}

int RotateDirection(int dir, int sixths) { return DirectionIndex(Rotate(kDirections[dir], sixths)); }

Point ToPixel(Axial a) { return {1.5 * a.q, std::sqrt(3.0) * (a.r + a.q / 2.0)}; }

Axial FromPixel(double x, double y) {
  // Fractional cube coordinates, then round each and fix the one with the largest error.
  const double fq = x / 1.5;
  const double fr = y / std::sqrt(3.0) - fq / 2.0;
  const double fs = -fq - fr;
  double rq = std::round(fq), rr = std::round(fr), rs = std::round(fs);
  const double dq = std::abs(rq - fq), dr = std::abs(rr - fr), ds = std::abs(rs - fs);
  if (dq > dr && dq > ds) {
    rq = -rr - rs;
  } else if (dr > ds) {
    rr = -rq - rs;
  }
  return {static_cast<int>(rq), static_cast<int>(rr)};
}

std::string CellText(Axial a) { return absl::StrCat(a.q, ",", a.r); }

absl::StatusOr<Axial> ParseCellText(std::string_view text) {
  const size_t comma = text.find(',');
  auto bad = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("cell '", ToAbsl(text), "' is not of the form q,r (e.g. 3,-7)"));
  };
  if (comma == std::string_view::npos) return bad();
  auto is_int = [](std::string_view s) {
    size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    if (i == s.size() || s.size() - i > 3) return false;
    for (; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
    }
    return true;
  };
  std::string_view qs = text.substr(0, comma), rs = text.substr(comma + 1);
  if (!is_int(qs) || !is_int(rs)) return bad();
  Axial a;
  if (!absl::SimpleAtoi(ToAbsl(qs), &a.q) || !absl::SimpleAtoi(ToAbsl(rs), &a.r)) return bad();
  return a;
}

const Grid& Grid::Get(int radius) {
  static std::mutex mu;
  static std::array<std::unique_ptr<Grid>, kMaxRadius + 1> grids;
  if (radius < 1 || radius > kMaxRadius) std::abort();
  std::lock_guard<std::mutex> lock(mu);
  if (!grids[radius]) grids[radius].reset(new Grid(radius));
  return *grids[radius];
}

bool Grid::OnFace(int cell, int face) const {
  const Axial a = Rotate(cells_[cell], -face);  // back to face 0's frame
  return a.r == -radius_;
}

Grid::Grid(int radius) : radius_(radius) {
  const int w = 2 * radius + 1;
  index_.assign(w * w, -1);
  for (int r = -radius; r <= radius; ++r) {
    for (int q = -radius; q <= radius; ++q) {
      Axial a{q, r};
      if (RingOf(a) > radius) continue;
      index_[(q + radius) * w + (r + radius)] = static_cast<int>(cells_.size());
      cells_.push_back(a);
      ring_.push_back(RingOf(a));
    }
  }
  const int n = size();
  step_.assign(n * kNumDirections, -1);
  ray_start_.assign(n * kNumDirections, 0);
  ray_len_.assign(n * kNumDirections, 0);
  line_dir_.assign(n * n, -1);
  for (int c = 0; c < n; ++c) {
    for (int d = 0; d < kNumDirections; ++d) {
      const int k = c * kNumDirections + d;
      ray_start_[k] = static_cast<uint32_t>(rays_.size());
      Axial a = cells_[c];
      for (;;) {
        a = a + kDirections[d];
        const int t = Index(a);
        if (t < 0) break;
        rays_.push_back(static_cast<int16_t>(t));
        line_dir_[c * n + t] = static_cast<int8_t>(d);
      }
      ray_len_[k] = static_cast<uint8_t>(rays_.size() - ray_start_[k]);
      step_[k] = ray_len_[k] ? rays_[ray_start_[k]] : -1;
    }
  }
  knight_start_.push_back(0);
  for (int c = 0; c < n; ++c) {
    for (int d = 0; d < 6; ++d) {
      for (int len = 2; len <= 3; ++len) {
        for (int turn : {1, 5}) {
          const Axial t = cells_[c] + len * kDirections[d] + kDirections[(d + turn) % 6];
          const int ti = Index(t);
          if (ti >= 0) knight_.push_back(static_cast<int16_t>(ti));
        }
      }
    }
    knight_start_.push_back(static_cast<int>(knight_.size()));
  }
  rings_.resize(radius + 1);
  rings_[0].push_back(Index({0, 0}));
  for (int k = 1; k <= radius; ++k) {
    // Start at (0, -k) and walk the six sides clockwise (on screen).
    Axial a{0, -k};
    for (int side = 0; side < 6; ++side) {
      const Axial d = Rotate(Axial{1, 0}, side);
      for (int i = 0; i < k; ++i) {
        rings_[k].push_back(Index(a));
        a = a + d;
      }
    }
  }
  for (int s = 0; s < 6; ++s) {
    rotate_[s].resize(n);
    for (int c = 0; c < n; ++c) rotate_[s][c] = Index(Rotate(cells_[c], s));
  }
  mirror_.resize(n);
  for (int c = 0; c < n; ++c) mirror_[c] = Index(Mirror(cells_[c]));
  faces_.resize(kNumFaces);
  for (int q = 0; q <= radius; ++q) faces_[0].push_back(Index({q, -radius}));
  for (int f = 1; f < kNumFaces; ++f) {
    for (int c : faces_[0]) faces_[f].push_back(rotate_[f][c]);
  }
}

}  // namespace arena::engine::hex
