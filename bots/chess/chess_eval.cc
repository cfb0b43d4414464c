#include "bots/chess/chess_eval.h"

#include <algorithm>
#include <cstdlib>

#include "engine/chess/bitboard.h"

namespace arena::bots {

using namespace engine::chess;

const ChessEvalWeights& DefaultChessEvalWeights() {
  static const ChessEvalWeights w;
  return w;
}

namespace {

// Distance of a square from the four centre squares (0..3).
int CenterDistance(Square s) {
  const int f = FileOf(s), r = RankOf(s);
  const int df = f < 4 ? 3 - f : f - 4;
  const int dr = r < 4 ? 3 - r : r - 4;
  return std::max(df, dr);
}

int Distance(Square a, Square b) {
  return std::max(std::abs(FileOf(a) - FileOf(b)), std::abs(RankOf(a) - RankOf(b)));
}

Bitboard FileMask(int f) {
  return kFileA << f;
}

Bitboard AdjacentFiles(int f) {
  Bitboard b = 0;
  if (f > 0) b |= FileMask(f - 1);
  if (f < 7) b |= FileMask(f + 1);
  return b;
}

// Masks computed once: the passed-pawn span (squares in front of s on files f-1..f+1, from
// colour c's view) and the king zone (the king's neighbourhood plus one more rank forward).
struct Masks {
  Bitboard passed_span[2][64];
  Bitboard king_zone[2][64];
  Masks() {
    for (int c = 0; c < 2; ++c) {
      for (int s = 0; s < 64; ++s) {
        const int f = FileOf(Square(s)), r = RankOf(Square(s));
        Bitboard ranks = 0;
        if (c == kWhite) {
          for (int rr = r + 1; rr < 8; ++rr) ranks |= kRank1 << (8 * rr);
        } else {
          for (int rr = r - 1; rr >= 0; --rr) ranks |= kRank1 << (8 * rr);
        }
        passed_span[c][s] = (FileMask(f) | AdjacentFiles(f)) & ranks;
        Bitboard zone = KingAttacks(Square(s)) | SquareBB(Square(s));
        zone |= c == kWhite ? zone << 8 : zone >> 8;
        king_zone[c][s] = zone;
      }
    }
  }
};

const Masks& M() {
  static const Masks m;
  return m;
}

Bitboard PawnAttackSet(Color c, Bitboard pawns) {
  return c == kWhite ? PawnAttacksSet<kWhite>(pawns) : PawnAttacksSet<kBlack>(pawns);
}

// Game phase 0 (bare kings) .. 24 (all minor and major pieces).
int GamePhase(const Position& pos) {
  int phase = PopCount(pos.pieces(kKnight) | pos.pieces(kBishop)) +
              2 * PopCount(pos.pieces(kRook)) + 4 * PopCount(pos.pieces(kQueen));
  return std::min(phase, 24);
}

// King file preference in the middlegame: corners and castled squares, not the centre.
constexpr int kKingFileMg[8] = {1, 2, 1, -1, -1, 0, 2, 1};

struct Score {
  int mg = 0, eg = 0;
};

// Every term of colour c, from c's point of view.
Score SideScore(const Position& pos, Color c, const ChessEvalWeights& w, bool to_move) {
  const Masks& masks = M();
  Score sc;
  int both = 0;
  const Color them = ~c;
  const Bitboard own = pos.pieces(c);
  const Bitboard occ = pos.pieces();
  const Bitboard own_pawns = pos.pieces(c, kPawn);
  const Bitboard their_pawns = pos.pieces(them, kPawn);
  const Bitboard their_pawn_attacks = PawnAttackSet(them, their_pawns);
  const Square own_king = pos.king_square(c);
  const Square their_king = pos.king_square(them);
  const Bitboard their_zone = masks.king_zone[them][their_king];
  const int up = c == kWhite ? 8 : -8;
  int attack_units = 0, attackers = 0;
  const Bitboard own_pawn_attacks = PawnAttackSet(c, own_pawns);
  Bitboard minor_attacks = 0, rook_attacks = 0;

  for (int t = kPawn; t <= kQueen; ++t) {
    Bitboard b = pos.pieces(c, PieceType(t));
    const int n = PopCount(b);
    sc.mg += w.material_mg[t] * n;
    sc.eg += w.material_eg[t] * n;
    while (b) {
      const Square s = PopLsb(b);
      Bitboard att = 0;
      switch (t) {
        case kPawn: {
          const int rel = RelativeRank(c, RankOf(s));
          const int f = FileOf(s);
          const int central = (f >= 2 && f <= 5) ? 2 : 1;
          sc.mg += w.pawn_advance * central * std::max(0, rel - 1) / 2;
          sc.eg += w.pawn_advance_eg * std::max(0, rel - 1);
          if ((masks.passed_span[c][s] & their_pawns) == 0 &&
              (FileMask(f) & masks.passed_span[c][s] & own_pawns) == 0) {
            sc.mg += w.passed_mg[rel];
            sc.eg += w.passed_eg[rel];
            const Square stop = Square(s + up);
            const int weight = std::max(0, rel - 2);
            if (pos.piece_on(stop) == kNoPiece) sc.eg += w.passed_free_eg * weight;
            sc.eg += (2 * Distance(their_king, stop) - Distance(own_king, stop)) *
                     w.passed_king_distance * weight / 2;
          }
          const Bitboard beside = own_pawns & AdjacentFiles(f) & (kRank1 << (8 * RankOf(s)));
          if ((own_pawn_attacks & SquareBB(s)) || beside) {
            sc.mg += w.connected_pawn * rel;
            sc.eg += w.connected_pawn * rel * 2 / 3;
          }
          if (MoreThanOne(own_pawns & FileMask(f))) both -= w.doubled_pawn / 2;
          if ((own_pawns & AdjacentFiles(f)) == 0) both -= w.isolated_pawn;
          break;
        }
        case kKnight:
        case kBishop: {
          const bool knight = t == kKnight;
          att = knight ? KnightAttacks(s) : BishopAttacks(s, occ);
          minor_attacks |= att;
          if (knight) {
            both += w.center_knight * (2 - CenterDistance(s));
          } else {
            sc.mg += w.center_bishop * (2 - CenterDistance(s));
          }
          const int rel = RelativeRank(c, RankOf(s));
          if (rel >= 3 && rel <= 5 && (own_pawn_attacks & SquareBB(s)) &&
              (masks.passed_span[c][s] & AdjacentFiles(FileOf(s)) & their_pawns) == 0) {
            const int bonus = knight ? w.outpost_knight : w.outpost_bishop;
            sc.mg += bonus;
            sc.eg += bonus / 2;
          }
          break;
        }
        case kRook: {
          att = RookAttacks(s, occ);
          rook_attacks |= att;
          const Bitboard file = FileMask(FileOf(s));
          if ((file & own_pawns) == 0)
            sc.mg += (file & their_pawns) ? w.rook_open_file / 2 : w.rook_open_file;
          if (RelativeRank(c, RankOf(s)) == 6) {
            sc.mg += w.rook_seventh;
            sc.eg += w.rook_seventh / 2;
          }
          break;
        }
        case kQueen:
          att = QueenAttacks(s, occ);
          sc.eg += w.center_queen_eg * (2 - CenterDistance(s));
          break;
        default:
          break;
      }
      if (att) {
        const int mob = PopCount(att & ~own & ~their_pawn_attacks);
        sc.mg += w.mobility_mg[t] * mob;
        sc.eg += w.mobility_eg[t] * mob;
        const Bitboard on_zone = att & their_zone;
        if (on_zone) {
          ++attackers;
          attack_units += w.king_attack_unit[t] * PopCount(on_zone);
        }
      }
    }
  }
  if (MoreThanOne(pos.pieces(c, kBishop))) both += w.bishop_pair;
  both += w.minor_threat * (PopCount(minor_attacks & pos.pieces(them, kRook, kQueen)) +
                            PopCount(rook_attacks & pos.pieces(them, kQueen)));

  // Attack on the enemy king: quadratic in the weight, only with two attackers or more, and
  // much less without a queen.
  if (attackers >= 2) {
    int danger = attack_units * attack_units * w.king_attack_scale / 16;
    if (!pos.pieces(c, kQueen)) danger /= 3;
    sc.mg += std::min(danger, 600);
  }

  // Pieces attacked by enemy pawns: the side to move saves one, a fork costs.
  if (to_move) {
    const int threatened = PopCount(their_pawn_attacks & own & ~pos.pieces(c, kPawn, kKing));
    if (threatened >= 2) both -= (threatened - 1) * w.pawn_threat * 3;
  }

  // King: shelter in the middlegame (a sheltered square, pawns in front, no open files),
  // centralisation in the endgame.
  const int kf = FileOf(own_king);
  const int rel_k = RelativeRank(c, RankOf(own_king));
  sc.mg += w.king_center_mg * (kKingFileMg[kf] - 2 * std::min(rel_k, 3));
  if (rel_k <= 1) {
    // The two ranks in front of the king, on its file and the neighbouring ones.
    const Bitboard shield_zone = masks.king_zone[c][own_king] & masks.passed_span[c][own_king];
    sc.mg += w.king_shield * std::min(3, PopCount(shield_zone & own_pawns));
  } else {
    sc.mg -= w.king_shield * 2;
  }
  if (pos.pieces(them, kRook, kQueen)) {
    for (int f = std::max(0, kf - 1); f <= std::min(7, kf + 1); ++f) {
      if ((FileMask(f) & own_pawns) == 0) sc.mg -= w.king_open_file;
    }
  }
  sc.eg += w.king_center_endgame * (3 - CenterDistance(own_king));

  sc.mg += both;
  sc.eg += both;
  return sc;
}

int NonPawnMaterial(const Position& pos, Color c, const ChessEvalWeights& w) {
  int v = 0;
  for (int t = kKnight; t <= kQueen; ++t)
    v += w.material_mg[t] * PopCount(pos.pieces(c, PieceType(t)));
  return v;
}

}  // namespace

int EvaluateChess(const Position& pos, const ChessEvalWeights& w) {
  const int phase = GamePhase(pos);
  const Color us = pos.side_to_move();
  const Score a = SideScore(pos, us, w, true);
  const Score b = SideScore(pos, ~us, w, false);
  const int mg = a.mg - b.mg;
  const int eg = a.eg - b.eg;

  // Endgame scaling: the side ahead without pawns and only a minor more rarely wins; bishops
  // of opposite colours (and nothing else but pawns) draw often.
  const Color strong = eg >= 0 ? us : ~us;
  const Color weak = ~strong;
  int scale = 64;
  if (!pos.pieces(strong, kPawn) &&
      NonPawnMaterial(pos, strong, w) - NonPawnMaterial(pos, weak, w) <= w.material_mg[kBishop]) {
    scale = NonPawnMaterial(pos, strong, w) < w.material_mg[kRook] ? 0 : 16;
  } else if (phase == 2 && !pos.pieces(kKnight) && pos.pieces(kWhite, kBishop) &&
             pos.pieces(kBlack, kBishop) && PopCount(pos.pieces(kBishop) & kDarkSquares) == 1) {
    scale = 32;
  }
  return (mg * phase + eg * (24 - phase)) / 24 * scale / 64 + w.tempo;
}

}  // namespace arena::bots
