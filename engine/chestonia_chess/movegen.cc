#include "engine/chestonia_chess/movegen.h"

namespace arena::engine::chestonia_chess {
namespace {

// Board bytes and attacker mask only: the attack test runs on a scratch copy of the cells
// while a move is tried.
bool Attacked(const Piece* cells, int cell, unsigned attackers, const Layout& layout) {
  const hex::Grid& g = BoardGrid();
  for (int d = 0; d < hex::kNumDirections; ++d) {
    const auto ray = g.Ray(cell, d);
    for (size_t i = 0; i < ray.size(); ++i) {
      const Piece p = cells[ray[i]];
      if (!p) continue;
      if ((attackers >> SeatOf(p)) & 1) {
        const int t = TypeOf(p);
        if (t == kQueen || t == (hex::IsStraight(d) ? kRook : kBishop)) return true;
        if (i == 0) {
          if (t == kKing) return true;
          if (t == kPawn &&
              ((layout.seats[SeatOf(p)].pawn_capture_dirs >> hex::OppositeDirection(d)) & 1)) {
            return true;
          }
        }
      }
      break;
    }
  }
  for (int k : g.Knight(cell)) {
    const Piece p = cells[k];
    if (TypeOf(p) == kKnight && ((attackers >> SeatOf(p)) & 1)) return true;
  }
  return false;
}

// Whether a piece of `seat` may capture `target`.
inline bool Capturable(const Position& pos, int seat, Piece target) {
  return target && SeatOf(target) != seat && pos.Active(SeatOf(target)) &&
         (pos.rules.reverse || TypeOf(target) != kKing);
}

void AddSlides(const Position& pos, int seat, int from, int dir_begin, int dir_end,
               MoveList& list) {
  const hex::Grid& g = BoardGrid();
  for (int d = dir_begin; d < dir_end; ++d) {
    for (int c : g.Ray(from, d)) {
      const Piece p = pos.cells[c];
      if (!p) {
        list.Add(from, c);
        continue;
      }
      if (Capturable(pos, seat, p)) list.Add(from, c);
      break;
    }
  }
}

void AddPieceMoves(const Position& pos, int seat, int from, MoveList& list) {
  const hex::Grid& g = BoardGrid();
  const Piece piece = pos.cells[from];
  switch (TypeOf(piece)) {
    case kPawn: {
      const SeatFrame& f = pos.layout().seats[seat];
      const int run = HasMoved(piece) ? 3 : 4;
      for (int dir : f.forward) {
        const auto ray = g.Ray(from, dir);
        for (size_t i = 0; i < ray.size() && static_cast<int>(i) < run; ++i) {
          if (pos.cells[ray[i]]) break;
          list.Add(from, ray[i]);
        }
      }
      for (int dir : f.sideways) {
        const int to = g.Step(from, dir);
        if (to >= 0 && !pos.cells[to]) list.Add(from, to);
      }
      for (int dir : {f.forward[0], f.forward[1], f.sideways[0], f.sideways[1]}) {
        const int to = g.Step(from, dir);
        if (to >= 0 && Capturable(pos, seat, pos.cells[to])) list.Add(from, to);
      }
      break;
    }
    case kKnight:
      for (int to : g.Knight(from)) {
        const Piece p = pos.cells[to];
        if (!p || Capturable(pos, seat, p)) list.Add(from, to);
      }
      break;
    case kBishop: AddSlides(pos, seat, from, 6, 12, list); break;
    case kRook: AddSlides(pos, seat, from, 0, 6, list); break;
    case kQueen: AddSlides(pos, seat, from, 0, 12, list); break;
    case kKing:
      for (int d = 0; d < hex::kNumDirections; ++d) {
        const int to = g.Step(from, d);
        if (to < 0) continue;
        const Piece p = pos.cells[to];
        if (!p || Capturable(pos, seat, p)) list.Add(from, to);
      }
      break;
    default: break;
  }
}

bool FirstMoveRestricted(const Position& pos) {
  return pos.moves_played == 0 && pos.rules.board != BoardKind::kAlternating;
}

// Drops the queen and bishop captures on a back row (first move of the game).
void FilterFirstMove(const Position& pos, MoveList& list) {
  const CellSet& back = pos.layout().all_back_rows;
  int n = 0;
  for (int i = 0; i < list.size; ++i) {
    const Move m = list.moves[i];
    const int t = TypeOf(pos.cells[m.from]);
    if ((t == kQueen || t == kBishop) && pos.cells[m.to] && back.Test(m.to)) continue;
    list.moves[n++] = m;
  }
  list.size = n;
}

}  // namespace

void GeneratePseudoMoves(const Position& pos, int seat, MoveList& list) {
  pos.pieces[seat].ForEach([&](int from) { AddPieceMoves(pos, seat, from, list); });
}

bool IsAttacked(const Position& pos, int cell, unsigned attackers) {
  return Attacked(pos.cells.data(), cell, attackers & pos.active, pos.layout());
}

bool InCheck(const Position& pos, int seat) {
  if (pos.rules.reverse || pos.king[seat] < 0) return false;
  return IsAttacked(pos, pos.king[seat], pos.active & ~(1u << seat));
}

void GenerateLegalMoves(const Position& pos, MoveList& list) {
  const int seat = pos.turn;
  list.size = 0;
  GeneratePseudoMoves(pos, seat, list);
  if (FirstMoveRestricted(pos)) FilterFirstMove(pos, list);
  if (pos.rules.reverse) {
    // Captures are compulsory.
    int n = 0;
    for (int i = 0; i < list.size; ++i) {
      if (pos.cells[list.moves[i].to]) list.moves[n++] = list.moves[i];
    }
    if (n > 0) list.size = n;
    return;
  }
  const int king = pos.king[seat];
  if (king < 0) return;
  const unsigned attackers = pos.active & ~(1u << seat);
  const Layout& layout = pos.layout();
  const hex::Grid& g = BoardGrid();
  const bool in_check = Attacked(pos.cells.data(), king, attackers, layout);
  std::array<Piece, kNumCells> scratch = pos.cells;
  int n = 0;
  for (int i = 0; i < list.size; ++i) {
    const Move m = list.moves[i];
    bool legal;
    if (m.from == king) {
      const Piece saved = scratch[m.to];
      scratch[m.to] = scratch[m.from];
      scratch[m.from] = 0;
      legal = !Attacked(scratch.data(), m.to, attackers, layout);
      scratch[m.from] = scratch[m.to];
      scratch[m.to] = saved;
    } else if (!in_check && g.LineDirection(king, m.from) < 0) {
      legal = true;
    } else {
      const Piece saved = scratch[m.to];
      scratch[m.to] = scratch[m.from];
      scratch[m.from] = 0;
      legal = !Attacked(scratch.data(), king, attackers, layout);
      scratch[m.from] = scratch[m.to];
      scratch[m.to] = saved;
    }
    if (legal) list.moves[n++] = m;
  }
  list.size = n;
}

int CountLegalMoves(const Position& pos) {
  MoveList list;
  GenerateLegalMoves(pos, list);
  return list.size;
}

bool HasLegalMove(const Position& pos) { return CountLegalMoves(pos) > 0; }

uint64_t Perft(const Position& pos, int depth) {
  if (depth <= 0 || pos.phase != Phase::kMove) return 1;
  MoveList list;
  GenerateLegalMoves(pos, list);
  if (depth == 1) return static_cast<uint64_t>(list.size);
  uint64_t total = 0;
  for (const Move m : list) {
    Position child = pos;
    child.ApplyMove(m);
    total += Perft(child, depth - 1);
  }
  return total;
}

}  // namespace arena::engine::chestonia_chess
