#include "engine/hex/chestonia_state.h"

#include <cmath>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "engine/hex/geometry.h"

namespace arena::engine::hex {
namespace {

constexpr int kChestoniaRadius = 7;

}  // namespace

uint64_t TextHash(std::string_view text) {
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

Outcome RankedOutcome(int players, bool draw, int winner, std::string_view reason, unsigned active,
                      std::span<const int8_t> out_order) {
  Outcome o;
  o.kind = draw ? Outcome::Kind::kDraw : Outcome::Kind::kWin;
  o.reason = std::string(reason);
  o.ranks.assign(players, 0);
  int next_rank = 1;
  if (!draw) {
    o.winners.push_back(winner);
    o.ranks[winner] = 0;
    bool others = false;
    for (int s = 0; s < players; ++s) {
      if (s != winner && ((active >> s) & 1)) {
        o.ranks[s] = 1;
        others = true;
      }
    }
    if (others) next_rank = 2;
  }
  for (int i = static_cast<int>(out_order.size()) - 1; i >= 0; --i) {
    if (out_order[i] == winner) continue;
    o.ranks[out_order[i]] = next_rank++;
  }
  return o;
}

BoardView ChestoniaBoardView(std::string_view game, int players, int perspective, BoardKind board) {
  BoardView view;
  view.game = std::string(game);
  view.shape = "hex";
  view.perspective = PerspectiveOrZero(perspective, players);
  view.seats = SeatInfos(players);
  // The perspective seat's frame turned half a circle puts its edge at the bottom (r = +7).
  const int to_view = 3 - SeatSixths(players, view.perspective);
  const Grid& g = Grid::Get(kChestoniaRadius);
  for (int cell = 0; cell < g.size(); ++cell) {
    const Axial v = Rotate(g.At(cell), to_view);
    view.cells.push_back({CellText(g.At(cell)), std::sqrt(3.0) * (v.q + v.r / 2.0), 1.5 * v.r,
                          CellShade(board, g, cell)});
  }
  return view;
}

std::string RenderChestoniaBoard(int players, int perspective, int turn, bool coordinates,
                                 absl::FunctionRef<std::string(int cell)> cell_text) {
  constexpr int kRadius = kChestoniaRadius;
  const Grid& g = Grid::Get(kRadius);
  // View frame: the perspective seat's frame turned half a circle, so its edge is the bottom
  // row (r' = +7) with its right-hand end on the right.
  const int to_view = 3 - SeatSixths(players, perspective);
  std::string out;
  for (int vr = -kRadius; vr <= kRadius; ++vr) {
    out.append(static_cast<size_t>(std::abs(vr)) * 2, ' ');
    const int q_lo = std::max(-kRadius, -kRadius - vr), q_hi = std::min(kRadius, kRadius - vr);
    int first_cell = -1, last_cell = -1;
    for (int vq = q_lo; vq <= q_hi; ++vq) {
      const int cell = g.Index(Rotate(Axial{vq, vr}, -to_view));
      if (first_cell < 0) first_cell = cell;
      last_cell = cell;
      out += cell_text(cell);
      if (vq < q_hi) out += "  ";
    }
    if (coordinates) {
      absl::StrAppend(&out, "    ", CellText(g.At(first_cell)), " .. ", CellText(g.At(last_cell)));
    }
    out += '\n';
  }
  absl::StrAppend(&out, "to act: ", ToAbsl(SeatColour(players, turn)), "\n");
  return out;
}

}  // namespace arena::engine::hex
