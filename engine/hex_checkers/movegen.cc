#include "engine/hex_checkers/movegen.h"

#include <array>

namespace arena::engine::hex_checkers {

PieceDirs DirsOf(const Position& pos, Piece p) {
  PieceDirs d;
  if (KindOf(p) == kKing) {
    for (int i = 0; i < 6; ++i) d.dirs[i] = i;
    d.count = 6;
  } else {
    const std::array<int, 4>& m = pos.layout().man_dirs[SeatOf(p)];
    for (int i = 0; i < 4; ++i) d.dirs[i] = m[i];
    d.count = 4;
  }
  return d;
}

namespace {

// Depth-first search of one piece's capture chains on a scratch board (the origin lifted,
// taken pieces removed as they are jumped).
class ChainSearch {
 public:
  ChainSearch(const Position& pos, TurnList& list) : pos_(pos), g_(pos.grid()), list_(list) {
    board_ = pos.cells;
  }

  // Adds every chain of the piece on `from`; returns whether there was one.
  bool FromCell(int from) {
    const Piece p = board_[from];
    mover_ = SeatOf(p);
    man_ = KindOf(p) == kMan;
    dirs_ = DirsOf(pos_, p);
    board_[from] = kEmpty;
    path_len_ = 0;
    path_[path_len_++] = static_cast<uint8_t>(from);
    const size_t before = list_.starts.size();
    Extend(from);
    board_[from] = p;
    return list_.starts.size() != before;
  }

 private:
  bool CanJump(int at, int dir, int* mid, int* to) const {
    *mid = g_.Step(at, dir);
    if (*mid < 0) return false;
    const Piece over = board_[*mid];
    if (!over || SeatOf(over) == mover_) return false;
    *to = g_.Step(*mid, dir);
    return *to >= 0 && !board_[*to];
  }

  void Extend(int at) {
    bool jumped = false;
    for (int i = 0; i < dirs_.count; ++i) {
      int mid, to;
      if (!CanJump(at, dirs_.dirs[i], &mid, &to)) continue;
      jumped = true;
      const Piece taken = board_[mid];
      board_[mid] = kEmpty;
      path_[path_len_++] = static_cast<uint8_t>(to);
      if (man_ && to == pos_.layout().centre) {
        Emit();  // promoted: the turn ends here
      } else {
        Extend(to);
      }
      --path_len_;
      board_[mid] = taken;
    }
    if (!jumped && path_len_ > 1) Emit();
  }

  void Emit() {
    list_.cells.insert(list_.cells.end(), path_.begin(), path_.begin() + path_len_);
    list_.starts.push_back(static_cast<uint32_t>(list_.cells.size()));
  }

  const Position& pos_;
  const hex::Grid& g_;
  TurnList& list_;
  std::array<Piece, kMaxCells> board_;
  std::array<uint8_t, kMaxCells> path_{};  // a chain takes at most one piece per hop
  int path_len_ = 0;
  int mover_ = 0;
  bool man_ = true;
  PieceDirs dirs_;
};

bool PieceCanJump(const Position& pos, int from) {
  const hex::Grid& g = pos.grid();
  const Piece p = pos.cells[from];
  const PieceDirs d = DirsOf(pos, p);
  for (int i = 0; i < d.count; ++i) {
    const int mid = g.Step(from, d.dirs[i]);
    if (mid < 0 || !pos.cells[mid] || SeatOf(pos.cells[mid]) == SeatOf(p)) continue;
    const int to = g.Step(mid, d.dirs[i]);
    if (to >= 0 && !pos.cells[to]) return true;
  }
  return false;
}

}  // namespace

bool CanCapture(const Position& pos) {
  bool found = false;
  pos.pieces[pos.turn].ForEach([&](int c) { found = found || PieceCanJump(pos, c); });
  return found;
}

bool HasLegalTurn(const Position& pos) {
  const hex::Grid& g = pos.grid();
  bool found = false;
  pos.pieces[pos.turn].ForEach([&](int c) {
    if (found) return;
    const PieceDirs d = DirsOf(pos, pos.cells[c]);
    for (int i = 0; i < d.count && !found; ++i) {
      const int to = g.Step(c, d.dirs[i]);
      found = to >= 0 && !pos.cells[to];
    }
  });
  // A piece with no empty neighbour in its directions may still jump one.
  return found || CanCapture(pos);
}

void GenerateTurns(const Position& pos, TurnList& list) {
  list.Clear();
  if (pos.Over()) return;
  ChainSearch chains(pos, list);
  pos.pieces[pos.turn].ForEach([&](int c) { chains.FromCell(c); });
  if (list.size() > 0) {
    list.captures = true;
    return;
  }
  const hex::Grid& g = pos.grid();
  pos.pieces[pos.turn].ForEach([&](int c) {
    const PieceDirs d = DirsOf(pos, pos.cells[c]);
    for (int i = 0; i < d.count; ++i) {
      const int to = g.Step(c, d.dirs[i]);
      if (to < 0 || pos.cells[to]) continue;
      list.cells.push_back(static_cast<uint8_t>(c));
      list.cells.push_back(static_cast<uint8_t>(to));
      list.starts.push_back(static_cast<uint32_t>(list.cells.size()));
    }
  });
}

bool IsLegalTurn(const Position& pos, const uint8_t* path, int len) {
  if (len < 2 || pos.Over()) return false;
  TurnList list;
  GenerateTurns(pos, list);
  for (int i = 0; i < list.size(); ++i) {
    const Turn t = list[i];
    if (t.len != len) continue;
    bool same = true;
    for (int k = 0; k < len && same; ++k) same = t.path[k] == path[k];
    if (same) return true;
  }
  return false;
}

TurnEffect EffectOf(const Position& pos, const Turn& t) {
  TurnEffect e;
  const hex::Grid& g = pos.grid();
  if (t.capture) {
    for (int i = 1; i < t.len; ++i) {
      const hex::Axial a = g.At(t.path[i - 1]), b = g.At(t.path[i]);
      e.captured.push_back(g.Index({(a.q + b.q) / 2, (a.r + b.r) / 2}));
    }
  }
  e.promotes = KindOf(pos.cells[t.from()]) == kMan && t.to() == pos.layout().centre;
  return e;
}

namespace {

uint64_t PerftRec(const Position& pos, int depth) {
  if (depth == 0 || pos.Over()) return 1;  // a finished game is a leaf
  TurnList list;
  GenerateTurns(pos, list);
  if (depth == 1) return static_cast<uint64_t>(list.size());
  uint64_t n = 0;
  for (int i = 0; i < list.size(); ++i) {
    Position next = pos;
    next.ApplyTurn(list[i]);
    n += PerftRec(next, depth - 1);
  }
  return n;
}

}  // namespace

uint64_t Perft(const Position& pos, int depth) {
  return PerftRec(pos, depth);
}

}  // namespace arena::engine::hex_checkers
