// The three-player chess position: the 96 cells, which player controls each army, castling
// rights, en passant chances, the counters, who is out, and every rule transition of a move.
//
// A Position is a plain value (about 130 bytes, no heap memory), so perft and search copy it
// instead of undoing moves. Players and army colours share the numbers 0 white, 1 black,
// 2 red, which is also the seat and turn order. Invariants kept by the transitions:
//   * owner[k] is the player moving army k: k itself while player k is in, the player who
//     checkmated k afterwards (armies keep their colour, pawns their colour's directions);
//   * king[k] is the cell of army k's king, kNoCell once k is checkmated (its king is taken
//     off, the rest of its army stays); a player is in while its king is on the board;
//   * kings are never captured, and a player's pieces never capture each other, whatever
//     their colours;
//   * castling bit 2k (short) / 2k+1 (long) only while army k's king and that rook have never
//     moved and player k is in;
//   * ep[p] is the cell a pawn of player p passed over with a double step on p's last move
//     (kNoCell if none); it stays open for every enemy's next turn, until p moves again;
//   * while the game is on, `turn` is a player who is in and has a legal move (players
//     without one are skipped); `status` says whether it is over and why.
// Callers validate moves (movegen.h lists the legal ones); ApplyMove assumes one.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "engine/three_player_chess/geometry.h"

namespace arena::engine::three_player_chess {

inline constexpr int kNoProgressLimit = 75;  // moves by all players without capture or pawn move

// --- Pieces -----------------------------------------------------------------------------------
// One byte: bits 0-2 the type, bits 3-4 the army colour; 0 is an empty cell.
enum PieceType : uint8_t { kEmpty = 0, kPawn, kKnight, kBishop, kRook, kQueen, kKing };
using Piece = uint8_t;
constexpr Piece MakePiece(int colour, int type) {
  return static_cast<Piece>(type | (colour << 3));
}
constexpr int TypeOf(Piece p) {
  return p & 7;
}
constexpr int ColourOf(Piece p) {
  return (p >> 3) & 3;
}

std::string_view ColourName(int colour);  // "white", "black", "red"
char ColourLetter(int colour);            // 'w', 'b', 'r'
int ColourFromLetter(char letter);        // -1 if none

// --- Moves ------------------------------------------------------------------------------------
enum MoveFlag : uint8_t {
  kNormal = 0,
  kDoublePush = 1,
  kEnPassant = 2,
  kCastleShort = 3,
  kCastleLong = 4,
};

struct Move {
  int8_t from = kNoCell;
  int8_t to = kNoCell;
  uint8_t promotion = kEmpty;  // piece type a pawn becomes, kEmpty otherwise
  uint8_t flag = kNormal;
  friend bool operator==(const Move& a, const Move& b) {
    return a.from == b.from && a.to == b.to && a.promotion == b.promotion;
  }
};

struct MoveList;  // movegen.h

// --- Game status --------------------------------------------------------------------------------
enum class Status : uint8_t {
  kPlaying,
  kCheckmate,             // win: the last opponent was checkmated
  kNoProgress,            // draw: 75 moves without capture or pawn move
  kInsufficientMaterial,  // draw: kings and at most one bishop or knight left
  kNobodyCanMove,         // draw: no player still in has a legal move
  kResignation,           // win: the last opponent resigned
  kTimeout,               // win: the last opponent ran out of time
  kThreefoldRepetition,   // draw: claimed by the player to move (the facade keeps history)
};
std::string_view StatusReason(Status status);  // the facade's reason word

class Position {
 public:
  // The starting set-up, White to move.
  static Position Initial();

  bool In(int player) const { return king[player] != kNoCell; }
  int NumIn() const { return In(0) + In(1) + In(2); }
  // The player moving the piece on `cell` (the cell must hold one).
  int OwnerAt(int cell) const { return owner[ColourOf(cells[cell])]; }
  bool Over() const { return status != Status::kPlaying; }
  // The winner of a won game, -1 otherwise.
  int Winner() const;

  void Put(int cell, Piece p);
  void Remove(int cell);

  // Plays a legal move of `turn`, then tests every opponent for checkmate (the mover takes over
  // a mated army), ends the game on the last checkmate or a draw rule, and passes the turn to
  // the next player who is in and can move.
  void ApplyMove(Move m);
  // After a hand-made set-up: settles the status and skips a `turn` that cannot move (used by
  // the position parser; the rules of ApplyMove's end apply).
  void Settle();
  // Player `player` (in) resigns or runs out of time: every army it moves is taken off the
  // board, it is out, and the game goes on without it (the last player in wins).
  void Withdraw(int player, Status why);

  // A 64-bit key of everything the legal moves depend on (placement, owners, turn, castling,
  // en passant), for repetition and transposition tables.
  uint64_t Key() const;

  // --- State (see the invariants above) ---
  std::array<Piece, kNumCells> cells{};
  std::array<int8_t, kNumColours> owner{0, 1, 2};
  std::array<int8_t, kNumColours> king{kNoCell, kNoCell, kNoCell};
  uint8_t castling = 0;
  std::array<int8_t, kNumColours> ep{kNoCell, kNoCell, kNoCell};
  int8_t turn = 0;
  int16_t no_progress = 0;  // moves since the last capture or pawn move
  int32_t moves_played = 0;
  std::array<int8_t, kNumColours> out_order{-1, -1, -1};  // players in the order they went out
  Status status = Status::kPlaying;

 private:
  void TestCheckmates(int mover);
  void Eliminate(int player, int by);
  void EndIfDrawn();
  // Passes the turn to the first player from `first` on (cyclically) who is in and can move,
  // checkmating on the way a player without a move whose king is attacked.
  void SettleTurn(int first);
};

}  // namespace arena::engine::three_player_chess
