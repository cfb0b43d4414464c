#include "engine/three_player_chess/naive_movegen.h"

#include <algorithm>
#include <optional>
#include <set>

namespace arena::engine::three_player_chess::naive {
namespace {

struct Square {
  int seg, r, c;
  int Index() const { return seg * 32 + r * 8 + c; }
};
Square At(int index) {
  return {index / 32, (index / 8) % 4, index % 8};
}

// Where one straight step goes, and whether the frame turned round on the way.
struct Walk {
  Square sq;
  bool turned;
};
std::optional<Walk> Straight(Square s, int dv, int ds) {
  if (ds != 0) {
    if (s.c + ds < 0 || s.c + ds > 7) return std::nullopt;
    return Walk{{s.seg, s.r, s.c + ds}, false};
  }
  if (dv == -1) {
    if (s.r == 0) return std::nullopt;
    return Walk{{s.seg, s.r - 1, s.c}, false};
  }
  if (s.r < 3) return Walk{{s.seg, s.r + 1, s.c}, false};
  // Over the centre: White's A-D lead to Black, E-H to Red (and so on round the board).
  const int seg = s.c < 4 ? (s.seg + 1) % 3 : (s.seg + 2) % 3;
  return Walk{{seg, 3, 7 - s.c}, true};
}

// Both orders of a diagonal step; each result keeps whether it turned round.
std::vector<Walk> Diagonal(Square s, int dv, int ds) {
  std::vector<Walk> out;
  if (auto a = Straight(s, 0, ds)) {
    if (auto b = Straight(a->sq, dv, 0)) out.push_back(*b);
  }
  if (auto a = Straight(s, dv, 0)) {
    if (auto b = Straight(a->sq, 0, a->turned ? -ds : ds)) {
      const Walk w{b->sq, a->turned};
      if (out.empty() || out[0].sq.Index() != w.sq.Index()) out.push_back(w);
    }
  }
  return out;
}

int Owner(const Position& pos, int cell) {
  return pos.owner[ColourOf(pos.cells[cell])];
}

// Every cell the piece on `from` could move to or take on (kings and own pieces included as
// targets when they stop it), ignoring whose pieces they are: the mover filters. For a pawn only
// its captures (the caller adds its pushes).
void Reach(const Position& pos, int from, std::set<int>& out) {
  const Piece p = pos.cells[from];
  const Square s = At(from);
  const int type = TypeOf(p);
  auto slide = [&](auto&& self, Square sq, int dv, int ds, bool diagonal) -> void {
    std::vector<Walk> next;
    if (diagonal) {
      next = Diagonal(sq, dv, ds);
    } else if (auto w = Straight(sq, dv, ds)) {
      next.push_back(*w);
    }
    for (const Walk& w : next) {
      const int cell = w.sq.Index();
      if (cell == from) continue;
      out.insert(cell);
      if (pos.cells[cell] == kEmpty)
        self(self, w.sq, w.turned ? -dv : dv, w.turned ? -ds : ds, diagonal);
    }
  };
  const int straight[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  const int diagonal[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  if (type == kRook || type == kQueen) {
    for (auto& d : straight) slide(slide, s, d[0], d[1], false);
  }
  if (type == kBishop || type == kQueen) {
    for (auto& d : diagonal) slide(slide, s, d[0], d[1], true);
  }
  if (type == kKing) {
    for (auto& d : straight) {
      if (auto w = Straight(s, d[0], d[1])) out.insert(w->sq.Index());
    }
    for (auto& d : diagonal) {
      for (const Walk& w : Diagonal(s, d[0], d[1])) out.insert(w.sq.Index());
    }
  }
  if (type == kKnight) {
    // Two steps one way and one at right angles, in either order, turning with the frame.
    for (auto& l : straight) {
      for (auto& t : straight) {
        if ((l[0] == 0) == (t[0] == 0)) continue;
        for (int order = 0; order < 2; ++order) {
          const int(*path[3])[2] = {&l, &l, &t};
          if (order == 1) {
            path[0] = &t;
            path[2] = &l;
          }
          Square sq = s;
          int sign = 1;
          bool ok = true;
          for (auto* step : path) {
            auto w = Straight(sq, sign * (*step)[0], sign * (*step)[1]);
            if (!w) {
              ok = false;
              break;
            }
            sq = w->sq;
            if (w->turned) sign = -sign;
          }
          if (ok) out.insert(sq.Index());
        }
      }
    }
  }
  if (type == kPawn) {
    const int colour = ColourOf(p);
    const int dv = s.seg == colour ? 1 : -1;
    for (int ds : {1, -1}) {
      for (const Walk& w : Diagonal(s, dv, ds)) out.insert(w.sq.Index());
    }
  }
}

bool Attacked(const Position& pos, int cell, int defender) {
  for (int from = 0; from < kNumCells; ++from) {
    if (pos.cells[from] == kEmpty || Owner(pos, from) == defender) continue;
    std::set<int> reach;
    Reach(pos, from, reach);
    if (reach.count(cell)) return true;
  }
  return false;
}

void Make(Position& pos, const Move& m) {
  Piece p = pos.cells[m.from];
  if (m.flag == kEnPassant) {
    const Square passed = At(m.to);
    pos.cells[Square{passed.seg, 3, passed.c}.Index()] = kEmpty;
  }
  pos.cells[m.from] = kEmpty;
  if (m.promotion != kEmpty) p = MakePiece(ColourOf(p), m.promotion);
  pos.cells[m.to] = p;
  if (m.flag == kCastleShort || m.flag == kCastleLong) {
    const int k = ColourOf(p);
    const bool short_side = m.flag == kCastleShort;
    pos.cells[Square{k, 0, short_side ? 7 : 0}.Index()] = kEmpty;
    pos.cells[Square{k, 0, short_side ? 5 : 3}.Index()] = MakePiece(k, kRook);
  }
}

int KingOf(const Position& pos, int player) {
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (pos.cells[cell] == MakePiece(player, kKing)) return cell;
  }
  return -1;
}

}  // namespace

std::vector<Move> LegalMoves(const Position& pos) {
  std::vector<Move> pseudo;
  if (pos.Over()) return pseudo;
  const int me = pos.turn;
  auto add = [&](int from, int to, uint8_t flag) {
    const Piece p = pos.cells[from];
    const Square t = At(to);
    if (TypeOf(p) == kPawn && t.r == 0 && t.seg != ColourOf(p)) {
      for (uint8_t type : {kQueen, kRook, kBishop, kKnight}) {
        pseudo.push_back(Move{static_cast<int8_t>(from), static_cast<int8_t>(to), type, kNormal});
      }
    } else {
      pseudo.push_back(Move{static_cast<int8_t>(from), static_cast<int8_t>(to), kEmpty, flag});
    }
  };
  for (int from = 0; from < kNumCells; ++from) {
    const Piece p = pos.cells[from];
    if (p == kEmpty || Owner(pos, from) != me) continue;
    std::set<int> reach;
    Reach(pos, from, reach);
    for (int to : reach) {
      const Piece target = pos.cells[to];
      if (target == kEmpty) {
        if (TypeOf(p) != kPawn) {
          add(from, to, kNormal);
          continue;
        }
        // A pawn takes on an empty cell only en passant.
        for (int q = 0; q < 3; ++q) {
          if (q == me || pos.ep[q] != to) continue;
          const Square passed = At(to);
          const int victim = Square{passed.seg, 3, passed.c}.Index();
          if (TypeOf(pos.cells[victim]) == kPawn && Owner(pos, victim) != me) {
            add(from, to, kEnPassant);
          }
        }
      } else if (TypeOf(target) != kKing && Owner(pos, to) != me) {
        add(from, to, kNormal);
      }
    }
    if (TypeOf(p) == kPawn) {
      const Square s = At(from);
      const int dv = s.seg == ColourOf(p) ? 1 : -1;
      if (auto one = Straight(s, dv, 0); one && pos.cells[one->sq.Index()] == kEmpty) {
        add(from, one->sq.Index(), kNormal);
        if (s.seg == ColourOf(p) && s.r == 1) {
          if (auto two = Straight(one->sq, 1, 0); two && pos.cells[two->sq.Index()] == kEmpty) {
            add(from, two->sq.Index(), kDoublePush);
          }
        }
      }
    }
    if (TypeOf(p) == kKing && ColourOf(p) == me) {
      const int k = me;
      const bool home = from == Square{k, 0, 4}.Index();
      auto free = [&](int c) { return pos.cells[Square{k, 0, c}.Index()] == kEmpty; };
      auto safe = [&](int c) { return !Attacked(pos, Square{k, 0, c}.Index(), me); };
      if (home && (pos.castling & (1 << (2 * k))) &&
          pos.cells[Square{k, 0, 7}.Index()] == MakePiece(k, kRook) && free(5) && free(6) &&
          safe(4) && safe(5) && safe(6)) {
        add(from, Square{k, 0, 6}.Index(), kCastleShort);
      }
      if (home && (pos.castling & (2 << (2 * k))) &&
          pos.cells[Square{k, 0, 0}.Index()] == MakePiece(k, kRook) && free(1) && free(2) &&
          free(3) && safe(4) && safe(3) && safe(2)) {
        add(from, Square{k, 0, 2}.Index(), kCastleLong);
      }
    }
  }
  std::vector<Move> legal;
  for (const Move& m : pseudo) {
    Position after = pos;
    Make(after, m);
    const int king = KingOf(after, me);
    if (king >= 0 && !Attacked(after, king, me)) legal.push_back(m);
  }
  return legal;
}

uint64_t Perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  const std::vector<Move> moves = LegalMoves(pos);
  if (depth == 1) return moves.size();
  uint64_t nodes = 0;
  for (const Move& m : moves) {
    Position next = pos;
    next.ApplyMove(m);
    nodes += Perft(next, depth - 1);
  }
  return nodes;
}

}  // namespace arena::engine::three_player_chess::naive
