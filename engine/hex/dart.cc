#include "engine/hex/dart.h"

#include <cmath>
#include <memory>
#include <mutex>
#include <numbers>

namespace arena::engine::hex {
namespace {

double UniformFromBytes(const uint8_t* b) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | b[i];
  return (static_cast<double>(v >> 12) + 0.5) * 0x1p-52;
}

}  // namespace

DartUniforms DartUniformsFromBytes(std::span<const uint8_t, 32> bytes) {
  return {UniformFromBytes(bytes.data()), UniformFromBytes(bytes.data() + 8)};
}

int DartZone(int ring) { return ring == 0 ? 1 : (ring + 1) / 2 + 1; }

struct DartScatter::Cache {
  explicit Cache(int n) : once(new std::once_flag[n]), dist(n) {}
  std::unique_ptr<std::once_flag[]> once;
  std::vector<std::vector<double>> dist;
};

const DartScatter& DartScatter::ForRadius(int radius) {
  static std::mutex mu;
  static std::array<DartScatter*, Grid::kMaxRadius + 1> scatters{};
  const Grid& grid = Grid::Get(radius);
  std::lock_guard<std::mutex> lock(mu);
  if (!scatters[radius]) scatters[radius] = new DartScatter(grid);
  return *scatters[radius];
}

DartScatter::DartScatter(const Grid& grid) : grid_(grid), cache_(new Cache(grid.size())) {}

DartLanding DartScatter::Throw(int aim, std::span<const uint8_t, 32> bytes) const {
  return FromUniforms(aim, DartUniformsFromBytes(bytes));
}

DartLanding DartScatter::FromUniforms(int aim, DartUniforms u) const {
  const double rho = kDartSigma * std::sqrt(-2.0 * std::log(u.u1));
  const double theta = 2.0 * std::numbers::pi * u.u2;
  const Point centre = grid_.Pixel(aim);
  DartLanding landing;
  landing.uniforms = u;
  landing.point = {centre.x + rho * std::cos(theta), centre.y + rho * std::sin(theta)};
  landing.cell = grid_.CellAtPixel(landing.point.x, landing.point.y);
  return landing;
}

const std::vector<double>& DartScatter::Distribution(int aim) const {
  std::call_once(cache_->once[aim], [&] { cache_->dist[aim] = Compute(aim); });
  return cache_->dist[aim];
}

std::vector<double> DartScatter::Compute(int aim) const {
  constexpr int kSub = 12;  // sub-triangles per triangle side
  // Quadrature offsets (relative to a hexagon centre) shared by every cell.
  std::vector<Point> offsets;
  for (int t = 0; t < 6; ++t) {
    const double a0 = t * std::numbers::pi / 3, a1 = (t + 1) * std::numbers::pi / 3;
    const Point b{std::cos(a0), std::sin(a0)}, c{std::cos(a1), std::sin(a1)};
    for (int i = 0; i < kSub; ++i) {
      for (int j = 0; i + j < kSub; ++j) {
        // Upward sub-triangle, then the downward one beside it where it exists.
        offsets.push_back({((i + 1.0 / 3) * b.x + (j + 1.0 / 3) * c.x) / kSub,
                           ((i + 1.0 / 3) * b.y + (j + 1.0 / 3) * c.y) / kSub});
        if (i + j <= kSub - 2) {
          offsets.push_back({((i + 2.0 / 3) * b.x + (j + 2.0 / 3) * c.x) / kSub,
                             ((i + 2.0 / 3) * b.y + (j + 2.0 / 3) * c.y) / kSub});
        }
      }
    }
  }
  const double hex_area = 1.5 * std::sqrt(3.0);
  const double weight = hex_area / static_cast<double>(offsets.size());
  const double two_var = 2 * kDartSigma * kDartSigma;
  const double norm = 1.0 / (std::numbers::pi * two_var);
  const Point centre = grid_.Pixel(aim);
  std::vector<double> dist(grid_.size() + 1, 0.0);
  double total = 0;
  for (int cell = 0; cell < grid_.size(); ++cell) {
    const Point p = grid_.Pixel(cell);
    const double cx = p.x - centre.x, cy = p.y - centre.y;
    double sum = 0;
    for (const Point& o : offsets) {
      const double dx = cx + o.x, dy = cy + o.y;
      sum += std::exp(-(dx * dx + dy * dy) / two_var);
    }
    dist[cell] = sum * weight * norm;
    total += dist[cell];
  }
  dist[grid_.size()] = std::max(0.0, 1.0 - total);
  return dist;
}

}  // namespace arena::engine::hex
