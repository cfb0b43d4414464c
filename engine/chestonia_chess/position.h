// The Chestonia chess position: the board, who is in, whose turn and what they owe, the dart
// and draw counters, and every rule transition between actions.
//
// A Position is a plain value (no heap memory, about 300 bytes), so search and perft copy it
// instead of undoing moves. Its public fields are the whole game state; Serialize/Parse in
// notation.h round-trip every one of them. Invariants kept by the transitions:
//   * pieces[s] is exactly the set of cells holding a piece of seat s, and king[s] is the cell
//     of seat s's king or -1;
//   * a seat is either active or out; an out seat's pieces are frozen scenery;
//   * phase says what is owed next: a chance outcome (kRoundChance, kLanding) or a decision of
//     seat `turn` (kAim, kPlacement, kPenalty, kMove); at kMove the seat has a legal move;
//   * outside reverse chess every active seat has exactly one king.
// Callers validate actions (movegen.h lists the legal ones); the Apply* methods assume them.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include "engine/hex/cell_set.h"
#include "engine/hex/chestonia_rules.h"
#include "engine/hex/dart_round.h"
#include "engine/hex/geometry.h"

namespace arena::engine::chestonia_chess {

inline constexpr int kRadius = 7;
inline constexpr int kNumCells = 169;
inline constexpr int kMaxSeats = 3;
inline constexpr int kNoProgressLimit = 60;      // moves without progress → draw
inline constexpr int kPerpetualCheckLimit = 10;  // own turns begun in check, in a row
inline constexpr int kMaxRoundsBetweenDarts = hex::kMaxRoundsBetweenDarts;

const hex::Grid& BoardGrid();  // the radius-7 grid

// --- Pieces -------------------------------------------------------------------------------
// A piece is one byte: bits 0-2 the type, bits 3-4 the seat, bit 7 "this pawn has moved".
enum PieceType : uint8_t { kEmpty = 0, kPawn, kKnight, kBishop, kRook, kQueen, kKing };
using Piece = uint8_t;
inline constexpr Piece kMovedBit = 0x80;
constexpr Piece MakePiece(int seat, int type, bool moved = false) {
  return static_cast<Piece>(type | (seat << 3) | (moved ? kMovedBit : 0));
}
constexpr int TypeOf(Piece p) {
  return p & 7;
}
constexpr int SeatOf(Piece p) {
  return (p >> 3) & 3;
}
constexpr bool HasMoved(Piece p) {
  return (p & kMovedBit) != 0;
}

// A set of cells in three 64-bit words (169 cells).
using CellSet = hex::CellSet<3>;

// --- Rules and seats -----------------------------------------------------------------------
// The board designs and seats of every Chestonia game (engine/hex/chestonia_rules.h).
using hex::BoardKind;
using hex::BoardKindName;

// The variant: fixed for the whole game.
struct Rules {
  int players = 2;
  BoardKind board = BoardKind::kAlternating;
  bool darts = false;
  bool reverse = false;
  int movecap = 0;  // moves (board moves, all seats) after which the game is drawn; 0 = none
  int first = 0;    // the seat that leads; rounds begin at its turn
  friend bool operator==(const Rules&, const Rules&) = default;
};

// One seat's frame: the rotation that carries blue's edge, rows and directions onto it (0
// sixths for blue, 2 and 4 for black and white with three players, 3 for white with two),
// and the cell sets the rules refer to.
struct SeatFrame {
  int sixths = 0;
  int forward[2] = {};             // the two pawn run directions
  int sideways[2] = {};            // the pawn's single sideways steps
  uint16_t pawn_capture_dirs = 0;  // bit d: a pawn of this seat captures along direction d
  CellSet back_row;                // its rim row
  CellSet home_rows;               // back row and pawn row: where dart rewards are placed
  CellSet promotion;               // back rows of every other seat of the game
};

// The frames of every seat for a number of players, plus the union of all back rows.
struct Layout {
  int players = 2;
  std::array<SeatFrame, kMaxSeats> seats;
  CellSet all_back_rows;
};
const Layout& LayoutFor(int players);

// Seat colours: three players blue, black, white; two players blue, white.
using hex::SeatColour;
using hex::SeatFromLetter;
using hex::SeatLetter;

// --- Turn structure -----------------------------------------------------------------------
// What is owed next: the dart round's phases and the move (engine/hex/dart_round.h).
using Phase = hex::TurnPhase;

enum class EndReason : uint8_t {
  kNone,
  kCheckmate,        // the last opponent was checkmated
  kResignation,      // the last opponent resigned
  kReverseNoPieces,  // reverse: the winner has no pieces left
  kReverseNoMove,    // reverse: the winner has no legal move
  kNobodyCanMove,    // draw: every seat still in was skipped in a row
  kPerpetualCheck,   // draw
  kNoProgress,       // draw
  kMoveCap,          // draw by adjudication
};
std::string_view EndReasonName(EndReason reason);

// Trivially constructible so move lists cost nothing to create.
struct MoveList;  // movegen.h

struct Move {
  uint8_t from;
  uint8_t to;
  friend bool operator==(const Move&, const Move&) = default;
};

class Position {
 public:
  Position() = default;
  explicit Position(const Rules& rules) : rules(rules) {}
  // The set-up of the variant, seat `rules.first` to move (and its turn begun).
  static Position Initial(const Rules& rules);

