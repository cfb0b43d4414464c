// Static evaluation of a chess position, tapered between a middlegame (mg) and an endgame (eg)
// score by the non-pawn material on the board: material; piece-square terms (built from a few
// weights: centralisation of knights, bishops, queens and of the king in the endgame, pawn
// advancement, rooks on the seventh rank, a sheltered king square in the middlegame);
// mobility (squares attacked that are neither own pieces nor covered by enemy pawns); king
// safety (pawn shield, open files beside the king, and an attack weight on the king's zone that
// grows quadratically); pawn structure (passed pawns by rank, freer and nearer the kings in
// the endgame, connected, doubled, isolated); outposts; threats of minors on majors; bishop pair;
// rooks on open and half-open files; pieces attacked by pawns; tempo; and a draw-ish scaling when
// the side ahead has no pawns and only a minor piece more, or in bishops of opposite colours
// endings. Every term is a weight in ChessEvalWeights so it can be tuned without touching code. The
// score is in centipawns from the side to move.
#pragma once

#include "engine/chess/position.h"

namespace arena::bots {

struct ChessEvalWeights {
  int material_mg[6] = {88, 330, 340, 480, 970, 0};
  int material_eg[6] = {110, 300, 320, 530, 960, 0};
  // Per attacked square not held by own pieces nor attacked by enemy pawns.
  int mobility_mg[6] = {0, 4, 5, 2, 1, 0};
  int mobility_eg[6] = {0, 4, 5, 4, 2, 0};
  int center_knight = 10;   // per step closer to the centre (mg and eg)
  int center_bishop = 5;    // per step closer to the centre (mg)
  int center_queen_eg = 6;  // per step closer to the centre (eg)
  int pawn_advance = 6;     // per rank advanced, central files double (mg)
  int pawn_advance_eg = 4;  // per rank advanced (eg)
  int rook_seventh = 20;    // rook on the 7th rank (mg; eg half again)
  int passed_mg[8] = {0, 5, 8, 14, 24, 40, 65, 0};
  int passed_eg[8] = {0, 10, 14, 24, 42, 70, 115, 0};
  int passed_free_eg = 12;       // per rank when the square in front of a passer is empty
  int passed_king_distance = 4;  // eg: per square the enemy king is farther from the stop square
  int connected_pawn = 3;        // per rank, a pawn defended by a pawn or beside one (eg 2/3)
  int outpost_knight = 20;  // knight on ranks 4-6 defended by a pawn, no enemy pawn to chase it
  int outpost_bishop = 10;
  int minor_threat = 30;  // enemy rook or queen attacked by a minor, queen by a rook
  int doubled_pawn = 12;
  int isolated_pawn = 12;
  int bishop_pair = 35;
  int rook_open_file = 20;
  int king_shield = 12;     // per pawn in front of the castled king (mg)
  int king_open_file = 18;  // per file without own pawn beside or at the king (mg)
  int king_attack_unit[6] = {0, 2, 2, 3, 5, 0};  // per attacked king-zone square, by attacker
  int king_attack_scale = 4;                     // penalty = units^2 * scale / 16 (mg), at most 600
  int king_center_mg = 14;       // per rank off the back rank / per central file (mg)
  int king_center_endgame = 12;  // per step towards the centre, endgame
  int pawn_threat = 35;          // a piece attacked by an enemy pawn
  int tempo = 12;
};

const ChessEvalWeights& DefaultChessEvalWeights();

int EvaluateChess(const engine::chess::Position& pos, const ChessEvalWeights& w);

}  // namespace arena::bots
