// Helpers shared by the three-player chess tests: hand-made positions and random play.
#pragma once

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/three_player_chess/movegen.h"
#include "engine/three_player_chess/position.h"

namespace arena::engine::three_player_chess::testing_util {

// A position from pieces written "<colour><piece><cell>" ("wKE1", "bPC7"), `turn` to move,
// no castling rights unless `castling` is given; owners as in `owners` ("wbr" by default).
// Settled (Position::Settle). Aborts the test binary on a bad piece text.
Position Build(const std::vector<std::string>& pieces, int turn, uint8_t castling = 0,
               const std::string& owners = "wbr");

// The legal moves of the side to move as sorted texts.
std::vector<std::string> Moves(const Position& pos);
// The legal moves from `cell` as sorted target cell names.
std::vector<std::string> TargetsFrom(const Position& pos, const std::string& cell);
// Applies the legal move written `text`; aborts if it is not legal.
void Play(Position& pos, const std::string& text);
// One uniformly random legal move of a position that is not over.
void RandomMove(Position& pos, std::mt19937_64& rng);

}  // namespace arena::engine::three_player_chess::testing_util
