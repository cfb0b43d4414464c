#include "engine/chestonia_chess/position.h"

#include <algorithm>
#include <cstdlib>

#include "engine/chestonia_chess/movegen.h"
#include "engine/hex/dart.h"

namespace arena::engine::chestonia_chess {

const hex::Grid& BoardGrid() {
  static const hex::Grid& grid = hex::Grid::Get(kRadius);
  return grid;
}

std::string_view EndReasonName(EndReason reason) {
  switch (reason) {
    case EndReason::kNone:
      return "";
    case EndReason::kCheckmate:
      return "checkmate";
    case EndReason::kResignation:
      return "resignation";
    case EndReason::kReverseNoPieces:
      return "no-pieces";
    case EndReason::kReverseNoMove:
      return "no-legal-move";
    case EndReason::kNobodyCanMove:
      return "nobody-can-move";
    case EndReason::kPerpetualCheck:
      return "perpetual-check";
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
    const int blue_forward[2] = {5, 4}, blue_sideways[2] = {0, 3};
    for (int i = 0; i < 2; ++i) {
      f.forward[i] = hex::RotateDirection(blue_forward[i], f.sixths);
      f.sideways[i] = hex::RotateDirection(blue_sideways[i], f.sixths);
      f.pawn_capture_dirs |= static_cast<uint16_t>(1u << f.forward[i]);
      f.pawn_capture_dirs |= static_cast<uint16_t>(1u << f.sideways[i]);
    }
    for (int c = 0; c < g.size(); ++c) {
      const hex::Axial blue = hex::Rotate(g.At(c), -f.sixths);
      if (blue.r == -kRadius) f.back_row.Set(c);
      if (blue.r == -kRadius || blue.r == -kRadius + 1) f.home_rows.Set(c);
    }
  }
  for (int seat = 0; seat < players; ++seat) {
    for (int other = 0; other < players; ++other) {
      if (other == seat) continue;
      for (int i = 0; i < 3; ++i) {
        layout.seats[seat].promotion.w[i] |= layout.seats[other].back_row.w[i];
      }
    }
    for (int i = 0; i < 3; ++i) layout.all_back_rows.w[i] |= layout.seats[seat].back_row.w[i];
  }
  return layout;
}

}  // namespace

const Layout& LayoutFor(int players) {
  static const Layout two = MakeLayout(2), three = MakeLayout(3);
  return players == 3 ? three : two;
}

void Position::Put(int cell, Piece p) {
  turn_in_check = -1;
  if (cells[cell]) Remove(cell);
  cells[cell] = p;
  pieces[SeatOf(p)].Set(cell);
  if (TypeOf(p) == kKing) king[SeatOf(p)] = static_cast<int16_t>(cell);
}

void Position::Remove(int cell) {
  turn_in_check = -1;
  const Piece p = cells[cell];
  if (!p) return;
  pieces[SeatOf(p)].Clear(cell);
  if (TypeOf(p) == kKing && king[SeatOf(p)] == cell) king[SeatOf(p)] = -1;
  cells[cell] = 0;
}

CellSet Position::PawnsOf(int seat) const {
  CellSet pawns;
  pieces[seat].ForEach([&](int c) {
    if (TypeOf(cells[c]) == kPawn) pawns.Set(c);
  });
  return pawns;
}

