// Searchers for hex checkers (two to six seats) over the concrete, copyable
// hex_checkers::Position (copy-make).
//
// Values are from the ROOT seat's view: its static score minus the mean of the other seats'
// (out seats score -out), plus the melee terms of HexCheckersEvalWeights when they are set
// (the bot sets them with four or more seats). Two algorithms share the evaluation, the move
// ordering (the previous iteration's best root move, then longer chains and promotions first)
// and the node accounting:
//   * kParanoid: every other seat minimises the root seat's value; with two players this is
//     plain alpha-beta. Iterative deepening; at the horizon, positions where the seat to move
//     must capture are searched on (captures are compulsory, so the horizon would otherwise
//     cut chains of exchanges in half), up to kQuiescencePlies.
//   * kBestReply (BRS+): between two turns of the root seat only ONE opponent searches all its
//     moves (the best reply) and costs a ply; the others play one move each at no ply, so the
//     real turn order is kept and every position reached is legal. That move is the first by
//     the ordering, or with `greedy_passers` the one best for that seat at one ply by the plain
//     standing (each turn tried costs a node).
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
  // The melee terms (0 = off; level 1 and the adjudication never use them):
  int hanging = 0;  // per jump an opponent could make at once on one of the seat's pieces
  // Two seats left only: per empty cell the opponent's pieces could step to (hem it in), and,
  // while the seat is ahead, per cell of mean distance from its kings to the nearest enemy
  // piece (go and get it: a lone king is only caught by kings that come close).
  int endgame_mobility = 0;
  int endgame_closeness = 0;
};

// The searching levels' weights with four or more seats (docs/bots.md, "Hex checkers": they
// lifted the searcher against level 1 from 93.1% to 95.5% with four seats, 91.7% to 95.4% with
// five and 87.5% to 91.6% with six).
inline constexpr HexCheckersEvalWeights kHexMeleeWeights{
    .hanging = 40, .endgame_mobility = 15, .endgame_closeness = 20};

struct HexSearchOptions {
  HexCheckersEvalWeights weights;
  bool greedy_passers = false;  // BRS+: the seats that do not reply play their greediest turn
};

// Each seat's absolute score; out seats score -w.out.
std::array<int, engine::hex_checkers::kMaxSeats> HexCheckersSeatScores(
    const engine::hex_checkers::Position& pos, const HexCheckersEvalWeights& w);
// The value of the position for `seat`: its score minus the mean of the other seats', plus
// the melee terms that `w` sets.
int HexCheckersValueFor(const engine::hex_checkers::Position& pos, int seat,
                        const HexCheckersEvalWeights& w);

enum class HexAlgorithm { kParanoid, kBestReply };

class HexCheckersSearcher {
 public:
  static constexpr int kQuiescencePlies = 8;

  HexCheckersSearcher() = default;
  explicit HexCheckersSearcher(const HexSearchOptions& options) : options_(options) {}

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

  // The move a seat that does not reply plays in BRS+ (an index into lists_[ply]).
  int PasserMove(const Pos& pos, int ply);

  HexSearchOptions options_;
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
