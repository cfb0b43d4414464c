#include "engine/three_player_chess/geometry.h"

#include <cassert>
#include <cctype>

#include "absl/strings/str_cat.h"

namespace arena::engine::three_player_chess {
namespace {

// Column letters and row numbers of each segment's frame (RULES-NOTES, three-player chess).
constexpr std::string_view kColumnLetters[kNumColours] = {"ABCDEFGH", "LKJIDCBA", "HGFEIJKL"};
constexpr int kRowNumbers[kNumColours][4] = {{1, 2, 3, 4}, {8, 7, 6, 5}, {12, 11, 10, 9}};

// dv, ds of the 8 frame directions.
constexpr int kDv[kNumDirections] = {1, -1, 0, 0, 1, 1, -1, -1};
constexpr int kDs[kNumDirections] = {0, 0, -1, 1, -1, 1, -1, 1};

// The cell name table, "" for the 48 pairs that are no cell.
struct NameTable {
  std::array<std::array<int8_t, 13>, 12> cell_of;  // [letter][number]
  NameTable() {
    for (auto& row : cell_of) row.fill(kNoCell);
    for (int cell = 0; cell < kNumCells; ++cell) {
      cell_of[ColumnLetter(cell) - 'A'][RowNumber(cell)] = static_cast<int8_t>(cell);
    }
  }
};

// Adds the distinct targets of a knight's three unit steps `steps` (frame directions of the
// origin) to `out`, reversing the remaining steps each time the path crosses the centre.
void KnightPath(int from, const int (&steps)[3], CellList<16>& out) {
  int cell = from;
  int sign = 1;
  for (int d : steps) {
    const StepResult s = StraightStep(cell, sign * kDv[d], sign * kDs[d]);
    if (s.cell == kNoCell) return;
    cell = s.cell;
    if (s.crossed) sign = -sign;
  }
  if (cell != from && !out.Contains(cell)) out.Add(cell);
}

// Depth-first walk of a slider from `cell` with frame direction (dv, ds): appends each maximal
// branch to `set`, recording how many leading cells it shares with the branch before it.
void WalkRay(int cell, int dv, int ds, bool diagonal, Ray& path, RaySet& set) {
  std::array<StepResult, 2> next{};
  if (diagonal) {
    next = DiagonalStep(cell, dv, ds);
  } else {
    next[0] = StraightStep(cell, dv, ds);
  }
  bool extended = false;
  for (const StepResult& s : next) {
    if (s.cell == kNoCell) continue;
    bool seen = false;
    for (int i = 0; i < path.length; ++i) seen |= path.cells[i] == s.cell;
    if (seen) continue;
    extended = true;
    Ray longer = path;
    longer.cells[longer.length++] = static_cast<int8_t>(s.cell);
    const int sign = s.crossed ? -1 : 1;
    WalkRay(s.cell, sign * dv, sign * ds, diagonal, longer, set);
  }
  if (!extended && path.length > 0) {
    assert(set.count < kMaxBranches);
    Ray ray = path;
    ray.shared = 0;
    if (set.count > 0) {
      const Ray& prev = set.rays[set.count - 1];
      while (ray.shared < prev.length && ray.shared < ray.length &&
             prev.cells[ray.shared] == ray.cells[ray.shared]) {
        ++ray.shared;
      }
    }
    set.rays[set.count++] = ray;
  }
}

}  // namespace

char ColumnLetter(int cell) {
  return kColumnLetters[SegmentOf(cell)][ColumnOf(cell)];
}

int RowNumber(int cell) {
  return kRowNumbers[SegmentOf(cell)][RowOf(cell)];
}

std::string CellName(int cell) {
  if (cell < 0 || cell >= kNumCells) return "-";
  return absl::StrCat(std::string(1, ColumnLetter(cell)), RowNumber(cell));
}

absl::StatusOr<int> ParseCell(std::string_view text) {
  static const NameTable names;
  auto bad = [&] {
    return absl::InvalidArgumentError(absl::StrCat("'", absl::string_view(text.data(), text.size()),
                                                   "' is no cell (columns A-L, rows 1-12)"));
  };
  if (text.size() < 2 || text.size() > 3) return bad();
  const char letter = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  if (letter < 'A' || letter > 'L') return bad();
  int number = 0;
  for (char ch : text.substr(1)) {
    if (ch < '0' || ch > '9') return bad();
    number = number * 10 + (ch - '0');
  }
  if (text[1] == '0' || number < 1 || number > 12) return bad();
  const int cell = names.cell_of[letter - 'A'][number];
  if (cell == kNoCell) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", absl::string_view(text.data(), text.size()),
                     "' is not on the three-player board (E5-H8, I1-L4 and A9-D12 do not exist)"));
  }
  return cell;
}

