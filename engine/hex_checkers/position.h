// The hex checkers position: the board of one radius, who is still in, whose turn it is, and
// every rule transition between whole turns.
//
// A Position is a plain value (no heap memory), so search and perft copy it instead of
// undoing moves. Its public fields are the whole game state; SerializePosition/ParsePosition
// (notation.h) round-trip every one of them. Invariants kept by the transitions:
//   * pieces[s] is exactly the set of cells holding a piece (man or king) of seat s;
//   * a seat is in (bit s of `alive`) exactly while it has a piece on the board, except after
//     a resignation, which takes the seat's pieces off the board at once: so every piece on
//     the board belongs to a seat still in, and every other seat's piece is an enemy;
//   * unless the game is over, seat `turn` is in and has a legal turn (seats with pieces but
//     no legal turn are skipped by the transitions, never made to act);
//   * the game is over when one seat is left (it wins), when every seat still in has no legal
//     turn (a draw), at the move cap (a draw), or by resignation down to one seat.
// A whole turn (a quiet step or a whole capture chain) is one Turn (movegen.h). Callers
// validate turns (movegen.h lists the legal ones); ApplyTurn assumes one.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/hex/cell_set.h"
#include "engine/hex/geometry.h"

namespace arena::engine::hex_checkers {

inline constexpr int kMinRadius = 4;
inline constexpr int kMaxRadius = 8;
inline constexpr int kDefaultRadius = 5;
inline constexpr int kMaxCells = 3 * kMaxRadius * (kMaxRadius + 1) + 1;  // 217
inline constexpr int kMinSeats = 2;
inline constexpr int kMaxSeats = 6;

// --- Pieces -------------------------------------------------------------------------------
// A piece is one byte: bits 0-1 the kind, bits 2-4 the seat.
enum PieceKind : uint8_t { kEmpty = 0, kMan = 1, kKing = 2 };
using Piece = uint8_t;
constexpr Piece MakePiece(int seat, int kind) {
  return static_cast<Piece>(kind | (seat << 2));
}
constexpr int KindOf(Piece p) {
  return p & 3;
}
constexpr int SeatOf(Piece p) {
  return (p >> 2) & 7;
}

// A set of cells in four 64-bit words (up to 256 cells).
using CellSet = hex::CellSet<4>;

// --- Faces, seats and armies (RULES-NOTES, hex checkers) ------------------------------------
// Faces are hex::Grid's: 0 r = -R, 1 q = +R, 2 s = -R, 3 r = +R, 4 q = -R, 5 s = +R. Face f is
// face 0 turned by f sixths (hex::Rotate), and so are its directions.

// The face seat `seat` of `players` sits at: round(seat * 6 / players), halves up.
int SeatFace(int players, int seat);
// The four directions (hex::kDirections indices) a man of face `face` moves and jumps in:
// forward, forward, lateral, lateral. Face 0: (0,+1), (-1,+1), (+1,0), (-1,0).
std::array<int, 4> FacingDirections(int face);
// How far in from face `face`'s rim the cell lies (0 on the rim).
int DepthFromFace(const hex::Grid& grid, int cell, int face);
// The army cells of face `face` on a board of `radius`: the two rows one and two cells in
// from its rim, minus the seams (cells also in another face's two rows), whether or not the
// other faces are seated. 7 cells at radius 5.
CellSet HomeCells(int face, int radius);

// Seat names follow the face, so a seat's name says where it sits: blue, red, green, white,
// orange, yellow for faces 0..5 (distinct initials, used as the seat letters of the notation).
std::string_view FaceName(int face);
char FaceLetter(int face);
std::string_view FaceColour(int face);  // CSS colour

// --- Rules --------------------------------------------------------------------------------
// The variant: fixed for the whole game.
struct Rules {
  int players = 2;
  int radius = kDefaultRadius;
  int movecap = 0;  // turns (all seats) after which the game is drawn; 0 = none
  int first = 0;    // the seat that moves first
  friend bool operator==(const Rules&, const Rules&) = default;
};

// Everything derived from the rules once: the grid, each seat's face, directions and army.
struct Layout {
  const hex::Grid* grid = nullptr;
  int players = 2;
  int centre = 0;  // the cell 0,0
  std::array<int, kMaxSeats> face{};
  std::array<std::array<int, 4>, kMaxSeats> man_dirs{};
  std::array<CellSet, kMaxSeats> home{};
};
const Layout& LayoutFor(int players, int radius);

enum class EndReason : uint8_t {
  kNone,
  kLastPlayer,   // one seat has pieces left
  kResignation,  // every other seat resigned or was taken off
  kAllFrozen,    // draw: no seat still in has a legal turn
  kMoveCap,      // draw by adjudication
  kAgreedDraw,   // every seat still in agreed to a draw
};
std::string_view EndReasonName(EndReason reason);

struct Turn;  // movegen.h

// What the last turn did, for the adapter's report ("what happened"); not part of the rules.
struct TurnReport {
  CellSet captured;        // cells whose pieces left the board
  bool promoted = false;   // the mover became a king
  uint8_t eliminated = 0;  // bit s: seat s lost its last piece in this turn
  uint8_t skipped = 0;     // bit s: seat s had pieces but no legal turn and was passed over
};

class Position {
 public:
  Position() = default;
  // An empty board of the variant (no seat in yet); Put pieces, set `turn`, then Settle.
  explicit Position(const Rules& rules);
  // The set-up of the variant, seat `rules.first` to move.
  static Position Initial(const Rules& rules);

