#include "engine/hex/geometry.h"

#include <cmath>
#include <set>

#include "gtest/gtest.h"

namespace arena::engine::hex {
namespace {

TEST(GridTest, CellCountsFollowTheHexNumbers) {
  EXPECT_EQ(Grid::Get(7).size(), 169);
  EXPECT_EQ(Grid::Get(5).size(), 91);
  EXPECT_EQ(Grid::Get(1).size(), 7);
}

TEST(GridTest, IndexAndAtAreInverse) {
  const Grid& g = Grid::Get(7);
  for (int c = 0; c < g.size(); ++c) EXPECT_EQ(g.Index(g.At(c)), c);
  EXPECT_EQ(g.Index({8, 0}), -1);
  EXPECT_EQ(g.Index({4, 4}), -1);  // s = -8
  EXPECT_EQ(g.At(0), (Axial{0, -7}));
  EXPECT_EQ(g.At(g.size() - 1), (Axial{0, 7}));
}

TEST(GridTest, DirectionsAreOppositePairs) {
  for (int d = 0; d < kNumDirections; ++d) {
    EXPECT_EQ(kDirections[d] + kDirections[OppositeDirection(d)], (Axial{0, 0}));
    EXPECT_EQ(IsStraight(d), RingOf(kDirections[d]) == 1);
  }
}

TEST(GridTest, StepsAndRaysAgreeWithCoordinateArithmetic) {
  const Grid& g = Grid::Get(7);
  for (int c = 0; c < g.size(); ++c) {
    for (int d = 0; d < kNumDirections; ++d) {
      Axial a = g.At(c);
      size_t i = 0;
      auto ray = g.Ray(c, d);
      for (;;) {
        a = a + kDirections[d];
        if (RingOf(a) > 7) break;
        ASSERT_LT(i, ray.size());
        EXPECT_EQ(g.At(ray[i]), a);
        EXPECT_EQ(g.LineDirection(c, ray[i]), d);
        ++i;
      }
      EXPECT_EQ(i, ray.size());
      EXPECT_EQ(g.Step(c, d), ray.empty() ? -1 : ray[0]);
    }
  }
  // The centre sees 7 cells along each straight line and 3 along each diagonal.
  const int centre = g.Index({0, 0});
  EXPECT_EQ(g.Ray(centre, 0).size(), 7u);
  EXPECT_EQ(g.Ray(centre, 6).size(), 3u);
}

TEST(GridTest, KnightHasTwentyFourDistinctOffLineTargets) {
  const Grid& g = Grid::Get(7);
  const int centre = g.Index({0, 0});
  auto targets = g.Knight(centre);
  std::set<int> distinct(targets.begin(), targets.end());
  EXPECT_EQ(distinct.size(), 24u);
  int at3 = 0, at4 = 0;
  for (int t : targets) {
    EXPECT_EQ(g.LineDirection(centre, t), -1) << CellText(g.At(t));
    const int dist = Distance(g.At(centre), g.At(t));
    at3 += dist == 3;
    at4 += dist == 4;
  }
  EXPECT_EQ(at3, 12);
  EXPECT_EQ(at4, 12);
  // A corner cell keeps only the leaps that stay on the board.
  EXPECT_LT(g.Knight(g.Index({7, -7})).size(), 24u);
}

TEST(GridTest, RingsHoldSixKCellsClockwise) {
  const Grid& g = Grid::Get(7);
  EXPECT_EQ(g.RingCells(0).size(), 1u);
  for (int k = 1; k <= 7; ++k) {
    const auto& ring = g.RingCells(k);
    ASSERT_EQ(ring.size(), static_cast<size_t>(6 * k));
    EXPECT_EQ(g.At(ring[0]), (Axial{0, -k}));
    for (size_t i = 0; i < ring.size(); ++i) {
      EXPECT_EQ(g.Ring(ring[i]), k);
      EXPECT_EQ(Distance(g.At(ring[i]), g.At(ring[(i + 1) % ring.size()])), 1);
    }
    // Clockwise on screen (y down): the second cell is to the right of the first.
    EXPECT_GT(g.Pixel(ring[1]).x, g.Pixel(ring[0]).x);
  }
}

TEST(GridTest, FacesAreTheSixEdgesInClockwiseOrder) {
  const Grid& g = Grid::Get(7);
  auto on = [&](int cell) { return g.At(cell); };
  EXPECT_EQ(on(g.FaceCells(0).front()), (Axial{0, -7}));
  EXPECT_EQ(on(g.FaceCells(0).back()), (Axial{7, -7}));
  for (int f = 0; f < 6; ++f) {
    ASSERT_EQ(g.FaceCells(f).size(), 8u);
    for (int c : g.FaceCells(f)) {
      const Axial a = on(c);
      const int want[6] = {-a.r, a.q, -a.s(), a.r, -a.q, a.s()};
      EXPECT_EQ(want[f], 7) << "face " << f << " cell " << CellText(a);
      EXPECT_TRUE(g.OnFace(c, f));
    }
  }
}

TEST(GridTest, RotationsCarrySeatsClockwise) {
  const Grid& g = Grid::Get(7);
  // Two sixths carry blue's edge (r = -7) onto black's (s = -7), and black's onto white's.
  EXPECT_EQ(Rotate(Axial{3, -7}, 2), (Axial{4, 3}));  // (s, q, r)
  for (int c : g.FaceCells(0)) EXPECT_EQ(g.At(g.Rotated(c, 2)).s(), -7);
  for (int c : g.FaceCells(0)) EXPECT_EQ(g.At(g.Rotated(c, 4)).q, -7);
  for (int c = 0; c < g.size(); ++c) {
    EXPECT_EQ(g.Rotated(g.Rotated(c, 1), 5), c);
    EXPECT_EQ(g.Mirrored(g.Mirrored(c)), c);
    EXPECT_EQ(g.Ring(g.Rotated(c, 1)), g.Ring(c));
  }
  EXPECT_EQ(Mirror(Axial{0, -7}), (Axial{-7, 7}));
  for (int d = 0; d < kNumDirections; ++d) {
    EXPECT_EQ(RotateDirection(RotateDirection(d, 2), 4), d);
    EXPECT_EQ(IsStraight(RotateDirection(d, 1)), IsStraight(d));
  }
}

TEST(PixelTest, LayoutAndCubeRounding) {
  const Point p = ToPixel({2, -1});
  EXPECT_DOUBLE_EQ(p.x, 3.0);
  EXPECT_DOUBLE_EQ(p.y, 0.0);
  const Grid& g = Grid::Get(7);
  for (int c = 0; c < g.size(); ++c) {
    const Point centre = g.Pixel(c);
    EXPECT_EQ(g.CellAtPixel(centre.x, centre.y), c);
    // Points just inside each vertex belong to the cell (circumradius 1).
    for (int k = 0; k < 6; ++k) {
      const double a = k * M_PI / 3;
      EXPECT_EQ(g.CellAtPixel(centre.x + 0.95 * std::cos(a), centre.y + 0.95 * std::sin(a)), c);
    }
  }
  // Neighbouring centres are sqrt(3) apart; past the edge midpoint is the neighbour.
  const double h = std::sqrt(3.0) / 2;
  EXPECT_EQ(FromPixel(0, 0.99 * h), (Axial{0, 0}));
  EXPECT_EQ(FromPixel(0, 1.01 * h), (Axial{0, 1}));
  EXPECT_EQ(g.CellAtPixel(0, 20), -1);
}

TEST(CellTextTest, PrintsAndParses) {
  EXPECT_EQ(CellText({3, -7}), "3,-7");
  auto a = ParseCellText("3,-7");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(*a, (Axial{3, -7}));
  EXPECT_EQ(*ParseCellText("+1,0"), (Axial{1, 0}));
  for (const char* bad : {"", "3", "3,", ",3", "3;-7", "a,b", "3,-7,1", " 3,-7", "1234,0"}) {
    EXPECT_FALSE(ParseCellText(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace arena::engine::hex
