#include "engine/three_player_chess/test_util.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "engine/three_player_chess/notation.h"

namespace arena::engine::three_player_chess::testing_util {
namespace {

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "test setup: %s\n", what.c_str());
  std::abort();
}

}  // namespace

Position Build(const std::vector<std::string>& pieces, int turn, uint8_t castling,
               const std::string& owners) {
  Position pos;
  for (const std::string& text : pieces) {
    const int colour = text.empty() ? -1 : ColourFromLetter(text[0]);
    const int type = text.size() > 1 ? PieceTypeFromLetter(text[1]) : kEmpty;
    absl::StatusOr<int> cell = ParseCell(text.size() > 2 ? text.substr(2) : "");
    if (colour < 0 || type == kEmpty || !cell.ok()) Die("bad piece " + text);
    pos.Put(*cell, MakePiece(colour, type));
  }
  for (int k = 0; k < kNumColours; ++k)
    pos.owner[k] = static_cast<int8_t>(ColourFromLetter(owners[k]));
  int out = 0;
  for (int k = 0; k < kNumColours; ++k) {
    if (!pos.In(k)) pos.out_order[out++] = static_cast<int8_t>(k);
  }
  pos.castling = castling;
  pos.turn = static_cast<int8_t>(turn);
  pos.Settle();
  return pos;
}

std::vector<std::string> Moves(const Position& pos) {
  MoveList list;
  GenerateLegalMoves(pos, list);
  std::vector<std::string> out;
  for (const Move m : list) out.push_back(MoveText(m));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> TargetsFrom(const Position& pos, const std::string& cell) {
  absl::StatusOr<int> from = ParseCell(cell);
  if (!from.ok()) Die("bad cell " + cell);
  MoveList list;
  GenerateLegalMoves(pos, list);
  std::vector<std::string> out;
  for (const Move m : list) {
    if (m.from == *from && m.promotion <= kQueen &&
        std::find(out.begin(), out.end(), CellName(m.to)) == out.end()) {
      out.push_back(CellName(m.to));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void Play(Position& pos, const std::string& text) {
  absl::StatusOr<Move> parsed = ParseMoveText(text);
  if (!parsed.ok()) Die("bad move " + text);
  MoveList list;
  GenerateLegalMoves(pos, list);
  const Move* m = std::find(list.begin(), list.end(), *parsed);
  if (m == list.end()) Die("illegal move " + text + " in " + PositionText(pos));
  pos.ApplyMove(*m);
}

void RandomMove(Position& pos, std::mt19937_64& rng) {
  MoveList list;
  GenerateLegalMoves(pos, list);
  if (list.size == 0) Die("no legal move in " + PositionText(pos));
  pos.ApplyMove(list.moves[std::uniform_int_distribution<int>(0, list.size - 1)(rng)]);
}

}  // namespace arena::engine::three_player_chess::testing_util
