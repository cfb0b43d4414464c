#include "engine/chestonia_chess/naive_movegen.h"

#include <cstdlib>

namespace arena::engine::chestonia_chess::naive {
namespace {

struct V {
  int q, r;
};
V Add(V a, V b) { return {a.q + b.q, a.r + b.r}; }
bool On(V a) { return std::abs(a.q) <= 7 && std::abs(a.r) <= 7 && std::abs(a.q + a.r) <= 7; }
// One sixth clockwise: (q, r, s) -> (-r, -s, -q).
V Turn(V a, int sixths) {
  for (int i = 0; i < ((sixths % 6) + 6) % 6; ++i) a = {-a.r, a.q + a.r};
  return a;
}

const V kStraight[6] = {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}};
const V kDiagonal[6] = {{2, -1}, {1, -2}, {-1, -1}, {-2, 1}, {-1, 2}, {1, 1}};

struct Board {
  const Position& pos;
  Piece cells[15][15] = {};
  Piece& at(V a) { return cells[a.q + 7][a.r + 7]; }
  Piece at(V a) const { return cells[a.q + 7][a.r + 7]; }
};

int SeatSixths(const Position& pos, int seat) {
  return pos.rules.players == 2 ? 3 * seat : 2 * seat;
}

// Blue's pawn directions turned to the seat: forward (0,1), (-1,1); sideways (1,0), (-1,0).
void PawnDirs(const Position& pos, int seat, V forward[2], V side[2]) {
  const int k = SeatSixths(pos, seat);
  forward[0] = Turn({0, 1}, k);
  forward[1] = Turn({-1, 1}, k);
  side[0] = Turn({1, 0}, k);
  side[1] = Turn({-1, 0}, k);
}

bool IsBackRowOf(const Position& pos, int seat, V a) {
  // The seat's back row is blue's r = -7 turned to the seat.
  const V blue = Turn(a, -SeatSixths(pos, seat));
  return blue.r == -7;
}

// Looks outward from the king with coordinate steps: the first piece along each line, the
// knight leaps, and pawns standing next to it whose capture directions point at it.
bool KingAttacked(const Position& pos, const Board& b, int seat, V king) {
  auto enemy = [&](Piece p) { return p && SeatOf(p) != seat && pos.Active(SeatOf(p)); };
  for (int straight = 0; straight < 2; ++straight) {
    const V* dirs = straight ? kStraight : kDiagonal;
    for (int d = 0; d < 6; ++d) {
      int dist = 0;
      for (V c = Add(king, dirs[d]); On(c); c = Add(c, dirs[d])) {
        ++dist;
        const Piece p = b.at(c);
        if (!p) continue;
        if (enemy(p)) {
          const int t = TypeOf(p);
          if (t == kQueen || (straight && t == kRook) || (!straight && t == kBishop)) return true;
          if (dist == 1 && t == kKing) return true;
          if (dist == 1 && straight && t == kPawn) {
            V fwd[2], side[2];
            PawnDirs(pos, SeatOf(p), fwd, side);
            const V back{-dirs[d].q, -dirs[d].r};  // from the pawn to the king
            for (V pd : {fwd[0], fwd[1], side[0], side[1]}) {
              if (pd.q == back.q && pd.r == back.r) return true;
            }
          }
        }
        break;
      }
    }
  }
  for (int d = 0; d < 6; ++d) {
    for (int len = 2; len <= 3; ++len) {
      for (int turn : {1, 5}) {
        const V c = {king.q + len * kStraight[d].q + kStraight[(d + turn) % 6].q,
                     king.r + len * kStraight[d].r + kStraight[(d + turn) % 6].r};
        if (On(c) && enemy(b.at(c)) && TypeOf(b.at(c)) == kKnight) return true;
      }
    }
  }
  return false;
}

}  // namespace

