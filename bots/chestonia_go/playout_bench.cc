// Playouts per second of the Chestonia Go player's policy from the empty board, and the
// search's rate at a level's budget, for two and three seats. Run the release build:
//   build/release/bots/chestonia_go/chestonia_go_playout_bench [playouts]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "bots/chestonia_go/go_search.h"
#include "bots/core/levels.h"

using arena::bots::GoPlayout;
using arena::bots::GoSearch;
using arena::bots::GoSearchStats;
using arena::bots::Rng;
using arena::bots::SearchLimits;
namespace go = arena::engine::chestonia_go;

int main(int argc, char** argv) {
  const int playouts = argc > 1 ? std::atoi(argv[1]) : 20000;
  for (int players : {2, 3}) {
    go::Rules rules;
    rules.players = players;
    const go::Position start = go::Position::Initial(rules);
    Rng rng(1);
    long moves = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < playouts; ++i) {
      go::Position pos = start;
      moves += GoPlayout(pos, rng, 2000);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "players=%d playouts: %d in %.2f s = %.0f playouts/s, %.0f moves/s, %.1f moves each\n",
        players, playouts, s, playouts / s, moves / s, double(moves) / playouts);

    go::BoardHistory history;
    history.Add(start.hash);
    SearchLimits limits;
    // The game's top level.
    limits.nodes = arena::bots::LevelNodeBudget(
        "chestonia-go", arena::bots::MaxLevel("chestonia-go", players), players);
    GoSearchStats stats;
    const auto t1 = std::chrono::steady_clock::now();
    const auto result = GoSearch(start, history, limits, {}, &stats);
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    std::printf(
        "players=%d search of %lld nodes: %lld playouts in %.2f s = %.0f playouts/s, "
        "%d tree nodes, move %s\n",
        players, static_cast<long long>(limits.nodes), static_cast<long long>(stats.playouts), t,
        stats.playouts / t, stats.tree_nodes, result.move.c_str());
  }
  return 0;
}
