// Searchers for Chestonia chess (two or three players) over the concrete, copyable
// chestonia_chess::Position (copy-make).
//
// Values are centipawns from the ROOT seat's view. Three algorithms share the evaluation,
// the move ordering (TT move, captures by MVV-LVA, two killers per ply, history) and the node
// accounting:
//   * kParanoid: every other seat is assumed to minimise the root seat's value; with two
//     players this is plain alpha-beta. Iterative deepening, PVS, transposition table,
//     quiescence over captures, null move (two players) and late-move reductions.
//   * kBestReply (BRS+): between two turns of the root seat only ONE opponent searches all its
//     moves (the best reply); the others play their first move by the move ordering, so the
//     real turn order is kept and every position reached is legal.
//   * kMaxN: each seat maximises its own component of a value vector (own score minus the mean
//     of the others'); no pruning besides depth.
// Chance inside the tree: a round-chance node follows the no-dart branch while that branch
// exists (a due dart round, an aim, a placement or a penalty inside the tree is a leaf scored
// by the static evaluation). The dart decisions at the root are made by expectation, see
// ChestoniaChooseAim.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "bots/core/search_common.h"
#include "engine/chestonia_chess/movegen.h"
#include "engine/chestonia_chess/position.h"

namespace arena::bots {

struct ChestoniaEvalWeights {
  int material[7] = {0, 100, 300, 320, 480, 900, 0};  // by engine PieceType
  int pawn_advance = 6;                               // per row a pawn stands from its own rim
  int centre = 4;     // per ring closer to the centre, knights bishops and queens
  int in_check = 40;  // the seat's king is attacked
  int king_rim = 6;   // per ring a king stays nearer its rim in the middlegame
  int out = 20000;    // a seat that is out
  int win = 100000;   // finished games
  // Three or more seats: per ply of search, how much later the root seat going out (or the
  // sooner its win) is worth.
  int elimination_tempo = 10;
  // Three or more seats: a seat's value is its score minus a blend of the other seats' mean
  // (0) and the best of them, the leader (100).
  int leader_percent = 0;
  // King safety (off: no gain measured at 125,000 nodes, docs/bots.md). Each enemy queen, rook,
  // bishop or knight of a seat still in adds attack units by its distance to a king (queen 4,
  // others 2 within two cells; half that at three); the king's seat loses king_attack * units^2 / 4
  // (units capped at 16), so two armies closing in cost more than twice one. Each own piece next to
  // the king adds king_shelter (up to 4).
  int king_attack = 0;
  int king_shelter = 0;
  // A search setting kept here so experiments can set it the same way: plies added where the
  // seat to move is in check (paranoid search, three or more seats).
  int check_extension = 0;
};
const ChestoniaEvalWeights& DefaultChestoniaEvalWeights();
// Applies "name=value" overrides separated by '+' (tools and experiments, e.g. the ladder's
// "4:paranoid:0:0:king_attack=4"). INVALID_ARGUMENT for an unknown name or a bad number.
absl::Status ApplyChestoniaEvalOverrides(std::string_view text, ChestoniaEvalWeights* w);

// Each seat's absolute score (material and position); out seats score -w.out.
std::array<int, 3> ChestoniaSeatScores(const engine::chestonia_chess::Position& pos,
                                       const ChestoniaEvalWeights& w);
// The value of the position for `seat`: its score minus the mean of the other seats'.
int ChestoniaValueFor(const engine::chestonia_chess::Position& pos, int seat,
                      const ChestoniaEvalWeights& w);

enum class MultiAlgorithm { kParanoid, kBestReply, kMaxN };
const char* MultiAlgorithmName(MultiAlgorithm a);
// The three-player default, chosen by the ladder experiment in docs/bots.md.
inline constexpr MultiAlgorithm kDefaultThreePlayerAlgorithm = MultiAlgorithm::kParanoid;

class ChestoniaSearcher {
 public:
  ChestoniaSearcher();
  void set_weights(const ChestoniaEvalWeights& w) { weights_ = w; }

