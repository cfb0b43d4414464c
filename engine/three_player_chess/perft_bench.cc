// Perft speed of three-player chess from the start position, printed beside Stockfish's
// standard-chess perft speed measured in the same run, and their ratio.
//
//   three_player_chess_perft_bench [depth=4] [stockfish_depth=6] [stockfish=/usr/games/stockfish]
//
// Stockfish runs as a child process (engine/chess/stockfish_process.h); its time is measured
// from "go perft" to "Nodes searched". Both perfts count leaves with bulk counting at the last
// ply. The machine is shared, so both run three times, alternating, and the best speed of each
// is compared.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "engine/chess/stockfish_process.h"
#include "engine/three_player_chess/movegen.h"
#include "engine/three_player_chess/position.h"

int main(int argc, char** argv) {
  using namespace arena::engine;
  const int depth = argc > 1 ? std::atoi(argv[1]) : 4;
  const int sf_depth = argc > 2 ? std::atoi(argv[2]) : 6;
  const char* path = argc > 3 ? argv[3] : "/usr/games/stockfish";
  auto stockfish = chess::StockfishProcess::Start(path);
  if (!stockfish.ok()) {
    std::printf("stockfish: %s\n", std::string(stockfish.status().message()).c_str());
    return 1;
  }
  const three_player_chess::Position start = three_player_chess::Position::Initial();
  three_player_chess::Perft(start, 2);  // build the tables
  double best = 0, best_sf = 0;
  for (int trial = 0; trial < 3; ++trial) {
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t nodes = three_player_chess::Perft(start, depth);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("three-player-chess start perft(%d): %llu nodes in %.3f s = %.0f nps\n", depth,
                static_cast<unsigned long long>(nodes), seconds, nodes / seconds);
    best = std::max(best, nodes / seconds);
    auto sf = (*stockfish)->Perft("startpos", sf_depth);
    if (!sf.ok()) {
      std::printf("stockfish: %s\n", std::string(sf.status().message()).c_str());
      return 1;
    }
    std::printf("stockfish startpos perft(%d): %llu nodes in %.3f s = %.0f nps\n", sf_depth,
                static_cast<unsigned long long>(sf->nodes), sf->seconds, sf->nodes / sf->seconds);
    best_sf = std::max(best_sf, sf->nodes / sf->seconds);
  }
  std::printf("best: three-player-chess %.0f nps, stockfish %.0f nps\n", best, best_sf);
  std::printf("ratio (three-player-chess / stockfish): %.4f\n", best / best_sf);
  return 0;
}
