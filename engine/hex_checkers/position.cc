#include "engine/hex_checkers/position.h"

#include <cassert>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include "engine/hex_checkers/movegen.h"

namespace arena::engine::hex_checkers {

int SeatFace(int players, int seat) {
  // round(seat * 6 / players) with halves up, in integers: floor((12 seat + players) / 2n).
  return (12 * seat + players) / (2 * players) % hex::kNumFaces;
}

std::array<int, 4> FacingDirections(int face) {
  // Face 0: forward (0,+1) and (-1,+1), lateral (+1,0) and (-1,0).
  constexpr std::array<int, 4> kFace0 = {5, 4, 0, 3};
  std::array<int, 4> out{};
  for (int i = 0; i < 4; ++i) out[i] = hex::RotateDirection(kFace0[i], face);
  return out;
}

int DepthFromFace(const hex::Grid& grid, int cell, int face) {
  const hex::Axial a = grid.At(cell);
  const int R = grid.radius();
  switch (face) {
    case 0:
      return a.r + R;
    case 1:
      return R - a.q;
    case 2:
      return a.s() + R;
    case 3:
      return R - a.r;
    case 4:
      return a.q + R;
    default:
      return R - a.s();
  }
}

CellSet HomeCells(int face, int radius) {
  const hex::Grid& g = hex::Grid::Get(radius);
  CellSet out;
  auto in_rows = [&](int cell, int f) {
    const int d = DepthFromFace(g, cell, f);
    return d == 1 || d == 2;
  };
  for (int c = 0; c < g.size(); ++c) {
    if (!in_rows(c, face)) continue;
    bool seam = false;
    for (int f = 0; f < hex::kNumFaces; ++f) seam |= f != face && in_rows(c, f);
    if (!seam) out.Set(c);
  }
  return out;
}

std::string_view FaceName(int face) {
  static constexpr std::string_view kNames[] = {"blue",  "red",    "green",
                                                "white", "orange", "yellow"};
  return kNames[face];
}

char FaceLetter(int face) {
  return FaceName(face)[0];
}

std::string_view FaceColour(int face) {
  static constexpr std::string_view kColours[] = {"#2f6fd0", "#c8352e", "#2e8b46",
                                                  "#f4f1e8", "#e07b1f", "#e3c21a"};
  return kColours[face];
}

const Layout& LayoutFor(int players, int radius) {
  assert(players >= kMinSeats && players <= kMaxSeats);
  assert(radius >= kMinRadius && radius <= kMaxRadius);
  // Built once per (players, radius) and never freed, like hex::Grid.
  static std::mutex mu;
  static std::map<std::pair<int, int>, std::unique_ptr<Layout>> layouts;
  std::lock_guard<std::mutex> lock(mu);
  std::unique_ptr<Layout>& slot = layouts[{players, radius}];
  if (!slot) {
    auto l = std::make_unique<Layout>();
    l->grid = &hex::Grid::Get(radius);
    l->players = players;
    l->centre = l->grid->Index({0, 0});
    for (int s = 0; s < players; ++s) {
      l->face[s] = SeatFace(players, s);
      l->man_dirs[s] = FacingDirections(l->face[s]);
      l->home[s] = HomeCells(l->face[s], radius);
    }
    slot = std::move(l);
  }
  return *slot;
}

std::string_view EndReasonName(EndReason reason) {
  switch (reason) {
    case EndReason::kNone:
      return "none";
    case EndReason::kLastPlayer:
      return "last-player";
    case EndReason::kResignation:
      return "resignation";
    case EndReason::kAllFrozen:
      return "all-frozen";
    case EndReason::kMoveCap:
      return "move-cap";
    case EndReason::kAgreedDraw:
      return "agreed-draw";
  }
  return "none";
}

// --- Position ---------------------------------------------------------------------------------

Position::Position(const Rules& r) : rules(r), layout_(&LayoutFor(r.players, r.radius)) {}

Position Position::Initial(const Rules& rules) {
  Position pos(rules);
  for (int s = 0; s < rules.players; ++s) {
    pos.layout().home[s].ForEach([&](int c) { pos.Put(c, MakePiece(s, kMan)); });
  }
  pos.turn = static_cast<int8_t>(rules.first);
  pos.Settle();
  return pos;
}

void Position::Put(int cell, Piece p) {
  if (cells[cell]) pieces[SeatOf(cells[cell])].Clear(cell);
  cells[cell] = p;
  if (p) pieces[SeatOf(p)].Set(cell);
}

void Position::Remove(int cell) {
  if (cells[cell]) pieces[SeatOf(cells[cell])].Clear(cell);
  cells[cell] = kEmpty;
}

void Position::GoOut(int seat) {
  alive &= static_cast<uint8_t>(~(1u << seat));
  out_at[seat] = moves_played;
}

void Position::Settle(TurnReport* report) {
  if (Over()) return;
  alive = 0;
  for (int s = 0; s < rules.players; ++s) {
    if (!pieces[s].Empty()) {
      alive |= static_cast<uint8_t>(1u << s);
      out_at[s] = -1;
    } else if (out_at[s] < 0) {
      out_at[s] = moves_played;
    }
  }
  if (NumAlive() <= 1) {
    winner = static_cast<int8_t>(NumAlive() == 1 ? std::countr_zero(alive) : -1);
    reason = NumAlive() == 1 ? EndReason::kLastPlayer : EndReason::kAllFrozen;
    return;
  }
  PassTurnFrom(turn, report);
}

void Position::PassTurnFrom(int from, TurnReport* report) {
  for (int k = 0; k < rules.players; ++k) {
    const int s = (from + k) % rules.players;
    if (!Alive(s)) continue;
    turn = static_cast<int8_t>(s);
    if (HasLegalTurn(*this)) return;
    if (report) report->skipped |= static_cast<uint8_t>(1u << s);
  }
  winner = -1;
  reason = EndReason::kAllFrozen;
}

void Position::AfterTurn(TurnReport* report) {
  for (int s = 0; s < rules.players; ++s) {
    if (Alive(s) && pieces[s].Empty()) {
      GoOut(s);
      if (report) report->eliminated |= static_cast<uint8_t>(1u << s);
    }
  }
  if (NumAlive() == 1) {
    winner = static_cast<int8_t>(std::countr_zero(alive));
    reason = EndReason::kLastPlayer;
    return;
  }
  if (rules.movecap > 0 && moves_played >= rules.movecap) {
    winner = -1;
    reason = EndReason::kMoveCap;
    return;
  }
  PassTurnFrom((turn + 1) % rules.players, report);
}

void Position::ApplyTurn(const Turn& t, TurnReport* report) {
  const hex::Grid& g = grid();
  Piece p = cells[t.from()];
  Remove(t.from());
  if (t.capture) {
    for (int i = 1; i < t.len; ++i) {
      const hex::Axial a = g.At(t.path[i - 1]), b = g.At(t.path[i]);
      const int mid = g.Index({(a.q + b.q) / 2, (a.r + b.r) / 2});
      Remove(mid);
      if (report) report->captured.Set(mid);
    }
  }
  if (KindOf(p) == kMan && t.to() == layout().centre) {
    p = MakePiece(SeatOf(p), kKing);
    if (report) report->promoted = true;
  }
  Put(t.to(), p);
  draw_offers = 0;
  ++moves_played;
  AfterTurn(report);
}

void Position::ApplyTimeout(TurnReport* report) {
  draw_offers = 0;
  ++moves_played;
  AfterTurn(report);
}

void Position::ApplyResign(int seat, TurnReport* report) {
  pieces[seat].ForEach([&](int c) {
    cells[c] = kEmpty;
    if (report) report->captured.Set(c);
  });
  pieces[seat] = CellSet{};
  GoOut(seat);
  if (report) report->eliminated |= static_cast<uint8_t>(1u << seat);
  if (NumAlive() == 1) {
    winner = static_cast<int8_t>(std::countr_zero(alive));
    reason = EndReason::kResignation;
    return;
  }
  draw_offers &= alive;
  // The seat to move keeps its turn (freed cells only add to what it may do) unless it resigned.
  PassTurnFrom(turn == seat ? (seat + 1) % rules.players : turn, report);
}

}  // namespace arena::engine::hex_checkers

namespace arena::engine::hex_checkers {

void Position::ApplyDrawAgreement(int seat) {
  draw_offers |= static_cast<uint8_t>(1u << seat);
  if ((draw_offers & alive) == alive) {
    winner = -1;
    reason = EndReason::kAgreedDraw;
  }
}

}  // namespace arena::engine::hex_checkers
