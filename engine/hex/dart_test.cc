#include "engine/hex/dart.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include "absl/strings/escaping.h"
#include "gtest/gtest.h"

namespace arena::engine::hex {
namespace {

// The published vectors (docs/rules/darts.md). They were produced by an independent Python
// implementation of the documented path, not by this code.
struct Vector {
  const char* bytes_hex;
  Axial aim;
  double u1, u2;
  const char* landing;
};
constexpr Vector kVectors[] = {
{"a5b1819795f2eeee46a068c52b3077d880ad1e16c5592389e7658003a1bf125b", {0, 0}, 0.6472397799570434, 0.2758851510399739, "0,2"},
{"6db44e34210b96465927878f53066aac8807f820b801e5d0536b954894276c8f", {0, 0}, 0.42853249333079046, 0.34825942277077504, "-2,3"},
{"e81c8912c3572146db1b77d4a746c0491821d596244cfbe76f653e2047e7afa3", {0, 0}, 0.9066854162986969, 0.8558878797696493, "1,-1"},
{"27b2f1eb78dfd76631d28d779a2fab8e5abe666a94943417f5da73101ad05be3", {3, -2}, 0.15507423399765174, 0.19461902780511642, "5,1"},
{"030e2880d6010b0ed0d0b0bbd11a97457adda07c5f8d7bbe7a1e4dc87330131f", {-7, 7}, 0.011934787229623933, 0.8156843622719897, "-4,-1"},
{"7a94174d4b78d75dcea0f8dc78be05791881bb668d280c5818450632238d2203", {0, -7}, 0.4788221896846808, 0.8071437395344604, "miss"},
{"8bb0f46ae3f089b375689ca5a0f135c103b07659d0c1a12e625e19f4611508ed", {5, 1}, 0.5456688652956833, 0.4586275009505173, "2,3"},
{"6b847d6e0ba44acc410bd39cf05a4a2db2e6a096b1fbffc4acd282b2abdcada8", {0, 0}, 0.4199903863588058, 0.254086709799915, "0,3"},
{"0000000000000000000000000000000000000000000000000000000000000000", {0, 0}, 1.1102230246251565e-16, 1.1102230246251565e-16, "miss"},
{"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", {2, -1}, 0.9999999999999999, 0.9999999999999999, "2,-1"},
};

std::array<uint8_t, 32> Bytes(const char* hex) {
  const std::string raw = absl::HexStringToBytes(hex);
  std::array<uint8_t, 32> out{};
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(raw[i]);
  return out;
}

TEST(DartTest, PublishedVectors) {
  const DartScatter& darts = DartScatter::ForRadius(7);
  for (const Vector& v : kVectors) {
    const auto bytes = Bytes(v.bytes_hex);
    const DartLanding landing = darts.Throw(darts.grid().Index(v.aim), bytes);
    EXPECT_EQ(landing.uniforms.u1, v.u1) << v.bytes_hex;
    EXPECT_EQ(landing.uniforms.u2, v.u2) << v.bytes_hex;
    const std::string got =
        landing.cell == kDartMiss ? "miss" : CellText(darts.grid().At(landing.cell));
    EXPECT_EQ(got, v.landing) << v.bytes_hex;
  }
}

TEST(DartTest, UniformsStayInsideTheOpenInterval) {
  std::array<uint8_t, 32> zeros{}, ones{};
  ones.fill(0xff);
  for (const auto& b : {zeros, ones}) {
    const DartUniforms u = DartUniformsFromBytes(b);
    EXPECT_GT(u.u1, 0.0);
    EXPECT_LT(u.u1, 1.0);
    EXPECT_GT(u.u2, 0.0);
    EXPECT_LT(u.u2, 1.0);
  }
}

TEST(DartTest, ZonesByRing) {
  const int want[8] = {1, 2, 2, 3, 3, 4, 4, 5};
  for (int ring = 0; ring <= 7; ++ring) EXPECT_EQ(DartZone(ring), want[ring]) << ring;
  EXPECT_TRUE(DartZonePays(3));
  EXPECT_FALSE(DartZonePays(4));
}

struct Figures {
  double bullseye = 0, paying = 0, miss = 0;
};

Figures ExactFigures(const DartScatter& darts, int aim) {
  const std::vector<double>& dist = darts.Distribution(aim);
  Figures f;
  for (int c = 0; c < darts.grid().size(); ++c) {
    const int zone = DartZone(darts.grid().Ring(c));
    if (zone == 1) f.bullseye += dist[c];
    if (DartZonePays(zone)) f.paying += dist[c];
  }
  f.miss = dist.back();
  return f;
}

TEST(DartTest, ExactDistributionSumsToOneAndMatchesTheNotes) {
  const DartScatter& darts = DartScatter::ForRadius(7);
  const int centre = darts.grid().Index({0, 0});
  const std::vector<double>& dist = darts.Distribution(centre);
  ASSERT_EQ(dist.size(), 170u);
  double total = 0;
  for (double p : dist) {
    EXPECT_GT(p, 0.0);
    total += p;
  }
  EXPECT_NEAR(total, 1.0, 1e-12);
  const Figures f = ExactFigures(darts, centre);
  // Independent check of the quadrature: over a hexagon of circumradius 1 the mean of rho^2 is
  // 5/12, so to second order the bullseye is area x peak density x (1 - (5/12) / (2 sigma^2)).
  const double second_order = 1.5 * std::sqrt(3.0) / (32 * M_PI) * (1 - 5.0 / 12 / 32);
  EXPECT_NEAR(f.bullseye, second_order, 1e-5);
  EXPECT_NEAR(f.bullseye, 0.026, 0.001);
  EXPECT_NEAR(f.paying, 0.79, 0.01);
  // Symmetry: the six neighbours of the centre are equally likely.
  const int first_neighbour = darts.grid().RingCells(1)[0];
  for (int c : darts.grid().RingCells(1)) EXPECT_NEAR(dist[c], dist[first_neighbour], 1e-12);
}

TEST(DartTest, SimulatedThrowsAgreeWithTheExactDistribution) {
  const DartScatter& darts = DartScatter::ForRadius(7);
  const Grid& grid = darts.grid();
  constexpr int kThrows = 100000;
  for (Axial aim_cell : {Axial{0, 0}, Axial{4, -6}}) {
    const int aim = grid.Index(aim_cell);
    std::mt19937_64 rng(20261129 + aim);
    std::vector<int> hits(grid.size() + 1, 0);
    int bullseye = 0, paying = 0, miss = 0;
    for (int i = 0; i < kThrows; ++i) {
      std::array<uint8_t, 32> bytes;
      for (int w = 0; w < 4; ++w) {
        const uint64_t x = rng();
        for (int k = 0; k < 8; ++k) bytes[w * 8 + k] = static_cast<uint8_t>(x >> (56 - 8 * k));
      }
      const int cell = darts.Throw(aim, bytes).cell;
      if (cell == kDartMiss) {
        ++miss;
        ++hits.back();
        continue;
      }
      ++hits[cell];
      const int zone = DartZone(grid.Ring(cell));
      bullseye += zone == 1;
      paying += DartZonePays(zone);
    }
    const Figures exact = ExactFigures(darts, aim);
    std::printf("aim %s: simulated bullseye %.4f paying %.4f miss %.4f; exact %.4f %.4f %.4f\n",
                CellText(aim_cell).c_str(), bullseye / double{kThrows}, paying / double{kThrows},
                miss / double{kThrows}, exact.bullseye, exact.paying, exact.miss);
    auto within = [&](int count, double p) {
      const double sd = std::sqrt(p * (1 - p) / kThrows);
      return std::abs(static_cast<double>(count) / kThrows - p) < 5 * sd + 1e-9;
    };
    EXPECT_TRUE(within(bullseye, exact.bullseye)) << bullseye << " vs " << exact.bullseye;
    EXPECT_TRUE(within(paying, exact.paying)) << paying << " vs " << exact.paying;
    EXPECT_TRUE(within(miss, exact.miss)) << miss << " vs " << exact.miss;
    if (aim_cell == Axial{0, 0}) {
      EXPECT_NEAR(static_cast<double>(bullseye) / kThrows, 0.026, 0.0025);
      EXPECT_NEAR(static_cast<double>(paying) / kThrows, 0.79, 0.01);
    }
    // Chi-square over every outcome with an expected count of at least 20.
    const std::vector<double>& dist = darts.Distribution(aim);
    double chi2 = 0;
    int bins = 0;
    for (size_t c = 0; c < dist.size(); ++c) {
      const double expected = dist[c] * kThrows;
      if (expected < 20) continue;
      chi2 += (hits[c] - expected) * (hits[c] - expected) / expected;
      ++bins;
    }
    // Mean bins - 1, sd sqrt(2 (bins - 1)); allow 5 sd.
    EXPECT_LT(chi2, bins - 1 + 5 * std::sqrt(2.0 * (bins - 1))) << "bins " << bins;
  }
}

}  // namespace
}  // namespace arena::engine::hex
