// Bitboard constants and attack tables.
//
// Leaper attacks (pawn, knight, king) are plain 64-entry tables. Slider attacks use one shared
// table indexed per square by PEXT of the occupancy when the compiler targets BMI2, and by
// "fancy" magic multiplication otherwise; both layouts are filled at start-up by
// InitBitboards(), which runs from a static initializer and is idempotent. Between and Line
// give the squares strictly between two aligned squares and the full line through them, which
// the move generator uses for check and pin masks.
#pragma once

#include <bit>
#include <cstdint>

#if defined(__BMI2__)
#include <immintrin.h>
#define ARENA_CHESS_USE_PEXT 1
#endif

#include "engine/chess/types.h"

namespace arena::engine::chess {

inline constexpr Bitboard kFileA = 0x0101010101010101ULL;
inline constexpr Bitboard kFileH = kFileA << 7;
inline constexpr Bitboard kRank1 = 0xFFULL;
inline constexpr Bitboard kRank2 = kRank1 << 8;
inline constexpr Bitboard kRank3 = kRank1 << 16;
inline constexpr Bitboard kRank4 = kRank1 << 24;
inline constexpr Bitboard kRank5 = kRank1 << 32;
inline constexpr Bitboard kRank6 = kRank1 << 40;
inline constexpr Bitboard kRank7 = kRank1 << 48;
inline constexpr Bitboard kRank8 = kRank1 << 56;
inline constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ULL;

inline int PopCount(Bitboard b) {
  return std::popcount(b);
}
inline Square Lsb(Bitboard b) {
  return Square(std::countr_zero(b));
}
inline Square PopLsb(Bitboard& b) {
  Square s = Lsb(b);
  b &= b - 1;
  return s;
}
inline bool MoreThanOne(Bitboard b) {
  return (b & (b - 1)) != 0;
}

template <int kDelta>
constexpr Bitboard Shift(Bitboard b) {
  if constexpr (kDelta == 8) return b << 8;
  if constexpr (kDelta == -8) return b >> 8;
  if constexpr (kDelta == 16) return b << 16;
  if constexpr (kDelta == -16) return b >> 16;
  if constexpr (kDelta == 7) return (b & ~kFileA) << 7;
  if constexpr (kDelta == 9) return (b & ~kFileH) << 9;
  if constexpr (kDelta == -7) return (b & ~kFileH) >> 7;
  if constexpr (kDelta == -9) return (b & ~kFileA) >> 9;
  return 0;
}

// One slider's lookup data for one square.
struct SliderEntry {
  Bitboard mask;          // relevant occupancy (board edges excluded)
  const Bitboard* table;  // attacks, indexed by Index(occupied)
#ifndef ARENA_CHESS_USE_PEXT
  Bitboard magic;
  unsigned shift;
#endif
  unsigned Index(Bitboard occupied) const {
#ifdef ARENA_CHESS_USE_PEXT
    return unsigned(_pext_u64(occupied, mask));
#else
    return unsigned(((occupied & mask) * magic) >> shift);
#endif
  }
};

namespace tables {
extern Bitboard pawn_attacks[2][64];
extern Bitboard knight_attacks[64];
extern Bitboard king_attacks[64];
extern Bitboard between[64][64];  // squares strictly between, 0 if not aligned
extern Bitboard line[64][64];     // the whole line through both, 0 if not aligned
extern SliderEntry bishop[64];
extern SliderEntry rook[64];
}  // namespace tables

// Fills the tables. Safe to call many times; runs once before main() anyway.
void InitBitboards();

inline Bitboard PawnAttacks(Color c, Square s) {
  return tables::pawn_attacks[c][s];
}
inline Bitboard KnightAttacks(Square s) {
  return tables::knight_attacks[s];
}
inline Bitboard KingAttacks(Square s) {
  return tables::king_attacks[s];
}
inline Bitboard BishopAttacks(Square s, Bitboard occupied) {
  const SliderEntry& e = tables::bishop[s];
  return e.table[e.Index(occupied)];
}
inline Bitboard RookAttacks(Square s, Bitboard occupied) {
  const SliderEntry& e = tables::rook[s];
  return e.table[e.Index(occupied)];
}
inline Bitboard QueenAttacks(Square s, Bitboard occupied) {
  return BishopAttacks(s, occupied) | RookAttacks(s, occupied);
}
inline Bitboard Between(Square a, Square b) {
  return tables::between[a][b];
}
inline Bitboard Line(Square a, Square b) {
  return tables::line[a][b];
}

template <Color kUs>
constexpr Bitboard PawnAttacksSet(Bitboard pawns) {
  if constexpr (kUs == kWhite) return Shift<7>(pawns) | Shift<9>(pawns);
  return Shift<-7>(pawns) | Shift<-9>(pawns);
}

}  // namespace arena::engine::chess
