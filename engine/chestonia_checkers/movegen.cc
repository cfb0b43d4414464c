#include "engine/chestonia_checkers/movegen.h"

#include <array>
#include <unordered_set>

namespace arena::engine::chestonia_checkers {
namespace {

// A man's quiet step: the destination and the middle cells of its routes (-1 when unused; a
// one-cell step has none).
struct ManStep {
  int16_t to = -1;
  int16_t via[2] = {-1, -1};
};
inline constexpr int kManSteps = 11;  // 4 one-cell targets + 7 two-cell ones

// Per seat frame (by sixths, 0..5) and cell, the man's steps.
struct ManTable {
  std::array<std::array<ManStep, kManSteps>, kNumCells> steps;
  std::array<int8_t, kNumCells> count{};
};

ManTable BuildManTable(const int dirs[4]) {
  const hex::Grid& g = BoardGrid();
  ManTable t;
  for (int c = 0; c < kNumCells; ++c) {
    auto add = [&](int to, int via) {
      if (to < 0 || to == c) return;
      for (int i = 0; i < t.count[c]; ++i) {
        ManStep& s = t.steps[c][i];
        if (s.to != to) continue;
        // A one-cell target needs no route; otherwise remember the second route.
        if (s.via[0] >= 0 && via >= 0 && s.via[0] != via) s.via[1] = static_cast<int16_t>(via);
        if (via < 0) s.via[0] = s.via[1] = -1;
        return;
      }
      ManStep s;
      s.to = static_cast<int16_t>(to);
      s.via[0] = static_cast<int16_t>(via);
      t.steps[c][t.count[c]++] = s;
    };
    for (int a = 0; a < 4; ++a) add(g.Step(c, dirs[a]), -1);
    for (int a = 0; a < 4; ++a) {
      const int mid = g.Step(c, dirs[a]);
      if (mid < 0) continue;
      for (int b = 0; b < 4; ++b) add(g.Step(mid, dirs[b]), mid);
    }
  }
  return t;
}

const ManTable& ManTableFor(const Position& pos, int seat) {
  static const std::array<ManTable, 6>* tables = [] {
    auto* out = new std::array<ManTable, 6>();
    for (int sixths = 0; sixths < 6; ++sixths) {
      const int blue[4] = {5, 4, 0, 3};
      int dirs[4];
      for (int i = 0; i < 4; ++i) dirs[i] = hex::RotateDirection(blue[i], sixths);
      (*out)[sixths] = BuildManTable(dirs);
    }
    return out;
  }();
  return (*tables)[pos.layout().seats[seat].sixths];
}

// A point inside a chain: where the mover stands and which pieces it has taken. The board
// then is the position's minus the origin and the taken pieces, so two routes reaching the
// same point go on alike; the search visits each point once.
struct ChainPoint {
  CellSet taken;
  int cell;
  bool operator==(const ChainPoint& o) const { return cell == o.cell && taken == o.taken; }
};
struct ChainPointHash {
  size_t operator()(const ChainPoint& p) const {
    uint64_t h = p.taken.w[0] * 0x9E3779B97F4A7C15ULL;
    h ^= (p.taken.w[1] + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= (p.taken.w[2] + static_cast<uint64_t>(p.cell)) * 0x165667B19E3779F9ULL;
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

// Depth-first search of the capture chains of one piece. The board is a scratch copy: the
// mover is lifted off its origin and each captured piece is removed as it is taken. Chains
// that reach the same point (same cell, same pieces taken) are one turn: the first route found
// is the one listed.
class ChainSearch {
 public:
  ChainSearch(const Position& pos, TurnList* out, int64_t budget = 0)
      : pos_(pos),
        g_(BoardGrid()),
        out_(out),
        cells_(pos.cells),
        seat_(pos.turn),
        budget_(budget) {}

  // Whether the search stopped early because it visited `budget` chain points.
  bool exhausted() const { return exhausted_; }

  // Returns whether the piece on `from` has any capture (stops at the first when `out_` is
  // null).
  bool Run(int from) {
    const Piece p = cells_[from];
    king_ = KindOf(p) == kKing;
    crowning_ = &pos_.layout().seats[seat_].crowning;
    cells_[from] = 0;
    len_ = 0;
    path_[len_++] = static_cast<uint8_t>(from);
    seen_.clear();
    taken_ = CellSet{};
    const bool any = Extend(from);
    cells_[from] = p;
    return any;
  }

 private:
  bool Extend(int at) {
    bool any = false;
    for (int d = 0; d < hex::kNumDirections; ++d) {
      if (!king_) {
        const int mid = g_.Step(at, d);
        if (mid < 0 || !pos_.IsEnemy(cells_[mid], seat_)) continue;
        const int land = g_.Step(mid, d);
        if (land < 0 || cells_[land]) continue;
        any = true;
        if (!out_) return true;
        Hop(mid, land);
      } else {
        const auto ray = g_.Ray(at, d);
        size_t i = 0;
        while (i < ray.size() && !cells_[ray[i]]) ++i;
        if (i + 1 >= ray.size() || !pos_.IsEnemy(cells_[ray[i]], seat_) || cells_[ray[i + 1]]) {
          continue;
        }
        any = true;
        if (!out_) return true;
        const int victim = ray[i];
        for (size_t j = i + 1; j < ray.size() && !cells_[ray[j]]; ++j) Hop(victim, ray[j]);
      }
    }
    return any;
  }

  void Hop(int victim, int land) {
    if (budget_ > 0 && static_cast<int64_t>(seen_.size()) >= budget_) {
      exhausted_ = true;
      return;
    }
    taken_.Set(victim);
    if (seen_.insert(ChainPoint{taken_, land}).second) {
      const Piece taken = cells_[victim];
      cells_[victim] = 0;
      path_[len_++] = static_cast<uint8_t>(land);
      // A man crowned on landing stops; otherwise the chain must go on while it can.
      const bool crowned = !king_ && crowning_->Test(land);
      if (crowned || !Extend(land)) Emit();
      --len_;
      cells_[victim] = taken;
    }
    taken_.Clear(victim);
  }

  void Emit() {
    out_->cells.insert(out_->cells.end(), path_.begin(), path_.begin() + len_);
    out_->starts.push_back(static_cast<uint32_t>(out_->cells.size()));
  }

  const Position& pos_;
  const hex::Grid& g_;
  TurnList* out_;
  std::array<Piece, kNumCells> cells_;
  int seat_;
  bool king_ = false;
  const CellSet* crowning_ = nullptr;
  std::array<uint8_t, kNumCells + 1> path_{};  // a chain takes a piece per hop
  int len_ = 0;
  CellSet taken_;
  std::unordered_set<ChainPoint, ChainPointHash> seen_;
  int64_t budget_ = 0;
  bool exhausted_ = false;
};

void AddQuiet(TurnList& list, int from, int to) {
  list.cells.push_back(static_cast<uint8_t>(from));
  list.cells.push_back(static_cast<uint8_t>(to));
  list.starts.push_back(static_cast<uint32_t>(list.cells.size()));
}

template <class F>
bool ForQuietMoves(const Position& pos, F&& emit) {
  const hex::Grid& g = BoardGrid();
  const int seat = pos.turn;
  const ManTable& men = ManTableFor(pos, seat);
  bool stop = false;
  pos.pieces[seat].ForEach([&](int c) {
    if (stop) return;
    if (KindOf(pos.cells[c]) == kMan) {
      for (int i = 0; i < men.count[c]; ++i) {
        const ManStep& s = men.steps[c][i];
        if (pos.cells[s.to]) continue;
        if (s.via[0] >= 0 && pos.cells[s.via[0]] && (s.via[1] < 0 || pos.cells[s.via[1]])) {
          continue;
        }
        if (emit(c, s.to)) {
          stop = true;
          return;
        }
      }
    } else {
      for (int d = 0; d < hex::kNumDirections; ++d) {
        for (int16_t to : g.Ray(c, d)) {
          if (pos.cells[to]) break;
          if (emit(c, to)) {
            stop = true;
            return;
          }
        }
      }
    }
  });
  return stop;
}

}  // namespace

bool CanCapture(const Position& pos) {
  bool any = false;
  ChainSearch search(pos, nullptr);
  pos.pieces[pos.turn].ForEach([&](int c) {
    if (!any) any = search.Run(c);
  });
  return any;
}

bool GenerateTurns(const Position& pos, TurnList& list, int64_t budget) {
  list.Clear();
  ChainSearch search(pos, &list, budget);
  pos.pieces[pos.turn].ForEach([&](int c) { search.Run(c); });
  if (list.size() > 0) {
    list.captures = true;
    return !search.exhausted();
  }
  ForQuietMoves(pos, [&](int from, int to) {
    AddQuiet(list, from, to);
    return false;
  });
  return true;
}

bool IsLegalTurn(const Position& pos, const uint8_t* path, int len) {
  absl::StatusOr<TurnKey> key = ReplayTurn(pos, path, len);
  if (!key.ok()) return false;
  if (key->taken.Empty()) {
    // A quiet move: legal when nothing can be taken and it is one of the (few) quiet moves.
    if (CanCapture(pos)) return false;
    TurnList list;
    GenerateTurns(pos, list);
    if (list.captures) return false;
    for (int i = 0; i < list.size(); ++i) {
      if (list[i].from() == path[0] && list[i].to() == path[len - 1]) return true;
    }
    return false;
  }
  // A chain of valid hops: legal when it cannot go on from where it ends (a man crowned there
  // stops anyway).
  const Piece piece = pos.cells[key->from];
  if (KindOf(piece) == kMan && pos.layout().seats[pos.turn].crowning.Test(key->to)) return true;
  Position after = pos;
  after.cells[key->from] = 0;
  key->taken.ForEach([&](int c) { after.cells[c] = 0; });
  after.cells[key->to] = piece;
  return !ChainSearch(after, nullptr).Run(key->to);
}

absl::StatusOr<TurnKey> ReplayTurn(const Position& pos, const uint8_t* path, int len) {
  const hex::Grid& g = BoardGrid();
  if (len < 2) return absl::InvalidArgumentError("a turn needs two cells");
  const int seat = pos.turn;
  const Piece piece = pos.cells[path[0]];
  if (!piece || SeatOf(piece) != seat) {
    return absl::FailedPreconditionError("the first cell holds no piece of the seat to move");
  }
  const bool king = KindOf(piece) == kKing;
  std::array<Piece, kNumCells> cells = pos.cells;
  cells[path[0]] = 0;
  TurnKey key;
  key.from = path[0];
  key.to = path[len - 1];
  for (int i = 1; i < len; ++i) {
    const int a = path[i - 1], b = path[i];
    const int dir = a == b ? -1 : g.LineDirection(a, b);
    if (dir < 0) return absl::FailedPreconditionError("a hop must follow one of the twelve lines");
    if (cells[b]) return absl::FailedPreconditionError("a landing cell is not empty");
    int victim = -1, distance = 0;
    for (int16_t c : g.Ray(a, dir)) {
      ++distance;
      if (c == b) break;
      if (!cells[c]) continue;
      if (victim >= 0) return absl::FailedPreconditionError("a hop crosses two pieces");
      victim = c;
    }
    if (victim < 0) {
      if (len > 2) return absl::FailedPreconditionError("every hop of a chain must capture");
      break;  // a quiet move: checked against the legal list
    }
    if (!pos.IsEnemy(cells[victim], seat)) {
      return absl::FailedPreconditionError("only a piece of an opponent still in can be taken");
    }
    if (!king && distance != 2) {
      return absl::FailedPreconditionError("a man takes the next piece and lands just beyond");
    }
    if (!king && i + 1 < len && pos.layout().seats[seat].crowning.Test(b)) {
      return absl::FailedPreconditionError("crowning ends the turn");
    }
    cells[victim] = 0;
    key.taken.Set(victim);
  }
  return key;
}

bool HasLegalTurn(const Position& pos) {
  if (CanCapture(pos)) return true;
  return ForQuietMoves(pos, [](int, int) { return true; });
}

namespace {

uint64_t PerftFrom(const Position& pos, const TurnList& list, int depth,
                   std::vector<TurnList>& stack) {
  if (depth == 1) return static_cast<uint64_t>(list.size());
  TurnList& next = stack[depth - 1];
  uint64_t total = 0;
  for (int i = 0; i < list.size(); ++i) {
    Position child = pos;
    next.Clear();
    child.ApplyTurn(list[i], &next);
    if (child.phase != Phase::kMove) {
      ++total;  // a finished game (or a chance node, with darts on) is a leaf
      continue;
    }
    total += PerftFrom(child, next, depth - 1, stack);
  }
  return total;
}

}  // namespace

uint64_t Perft(const Position& pos, int depth) {
  if (depth <= 0 || pos.phase != Phase::kMove) return 1;
  std::vector<TurnList> stack(depth + 1);
  GenerateTurns(pos, stack[depth]);
  return PerftFrom(pos, stack[depth], depth, stack);
}

}  // namespace arena::engine::chestonia_checkers