  bool Active(int seat) const { return (active >> seat) & 1; }
  int NumActive() const { return std::popcount(static_cast<unsigned>(active)); }
  const Layout& layout() const { return LayoutFor(rules.players); }

  // Board edits keeping pieces[] and king[] in step.
  void Put(int cell, Piece p);
  void Remove(int cell);
  CellSet PawnsOf(int seat) const;

  // --- Actions (validated by the caller) ---
  // With `next_moves`, the legal moves of the seat whose move phase begins afterwards are left
  // there (perft reuses them instead of generating twice).
  void ApplyMove(Move m, MoveList* next_moves = nullptr);
  void ApplyRoundChance(bool dart_round);
  void ApplyAim(int cell);
  void ApplyLanding(int cell);  // -1 = miss
  void ApplyPlacement(int type, int cell);
  void ApplySkipPlacement();
  void ApplyPenalty(int cell);
  // The seat to move ran out of time: the rest of its turn is forfeited.
  void ApplyTimeout();
  // `seat` (active) resigns: it is out and its army freezes.
  void ApplyResign(int seat);
  // The pawn the service takes from `seat` for a miss when the seat runs out of time.
  int ServicePenaltyPawn(int seat) const;
  // Begins the turn of `turn` (dart throw if a dart round, else the checkmate/stalemate test);
  // used after setting up a position by hand.
  void BeginTurnFromSetup();

  // --- State (see the invariants above) ---
  Rules rules;
  std::array<Piece, kNumCells> cells{};
  std::array<CellSet, kMaxSeats> pieces{};
  std::array<int16_t, kMaxSeats> king{-1, -1, -1};
  uint8_t active = 0;                                   // bit s: seat s is still in
  std::array<int8_t, kMaxSeats> out_order{-1, -1, -1};  // seats in the order they went out
  int8_t num_out = 0;
  int8_t turn = 0;
  Phase phase = Phase::kMove;
  hex::DartRound dart;                          // the dart round's counters, aim and owed reward
  int16_t no_progress = 0;                      // moves since the last progress
  int32_t moves_played = 0;                     // board moves so far (all seats)
  int32_t action_count = 0;                     // actions applied through the facade
  std::array<int8_t, kMaxSeats> check_turns{};  // own turns begun in check, in a row
  int8_t skips = 0;                             // seats skipped in a row (stalemated)
  // Derived, not serialized: whether `turn` began its move phase in check (-1 = unknown).
  // Set when the move phase begins; any board edit clears it.
  int8_t turn_in_check = -1;
  // Result (phase == kOver).
  bool draw = false;
  int8_t winner = -1;
  EndReason reason = EndReason::kNone;

 private:
  void AdvanceTurn(MoveList* moves = nullptr);
  bool OnRoundBoundary();
  bool BeginTurn(MoveList* moves = nullptr);
  bool BeginMovePhase(MoveList* moves = nullptr);
  void ContinueTurn();
  void Eliminate(int seat, EndReason why);
  void FinishWin(int seat, EndReason why);
  void FinishDraw(EndReason why);
  bool ReverseEmptied(int seat);
};

}  // namespace arena::engine::chestonia_chess
