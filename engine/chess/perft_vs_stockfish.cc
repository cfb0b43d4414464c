// perft_vs_stockfish: our perft and Stockfish's `go perft` on the same positions, one thread
// each, reporting nodes per second for both and their ratio (ours / Stockfish).
//
//   perft_vs_stockfish [--game chess] [--stockfish PATH] [--repeat N]
//                      [--fen FEN --depth N]...
//
// Without --fen it runs the start position at depth 6 and Kiwipete at depth 5. Each --depth
// applies to the --fen before it. Every measurement is the best of --repeat runs (default 3),
// so a busy machine disturbs the figures less. Exits 1 if the node counts disagree, 77 if
// Stockfish cannot be started.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "engine/chess/stockfish_process.h"
#include "engine/core/game.h"

namespace arena::engine::chess {
namespace {

// Exit code when Stockfish cannot be started (ctest treats it as "skipped").
constexpr int kNoEngine = 77;

struct Job {
  std::string name;
  std::string fen;  // "startpos" for the initial position
  int depth;
};

int Run(int argc, char** argv) {
  std::string game_id = "chess", stockfish(kDefaultStockfishPath);
  int repeat = 3;
  std::vector<Job> jobs;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc) {
      std::cerr << "perft_vs_stockfish: " << flag << " needs a value\n";
      return 2;
    }
    std::string value = argv[++i];
    if (flag == "--game") {
      game_id = value;
    } else if (flag == "--stockfish") {
      stockfish = value;
    } else if (flag == "--repeat") {
      if (!absl::SimpleAtoi(value, &repeat) || repeat < 1) return 2;
    } else if (flag == "--fen") {
      jobs.push_back({value.substr(0, 20), value, 5});
    } else if (flag == "--depth") {
      int depth = 0;
      if (jobs.empty() || !absl::SimpleAtoi(value, &depth) || depth < 1) {
        std::cerr << "perft_vs_stockfish: --depth N follows a --fen\n";
        return 2;
      }
      jobs.back().depth = depth;
    } else {
      std::cerr << "perft_vs_stockfish: unknown flag " << flag << "\n";
      return 2;
    }
  }
  if (jobs.empty()) {
    jobs = {
        {"startpos", "startpos", 6},
        {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5}};
  }

  const engine::Game* game = engine::FindGame(game_id);
  if (!game) {
    std::cerr << "perft_vs_stockfish: unknown game " << game_id << "\n";
    return 2;
  }
  auto engine = StockfishProcess::Start(stockfish, 1);
  if (!engine.ok()) {
    std::cerr << "perft_vs_stockfish: " << engine.status() << "\n";
    return kNoEngine;
  }

  std::printf("%-20s %5s %12s %10s %10s %10s %10s %7s\n", "position", "depth", "nodes", "ours s",
              "ours Mnps", "sf s", "sf Mnps", "ratio");
  int status = 0;
  for (const Job& job : jobs) {
    std::string fen = job.fen == "startpos" ? "" : job.fen;
    auto state = fen.empty() ? game->NewInitialState({}) : game->Parse(fen, {});
    if (!state.ok()) {
      std::cerr << "perft_vs_stockfish: " << job.name << ": " << state.status() << "\n";
      return 1;
    }
    double ours = 1e100, theirs = 1e100;
    uint64_t our_nodes = 0, their_nodes = 0;
    for (int r = 0; r < repeat; ++r) {
      auto start = std::chrono::steady_clock::now();
      our_nodes = (*state)->Perft(job.depth);
      ours = std::min(
          ours, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      auto result = (*engine)->Perft(job.fen, job.depth);
      if (!result.ok()) {
        std::cerr << "perft_vs_stockfish: stockfish: " << result.status() << "\n";
        return 1;
      }
      their_nodes = result->nodes;
      theirs = std::min(theirs, result->seconds);
    }
    const double our_nps = double(our_nodes) / ours, their_nps = double(their_nodes) / theirs;
    std::printf("%-20s %5d %12llu %10.3f %10.1f %10.3f %10.1f %7.2f\n", job.name.c_str(), job.depth,
                static_cast<unsigned long long>(our_nodes), ours, our_nps / 1e6, theirs,
                their_nps / 1e6, our_nps / their_nps);
    if (our_nodes != their_nodes) {
      std::printf("  MISMATCH: ours %llu, stockfish %llu\n",
                  static_cast<unsigned long long>(our_nodes),
                  static_cast<unsigned long long>(their_nodes));
      status = 1;
    }
  }
  return status;
}

}  // namespace
}  // namespace arena::engine::chess

int main(int argc, char** argv) {
  return arena::engine::chess::Run(argc, argv);
}
