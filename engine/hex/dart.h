// The dart scatter: the fixed, documented path from random bytes to a landing cell, and the
// exact distribution of that landing for any aim.
//
// The engine does no cryptography and owns no randomness. The service computes
// HMAC-SHA256(secret seed, game / throw identifiers) and passes the 32 output bytes here.
// The path (docs/rules/darts.md publishes test vectors):
//   1. u1 = ((BE64(bytes[0..7])  >> 12) + 0.5) * 2^-52,
//      u2 = ((BE64(bytes[8..15]) >> 12) + 0.5) * 2^-52
//      (52-bit integers moved to the middle of their interval, computed exactly in double:
//      both lie strictly in (0, 1), so the logarithm below is finite; bytes 16..31 are
//      unused).
//   2. Box-Muller: rho = sigma * sqrt(-2 ln u1), theta = 2 pi u2,
//      dx = rho cos(theta), dy = rho sin(theta), with sigma = 4.0 circumradii.
//   3. The landing point is the aim cell's pixel centre (x = 1.5 q, y = sqrt(3)(r + q/2))
//      plus (dx, dy); cube rounding names its hexagon; a hexagon off the board is a miss.
// The exact distribution integrates the bivariate normal over every hexagon of the board
// with a fixed quadrature (each hexagon cut into 6 triangles, each into 144 sub-triangles,
// the density taken at their centroids); the miss is 1 minus the total over the board.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/hex/geometry.h"

namespace arena::engine::hex {

inline constexpr double kDartSigma = 4.0;  // circumradii
inline constexpr int kDartMiss = -1;

struct DartUniforms {
  double u1 = 0.5;
  double u2 = 0.5;
};
// Step 1 of the path above.
DartUniforms DartUniformsFromBytes(std::span<const uint8_t, 32> bytes);

struct DartLanding {
  DartUniforms uniforms;
  Point point;            // landing point in pixels
  int cell = kDartMiss;   // dense index, or kDartMiss
};

// Scoring zones by ring: ring 0 zone 1 (bullseye), rings 1-2 zone 2, 3-4 zone 3, 5-6 zone 4,
// 7 zone 5 (in general zone = ring == 0 ? 1 : (ring + 1) / 2 + 1). Zones 1-3 pay.
int DartZone(int ring);
inline bool DartZonePays(int zone) { return zone >= 1 && zone <= 3; }

// Scatter on one grid. Thread-safe; distributions are computed once per aim and cached.
class DartScatter {
 public:
  static const DartScatter& ForRadius(int radius);

  const Grid& grid() const { return grid_; }
  // The landing of a throw at `aim` from 32 bytes (steps 1-3).
  DartLanding Throw(int aim, std::span<const uint8_t, 32> bytes) const;
  // Steps 2-3 from given uniforms.
  DartLanding FromUniforms(int aim, DartUniforms u) const;
  // Probability of landing on each cell (indices 0..N-1) followed by the miss (index N);
  // sums to 1.
  const std::vector<double>& Distribution(int aim) const;

 private:
  explicit DartScatter(const Grid& grid);
  std::vector<double> Compute(int aim) const;

  const Grid& grid_;
  struct Cache;
  Cache* cache_;  // owned for the program's lifetime (the object is a never-destroyed singleton)
};

}  // namespace arena::engine::hex
