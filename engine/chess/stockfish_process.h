// A UCI engine running as a child process, driven over pipes.
//
// StockfishProcess starts an engine binary (Stockfish by default), performs the UCI handshake
// and lets benchmarks and differential tests send commands and read replies line by line. Its
// Perft() runs `go perft N` on the current position and returns the node count, the per-move
// divide and the wall time the engine took, measured from sending the command to reading the
// "Nodes searched" line. The process is single-threaded (Threads = 1) unless told otherwise.
// Not thread-safe; one object per engine process. The child is killed and reaped on
// destruction.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace arena::engine::chess {

inline constexpr std::string_view kDefaultStockfishPath = "/usr/games/stockfish";

struct EnginePerft {
  uint64_t nodes = 0;
  double seconds = 0.0;  // wall time inside the engine, I/O included
  // "e2e4" -> count, in the order the engine printed them.
  std::vector<std::pair<std::string, uint64_t>> divide;
};

class StockfishProcess {
 public:
  // Starts `path`, sends "uci" and waits for "uciok", sets Threads and waits for "readyok".
  static absl::StatusOr<std::unique_ptr<StockfishProcess>> Start(
      std::string_view path = kDefaultStockfishPath, int threads = 1);
  ~StockfishProcess();
  StockfishProcess(const StockfishProcess&) = delete;
  StockfishProcess& operator=(const StockfishProcess&) = delete;

  // Writes one command line (a newline is appended).
  absl::Status Send(std::string_view command);
  // Reads one line (without its newline). DEADLINE_EXCEEDED after `timeout`, UNAVAILABLE when
  // the engine closed its output.
  absl::StatusOr<std::string> ReadLine(std::chrono::milliseconds timeout);
  // Reads lines until one starts with `prefix`; returns every line read, that one last.
  absl::StatusOr<std::vector<std::string>> ReadUntil(std::string_view prefix,
                                                     std::chrono::milliseconds timeout);
  // Sends "isready" and waits for "readyok".
  absl::Status Sync(std::chrono::milliseconds timeout = std::chrono::seconds(30));

  // Sets the position: `fen` is a FEN, or "startpos". Then runs `go perft depth`.
  absl::StatusOr<EnginePerft> Perft(std::string_view fen, int depth,
                                    std::chrono::milliseconds timeout = std::chrono::minutes(30));
  // The same for engines with their own position syntax: sends `position_command` verbatim
  // (e.g. "position startpos moves e2e4"), then `go perft depth`.
  absl::StatusOr<EnginePerft> PerftAfter(
      std::string_view position_command, int depth,
      std::chrono::milliseconds timeout = std::chrono::minutes(30));

 private:
  StockfishProcess() = default;

  pid_t pid_ = -1;
  int fd_ = -1;         // our end of the socket pair: the engine's stdin and stdout
  std::string buffer_;  // bytes read but not yet returned as lines
};

}  // namespace arena::engine::chess
