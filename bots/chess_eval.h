// Static evaluation of a chess position: material, piece-square terms (centralisation, pawn
// advancement), mobility, king safety (pawn shield, tapered away in the endgame), bishop pair
// and pawn structure (passed, doubled, isolated). Every term is a weight in ChessEvalWeights so
// it can be tuned without touching code. The score is in centipawns from the side to move.
#pragma once

#include "engine/chess/position.h"

namespace arena::bots {

struct ChessEvalWeights {
  int material[6] = {100, 320, 330, 500, 950, 0};
  int mobility[6] = {0, 4, 4, 2, 1, 0};  // per attacked square not held by own pieces
  int center_minor = 6;                  // per step closer to the centre (N, B)
  int pawn_advance = 6;                  // per rank advanced, central files double
  int passed_pawn[8] = {0, 5, 10, 20, 35, 60, 100, 0};
  int doubled_pawn = 12;
  int isolated_pawn = 10;
  int bishop_pair = 30;
  int rook_open_file = 15;
  int king_shield = 12;          // per pawn in front of the castled king
  int king_center_endgame = 10;  // per step towards the centre, endgame
  int tempo = 10;
};

const ChessEvalWeights& DefaultChessEvalWeights();

int EvaluateChess(const engine::chess::Position& pos, const ChessEvalWeights& w);

}  // namespace arena::bots
