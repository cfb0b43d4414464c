#include "engine/chestonia_checkers/position.h"

#include <algorithm>
#include <cstdlib>

#include "engine/chestonia_checkers/movegen.h"
#include "engine/hex/dart.h"

namespace arena::engine::chestonia_checkers {

const hex::Grid& BoardGrid() {
  static const hex::Grid& grid = hex::Grid::Get(kRadius);
  return grid;
}

std::string_view SetupName(Setup setup) {
  return setup == Setup::kLong ? "long" : "normal";
}

std::string_view EndReasonName(EndReason reason) {
  switch (reason) {
    case EndReason::kNone:
      return "";
    case EndReason::kLastPlayer:
      return "last-player";
    case EndReason::kResignation:
      return "resignation";
    case EndReason::kReverseNoPieces:
      return "no-pieces";
    case EndReason::kReverseNoMove:
      return "no-legal-move";
    case EndReason::kNoProgress:
      return "no-progress";
    case EndReason::kMoveCap:
      return "move-cap";
  }
  return "?";
}

namespace {

Layout MakeLayout(int players) {
  const hex::Grid& g = BoardGrid();
  Layout layout;
  layout.players = players;
  for (int seat = 0; seat < players; ++seat) {
    SeatFrame& f = layout.seats[seat];
    f.sixths = hex::SeatSixths(players, seat);
    // Blue: forward (0,+1) and (-1,+1); sideways (+1,0) and (-1,0).
    const int blue_dirs[4] = {5, 4, 0, 3};
    for (int i = 0; i < 4; ++i) f.man_dirs[i] = hex::RotateDirection(blue_dirs[i], f.sixths);
    for (int c = 0; c < g.size(); ++c) {
      const hex::Axial blue = hex::Rotate(g.At(c), -f.sixths);
      if (blue.r == -kRadius) f.back_row.Set(c);
      // Normal: rows -6 and -5 without their rim cells; long: rows -7, -6 and -5 whole.
      if ((blue.r == -6 || blue.r == -5) && g.Ring(c) < kRadius) f.start[0].Set(c);
      if (blue.r >= -7 && blue.r <= -5) f.start[1].Set(c);
    }
  }
  for (int seat = 0; seat < players; ++seat) {
    for (int other = 0; other < players; ++other) {
      if (other == seat) continue;
      for (int i = 0; i < 3; ++i) {
        layout.seats[seat].crowning.w[i] |= layout.seats[other].back_row.w[i];
      }
    }
  }
  return layout;
}

}  // namespace

const Layout& LayoutFor(int players) {
  static const Layout two = MakeLayout(2), three = MakeLayout(3);
  return players == 3 ? three : two;
}

void Position::Put(int cell, Piece p) {
  if (cells[cell]) Remove(cell);
  cells[cell] = p;
  pieces[SeatOf(p)].Set(cell);
}

void Position::Remove(int cell) {
  const Piece p = cells[cell];
  if (!p) return;
  pieces[SeatOf(p)].Clear(cell);
  cells[cell] = 0;
}

CellSet Position::MenOf(int seat) const {
  CellSet men;
  pieces[seat].ForEach([&](int c) {
    if (KindOf(cells[c]) == kMan) men.Set(c);
  });
  return men;
}

Position Position::Initial(const Rules& rules) {
  Position pos(rules);
  for (int seat = 0; seat < rules.players; ++seat) {
    pos.HomeCells(seat).ForEach([&](int c) { pos.Put(c, MakePiece(seat, kMan)); });
  }
  pos.active = static_cast<uint8_t>((1u << rules.players) - 1);
  pos.turn = static_cast<int8_t>(rules.first);
  pos.BeginTurnFromSetup();
  return pos;
}

void Position::BeginTurnFromSetup() {
  if (phase == Phase::kOver) return;
  if (!Active(turn) || !BeginTurn()) AdvanceTurn();
}

// --- Turn structure ------------------------------------------------------------------------

void Position::AdvanceTurn(TurnList* turns) {
  // Terminates: every pass over an active seat either stops or eliminates it (and one seat
  // left ends the game).
  for (;;) {
    turn = static_cast<int8_t>((turn + 1) % rules.players);
    if (turn == rules.first && OnRoundBoundary()) return;
    if (!Active(turn)) continue;
    if (BeginTurn(turns)) return;
  }
}

bool Position::OnRoundBoundary() {
  if (!dart.OnRoundBoundary(rules.darts)) return false;
  phase = Phase::kRoundChance;
  return true;
}

bool Position::BeginTurn(TurnList* turns) {
  if (dart.dart_round) {
    phase = Phase::kAim;
    return true;
  }
  return BeginMovePhase(turns);
}

bool Position::BeginMovePhase(TurnList* turns) {
  bool can_move;
  if (turns) {
    GenerateTurns(*this, *turns);
    can_move = turns->size() > 0;
  } else {
    can_move = HasLegalTurn(*this);
  }
  if (can_move) {
    phase = Phase::kMove;
    return true;
  }
  if (rules.reverse) {
    FinishWin(turn, pieces[turn].Empty() ? EndReason::kReverseNoPieces : EndReason::kReverseNoMove);
    return true;
  }
  Eliminate(turn, EndReason::kLastPlayer);
  return phase == Phase::kOver;
}

void Position::ContinueTurn() {
  if (!BeginMovePhase()) AdvanceTurn();
}

void Position::Eliminate(int seat, EndReason why) {
  active &= static_cast<uint8_t>(~(1u << seat));
  out_order[num_out++] = static_cast<int8_t>(seat);
  if (NumActive() == 1) FinishWin(std::countr_zero(static_cast<unsigned>(active)), why);
}

void Position::FinishWin(int seat, EndReason why) {
  phase = Phase::kOver;
  draw = false;
  winner = static_cast<int8_t>(seat);
  reason = why;
}

void Position::FinishDraw(EndReason why) {
  phase = Phase::kOver;
  draw = true;
  winner = -1;
  reason = why;
}

bool Position::AfterLoss(int seat, int spared) {
  if (!Active(seat) || !pieces[seat].Empty()) return false;
  if (rules.reverse) {
    FinishWin(seat, EndReason::kReverseNoPieces);
    return true;
  }
  if (seat == spared) return false;
  Eliminate(seat, EndReason::kLastPlayer);
  return phase == Phase::kOver;
}

// --- Actions -------------------------------------------------------------------------------

void Position::ApplyTurn(const Turn& t, TurnList* next_turns) {
  const hex::Grid& g = BoardGrid();
  const int seat = turn;
  Piece piece = cells[t.from()];
  bool progress = KindOf(piece) == kMan;
  // Seats whose last piece this turn took, in the order they were emptied.
  int emptied[kMaxSeats];
  int num_emptied = 0;
  Remove(t.from());
  for (int i = 1; i < t.len; ++i) {
    const int a = t.path[i - 1], b = t.path[i];
    const int dir = g.LineDirection(a, b);
    for (int16_t c : g.Ray(a, dir)) {
      if (c == b) break;
      if (!cells[c]) continue;
      const int victim = SeatOf(cells[c]);
      Remove(c);
      progress = true;
      if (pieces[victim].Empty()) emptied[num_emptied++] = victim;
      break;
    }
  }
  if (KindOf(piece) == kMan && layout().seats[seat].crowning.Test(t.to())) {
    piece = MakePiece(seat, kKing);
  }
  Put(t.to(), piece);
  ++moves_played;
  no_progress = progress ? 0 : static_cast<int16_t>(no_progress + 1);
  for (int i = 0; i < num_emptied; ++i) {
    if (AfterLoss(emptied[i], -1)) return;
  }
  if (no_progress >= kNoProgressLimit) return FinishDraw(EndReason::kNoProgress);
  if (rules.movecap > 0 && moves_played >= rules.movecap) return FinishDraw(EndReason::kMoveCap);
  AdvanceTurn(next_turns);
}

void Position::ApplyRoundChance(bool is_dart_round) {
  dart.StartRound(is_dart_round);
  if (Active(turn) && BeginTurn()) return;
  AdvanceTurn();
}

void Position::ApplyAim(int cell) {
  dart.Aim(cell);
  phase = Phase::kLanding;
}

void Position::ApplyLanding(int cell) {
  const int zone = dart.Land(BoardGrid(), cell);
  if (cell == hex::kDartMiss) {
    if (!MenOf(turn).Empty()) {
      phase = Phase::kPenalty;
      return;
    }
    return ContinueTurn();
  }
  const Piece hit = cells[cell];
  if (hit && Active(SeatOf(hit)) && KindOf(hit) != kKing) {
    Remove(cell);
    no_progress = 0;
    if (AfterLoss(SeatOf(hit), turn)) return;
  }
  if (zone > 0) {
    dart.OwePlacement(zone);
    phase = Phase::kPlacement;
    return;
  }
  ContinueTurn();
}

void Position::ApplyPlacement(int kind, int cell) {
  Put(cell, MakePiece(turn, kind));
  no_progress = 0;
  dart.EndPlacement();
  ContinueTurn();
}

void Position::ApplySkipPlacement() {
  dart.EndPlacement();
  ContinueTurn();
}

void Position::ApplyPenalty(int cell) {
  Remove(cell);
  no_progress = 0;
  if (AfterLoss(turn, turn)) return;
  ContinueTurn();
}

int Position::ServicePenaltyMan(int seat) const {
  const hex::Grid& g = BoardGrid();
  const int sixths = layout().seats[seat].sixths;
  int best = -1;
  std::pair<int, int> best_key{1 << 20, 1 << 20};
  MenOf(seat).ForEach([&](int c) {
    // In the seat's own frame its edge is r = -7 and its right is the low-q end of each row.
    const hex::Axial a = hex::Rotate(g.At(c), -sixths);
    const std::pair<int, int> key{a.r + kRadius, a.q};
    if (key < best_key) {
      best_key = key;
      best = c;
    }
  });
  return best;
}

void Position::ApplyTimeout() {
  if (phase == Phase::kPenalty) {
    const int man = ServicePenaltyMan(turn);
    if (man >= 0) {
      Remove(man);
      no_progress = 0;
    }
  }
  dart.AbandonThrow();
  // The forfeited turn ends the thrower's dart business: an empty army is out now.
  if (AfterLoss(turn, -1)) return;
  AdvanceTurn();
}

void Position::ApplyResign(int seat) {
  Eliminate(seat, EndReason::kResignation);
  if (phase == Phase::kOver) return;
  if (seat == turn && phase != Phase::kRoundChance) {
    dart.AbandonThrow();
    AdvanceTurn();
  }
}

}  // namespace arena::engine::chestonia_checkers
