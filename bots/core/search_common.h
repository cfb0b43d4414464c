// What every searcher shares: the limits of one search, the stop flag, the result, levels and
// a small seeded random source (levels: bots/core/levels.h).
//
// Determinism: a search is bounded by a NODE budget (and a depth), never by reading a clock,
// and is single-threaded, so the same position, level and seed give the same move on any
// machine. A time cap is enforced from outside: whoever owns the clock sets `stop`, which the
// search polls every kStopPollNodes (64) nodes; the search then unwinds and returns the best move
// of the last finished iteration (or of the current one once its first move is searched).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "bots/core/levels.h"

namespace arena::bots {

inline constexpr int kStopPollNodes = 64;

// The most legal actions a generic player lists in one position (State::BoundedLegalActions):
// far above any chess or Go position's count, so only games whose turns explode are cut.
inline constexpr int kMaxListedActions = 4096;

struct SearchLimits {
  int64_t nodes = 0;                        // 0 = unlimited (then `stop` or `depth` must end it)
  int depth = 64;                           // iterative deepening stops after this many plies
  const std::atomic<bool>* stop = nullptr;  // set by the clock owner; may be null
  uint64_t seed = 0;                        // tie-breaks and random levels
};

struct SearchResult {
  std::string move;  // canonical text of the chosen action
  int depth = 0;     // deepest completed iteration
  int64_t nodes = 0;
  int score = 0;                // centipawns from the mover's view (mate ~ +-30000)
  std::vector<std::string> pv;  // principal variation, canonical texts
  bool stopped = false;         // the stop flag ended the search
};

// SplitMix64: tiny, seedable, identical everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed ^ 0x9E3779B97F4A7C15ULL) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n).
  uint64_t Below(uint64_t n) { return n ? Next() % n : 0; }
  double Uniform() { return double(Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

inline bool StopRequested(const SearchLimits& limits) {
  return limits.stop != nullptr && limits.stop->load(std::memory_order_relaxed);
}

}  // namespace arena::bots