  const Layout& layout() const { return *layout_; }
  const hex::Grid& grid() const { return *layout_->grid; }
  int NumCells() const { return layout_->grid->size(); }
  bool Alive(int seat) const { return (alive >> seat) & 1; }
  int NumAlive() const { return std::popcount(static_cast<unsigned>(alive)); }
  bool Over() const { return reason != EndReason::kNone; }

  // Board edits keeping pieces[] in step.
  void Put(int cell, Piece p);
  void Remove(int cell);

  // --- Transitions ---
  // Applies a whole legal turn of `turn`, then eliminations, the end tests and the next seat.
  void ApplyTurn(const Turn& t, TurnReport* report = nullptr);
  // The seat to move ran out of time: its turn is forfeited, play passes on.
  void ApplyTimeout(TurnReport* report = nullptr);
  // `seat` (in) resigns: its pieces leave the board and it is out.
  void ApplyResign(int seat, TurnReport* report = nullptr);
  // `seat` (in) offers or accepts a draw; when every seat still in has, the game is drawn.
  void ApplyDrawAgreement(int seat);
  // After setting up a position by hand (or Initial): settles who is in from the pieces and
  // lets the first seat from `turn` on that has a legal turn move, or ends the game.
  void Settle(TurnReport* report = nullptr);

  // --- State (see the invariants above) ---
  Rules rules;
  std::array<Piece, kMaxCells> cells{};
  std::array<CellSet, kMaxSeats> pieces{};
  uint8_t alive = 0;  // bit s: seat s is still in
  // When each seat went out: the number of turns played then (-1 while in). Seats out at the
  // same turn share their place.
  std::array<int32_t, kMaxSeats> out_at{-1, -1, -1, -1, -1, -1};
  int8_t turn = 0;
  int32_t moves_played = 0;  // turns played so far (all seats)
  int32_t action_count = 0;  // actions applied through the facade (turns and seat events)
  TurnReport last;           // what the last action did (the facade fills it)
  uint8_t draw_offers = 0;   // bit s: seat s offers or accepted a draw since the last turn
  // Result (Over()).
  int8_t winner = -1;  // -1 for a draw
  EndReason reason = EndReason::kNone;

 private:
  void GoOut(int seat);
  // From seat `from` on (itself included), the first seat in with a legal turn moves; the
  // others in between are skipped. Ends the game when none has one.
  void PassTurnFrom(int from, TurnReport* report);
  // After a turn or an event: the end tests, then the next seat after `turn`.
  void AfterTurn(TurnReport* report);

  const Layout* layout_ = nullptr;
};

}  // namespace arena::engine::hex_checkers