StepResult StraightStep(int cell, int dv, int ds) {
  const int seg = SegmentOf(cell), r = RowOf(cell), c = ColumnOf(cell);
  if (ds != 0) {
    const int nc = c + ds;
    if (nc < 0 || nc > 7) return {};
    return {CellAt(seg, r, nc), false};
  }
  if (dv < 0) {
    if (r == 0) return {};
    return {CellAt(seg, r - 1, c), false};
  }
  if (r < 3) return {CellAt(seg, r + 1, c), false};
  // Across the centre: columns 0..3 lead to the next segment (White -> Black -> Red -> White),
  // columns 4..7 to the one before; the column letter stays, the frame turns round.
  const int next = c <= 3 ? (seg + 1) % kNumColours : (seg + 2) % kNumColours;
  return {CellAt(next, 3, 7 - c), true};
}

std::array<StepResult, 2> DiagonalStep(int cell, int dv, int ds) {
  std::array<StepResult, 2> out{};
  // Sideways first, then forward/back.
  const StepResult side = StraightStep(cell, 0, ds);
  if (side.cell != kNoCell) out[0] = StraightStep(side.cell, dv, 0);
  // Forward/back first, then sideways (reversed if the first step crossed).
  const StepResult up = StraightStep(cell, dv, 0);
  if (up.cell != kNoCell) {
    const StepResult b = StraightStep(up.cell, 0, up.crossed ? -ds : ds);
    if (b.cell != kNoCell) {
      const StepResult other{b.cell, up.crossed};
      if (out[0].cell == kNoCell) {
        out[0] = other;
      } else if (out[0].cell != other.cell) {
        out[1] = other;
      }
    }
  }
  return out;
}

const BoardTables& BoardTables::Get() {
  static const BoardTables tables;
  return tables;
}

BoardTables::BoardTables() {
  for (int cell = 0; cell < kNumCells; ++cell) {
    for (int d = 0; d < kNumDirections; ++d) {
      Ray path;
      WalkRay(cell, kDv[d], kDs[d], IsDiagonal(d), path, rays[cell][d]);
    }
    // Knights: two straight steps then one at right angles, or one then two.
    for (int l = 0; l < 4; ++l) {
      for (int s = 0; s < 4; ++s) {
        if ((l < 2) == (s < 2)) continue;  // perpendicular only
        const int long_first[3] = {l, l, s};
        const int short_first[3] = {s, l, l};
        KnightPath(cell, long_first, knight[cell]);
        KnightPath(cell, short_first, knight[cell]);
      }
    }
    for (int d = 0; d < kNumDirections; ++d) {
      const RaySet& set = rays[cell][d];
      for (int b = 0; b < set.count; ++b) {
        const int to = set.rays[b].cells[0];
        if (!king[cell].Contains(to)) king[cell].Add(to);
      }
    }
    for (int colour = 0; colour < kNumColours; ++colour) {
      PawnTable& p = pawn[colour][cell];
      const int dv = SegmentOf(cell) == colour ? 1 : -1;
      const StepResult push = StraightStep(cell, dv, 0);
      p.push = static_cast<int8_t>(push.cell);
      p.promotes_on_push = push.cell != kNoCell && PromotesOn(colour, push.cell);
      if (SegmentOf(cell) == colour && RowOf(cell) == 1) {
        p.double_push = static_cast<int8_t>(StraightStep(push.cell, 1, 0).cell);
      }
      for (int ds : {-1, 1}) {
        for (const StepResult& s : DiagonalStep(cell, dv, ds)) {
          if (s.cell != kNoCell && !p.captures.Contains(s.cell)) p.captures.Add(s.cell);
        }
      }
    }
  }
  for (int colour = 0; colour < kNumColours; ++colour) {
    for (int from = 0; from < kNumCells; ++from) {
      for (int to : pawn[colour][from].captures) pawn[colour][to].attacked_from.Add(from);
    }
  }
}

}  // namespace arena::engine::three_player_chess
