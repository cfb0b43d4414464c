#include "engine/chestonia_chess/movegen.h"

#include <algorithm>

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

// What one generation call needs, looked up once: the tables, the mover and which piece bytes
// it may capture (bit (p & 31) of `takeable`; seat * 8 + type, so the empty byte never is).
struct Gen {
  Gen(const Position& pos, int seat)
      : g(BoardGrid()), frame(pos.layout().seats[seat]), cells(pos.cells.data()), seat(seat) {
    for (int s = 0; s < pos.rules.players; ++s) {
      if (s == seat || !pos.Active(s)) continue;
      for (int t = kPawn; t <= (pos.rules.reverse ? kKing : kQueen); ++t)
        takeable |= 1u << (s * 8 + t);
    }
  }
  bool Takes(Piece p) const { return (takeable >> (p & 31)) & 1; }

  const hex::Grid& g;
  const SeatFrame& frame;
  const Piece* cells;
  int seat;
  uint32_t takeable = 0;
};

void AddSlides(const Gen& gen, int from, int dir_begin, int dir_end, MoveList& list) {
  for (int d = dir_begin; d < dir_end; ++d) {
    for (int c : gen.g.Ray(from, d)) {
      const Piece p = gen.cells[c];
      if (!p) {
        list.Add(from, c);
        continue;
      }
      if (gen.Takes(p)) list.Add(from, c);
      break;
    }
  }
}