std::vector<Move> LegalMoves(const Position& pos) {
  const hex::Grid& g = BoardGrid();
  Board b{pos};
  for (int c = 0; c < g.size(); ++c) b.at({g.At(c).q, g.At(c).r}) = pos.cells[c];
  const int seat = pos.turn;
  const bool reverse = pos.rules.reverse;
  std::vector<Move> moves;
  auto can_take = [&](Piece p) {
    return p && SeatOf(p) != seat && pos.Active(SeatOf(p)) && (reverse || TypeOf(p) != kKing);
  };
  auto add = [&](V from, V to) {
    moves.push_back(Move{static_cast<uint8_t>(g.Index({from.q, from.r})),
                         static_cast<uint8_t>(g.Index({to.q, to.r}))});
  };
  for (int q = -7; q <= 7; ++q) {
    for (int r = -7; r <= 7; ++r) {
      const V from{q, r};
      if (!On(from)) continue;
      const Piece p = b.at(from);
      if (!p || SeatOf(p) != seat) continue;
      auto slide = [&](const V* dirs) {
        for (int d = 0; d < 6; ++d) {
          for (V c = Add(from, dirs[d]); On(c); c = Add(c, dirs[d])) {
            if (!b.at(c)) {
              add(from, c);
              continue;
            }
            if (can_take(b.at(c))) add(from, c);
            break;
          }
        }
      };
      auto step = [&](V d) {
        const V to = Add(from, d);
        if (On(to) && (!b.at(to) || can_take(b.at(to)))) add(from, to);
      };
      switch (TypeOf(p)) {
        case kRook: slide(kStraight); break;
        case kBishop: slide(kDiagonal); break;
        case kQueen:
          slide(kStraight);
          slide(kDiagonal);
          break;
        case kKing:
          for (int d = 0; d < 6; ++d) {
            step(kStraight[d]);
            step(kDiagonal[d]);
          }
          break;
        case kKnight:
          for (int d = 0; d < 6; ++d) {
            for (int len = 2; len <= 3; ++len) {
              for (int turn : {1, 5}) {
                step({len * kStraight[d].q + kStraight[(d + turn) % 6].q,
                      len * kStraight[d].r + kStraight[(d + turn) % 6].r});
              }
            }
          }
          break;
        case kPawn: {
          V fwd[2], side[2];
          PawnDirs(pos, seat, fwd, side);
          const int run = HasMoved(p) ? 3 : 4;
          for (V d : fwd) {
            V c = from;
            for (int i = 0; i < run; ++i) {
              c = Add(c, d);
              if (!On(c) || b.at(c)) break;
              add(from, c);
            }
          }
          for (V d : side) {
            const V to = Add(from, d);
            if (On(to) && !b.at(to)) add(from, to);
          }
          for (V d : {fwd[0], fwd[1], side[0], side[1]}) {
            const V to = Add(from, d);
            if (On(to) && can_take(b.at(to))) add(from, to);
          }
          break;
        }
      }
    }
  }
  // Plain, circles and target boards: no queen or bishop capture on a back row on move one.
  if (pos.moves_played == 0 && pos.rules.board != BoardKind::kAlternating) {
    std::vector<Move> kept;
    for (const Move m : moves) {
      const V to{g.At(m.to).q, g.At(m.to).r};
      const int t = TypeOf(pos.cells[m.from]);
      bool back = false;
      for (int s = 0; s < pos.rules.players; ++s) back = back || IsBackRowOf(pos, s, to);
      if ((t == kQueen || t == kBishop) && pos.cells[m.to] && back) continue;
      kept.push_back(m);
    }
    moves = kept;
  }
  if (reverse) {
    std::vector<Move> captures;
    for (const Move m : moves) {
      if (pos.cells[m.to]) captures.push_back(m);
    }
    return captures.empty() ? moves : captures;
  }
  V king{99, 99};
  for (int q = -7; q <= 7; ++q) {
    for (int r = -7; r <= 7; ++r) {
      if (On({q, r}) && b.at({q, r}) == MakePiece(seat, kKing)) king = {q, r};
    }
  }
  if (king.q == 99) return moves;
  std::vector<Move> legal;
  for (const Move m : moves) {
    // Make the move on the board, look at the king, take the move back.
    const V from{g.At(m.from).q, g.At(m.from).r}, to{g.At(m.to).q, g.At(m.to).r};
    const Piece taken = b.at(to);
    b.at(to) = b.at(from);
    b.at(from) = 0;
    const bool king_moved = from.q == king.q && from.r == king.r;
    if (!KingAttacked(pos, b, seat, king_moved ? to : king)) legal.push_back(m);
    b.at(from) = b.at(to);
    b.at(to) = taken;
  }
  return legal;
}

uint64_t Perft(const Position& pos, int depth) {
  if (depth <= 0 || pos.phase != Phase::kMove) return 1;
  const std::vector<Move> moves = LegalMoves(pos);
  if (depth == 1) return moves.size();
  uint64_t total = 0;
  for (const Move m : moves) {
    Position child = pos;
    child.ApplyMove(m);
    total += Perft(child, depth - 1);
  }
  return total;
}

}  // namespace arena::engine::chestonia_chess::naive
