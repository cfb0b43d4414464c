#include "engine/chess/movegen.h"

namespace arena::engine::chess {
namespace {

// Emits a move per target (or counts them when kCount).
template <bool kCount>
inline Move* Emit(Move* out, int& count, Square from, Bitboard targets) {
  if constexpr (kCount) {
    count += PopCount(targets);
  } else {
    while (targets) *out++ = Move(from, PopLsb(targets));
  }
  return out;
}

template <bool kCount, bool kQueenOnly = false>
inline Move* EmitPromotions(Move* out, int& count, Square from, Square to) {
  if constexpr (kCount) {
    count += 4;
  } else if constexpr (kQueenOnly) {
    *out++ = Move(from, to, kPromotion, kQueen);
  } else {
    *out++ = Move(from, to, kPromotion, kQueen);
    *out++ = Move(from, to, kPromotion, kRook);
    *out++ = Move(from, to, kPromotion, kBishop);
    *out++ = Move(from, to, kPromotion, kKnight);
  }
  return out;
}

// Pawn moves given as a shifted target set; `delta` is to - from.
template <bool kCount>
inline Move* EmitPawnSet(Move* out, int& count, Bitboard targets, int delta) {
  if constexpr (kCount) {
    count += PopCount(targets);
  } else {
    while (targets) {
      Square to = PopLsb(targets);
      *out++ = Move(Square(to - delta), to);
    }
  }
  return out;
}

template <bool kCount, bool kQueenOnly = false>
inline Move* EmitPromotionSet(Move* out, int& count, Bitboard targets, int delta) {
  if constexpr (kCount) {
    count += 4 * PopCount(targets);
  } else {
    while (targets) {
      Square to = PopLsb(targets);
      out = EmitPromotions<false, kQueenOnly>(out, count, Square(to - delta), to);
    }
  }
  return out;
}

// kTactical (with !kCount): when not in check, only captures (en passant included) and
// promotions to a queen; in check, every evasion as usual.
template <Color kUs, bool kCount, bool kTactical = false>
int Generate(const Position& pos, Move* const begin) {
  constexpr Color kThem = ~kUs;
  constexpr int kUp = kUs == kWhite ? 8 : -8;
  constexpr int kUpLeft = kUs == kWhite ? 7 : -9;
  constexpr int kUpRight = kUs == kWhite ? 9 : -7;
  constexpr Bitboard kPromoRank = kUs == kWhite ? kRank8 : kRank1;
  constexpr Bitboard kThirdRank = kUs == kWhite ? kRank3 : kRank6;

  Move* out = begin;
  int count = 0;
  const Bitboard us = pos.pieces(kUs), them = pos.pieces(kThem), occ = us | them;
  const Square ksq = pos.king_square(kUs);
  const Bitboard their_diag = pos.pieces(kThem, kBishop, kQueen);
  const Bitboard their_orth = pos.pieces(kThem, kRook, kQueen);

  // Squares the enemy attacks, seen through our king (so it cannot step back along a ray).
  const Bitboard occ_no_king = occ ^ SquareBB(ksq);
  Bitboard danger =
      PawnAttacksSet<kThem>(pos.pieces(kThem, kPawn)) | KingAttacks(pos.king_square(kThem));
  for (Bitboard b = pos.pieces(kThem, kKnight); b;) danger |= KnightAttacks(PopLsb(b));
  for (Bitboard b = their_diag; b;) danger |= BishopAttacks(PopLsb(b), occ_no_king);
  for (Bitboard b = their_orth; b;) danger |= RookAttacks(PopLsb(b), occ_no_king);

  const Bitboard checkers =
      (danger & SquareBB(ksq))
          ? ((PawnAttacks(kUs, ksq) & pos.pieces(kThem, kPawn)) |
             (KnightAttacks(ksq) & pos.pieces(kThem, kKnight)) |
             (BishopAttacks(ksq, occ) & their_diag) | (RookAttacks(ksq, occ) & their_orth))
          : 0;
  // Tactical generation narrows to captures only when not in check.
  const bool tactical = kTactical && !checkers;
  out = Emit<kCount>(out, count, ksq, KingAttacks(ksq) & (tactical ? them : ~us) & ~danger);
  if (MoreThanOne(checkers)) return kCount ? count : int(out - begin);

  // Where non-king moves may land: anywhere not ours, or onto the check ray when in check
  // (only onto enemy pieces in tactical generation).
  const Bitboard target = checkers   ? (Between(ksq, Lsb(checkers)) | checkers)
                          : tactical ? them
                                     : ~us;

  // Pinned pieces: ours, alone between the king and an enemy slider on the same line.
  Bitboard pinned = 0;
  for (Bitboard snipers =
           (BishopAttacks(ksq, them) & their_diag) | (RookAttacks(ksq, them) & their_orth);
       snipers;) {
    Bitboard between = Between(ksq, PopLsb(snipers)) & occ;
    if (!MoreThanOne(between)) pinned |= between & us;
  }

  // --- Pawns ---
  const Bitboard pawns = pos.pieces(kUs, kPawn);
  const Bitboard empty = ~occ;
  {
    // Pawns pinned along a file may still push; diagonal pins allow capturing the pinner.
    const Bitboard free_pawns = pawns & ~pinned;
    const Bitboard file_pinned = pawns & pinned & (kFileA << FileOf(ksq));
    const Bitboard pushers = free_pawns | file_pinned;
    Bitboard single = Shift<kUp>(pushers) & empty;
    if (tactical) {
      // Pushes only onto the last rank, promoting to a queen.
      single &= kPromoRank;
      out = EmitPromotionSet<kCount, true>(out, count, single, kUp);
    } else {
      Bitboard dbl = Shift<kUp>(single & kThirdRank) & empty & target;
      single &= target;
      out = EmitPawnSet<kCount>(out, count, single & ~kPromoRank, kUp);
      out = EmitPromotionSet<kCount>(out, count, single & kPromoRank, kUp);
      out = EmitPawnSet<kCount>(out, count, dbl, 2 * kUp);
    }

    const Bitboard capture_targets = them & target;
    Bitboard left = Shift<kUpLeft>(free_pawns) & capture_targets;
    Bitboard right = Shift<kUpRight>(free_pawns) & capture_targets;
    out = EmitPawnSet<kCount>(out, count, left & ~kPromoRank, kUpLeft);
    out = EmitPawnSet<kCount>(out, count, right & ~kPromoRank, kUpRight);
    if (tactical) {
      out = EmitPromotionSet<kCount, true>(out, count, left & kPromoRank, kUpLeft);
      out = EmitPromotionSet<kCount, true>(out, count, right & kPromoRank, kUpRight);
    } else {
      out = EmitPromotionSet<kCount>(out, count, left & kPromoRank, kUpLeft);
      out = EmitPromotionSet<kCount>(out, count, right & kPromoRank, kUpRight);
    }

    // Diagonally pinned pawns: captures along the pin line only. Never legal while in check.
    if (!checkers) {
      for (Bitboard b = pawns & pinned & ~file_pinned; b;) {
        Square from = PopLsb(b);
        Bitboard caps = PawnAttacks(kUs, from) & them & Line(ksq, from);
        if ((caps & kPromoRank) && tactical) {
          out = EmitPromotions<kCount, true>(out, count, from, Lsb(caps));
        } else if (caps & kPromoRank) {
          out = EmitPromotions<kCount>(out, count, from, Lsb(caps));
        } else {
          out = Emit<kCount>(out, count, from, caps);
        }
      }
    }

    const Square ep = pos.ep_square();
    if (ep != kNoSquare) {
      const Square captured = Square(ep - kUp);
      for (Bitboard b = PawnAttacks(kThem, ep) & pawns; b;) {
        Square from = PopLsb(b);
        // Test the position after the capture directly: it covers pins of the capturing pawn,
        // the rank pin through both pawns, and checks the capture does or does not resolve.
        Bitboard after = (occ ^ SquareBB(from) ^ SquareBB(captured)) | SquareBB(ep);
        Bitboard attackers =
            (BishopAttacks(ksq, after) & their_diag) | (RookAttacks(ksq, after) & their_orth) |
            (KnightAttacks(ksq) & pos.pieces(kThem, kKnight)) |
            (PawnAttacks(kUs, ksq) & pos.pieces(kThem, kPawn) & ~SquareBB(captured));
        if (attackers) continue;
        if constexpr (kCount) {
          ++count;
        } else {
          *out++ = Move(from, ep, kEnPassant);
        }
      }
    }
  }

  // --- Knights (a pinned knight can never move) ---
  for (Bitboard b = pos.pieces(kUs, kKnight) & ~pinned; b;) {
    Square from = PopLsb(b);
    out = Emit<kCount>(out, count, from, KnightAttacks(from) & target);
  }

  // --- Sliders ---
  const Bitboard our_diag = pos.pieces(kUs, kBishop, kQueen);
  const Bitboard our_orth = pos.pieces(kUs, kRook, kQueen);
  for (Bitboard b = our_diag & ~pinned; b;) {
    Square from = PopLsb(b);
    out = Emit<kCount>(out, count, from, BishopAttacks(from, occ) & target);
  }
  for (Bitboard b = our_orth & ~pinned; b;) {
    Square from = PopLsb(b);
    out = Emit<kCount>(out, count, from, RookAttacks(from, occ) & target);
  }
  if (!checkers) {
    for (Bitboard b = our_diag & pinned; b;) {
      Square from = PopLsb(b);
      out = Emit<kCount>(out, count, from, BishopAttacks(from, occ) & target & Line(ksq, from));
    }
    for (Bitboard b = our_orth & pinned; b;) {
      Square from = PopLsb(b);
      out = Emit<kCount>(out, count, from, RookAttacks(from, occ) & target & Line(ksq, from));
    }

    // --- Castling: rights imply king and rook are home; path empty and not attacked ---
    constexpr uint8_t kOO = kUs == kWhite ? kWhiteOO : kBlackOO;
    constexpr uint8_t kOOO = kUs == kWhite ? kWhiteOOO : kBlackOOO;
    constexpr Square kKingFrom = Square(kUs == kWhite ? 4 : 60);
    constexpr Bitboard kOOPath = Bitboard{0x60} << (kUs == kWhite ? 0 : 56);
    constexpr Bitboard kOOOPath = Bitboard{0x0E} << (kUs == kWhite ? 0 : 56);
    constexpr Bitboard kOOOSafe = Bitboard{0x0C} << (kUs == kWhite ? 0 : 56);
    const uint8_t rights = tactical ? 0 : pos.castling_rights();
    if ((rights & kOO) && !(occ & kOOPath) && !(danger & kOOPath)) {
      if constexpr (kCount) {
        ++count;
      } else {
        *out++ = Move(kKingFrom, Square(kKingFrom + 2), kCastling);
      }
    }
    if ((rights & kOOO) && !(occ & kOOOPath) && !(danger & kOOOSafe)) {
      if constexpr (kCount) {
        ++count;
      } else {
        *out++ = Move(kKingFrom, Square(kKingFrom - 2), kCastling);
      }
    }
  }
  return kCount ? count : int(out - begin);
}

template <Color kUs>
uint64_t PerftImpl(Position& pos, int depth) {
  MoveList list;
  list.set_size(Generate<kUs, false>(pos, list.data()));
  uint64_t nodes = 0;
  Position::Undo undo;
  for (Move m : list) {
    pos.DoMove(m, undo);
    nodes +=
        depth == 2 ? uint64_t(Generate<~kUs, true>(pos, nullptr)) : PerftImpl<~kUs>(pos, depth - 1);
    pos.UndoMove(m, undo);
  }
  return nodes;
}

}  // namespace

void GenerateLegal(const Position& pos, MoveList& list) {
  list.set_size(pos.side_to_move() == kWhite ? Generate<kWhite, false>(pos, list.data())
                                             : Generate<kBlack, false>(pos, list.data()));
}

void GenerateTactical(const Position& pos, MoveList& list) {
  list.set_size(pos.side_to_move() == kWhite ? Generate<kWhite, false, true>(pos, list.data())
                                             : Generate<kBlack, false, true>(pos, list.data()));
}

int CountLegal(const Position& pos) {
  return pos.side_to_move() == kWhite ? Generate<kWhite, true>(pos, nullptr)
                                      : Generate<kBlack, true>(pos, nullptr);
}

uint64_t Perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (depth == 1) return uint64_t(CountLegal(pos));
  return pos.side_to_move() == kWhite ? PerftImpl<kWhite>(pos, depth)
                                      : PerftImpl<kBlack>(pos, depth);
}

}  // namespace arena::engine::chess
