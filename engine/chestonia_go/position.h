// The Chestonia Go position: stones on the 169-cell hex board, their chains, the Zobrist hash,
// who is in, whose turn and what they owe, the run of passes, the dart counters, and every rule
// transition between actions.
//
// A Position is a plain value (no heap memory, under 2 KB), so playouts copy it instead of
// undoing moves. The history the superko rule reads is not part of it (it grows with the game):
// the facade keeps it (BoardHistory below) and hands it to the legality checks. Invariants kept
// by the transitions:
//   * stone[c] is 0 for an empty cell or 1 + the owner's seat; frozen stones keep their colour
//     and are told apart by the owner being out (Active(seat) false);
//   * chains: every stone's chain_head names its chain's representative; chain_next links the
//     chain's stones in a ring; at the head, chain_size counts its stones and chain_libs its
//     pseudo-liberties (one per pair of a stone and an empty neighbour), which is zero exactly
//     when the chain has no liberty;
//   * hash is the XOR of the Zobrist keys of every stone on the board (positional: the board
//     alone, whatever the turn);
//   * no chain of an active seat is without a liberty between actions (frozen chains may be:
//     they are never captured);
//   * phase says what is owed next: a chance outcome (kRoundChance, kLanding) or a decision of
//     seat `turn` (kAim, kPlacement, kPenalty, kMove); pass is always legal at kMove.
// Callers validate actions (IsLegalPlay, with the history for superko); Apply* assume them.
// Every action changes the board at most once, so the facade records `hash` in its history
// whenever an action leaves it different.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "engine/hex/chestonia_rules.h"
#include "engine/hex/dart_round.h"
#include "engine/hex/geometry.h"

namespace arena::engine::chestonia_go {

inline constexpr int kRadius = 7;
inline constexpr int kNumCells = 169;
inline constexpr int kMaxSeats = 3;
inline constexpr int kKomiHalfPoints = 7;  // 3.5 points to every seat but the leader
inline constexpr int kMaxRoundsBetweenDarts = hex::kMaxRoundsBetweenDarts;
inline constexpr int kNoCell = -1;

const hex::Grid& BoardGrid();  // the radius-7 grid

// The six edge neighbours of every cell (-1 off the board), for the hot paths.
struct Neighbours {
  std::array<std::array<int16_t, 6>, kNumCells> of;
};
const Neighbours& NeighbourTable();

// Zobrist keys: one per (cell, seat), fixed for every process (a seeded splitmix64).
uint64_t ZobristKey(int cell, int seat);

// The board designs and seats of every Chestonia game (engine/hex/chestonia_rules.h).
using hex::BoardKind;
using hex::BoardKindName;

// The variant: fixed for the whole game.
struct Rules {
  int players = 2;
  BoardKind board = BoardKind::kPlain;
  bool darts = false;
  bool reverse = false;  // the smallest score wins
  int movecap = 0;       // moves (stones and passes, all seats) after which it is drawn; 0 = none
  int first = 0;         // the seat that leads: no komi; rounds begin at its turn
  friend bool operator==(const Rules&, const Rules&) = default;
};

// Seat colours: three players blue, black, white; two players blue, white.
using hex::SeatColour;
using hex::SeatFromLetter;
using hex::SeatLetter;

// What is owed next: the dart round's phases and the move (engine/hex/dart_round.h); at kMove
// seat `turn` plays a stone or passes, at kPlacement it plays its free stone or skips.
using Phase = hex::TurnPhase;

enum class EndReason : uint8_t {
  kNone,
  kCount,        // the final count (two seats in), or all three level at the first
  kCut,          // three seats: two level at the bottom of the first count, both out
  kResignation,  // every other seat resigned or was cut
  kMoveCap,      // draw by adjudication
};
std::string_view EndReasonName(EndReason reason);

// Every position the board has been in, in order, with a set for the superko look-up.
class BoardHistory {
 public:
  void Clear();
  void Add(uint64_t hash);
  bool Contains(uint64_t hash) const;
  const std::vector<uint64_t>& hashes() const { return order_; }

 private:
  std::vector<uint64_t> order_;
  std::vector<uint64_t> sorted_;
};

class Position {
 public:
  Position() = default;
  explicit Position(const Rules& rules) : rules(rules) {}
  // The empty board, seat `rules.first` to begin its turn.
  static Position Initial(const Rules& rules);

  bool Active(int seat) const { return (active >> seat) & 1; }
  int NumActive() const { return std::popcount(static_cast<unsigned>(active)); }
  int Owner(int cell) const { return stone[cell] - 1; }  // -1 when empty
  bool Frozen(int cell) const { return stone[cell] != 0 && !Active(stone[cell] - 1); }
  // The number of (real) liberties of the chain through `cell` (a stone); walks the chain.
  int Liberties(int cell) const;
  int StoneCount(int seat) const;

