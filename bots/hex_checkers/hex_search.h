// Searchers for hex checkers (two to six seats) over the concrete, copyable
// hex_checkers::Position (copy-make).
//
// Values are from the ROOT seat's view: its static score minus the mean of the other seats'
// (out seats score -out). Two algorithms share the evaluation, the move ordering (the previous
// iteration's best root move, then longer chains and promotions first) and the node
// accounting:
//   * kParanoid: every other seat minimises the root seat's value; with two players this is
//     plain alpha-beta. Iterative deepening; at the horizon, positions where the seat to move
//     must capture are searched on (captures are compulsory, so the horizon would otherwise
//     cut chains of exchanges in half), up to kQuiescencePlies.
//   * kBestReply (BRS+): between two turns of the root seat only ONE opponent searches all its
//     moves (the best reply) and costs a ply; the others play their first move by the ordering,
//     so the real turn order is kept and every position reached is legal.
// The default with three or more seats is BRS+ (docs/bots.md, "Hex checkers").
// A search is bounded by a node budget (positions made) and a depth, never by a clock.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "bots/core/search_common.h"
#include "engine/hex_checkers/movegen.h"
#include "engine/hex_checkers/position.h"

namespace arena::bots {

struct HexCheckersEvalWeights {
  int man = 100;
  int king = 260;
  int advance = 6;       // per ring a man stands nearer the centre than the rim
  int centre_next = 20;  // a man next to the centre (one step from promotion)
  int out = 20000;
  int win = 100000;
};

// Each seat's absolute score; out seats score -w.out.
std::array<int, engine::hex_checkers::kMaxSeats> HexCheckersSeatScores(
    const engine::hex_checkers::Position& pos, const HexCheckersEvalWeights& w);
// The value of the position for `seat`: its score minus the mean of the other seats'.
int HexCheckersValueFor(const engine::hex_checkers::Position& pos, int seat,
                        const HexCheckersEvalWeights& w);

enum class HexAlgorithm { kParanoid, kBestReply };

class HexCheckersSearcher {
 public:
  static constexpr int kQuiescencePlies = 8;

  // Searches a position that is not over. Result moves are turn texts ("q,r:q,r").
  SearchResult Search(const engine::hex_checkers::Position& pos, HexAlgorithm algorithm,
                      const SearchLimits& limits);

 private:
  using Pos = engine::hex_checkers::Position;

  int Paranoid(const Pos& pos, int depth, int ply, int alpha, int beta);
  int Brs(const Pos& pos, int depth, int ply, int alpha, int beta, bool reply_used);
  int Leaf(const Pos& pos, int ply) const;
  // The order to try a node's turns in (indices into its list).
  void Order(const Pos& pos, const engine::hex_checkers::TurnList& list, int ply,
             std::vector<int>& order) const;
  bool OutOfBudget();
  // The next seat in turn order after the seat to move, skipping seats out (skips of frozen
  // seats are not foreseen).
  int NextAlive(const Pos& pos) const;

  HexCheckersEvalWeights weights_;
  SearchLimits limits_;
  int root_ = 0;
  int64_t nodes_ = 0;
  bool aborted_ = false;
  int root_first_ = -1;  // the best root move of the last iteration, tried first
  std::vector<engine::hex_checkers::TurnList> lists_;  // per ply
  std::vector<std::vector<int>> orders_;               // per ply
  uint64_t seed_ = 0;
};

}  // namespace arena::bots