Position Position::Initial(const Rules& rules) {
  const hex::Grid& g = BoardGrid();
  Position pos(rules);
  // Blue's back row from its right, (0,-7) to (7,-7).
  int back[8] = {kRook, kKnight, kBishop, kKing, kQueen, kKnight, kBishop, kRook};
  if (rules.board == BoardKind::kAlternating) std::swap(back[5], back[6]);
  for (int seat = 0; seat < rules.players; ++seat) {
    auto place = [&](hex::Axial blue, int type) {
      hex::Axial a =
          rules.players == 2 && seat == 1 ? hex::Mirror(blue) : hex::Rotate(blue, 2 * seat);
      pos.Put(g.Index(a), MakePiece(seat, type));
    };
    for (int q = 0; q <= 7; ++q) place({q, -7}, back[q]);
    for (int q = -1; q <= 7; ++q) place({q, -6}, kPawn);
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

void Position::AdvanceTurn(MoveList* moves) {
  // Terminates: every pass over an active seat either stops, skips it (and NumActive skips in a
  // row end the game) or eliminates it (and one seat left ends the game).
  for (;;) {
    turn = static_cast<int8_t>((turn + 1) % rules.players);
    if (turn == rules.first && OnRoundBoundary()) return;
    if (!Active(turn)) continue;
    if (BeginTurn(moves)) return;
  }
}

bool Position::OnRoundBoundary() {
  if (!dart.OnRoundBoundary(rules.darts)) return false;
  phase = Phase::kRoundChance;
  return true;
}

bool Position::BeginTurn(MoveList* moves) {
  if (dart.dart_round) {
    phase = Phase::kAim;
    return true;
  }
  return BeginMovePhase(moves);
}

bool Position::BeginMovePhase(MoveList* moves) {
  turn_in_check = -1;
  bool check = false;
  bool can_move;
  if (moves) {
    GenerateLegalMoves(*this, *moves, &check);
    can_move = moves->size > 0;
  } else {
    can_move = HasLegalMove(*this, &check);
  }
  if (rules.reverse) {
    if (!can_move) {
      FinishWin(turn,
                pieces[turn].Empty() ? EndReason::kReverseNoPieces : EndReason::kReverseNoMove);
      return true;
    }
    skips = 0;
    phase = Phase::kMove;
    return true;
  }
  if (!can_move) {
    if (check) {
      Eliminate(turn, EndReason::kCheckmate);
      return phase == Phase::kOver;
    }
    if (++skips >= NumActive()) {
      FinishDraw(EndReason::kNobodyCanMove);
      return true;
    }
    return false;
  }
  skips = 0;
  check_turns[turn] = check ? static_cast<int8_t>(std::min(check_turns[turn] + 1, 100)) : 0;
  if (check_turns[turn] >= kPerpetualCheckLimit && NumActive() == 2) {
    FinishDraw(EndReason::kPerpetualCheck);
    return true;
  }
  phase = Phase::kMove;
  turn_in_check = check ? 1 : 0;
  return true;
}

void Position::ContinueTurn() {
  if (!BeginMovePhase()) AdvanceTurn();
}

void Position::Eliminate(int seat, EndReason why) {
  turn_in_check = -1;  // the seat's pieces stop attacking
  active &= static_cast<uint8_t>(~(1u << seat));
  out_order[num_out++] = static_cast<int8_t>(seat);
  check_turns[seat] = 0;
  skips = 0;
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

bool Position::ReverseEmptied(int seat) {
  if (!rules.reverse || !pieces[seat].Empty() || !Active(seat)) return false;
  FinishWin(seat, EndReason::kReverseNoPieces);
  return true;
}

// --- Actions -------------------------------------------------------------------------------

void Position::ApplyMove(Move m, MoveList* next_moves) {
  Piece piece = cells[m.from];
  const Piece captured = cells[m.to];
  const int seat = SeatOf(piece);
  const bool progress = captured != 0 || TypeOf(piece) == kPawn;
  if (captured) Remove(m.to);
  Remove(m.from);
  if (TypeOf(piece) == kPawn) {
    piece |= kMovedBit;
    if (layout().seats[seat].promotion.Test(m.to)) piece = MakePiece(seat, kQueen);
  }
  Put(m.to, piece);
  ++moves_played;
  no_progress = progress ? 0 : static_cast<int16_t>(no_progress + 1);
  if (captured && ReverseEmptied(SeatOf(captured))) return;
  if (no_progress >= kNoProgressLimit) return FinishDraw(EndReason::kNoProgress);
  if (rules.movecap > 0 && moves_played >= rules.movecap) return FinishDraw(EndReason::kMoveCap);
  AdvanceTurn(next_moves);
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
    if (!PawnsOf(turn).Empty()) {
      phase = Phase::kPenalty;
      return;
    }
    return ContinueTurn();
  }
  const Piece hit = cells[cell];
  if (hit && Active(SeatOf(hit)) && (rules.reverse || TypeOf(hit) != kKing)) {
    Remove(cell);
    no_progress = 0;
    if (ReverseEmptied(SeatOf(hit))) return;
  }
  if (zone > 0) {
    dart.OwePlacement(zone);
    phase = Phase::kPlacement;
    return;
  }
  ContinueTurn();
}

void Position::ApplyPlacement(int type, int cell) {
  Put(cell, MakePiece(turn, type));
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
  if (ReverseEmptied(turn)) return;
  ContinueTurn();
}

int Position::ServicePenaltyPawn(int seat) const {
  const hex::Grid& g = BoardGrid();
  const int sixths = layout().seats[seat].sixths;
  int best = -1;
  std::pair<int, int> best_key{1 << 20, 1 << 20};
  PawnsOf(seat).ForEach([&](int c) {
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
    const int pawn = ServicePenaltyPawn(turn);
    if (pawn >= 0) {
      Remove(pawn);
      no_progress = 0;
      if (ReverseEmptied(turn)) return;
    }
  }
  dart.AbandonThrow();
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

}  // namespace arena::engine::chestonia_chess
