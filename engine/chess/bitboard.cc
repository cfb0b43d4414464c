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
// Magic factors found once by the search below (seeded, so it finds these again); tried first
// so start-up is instant, and verified like any candidate.
constexpr Bitboard kBishopMagics[64] = {
    0x10102002004a1420ULL, 0x8020040400584008ULL, 0x10510800811201c8ULL, 0x5204042080000088ULL,
    0x2204106880000002ULL, 0x1401042004000000ULL, 0x0400880410042004ULL, 0x0028208200a02020ULL,
    0x1500241990010e00ULL, 0x8001200182020a40ULL, 0x40004101030b0000ULL, 0x8002041042000100ULL,
    0x4010011041020038ULL, 0x0000010421044000ULL, 0x1500210808020a00ULL, 0x8000088400880520ULL,
    0x0405004010040100ULL, 0x1005823210040108ULL, 0x2708008102040011ULL, 0x4048200404009100ULL,
    0x0018104101400024ULL, 0x0003000601190101ULL, 0x8004803108491000ULL, 0x8014241200820800ULL,
    0x0006e080100c3040ULL, 0x0501044a11041800ULL, 0x9020300008004045ULL, 0x0894080000220040ULL,
    0x1001010083104000ULL, 0x5004030040900080ULL, 0x000400422c012400ULL, 0x0002128698404812ULL,
    0x1010108404900440ULL, 0x0928021182084100ULL, 0x2006080409020024ULL, 0x1010202020180080ULL,
    0xa010008200202200ULL, 0x2098015100019004ULL, 0x0002041440810811ULL, 0x802a02020000b098ULL,
    0x0009015090004060ULL, 0x4000821082081001ULL, 0x0100210040420800ULL, 0x0800004010488a00ULL,
    0x2000081104004040ULL, 0x4c8e029015000082ULL, 0x0420340322224842ULL, 0x1298260043400210ULL,
    0x0000822802400008ULL, 0x00008a0101600000ULL, 0x3040003412080021ULL, 0x3040290220884800ULL,
    0x4a1500401041004aULL, 0x8010200282020781ULL, 0x0020203142209091ULL, 0x0070300600902110ULL,
    0x0040808800b62048ULL, 0x0000810400c44420ULL, 0x00080400440c0441ULL, 0x8340080020840411ULL,
    0x0000000104208200ULL, 0x0000800810d00080ULL, 0x0400530411080200ULL, 0x4040702400932244ULL,
};
constexpr Bitboard kRookMagics[64] = {
    0x1080004008801020ULL, 0x0840092002c03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000a001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021d00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000a0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000a00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040a00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xc100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000a0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040a00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04c1002414824001ULL, 0x020020000b001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084c0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};

// xorshift64*: a fixed-seed generator for the magic search, so start-up is deterministic.
uint64_t NextRandom(uint64_t& state) {
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 2685821657736338717ULL;
}
#endif

// Fills entries[] for one slider kind, carving its tables out of slider_table from `next`.
void InitSlider(SliderEntry* entries, const int (&dirs)[4][2], const Bitboard* known_magics,
                Bitboard*& next) {
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
    for (bool first = true;; first = false) {
      if (first) {
        e.magic = known_magics[sq];
      } else {
        do {
          e.magic = NextRandom(seed) & NextRandom(seed) & NextRandom(seed);
        } while (PopCount((e.mask * e.magic) >> 56) < 6);
      }
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
#ifdef ARENA_CHESS_USE_PEXT
  const Bitboard* bishop_magics = nullptr;
  const Bitboard* rook_magics = nullptr;
#else
  const Bitboard* bishop_magics = kBishopMagics;
  const Bitboard* rook_magics = kRookMagics;
#endif
  InitSlider(tables::bishop, kBishopDirs, bishop_magics, next);
  InitSlider(tables::rook, kRookDirs, rook_magics, next);
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
[[maybe_unused]] const bool kInitialized = (InitBitboards(), true);

}  // namespace

void InitBitboards() {
  static std::once_flag once;
  std::call_once(once, InitAll);
}

}  // namespace arena::engine::chess