  // Searches a position whose phase is kMove. Result moves are "q,r:q,r" texts.
  SearchResult Search(const engine::chestonia_chess::Position& pos, MultiAlgorithm algorithm,
                      const SearchLimits& limits);

 private:
  struct TTEntry {
    uint64_t key = 0;
    int32_t score = 0;
    engine::chestonia_chess::Move move;
    int8_t depth = -1;
    uint8_t bound = 0;
  };
  using Pos = engine::chestonia_chess::Position;
  using Move = engine::chestonia_chess::Move;
  using MoveList = engine::chestonia_chess::MoveList;

  int Paranoid(const Pos& pos, int depth, int ply, int alpha, int beta, bool null_ok);
  int Quiesce(const Pos& pos, int ply, int alpha, int beta, int qdepth);
  int Brs(const Pos& pos, int depth, int ply, int alpha, int beta, bool reply_used);
  std::array<int, 3> MaxN(const Pos& pos, int depth, int ply);
  // Resolves round-chance nodes along the no-dart branch; false if `pos` is a leaf.
  bool Settle(Pos& pos) const;
  // The root seat's value of a leaf reached `ply` plies below the root.
  int Leaf(const Pos& pos, int ply) const;
  // With three or more seats the root seat going out ends the line: nothing after it matters
  // to the root seat (two-player searches end there anyway, the game being over).
  bool RootOut(const Pos& pos) const { return pos.rules.players >= 3 && !pos.Active(root_); }
  std::array<int, 3> LeafVector(const Pos& pos) const;
  bool OutOfBudget();
  uint64_t Key(const Pos& pos) const;
  void Order(const Pos& pos, MoveList& list, Move tt_move, int ply, int* scores) const;
  void NoteCutoff(const Pos& pos, Move m, int ply, int depth);

  // Per-ply scratch: the node's move list and ordering scores (a list is 8 KB, too much to
  // allocate and clear at every node).
  struct Frame {
    MoveList list;
    std::array<int, engine::chestonia_chess::kMaxMoves> scores;
  };

  ChestoniaEvalWeights weights_;
  std::vector<TTEntry> tt_;
  Move killers_[128][2];
  std::vector<int> history_;         // [seat][from][to]
  std::unique_ptr<Frame[]> frames_;  // [ply], plies 0..127
  SearchLimits limits_;
  int root_ = 0;
  int64_t nodes_ = 0;
  bool aborted_ = false;
  int iteration_ = 0;
  uint64_t noise_seed_ = 0;
  Move root_best_;
  bool root_has_best_ = false;
  int root_best_score_ = 0;
};

// Greedy one-ply (level 1): the move whose resulting static value is best for the mover.
engine::chestonia_chess::Move ChestoniaGreedyMove(const engine::chestonia_chess::Position& pos,
                                                  uint64_t seed);

// The dart decisions at the root, by expectation. Landing outcomes collapse EXACTLY into
// classes: a miss, one class per paying or non-paying zone for landings on empty cells (such
// landings differ only in the zone that pays), and one class per occupied cell (a knock-off).
// Each class is valued once (the reward placed or the penalty pawn chosen greedily, then the
// static value for the thrower); an aim's value is the probability-weighted sum over the 170
// landings, over candidate aims: every cell of rings 0-3 plus every cell holding a piece that
// could be knocked off. Returns the aim cell.
int ChestoniaChooseAim(const engine::chestonia_chess::Position& pos, uint64_t seed,
                       double* expected_value);
// Placement (or skip) and penalty choices: greedy by the static value for the mover. Returns
// the facade action text ("place Q 0,0", "skip", "penalty q,r").
std::string ChestoniaChooseRewardOrPenalty(const engine::chestonia_chess::Position& pos,
                                           uint64_t seed);

}  // namespace arena::bots
