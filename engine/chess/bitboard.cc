#include "engine/chess/bitboard.h"

#include <mutex>

namespace arena::engine::chess {

namespace tables {
Bitboard pawn_attacks[2][64];
Bitboard knight_attacks[64];
Bitboard king_attacks[64];
Bitboard between[64][64];
Bitboard line[64][64];
SliderEntry bishop[64];
SliderEntry rook[64];
}  // namespace tables

namespace {

// 0x1480 bishop + 0x19000 rook entries: the exact sum of 2^bits over all squares.
Bitboard slider_table[0x1480 + 0x19000];

constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

bool OnBoard(int file, int rank) {
  return file >= 0 && file < 8 && rank >= 0 && rank < 8;
}

// Attacks by ray walking: slow, used only to fill the tables.
Bitboard SlowSliderAttacks(Square s, Bitboard occupied, const int (&dirs)[4][2]) {
  Bitboard attacks = 0;
  for (const auto& d : dirs) {
    int f = FileOf(s) + d[0], r = RankOf(s) + d[1];
    while (OnBoard(f, r)) {
      Square t = MakeSquare(f, r);
      attacks |= SquareBB(t);
      if (occupied & SquareBB(t)) break;
      f += d[0];
      r += d[1];
    }
  }
  return attacks;
}

Bitboard LeaperAttacks(Square s, const int (*deltas)[2], int count) {
  Bitboard b = 0;
  for (int i = 0; i < count; ++i) {
    int f = FileOf(s) + deltas[i][0], r = RankOf(s) + deltas[i][1];
    if (OnBoard(f, r)) b |= SquareBB(MakeSquare(f, r));
  }
  return b;
}

#ifndef ARENA_CHESS_USE_PEXT
// xorshift64*: a fixed-seed generator for the magic search, so start-up is deterministic.
uint64_t NextRandom(uint64_t& state) {
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 2685821657736338717ULL;
}
#endif

// Fills entries[] for one slider kind, carving its tables out of slider_table from `next`.
void InitSlider(SliderEntry* entries, const int (&dirs)[4][2], Bitboard*& next) {
  static Bitboard occupancies[4096], references[4096];
#ifndef ARENA_CHESS_USE_PEXT
  static int epoch[4096];
  int current_epoch = 0;
  uint64_t seed = 0x9E3779B97F4A7C15ULL;
#endif
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    Bitboard edges = ((kRank1 | kRank8) & ~(kRank1 << (8 * RankOf(s)))) |
                     ((kFileA | kFileH) & ~(kFileA << FileOf(s)));
    SliderEntry& e = entries[sq];
    e.mask = SlowSliderAttacks(s, 0, dirs) & ~edges;
    e.table = next;
    int bits = PopCount(e.mask);
    int size = 1 << bits;
    // Carry-Rippler enumeration of every subset of the mask.
    Bitboard subset = 0;
    int n = 0;
    do {
      occupancies[n] = subset;
      references[n] = SlowSliderAttacks(s, subset, dirs);
      ++n;
      subset = (subset - e.mask) & e.mask;
    } while (subset);
#ifdef ARENA_CHESS_USE_PEXT
    for (int i = 0; i < n; ++i) next[e.Index(occupancies[i])] = references[i];
#else
    e.shift = unsigned(64 - bits);
    for (;;) {
      do {
        e.magic = NextRandom(seed) & NextRandom(seed) & NextRandom(seed);
      } while (PopCount((e.mask * e.magic) >> 56) < 6);
      ++current_epoch;
      bool ok = true;
      for (int i = 0; i < n && ok; ++i) {
        unsigned idx = e.Index(occupancies[i]);
        if (epoch[idx] < current_epoch) {
          epoch[idx] = current_epoch;
          next[idx] = references[i];
        } else if (next[idx] != references[i]) {
          ok = false;
        }
      }
      if (ok) break;
    }
#endif
    next += size;
  }
}

void InitAll() {
  static constexpr int kKnight[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                        {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  static constexpr int kKing[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                      {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  static constexpr int kWhitePawn[2][2] = {{-1, 1}, {1, 1}};
  static constexpr int kBlackPawn[2][2] = {{-1, -1}, {1, -1}};
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    tables::knight_attacks[sq] = LeaperAttacks(s, kKnight, 8);
    tables::king_attacks[sq] = LeaperAttacks(s, kKing, 8);
    tables::pawn_attacks[kWhite][sq] = LeaperAttacks(s, kWhitePawn, 2);
    tables::pawn_attacks[kBlack][sq] = LeaperAttacks(s, kBlackPawn, 2);
  }
  Bitboard* next = slider_table;
  InitSlider(tables::bishop, kBishopDirs, next);
  InitSlider(tables::rook, kRookDirs, next);
  for (int a = 0; a < 64; ++a) {
    for (int b = 0; b < 64; ++b) {
      tables::between[a][b] = tables::line[a][b] = 0;
      if (a == b) continue;
      Square sa = Square(a), sb = Square(b);
      for (const auto* dirs : {&kRookDirs, &kBishopDirs}) {
        if (SlowSliderAttacks(sa, 0, *dirs) & SquareBB(sb)) {
          tables::line[a][b] = (SlowSliderAttacks(sa, 0, *dirs) & SlowSliderAttacks(sb, 0, *dirs)) |
                               SquareBB(sa) | SquareBB(sb);
          tables::between[a][b] = SlowSliderAttacks(sa, SquareBB(sb), *dirs) &
                                  SlowSliderAttacks(sb, SquareBB(sa), *dirs);
        }
      }
    }
  }
}

// Runs InitBitboards() before main(); Position constructors call it too, for code that runs
// during static initialization.
const bool kInitialized = (InitBitboards(), true);

}  // namespace

void InitBitboards() {
  static std::once_flag once;
  std::call_once(once, InitAll);
}

}  // namespace arena::engine::chess
