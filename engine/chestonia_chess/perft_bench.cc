// Perft speed of Chestonia chess from the three-player start position (darts off), printed
// beside Stockfish's standard-chess perft speed measured in the same run, and their ratio.
//
//   chestonia_perft_vs_stockfish [depth=4] [stockfish_depth=6] [stockfish=/usr/games/stockfish]
//
// Stockfish is spawned as a child process (UCI over pipes); its timer starts after "readyok",
// so engine start-up and network loading are not counted, and stops when "Nodes searched"
// arrives. Both perfts count leaves with bulk counting at the last ply. The machine is shared,
// so both are run three times, alternating, and the best speed of each is compared.
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "engine/chestonia_chess/movegen.h"
#include "engine/chestonia_chess/position.h"

namespace {

using Clock = std::chrono::steady_clock;

struct PerftRun {
  uint64_t nodes = 0;
  double seconds = 0;
};

// Runs "go perft <depth>" in Stockfish; nullopt if it cannot be started or answers oddly.
std::optional<PerftRun> StockfishPerft(const char* path, int depth) {
  int to_child[2], from_child[2];
  if (pipe(to_child) != 0 || pipe(from_child) != 0) return std::nullopt;
  const pid_t pid = fork();
  if (pid < 0) return std::nullopt;
  if (pid == 0) {
    dup2(to_child[0], STDIN_FILENO);
    dup2(from_child[1], STDOUT_FILENO);
    close(to_child[1]);
    close(from_child[0]);
    execl(path, path, static_cast<char*>(nullptr));
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  FILE* in = fdopen(from_child[0], "r");
  FILE* out = fdopen(to_child[1], "w");
  auto send = [&](const std::string& line) {
    std::fputs((line + "\n").c_str(), out);
    std::fflush(out);
  };
  auto wait_for = [&](const char* prefix, std::string* line_out) {
    char buf[4096];
    while (std::fgets(buf, sizeof buf, in)) {
      if (std::strncmp(buf, prefix, std::strlen(prefix)) == 0) {
        if (line_out) *line_out = buf;
        return true;
      }
    }
    return false;
  };
  std::optional<PerftRun> result;
  send("uci");
  if (wait_for("uciok", nullptr)) {
    send("position startpos");
    send("isready");
    if (wait_for("readyok", nullptr)) {
      const auto start = Clock::now();
      send("go perft " + std::to_string(depth));
      std::string line;
      if (wait_for("Nodes searched", &line)) {
        PerftRun run;
        run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        run.nodes = std::strtoull(line.c_str() + line.find(':') + 1, nullptr, 10);
        result = run;
      }
    }
  }
  send("quit");
  std::fclose(out);
  std::fclose(in);
  int status = 0;
  waitpid(pid, &status, 0);
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace arena::engine::chestonia_chess;
  const int depth = argc > 1 ? std::atoi(argv[1]) : 4;
  const int sf_depth = argc > 2 ? std::atoi(argv[2]) : 6;
  const char* stockfish = argc > 3 ? argv[3] : "/usr/games/stockfish";

  Rules rules;
  rules.players = 3;
  rules.darts = false;
  const Position start = Position::Initial(rules);
  Perft(start, 2);  // warm the tables
  double best = 0, best_sf = 0;
  for (int trial = 0; trial < 3; ++trial) {
    const auto t0 = Clock::now();
    const uint64_t nodes = Perft(start, depth);
    const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("chestonia-chess 3p start (darts off) perft(%d): %llu nodes in %.3f s = %.0f nps\n",
                depth, static_cast<unsigned long long>(nodes), seconds, nodes / seconds);
    best = std::max(best, nodes / seconds);
    const std::optional<PerftRun> sf = StockfishPerft(stockfish, sf_depth);
    if (!sf) {
      std::printf("stockfish: could not run %s\n", stockfish);
      return 1;
    }
    std::printf("stockfish startpos perft(%d): %llu nodes in %.3f s = %.0f nps\n", sf_depth,
                static_cast<unsigned long long>(sf->nodes), sf->seconds, sf->nodes / sf->seconds);
    best_sf = std::max(best_sf, sf->nodes / sf->seconds);
  }
  std::printf("best: chestonia %.0f nps, stockfish %.0f nps\n", best, best_sf);
  std::printf("ratio (chestonia / stockfish): %.3f\n", best / best_sf);
  return 0;
}
