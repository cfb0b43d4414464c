// The three-segment board of three-player chess: 96 cells, their names, and the step, ray,
// knight, king and pawn tables every generator walks.
//
// A cell is `segment * 32 + r * 8 + c` in its segment's own frame (docs/rules/
// three-player-chess.md): segment 0 is White's, 1 Black's, 2 Red's; columns c = 0..7 run left
// to right from the owner's seat and rows r = 0..3 from the back rank toward the centre. A step
// forward from row 3 crosses the centre into the neighbouring segment at (7 - c, 3) and turns the
// frame half a circle, so every direction reverses there. The tables are built once from these
// frame steps (BoardTables::Get) and never change:
//   * Rays: for each cell and each of the 8 frame directions, the cells a slider passes in
//     order. A diagonal step through the centre reaches two cells, so a ray there branches in
//     two; each branch after the first shares `shared` leading cells with the one before it.
//   * Knight and king targets: the distinct cells reached.
//   * Pawn tables per army colour: its push, double push, captures (three at the centre) and
//     the reverse capture table (which cells a pawn of that colour attacks a cell from).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace arena::engine::three_player_chess {

inline constexpr int kNumColours = 3;  // the armies, also the players' seats: white, black, red
inline constexpr int kNumCells = 96;
inline constexpr int kSegmentCells = 32;
inline constexpr int kNoCell = -1;

constexpr int SegmentOf(int cell) {
  return cell / kSegmentCells;
}
constexpr int ColumnOf(int cell) {
  return cell % 8;
}
constexpr int RowOf(int cell) {
  return (cell % kSegmentCells) / 8;
}
constexpr int CellAt(int segment, int r, int c) {
  return segment * kSegmentCells + r * 8 + c;
}
// Light when c + r is odd (A1 is dark); diagonal steps keep the colour.
constexpr bool IsLight(int cell) {
  return (ColumnOf(cell) + RowOf(cell)) % 2 == 1;
}

// Board names: "A1".."L12" (upper case), and the 48 letter-number pairs that are no cell are
// refused with INVALID_ARGUMENT. Parsing accepts lower case too.
std::string CellName(int cell);
absl::StatusOr<int> ParseCell(std::string_view text);
char ColumnLetter(int cell);
int RowNumber(int cell);

// The 8 directions in a cell's frame: 0..3 straight (forward, back, left, right), 4..7 diagonal
// (forward-left, forward-right, back-left, back-right).
inline constexpr int kNumDirections = 8;
constexpr bool IsDiagonal(int direction) {
  return direction >= 4;
}

inline constexpr int kMaxRayLength = 12;
inline constexpr int kMaxBranches = 2;

struct Ray {
  uint8_t length = 0;
  uint8_t shared = 0;  // leading cells equal to the previous branch's (0 for the first)
  std::array<int8_t, kMaxRayLength> cells{};
};

struct RaySet {
  uint8_t count = 0;
  std::array<Ray, kMaxBranches> rays;
};

// A short list of cells (targets of one piece from one cell).
template <int N>
struct CellList {
  uint8_t size = 0;
  std::array<int8_t, N> cells{};
  const int8_t* begin() const { return cells.data(); }
  const int8_t* end() const { return cells.data() + size; }
  void Add(int cell) { cells[size++] = static_cast<int8_t>(cell); }
  bool Contains(int cell) const {
    for (int8_t c : *this) {
      if (c == cell) return true;
    }
    return false;
  }
};

struct PawnTable {
  int8_t push = kNoCell;         // one step forward
  int8_t double_push = kNoCell;  // two steps (only from the colour's own row 1)
  CellList<3> captures;          // forward diagonal steps
  CellList<8> attacked_from;     // cells from which a pawn of this colour captures here
  bool promotes_on_push = false;
};

class BoardTables {
 public:
  static const BoardTables& Get();

  std::array<std::array<RaySet, kNumDirections>, kNumCells> rays;
  std::array<CellList<16>, kNumCells> knight;
  std::array<CellList<12>, kNumCells> king;
  std::array<std::array<PawnTable, kNumCells>, kNumColours> pawn;
  // Promotion cells of each colour: row 0 of the two other segments.
  static constexpr bool PromotesOn(int colour, int cell) {
    return SegmentOf(cell) != colour && RowOf(cell) == 0;
  }

 private:
  BoardTables();
};

// One straight step in a frame direction (0..3), and one diagonal step (4..7): the cells
// reached (kNoCell off the board) and whether each crossed the centre (which reverses the
// frame). Exposed for the tables' tests; generators use the tables.
struct StepResult {
  int cell = kNoCell;
  bool crossed = false;
};
StepResult StraightStep(int cell, int dv, int ds);
// Up to two distinct diagonal targets; unused entries have cell == kNoCell.
std::array<StepResult, 2> DiagonalStep(int cell, int dv, int ds);

}  // namespace arena::engine::three_player_chess
