// The Chestonia checkers position: the board, who is in, whose turn and what they owe, the
// dart and draw counters, and every rule transition between actions.
//
// A Position is a plain value (no heap memory), so search and perft copy it instead of
// undoing moves. Its public fields are the whole game state; Serialize/Parse in notation.h
// round-trip every one of them. Invariants kept by the transitions:
//   * pieces[s] is exactly the set of cells holding a piece (man or king) of seat s;
//   * a seat is either active or out; an out seat's pieces are frozen scenery (they block, are
//     never jumped, taken or knocked off);
//   * phase says what is owed next: a chance outcome (kRoundChance, kLanding) or a decision of
//     seat `turn` (kAim, kPlacement, kPenalty, kMove); at kMove the seat has a legal turn;
//   * outside reverse checkers every active seat has at least one piece (a seat left without
//     one goes out at once, except the thrower in the middle of its own dart business, whose
//     turn then begins with the no-legal-move test).
// A whole turn (a quiet move or a whole capture chain) is one Turn (movegen.h). Callers
// validate actions (movegen.h lists the legal ones); the Apply* methods assume them.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include "engine/hex/cell_set.h"
#include "engine/hex/chestonia_rules.h"
#include "engine/hex/dart_round.h"
#include "engine/hex/geometry.h"

namespace arena::engine::chestonia_checkers {

inline constexpr int kRadius = 7;
inline constexpr int kNumCells = 169;
inline constexpr int kMaxSeats = 3;
inline constexpr int kNoProgressLimit = 60;  // moves without progress → draw
inline constexpr int kMaxRoundsBetweenDarts = hex::kMaxRoundsBetweenDarts;

const hex::Grid& BoardGrid();  // the radius-7 grid

// --- Pieces -------------------------------------------------------------------------------
// A piece is one byte: bits 0-1 the kind, bits 3-4 the seat.
enum PieceKind : uint8_t { kEmpty = 0, kMan = 1, kKing = 2 };
using Piece = uint8_t;
constexpr Piece MakePiece(int seat, int kind) {
  return static_cast<Piece>(kind | (seat << 3));
}
constexpr int KindOf(Piece p) {
  return p & 3;
}
constexpr int SeatOf(Piece p) {
  return (p >> 3) & 3;
}

// A set of cells in three 64-bit words (169 cells).
using CellSet = hex::CellSet<3>;

// --- Rules and seats -----------------------------------------------------------------------
// The board designs and seats of every Chestonia game (engine/hex/chestonia_rules.h).
using hex::BoardKind;
using hex::BoardKindName;

enum class Setup : uint8_t { kNormal, kLong };
std::string_view SetupName(Setup setup);

// The variant: fixed for the whole game.
struct Rules {
  int players = 2;
  Setup setup = Setup::kNormal;
  BoardKind board = BoardKind::kPlain;
  bool darts = false;
  bool reverse = false;
  int movecap = 0;  // moves (all seats) after which the game is drawn; 0 = none
  int first = 0;    // the seat that leads; rounds begin at its turn
  friend bool operator==(const Rules&, const Rules&) = default;
};

// One seat's frame: the rotation that carries blue's edge, rows and directions onto it (0
// sixths for blue, 2 and 4 for black and white with three players, 3 for white with two),
// and the cell sets the rules refer to.
struct SeatFrame {
  int sixths = 0;
  int man_dirs[4] = {};  // forward, forward, sideways, sideways (straight directions)
  CellSet back_row;      // its rim row
  CellSet start[2];      // its men at the start, by Setup (also where dart rewards go)
  CellSet crowning;      // back rows of every other seat of the game
};

struct Layout {
  int players = 2;
  std::array<SeatFrame, kMaxSeats> seats;
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
  kLastPlayer,       // every other seat went out (no pieces or no legal move)
  kResignation,      // the last opponent resigned
  kReverseNoPieces,  // reverse: the winner has no pieces left
  kReverseNoMove,    // reverse: the winner has no legal move
  kNoProgress,       // draw
  kMoveCap,          // draw by adjudication
};
std::string_view EndReasonName(EndReason reason);

struct Turn;  // movegen.h
struct TurnList;

class Position {
 public:
  Position() = default;
  explicit Position(const Rules& rules) : rules(rules) {}
  // The set-up of the variant, seat `rules.first` to move (and its turn begun).
  static Position Initial(const Rules& rules);

  bool Active(int seat) const { return (active >> seat) & 1; }
  int NumActive() const { return std::popcount(static_cast<unsigned>(active)); }
  const Layout& layout() const { return LayoutFor(rules.players); }
  // Where `seat`'s men start and where its dart rewards are placed.
  const CellSet& HomeCells(int seat) const {
    return layout().seats[seat].start[static_cast<int>(rules.setup)];
  }
  // Whether the piece `p` is one the seat to move may capture: an opponent still in.
  bool IsEnemy(Piece p, int seat) const { return p && SeatOf(p) != seat && Active(SeatOf(p)); }

  // Board edits keeping pieces[] in step.
  void Put(int cell, Piece p);
  void Remove(int cell);
  CellSet MenOf(int seat) const;

  // --- Actions (validated by the caller) ---
  // Applies a whole turn of pos.turn. With `next_turns`, the legal turns of the seat whose
  // move phase begins afterwards are left there (perft reuses them).
  void ApplyTurn(const Turn& t, TurnList* next_turns = nullptr);
  void ApplyRoundChance(bool dart_round);
  void ApplyAim(int cell);
  void ApplyLanding(int cell);  // -1 = miss
  void ApplyPlacement(int kind, int cell);
  void ApplySkipPlacement();
  void ApplyPenalty(int cell);
  // The seat to act ran out of time: the rest of its turn is forfeited.
  void ApplyTimeout();
  // `seat` (active) resigns: it is out and its pieces freeze.
  void ApplyResign(int seat);
  // The man the service takes from `seat` for a miss when the seat runs out of time.
  int ServicePenaltyMan(int seat) const;
  // Begins the turn of `turn` (dart throw if a dart round, else the no-legal-move test);
  // used after setting up a position by hand.
  void BeginTurnFromSetup();

  // --- State (see the invariants above) ---
  Rules rules;
  std::array<Piece, kNumCells> cells{};
  std::array<CellSet, kMaxSeats> pieces{};
  uint8_t active = 0;                                   // bit s: seat s is still in
  std::array<int8_t, kMaxSeats> out_order{-1, -1, -1};  // seats in the order they went out
  int8_t num_out = 0;
  int8_t turn = 0;
  Phase phase = Phase::kMove;
  hex::DartRound dart;       // the dart round's counters, aim and owed reward
  int16_t no_progress = 0;   // moves since the last progress
  int32_t moves_played = 0;  // turns played so far (all seats)
  int32_t action_count = 0;  // actions applied through the facade
  // Result (phase == kOver).
  bool draw = false;
  int8_t winner = -1;
  EndReason reason = EndReason::kNone;

 private:
  void AdvanceTurn(TurnList* turns = nullptr);
  bool OnRoundBoundary();
  bool BeginTurn(TurnList* turns = nullptr);
  bool BeginMovePhase(TurnList* turns = nullptr);
  void ContinueTurn();
  void Eliminate(int seat, EndReason why);
  void FinishWin(int seat, EndReason why);
  void FinishDraw(EndReason why);
  // After `seat` lost a piece: reverse, it wins if it has none left; otherwise it goes out
  // when it has none left and is not `spared` (the thrower during its own dart business).
  // Returns whether the game ended.
  bool AfterLoss(int seat, int spared);
};

}  // namespace arena::engine::chestonia_checkers
