// Hex geometry shared by every hex game: axial cells, dense indexing, the twelve lines,
// knight leaps, rings, faces, seat rotations, the pixel layout and cell text.
//
// Cells are flat-topped hexagons named by axial coordinates (q, r) with s = -q - r. A board
// of radius R holds every cell with max(|q|, |r|, |s|) <= R (169 cells at R = 7, 91 at R = 5).
// Cells are numbered densely 0..N-1 in (r, q) order, so index order is row by row from the
// upper-right edge (r = -R) down. A Grid holds every table for one radius; tables are built
// once per radius and shared (Grid::Get is thread-safe and the returned grid is immutable).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace arena::engine::hex {

struct Axial {
  int q = 0;
  int r = 0;
  constexpr int s() const { return -q - r; }
  friend constexpr bool operator==(const Axial&, const Axial&) = default;
  friend constexpr Axial operator+(Axial a, Axial b) { return {a.q + b.q, a.r + b.r}; }
  friend constexpr Axial operator-(Axial a, Axial b) { return {a.q - b.q, a.r - b.r}; }
  friend constexpr Axial operator*(int k, Axial a) { return {k * a.q, k * a.r}; }
};

// The twelve lines out of a cell. Directions 0..5 are the straight ones (to a neighbour
// sharing an edge), 6..11 the diagonals (passing between two cells; only a piece standing on
// a cell of the diagonal line itself ever blocks it). Within each group index k + 3 is the
// opposite of k.
inline constexpr int kNumDirections = 12;
inline constexpr std::array<Axial, kNumDirections> kDirections = {{
    {1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1},     // straight
    {2, -1}, {1, -2}, {-1, -1}, {-2, 1}, {-1, 2}, {1, 1},  // diagonal
}};
constexpr bool IsStraight(int dir) { return dir < 6; }
constexpr int OppositeDirection(int dir) { return dir < 6 ? (dir + 3) % 6 : 6 + (dir - 3) % 6; }

int Distance(Axial a, Axial b);
int RingOf(Axial a);  // max(|q|, |r|, |s|)

// Rotation by `sixths` * 60 degrees clockwise on screen: one sixth maps
// (q, r, s) -> (-r, -s, -q). Two sixths give (s, q, r), which carries blue's edge (r = -R)
// onto black's (s = -R).
Axial Rotate(Axial a, int sixths);
// The mirror (q, r, s) -> (-s, -r, -q) used for white's army in two-player chess.
Axial Mirror(Axial a);
// Index of a direction vector in kDirections, or -1.
int DirectionIndex(Axial d);
// The direction `dir` turned by `sixths` sixths clockwise.
int RotateDirection(int dir, int sixths);

// Pixel layout with y pointing down and unit circumradius: x = 1.5 q, y = sqrt(3) (r + q/2).
struct Point {
  double x = 0;
  double y = 0;
};
Point ToPixel(Axial a);
// The cell whose hexagon contains (x, y), by cube rounding (may lie off any board).
Axial FromPixel(double x, double y);

// Cell text "q,r", e.g. "3,-7". Parse accepts exactly that form (optional '+' signs, no
// spaces) and refuses anything else with INVALID_ARGUMENT.
std::string CellText(Axial a);
absl::StatusOr<Axial> ParseCellText(std::string_view text);

// Faces (edges), clockwise from upper right: 0 r = -R, 1 q = +R, 2 s = -R, 3 r = +R,
// 4 q = -R, 5 s = +R.
inline constexpr int kNumFaces = 6;

class Grid {
 public:
  static constexpr int kMaxRadius = 12;
  // The grid of the given radius (1..kMaxRadius); built on first use.
  static const Grid& Get(int radius);

  int radius() const { return radius_; }
  int size() const { return static_cast<int>(cells_.size()); }

  // Dense index of a cell, or -1 when it is off the board.
  int Index(Axial a) const {
    if (RingOf(a) > radius_) return -1;
    return index_[(a.q + radius_) * (2 * radius_ + 1) + (a.r + radius_)];
  }
  Axial At(int cell) const { return cells_[cell]; }
  int Ring(int cell) const { return ring_[cell]; }

  // The neighbour along `dir` (straight or diagonal), or -1 off the board.
  int Step(int cell, int dir) const { return step_[cell * kNumDirections + dir]; }
  // Every cell along `dir` from `cell`, nearest first, up to the rim.
  std::span<const int16_t> Ray(int cell, int dir) const {
    const int k = cell * kNumDirections + dir;
    return {rays_.data() + ray_start_[k], ray_len_[k]};
  }
  // The knight's leaps: 2d + d' and 3d + d', d straight, d' = d turned 60 degrees either way.
  std::span<const int16_t> Knight(int cell) const {
    return {knight_.data() + knight_start_[cell],
            static_cast<size_t>(knight_start_[cell + 1] - knight_start_[cell])};
  }
  // The direction along which `to` lies from `from` on one of the twelve lines, or -1.
  int LineDirection(int from, int to) const { return line_dir_[from * size() + to]; }

  // Cells of ring k (k = 0..R), clockwise starting from the cell (0, -k).
  const std::vector<int>& RingCells(int ring) const { return rings_[ring]; }
  // Rim cells of a face; face 0 runs from (0, -R) to (R, -R) and face f is face 0 rotated by
  // f sixths, so index order is the same "from the right" order seen from that edge.
  const std::vector<int>& FaceCells(int face) const { return faces_[face]; }
  bool OnFace(int cell, int face) const;
  // Cell maps: rotation by sixths (0..5) and the mirror.
  int Rotated(int cell, int sixths) const { return rotate_[sixths][cell]; }
  int Mirrored(int cell) const { return mirror_[cell]; }
  Point Pixel(int cell) const { return ToPixel(cells_[cell]); }
  // Cell containing the pixel point, or -1 if off the board.
  int CellAtPixel(double x, double y) const { return Index(FromPixel(x, y)); }

 private:
  explicit Grid(int radius);

  int radius_;
  std::vector<Axial> cells_;
  std::vector<int> index_;
  std::vector<int> ring_;
  std::vector<int> step_;
  std::vector<int16_t> rays_;
  std::vector<uint32_t> ray_start_;
  std::vector<uint8_t> ray_len_;
  std::vector<int16_t> knight_;
  std::vector<int> knight_start_;
  std::vector<int8_t> line_dir_;
  std::vector<std::vector<int>> rings_;
  std::vector<std::vector<int>> faces_;
  std::array<std::vector<int>, 6> rotate_;
  std::vector<int> mirror_;
};

}  // namespace arena::engine::hex