  // --- Plays ---
  // A stone of `seat` on `cell` is legal before superko: the cell is empty, and after the
  // captures it makes the new chain breathes. Sets *hash_after to the board's hash after it.
  bool IsLegalIgnoringSuperko(int cell, int seat, uint64_t* hash_after) const;
  // ... and with positional superko against `history` (every earlier board).
  bool IsLegalPlay(int cell, int seat, const BoardHistory& history) const;
  // Puts the stone and lifts the enemy chains left without liberty (frozen ones never);
  // returns the number of stones captured. The play must be legal.
  int PlaceStone(int cell, int seat);
  // Takes a single stone off (a dart's knock-off or a miss penalty) and rebuilds the chains.
  void LiftStone(int cell);
  // Rebuilds chain_* from stone[] and hash from scratch (after setting stones by hand).
  void RebuildChains();

  // --- Scoring ---
  // Area of every seat (stones of seats still in, plus empty regions bordered by one seat still
  // in alone; frozen stones and the rim wall regions off and count for nobody). `owner`, when
  // given, receives for each cell the seat its area counts for, or -1.
  std::array<int, kMaxSeats> Areas(std::array<int8_t, kNumCells>* owner = nullptr) const;
  // Finishing places when the game is over (0 = best; shared places drew): seats still in
  // first (all sharing 0 on a draw, else the winner 0 and the other 1), then the seats out,
  // the later out placed better and seats out together sharing a place.
  std::array<int, kMaxSeats> Ranks() const;
  // Score in half points: 2 * area + komi (7 for every seat but the leader).
  int ScoreHalfPoints(int seat, int area) const {
    return 2 * area + (seat == rules.first ? 0 : kKomiHalfPoints);
  }

  // --- Actions (validated by the caller) ---
  void ApplyPlay(int cell);
  void ApplyPass();
  void ApplyRoundChance(bool dart_round);
  void ApplyAim(int cell);
  void ApplyLanding(int cell);  // -1 = miss
  void ApplyPlacement(int cell);
  void ApplySkipPlacement();
  void ApplyPenalty(int cell);
  // The seat to move ran out of time: the rest of its turn is forfeited (a pass).
  void ApplyTimeout();
  // `seat` (active) resigns: it is out and its stones freeze.
  void ApplyResign(int seat);
  // The stone the service takes from `seat` for a miss when the seat runs out of time: the one
  // nearest its own edge, ties by the order of cells counted from its right.
  int ServicePenaltyStone(int seat) const;
  // Begins the turn of `turn`; used after setting up a position by hand.
  void BeginTurnFromSetup();

  // The dart counters as the shared dart round reads them.
  hex::DartRound dart() const { return {rounds_since_dart, dart_round, aim, 0}; }

  // --- State (see the invariants above) ---
  Rules rules;
  std::array<uint8_t, kNumCells> stone{};
  std::array<int16_t, kNumCells> chain_head{};
  std::array<int16_t, kNumCells> chain_next{};
  std::array<int16_t, kNumCells> chain_size{};
  std::array<int16_t, kNumCells> chain_libs{};
  uint64_t hash = 0;
  uint8_t active = 0;                   // bit s: seat s is still in
  std::array<int8_t, kMaxSeats> out{};  // 0 while in, else the number of the event it left at
  int8_t out_events = 0;                // events (cuts, resignations) that put seats out so far
  int8_t turn = 0;
  Phase phase = Phase::kMove;
  int8_t passes = 0;             // passes in succession since the last board change
  int8_t counts = 0;             // counts held so far (0, 1 after a cut)
  int8_t rounds_since_dart = 0;  // full rounds completed since the last dart round
  bool dart_round = false;       // the current round is a dart round
  int16_t aim = -1;              // kLanding: the aim cell
  int16_t last_play = -1;        // the cell of the last stone played, for policies
  int32_t moves_played = 0;      // stones and passes so far (all seats)
  int32_t action_count = 0;      // actions applied through the facade
  // The last count's score of every seat in half points (-1: not counted).
  std::array<int16_t, kMaxSeats> count_score{-1, -1, -1};
  // Result (phase == kOver).
  bool draw = false;
  int8_t winner = -1;
  EndReason reason = EndReason::kNone;

 private:
  void AdvanceTurn();
  bool OnRoundBoundary();
  void BeginTurn();
  void Count();
  void PutOut(int seat);
  void FinishWin(int seat, EndReason why);
  void FinishDraw(EndReason why);
  void EndTurnAfterPass();
  void RemoveChain(int head, int seat);
};

}  // namespace arena::engine::chestonia_go
