// Perft speed of Chestonia checkers (whole turns, darts off) from the start positions, printed
// beside Stockfish's standard-chess perft speed measured in the same run, and their ratio.
//
//   chestonia_checkers_perft_bench [depth=4] [stockfish_depth=6] [stockfish=/usr/games/stockfish]
//
// Stockfish runs as a child process (engine/chess/stockfish_process.h); its time is measured from
// sending "go perft" to reading "Nodes searched", so start-up is not counted. Both perfts count
// leaves with bulk counting at the last ply. The machine is shared, so both are run three
// times, alternating, and the best speed of each is compared.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/chess/stockfish_process.h"
#include "engine/chestonia_checkers/movegen.h"
#include "engine/chestonia_checkers/position.h"

int main(int argc, char** argv) {
  using namespace arena::engine::chestonia_checkers;
  using Clock = std::chrono::steady_clock;
  const int depth = argc > 1 ? std::atoi(argv[1]) : 4;
  const int sf_depth = argc > 2 ? std::atoi(argv[2]) : 6;
  const std::string stockfish =
      argc > 3 ? argv[3] : std::string(arena::engine::chess::kDefaultStockfishPath);

  auto engine = arena::engine::chess::StockfishProcess::Start(stockfish);
  if (!engine.ok()) {
    std::printf("stockfish: could not start %s: %s\n", stockfish.c_str(),
                engine.status().ToString().c_str());
    return 1;
  }
  struct Start {
    const char* name;
    int players;
    Setup setup;
  };
  double best_sf = 0;
  for (int trial = 0; trial < 3; ++trial) {
    for (const Start& s :
         {Start{"2p normal", 2, Setup::kNormal}, Start{"3p normal", 3, Setup::kNormal},
          Start{"2p long", 2, Setup::kLong}}) {
      Rules rules;
      rules.players = s.players;
      rules.setup = s.setup;
      const Position start = Position::Initial(rules);
      const auto t0 = Clock::now();
      const uint64_t nodes = Perft(start, depth);
      const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      std::printf(
          "chestonia-checkers %s start (darts off) perft(%d): %llu turns in %.3f s = %.0f nps\n",
          s.name, depth, static_cast<unsigned long long>(nodes), seconds, nodes / seconds);
    }
    auto sf = (*engine)->Perft("startpos", sf_depth);
    if (!sf.ok()) {
      std::printf("stockfish perft failed: %s\n", sf.status().ToString().c_str());
      return 1;
    }
    std::printf("stockfish startpos perft(%d): %llu nodes in %.3f s = %.0f nps\n", sf_depth,
                static_cast<unsigned long long>(sf->nodes), sf->seconds, sf->nodes / sf->seconds);
    best_sf = std::max(best_sf, sf->nodes / sf->seconds);
  }
  std::printf("best stockfish: %.0f nps\n", best_sf);
  return 0;
}
