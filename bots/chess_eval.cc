#include "bots/chess_eval.h"

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

Bitboard FileMask(int f) {
  return kFileA << f;
}

Bitboard AdjacentFiles(int f) {
  Bitboard b = 0;
  if (f > 0) b |= FileMask(f - 1);
  if (f < 7) b |= FileMask(f + 1);
  return b;
}

// Squares in front of s (from colour c's view) on files f-1..f+1.
Bitboard PassedSpan(Color c, Square s) {
  const int f = FileOf(s), r = RankOf(s);
  Bitboard files = FileMask(f) | AdjacentFiles(f);
  Bitboard ranks = 0;
  if (c == kWhite) {
    for (int rr = r + 1; rr < 8; ++rr) ranks |= kRank1 << (8 * rr);
  } else {
    for (int rr = r - 1; rr >= 0; --rr) ranks |= kRank1 << (8 * rr);
  }
  return files & ranks;
}

// Game phase 0 (bare kings) .. 24 (all minor and major pieces).
int GamePhase(const Position& pos) {
  int phase = PopCount(pos.pieces(kKnight) | pos.pieces(kBishop)) +
              2 * PopCount(pos.pieces(kRook)) + 4 * PopCount(pos.pieces(kQueen));
  return std::min(phase, 24);
}

int SideScore(const Position& pos, Color c, const ChessEvalWeights& w, int phase) {
  int mg = 0, eg = 0, both = 0;
  const Bitboard own = pos.pieces(c);
  const Bitboard occ = pos.pieces();
  const Bitboard own_pawns = pos.pieces(c, kPawn);
  const Bitboard their_pawns = pos.pieces(~c, kPawn);

  for (int t = kPawn; t <= kQueen; ++t) {
    Bitboard b = pos.pieces(c, PieceType(t));
    both += w.material[t] * PopCount(b);
    while (b) {
      const Square s = PopLsb(b);
      Bitboard att = 0;
      switch (t) {
        case kPawn: {
          const int rel = RelativeRank(c, RankOf(s));
          const int f = FileOf(s);
          const int central = (f >= 2 && f <= 5) ? 2 : 1;
          mg += w.pawn_advance * central * std::max(0, rel - 1) / 2;
          eg += w.pawn_advance * std::max(0, rel - 1);
          if ((PassedSpan(c, s) & their_pawns) == 0) {
            mg += w.passed_pawn[rel] / 2;
            eg += w.passed_pawn[rel];
          }
          if (MoreThanOne(own_pawns & FileMask(f))) both -= w.doubled_pawn / 2;
          if ((own_pawns & AdjacentFiles(f)) == 0) both -= w.isolated_pawn;
          break;
        }
        case kKnight:
          att = KnightAttacks(s);
          mg += w.center_minor * (3 - CenterDistance(s));
          break;
        case kBishop:
          att = BishopAttacks(s, occ);
          mg += w.center_minor * (3 - CenterDistance(s)) / 2;
          break;
        case kRook: {
          att = RookAttacks(s, occ);
          const Bitboard file = FileMask(FileOf(s));
          if ((file & own_pawns) == 0)
            both += (file & their_pawns) ? w.rook_open_file / 2 : w.rook_open_file;
          break;
        }
        case kQueen:
          att = QueenAttacks(s, occ);
          break;
        default:
          break;
      }
      if (att) both += w.mobility[t] * PopCount(att & ~own);
    }
  }
  if (MoreThanOne(pos.pieces(c, kBishop))) both += w.bishop_pair;

  // King: shield of pawns in the middlegame, centralisation in the endgame.
  const Square k = pos.king_square(c);
  const int kf = FileOf(k);
  Bitboard shield_zone = (FileMask(kf) | AdjacentFiles(kf)) & PassedSpan(c, k);
  const int rel_k = RelativeRank(c, RankOf(k));
  if (rel_k <= 1) {
    // Only the two ranks directly in front count.
    Bitboard near =
        c == kWhite
            ? (kRank1 << (8 * (RankOf(k) + 1))) | (kRank1 << (8 * (RankOf(k) + 2)))
            : (kRank1 << (8 * (RankOf(k) - 1))) | (kRank1 << (8 * std::max(0, RankOf(k) - 2)));
    mg += w.king_shield * PopCount(shield_zone & near & own_pawns);
  } else {
    mg -= w.king_shield * 2;
  }
  eg += w.king_center_endgame * (3 - CenterDistance(k));
  return both + (mg * phase + eg * (24 - phase)) / 24;
}

}  // namespace

int EvaluateChess(const Position& pos, const ChessEvalWeights& w) {
  const int phase = GamePhase(pos);
  const Color us = pos.side_to_move();
  return SideScore(pos, us, w, phase) - SideScore(pos, ~us, w, phase) + w.tempo;
}

}  // namespace arena::bots