void AddPieceMoves(const Gen& gen, int from, MoveList& list) {
  const hex::Grid& g = gen.g;
  const Piece piece = gen.cells[from];
  switch (TypeOf(piece)) {
    case kPawn: {
      const SeatFrame& f = gen.frame;
      const size_t run = HasMoved(piece) ? 3 : 4;
      for (int dir : f.forward) {
        const auto ray = g.Ray(from, dir);
        const size_t n = std::min(run, ray.size());
        for (size_t i = 0; i < n; ++i) {
          if (gen.cells[ray[i]]) break;
          list.Add(from, ray[i]);
        }
      }
      for (int dir : f.sideways) {
        const int to = g.Step(from, dir);
        if (to >= 0 && !gen.cells[to]) list.Add(from, to);
      }
      for (int dir : {f.forward[0], f.forward[1], f.sideways[0], f.sideways[1]}) {
        const int to = g.Step(from, dir);
        if (to >= 0 && gen.Takes(gen.cells[to])) list.Add(from, to);
      }
      break;
    }
    case kKnight:
      for (int to : g.Knight(from)) {
        const Piece p = gen.cells[to];
        if (!p || gen.Takes(p)) list.Add(from, to);
      }
      break;
    case kBishop:
      AddSlides(gen, from, 6, 12, list);
      break;
    case kRook:
      AddSlides(gen, from, 0, 6, list);
      break;
    case kQueen:
      AddSlides(gen, from, 0, 12, list);
      break;
    case kKing:
      for (int d = 0; d < hex::kNumDirections; ++d) {
        const int to = g.Step(from, d);
        if (to < 0) continue;
        const Piece p = gen.cells[to];
        if (!p || gen.Takes(p)) list.Add(from, to);
      }
      break;
    default:
      break;
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
  const Gen gen(pos, seat);
  pos.pieces[seat].ForEach([&](int from) { AddPieceMoves(gen, from, list); });
}

bool IsAttacked(const Position& pos, int cell, unsigned attackers) {
  return Attacked(pos.cells.data(), cell, attackers & pos.active, pos.layout());
}

bool InCheck(const Position& pos, int seat) {
  if (pos.rules.reverse || pos.king[seat] < 0) return false;
  if (seat == pos.turn && pos.phase == Phase::kMove && pos.turn_in_check >= 0)
    return pos.turn_in_check == 1;
  return IsAttacked(pos, pos.king[seat], pos.active & ~(1u << seat));
}

namespace {

// Own pieces pinned against the king by a slider of a seat still in: pin_dir[cell] is the
// direction from the king to the pinned piece, -1 for pieces that are not pinned.
struct Pins {
  CellSet pinned;
  std::array<int8_t, kNumCells> dir;
};

void FindPins(const Position& pos, int seat, int king, unsigned attackers, Pins& pins) {
  const hex::Grid& g = BoardGrid();
  for (int d = 0; d < hex::kNumDirections; ++d) {
    const auto ray = g.Ray(king, d);
    int own = -1;
    for (int c : ray) {
      const Piece p = pos.cells[c];
      if (!p) continue;
      if (own < 0) {
        if (SeatOf(p) != seat) break;
        own = c;
        continue;
      }
      const int t = TypeOf(p);
      if (((attackers >> SeatOf(p)) & 1) &&
          (t == kQueen || t == (hex::IsStraight(d) ? kRook : kBishop))) {
        pins.pinned.Set(own);
        pins.dir[own] = static_cast<int8_t>(d);
      }
      break;
    }
  }
}

// Whether the king stays safe after `m` (tried on a scratch board).
inline bool SafeAfter(std::array<Piece, kNumCells>& scratch, Move m, int king, unsigned attackers,
                      const Layout& layout) {
  const Piece saved = scratch[m.to];
  scratch[m.to] = scratch[m.from];
  scratch[m.from] = 0;
  const bool safe = !Attacked(scratch.data(), m.from == king ? m.to : king, attackers, layout);
  scratch[m.from] = scratch[m.to];
  scratch[m.to] = saved;
  return safe;
}

// Keeps the moves from `start` on that land on an occupied cell (captures), in order.
void KeepCaptures(const Position& pos, MoveList& list, int start) {
  int n = start;
  for (int i = start; i < list.size; ++i) {
    if (pos.cells[list.moves[i].to]) list.moves[n++] = list.moves[i];
  }
  list.size = n;
}

// Legal moves of pos.turn outside reverse chess. With `stop_at_first`, returns as soon as one
// legal move is in the list; with `captures_only`, only captures are kept, and quiet moves are
// dropped before any legality test.
void GenerateChessMoves(const Position& pos, MoveList& list, bool stop_at_first, bool* in_check_out,
                        bool captures_only = false) {
  const int seat = pos.turn;
  const int king = pos.king[seat];
  list.size = 0;
  if (king < 0) return;
  const unsigned attackers = pos.active & ~(1u << seat);
  const Layout& layout = pos.layout();
  const hex::Grid& g = BoardGrid();
  const bool in_check = pos.turn_in_check >= 0
                            ? pos.turn_in_check == 1
                            : Attacked(pos.cells.data(), king, attackers, layout);
  if (in_check_out) *in_check_out = in_check;
  std::array<Piece, kNumCells> scratch = pos.cells;
  if (in_check) {
    // Rare: try every move.
    GeneratePseudoMoves(pos, seat, list);
    if (captures_only) KeepCaptures(pos, list, 0);
    int n = 0;
    for (int i = 0; i < list.size; ++i) {
      if (SafeAfter(scratch, list.moves[i], king, attackers, layout)) {
        list.moves[n++] = list.moves[i];
        if (stop_at_first) break;
      }
    }
    list.size = n;
    return;
  }
  Pins pins;
  FindPins(pos, seat, king, attackers, pins);
  const Gen gen(pos, seat);
  bool done = false;
  pos.pieces[seat].ForEach([&](int from) {
    if (done || from == king) return;
    const int start = list.size;
    AddPieceMoves(gen, from, list);
    if (captures_only) KeepCaptures(pos, list, start);
    if (pins.pinned.Test(from)) {
      // A pinned piece stays on the line between its king and the pinner.
      int n = start;
      for (int i = start; i < list.size; ++i) {
        if (g.LineDirection(king, list.moves[i].to) == pins.dir[from])
          list.moves[n++] = list.moves[i];
      }
      list.size = n;
    }
    if (stop_at_first && list.size > 0) done = true;
  });
  if (done) return;
  const int start = list.size;
  AddPieceMoves(gen, king, list);
  if (captures_only) KeepCaptures(pos, list, start);
  int n = start;
  for (int i = start; i < list.size; ++i) {
    if (SafeAfter(scratch, list.moves[i], king, attackers, layout)) list.moves[n++] = list.moves[i];
  }
  list.size = n;
}

}  // namespace

void GenerateLegalMoves(const Position& pos, MoveList& list, bool* in_check) {
  list.size = 0;
  if (in_check) *in_check = false;
  if (pos.rules.reverse) {
    GeneratePseudoMoves(pos, pos.turn, list);
    if (FirstMoveRestricted(pos)) FilterFirstMove(pos, list);
    // Captures are compulsory.
    int n = 0;
    for (int i = 0; i < list.size; ++i) {
      if (pos.cells[list.moves[i].to]) list.moves[n++] = list.moves[i];
    }
    if (n > 0) list.size = n;
    return;
  }
  GenerateChessMoves(pos, list, false, in_check);
  if (FirstMoveRestricted(pos)) FilterFirstMove(pos, list);
}

void GenerateLegalCaptures(const Position& pos, MoveList& list) {
  if (pos.rules.reverse || FirstMoveRestricted(pos)) {
    GenerateLegalMoves(pos, list);
    KeepCaptures(pos, list, 0);
    return;
  }
  GenerateChessMoves(pos, list, false, nullptr, true);
}

int CountLegalMoves(const Position& pos) {
  MoveList list;
  GenerateLegalMoves(pos, list);
  return list.size;
}

bool HasLegalMove(const Position& pos, bool* in_check) {
  MoveList list;
  if (in_check) *in_check = false;
  if (pos.rules.reverse) {
    GenerateLegalMoves(pos, list);
  } else {
    GenerateChessMoves(pos, list, !FirstMoveRestricted(pos), in_check);
    if (FirstMoveRestricted(pos)) FilterFirstMove(pos, list);
  }
  return list.size > 0;
}

namespace {

// `moves` are the legal moves of `pos` (in its move phase); depth >= 1.
uint64_t PerftWithMoves(const Position& pos, const MoveList& moves, int depth) {
  if (depth == 1) return static_cast<uint64_t>(moves.size);
  MoveList next;
  uint64_t total = 0;
  for (const Move m : moves) {
    Position child = pos;
    child.ApplyMove(m, &next);
    total += child.phase == Phase::kMove ? PerftWithMoves(child, next, depth - 1) : 1;
  }
  return total;
}

}  // namespace

uint64_t Perft(const Position& pos, int depth) {
  if (depth <= 0 || pos.phase != Phase::kMove) return 1;
  MoveList list;
  GenerateLegalMoves(pos, list);
  return PerftWithMoves(pos, list, depth);
}

}  // namespace arena::engine::chestonia_chess
