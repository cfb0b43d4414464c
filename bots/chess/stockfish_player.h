// Stockfish as a chess player at a fixed strength: the chess anchors whose scale people know.
//
// A Stockfish level is Debian's Stockfish (/usr/games/stockfish, 15.1) with UCI_LimitStrength
// on and UCI_Elo at the level's value, searching each move for a short fixed time. It is a
// separate family from our own search levels (bots/core/levels.h): a seat or request names it by
// its UCI_Elo (SeatSpec.stockfish_elo, participant "stockfish:<elo>"), and the Bradley–Terry
// leaderboard anchors it at that Elo. UCI_Elo 0 asks for full strength (no limit): the strong
// search that adjudicates chess games stopped by the move cap. See docs/bots.md.
//
// Engines are child processes kept in a small pool and reused across requests (starting one
// costs tens of milliseconds); a process that misbehaves is killed, not returned. Thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bots/core/bot.h"

namespace arena::bots {

// The UCI_Elo range of Debian's Stockfish 15.1.
inline constexpr int kStockfishMinElo = 1350;
inline constexpr int kStockfishMaxElo = 2850;
inline constexpr int kStockfishDefaultMoveTimeMs = 100;

struct StockfishRequest {
  std::string start_fen;           // the game's start position
  std::vector<std::string> moves;  // UCI moves since, so the engine sees repetitions
  int elo = 0;                     // kStockfishMinElo..kStockfishMaxElo, or 0 for full strength
  int64_t movetime_ms = kStockfishDefaultMoveTimeMs;
  // When > 0, "go depth N" instead of a time, on an emptied hash table ("ucinewgame"), so the
  // same position at the same depth always gets the same answer, whatever the process searched
  // before.
  int depth = 0;
};

struct StockfishAnswer {
  std::string move;  // UCI
  int score_cp = 0;  // from the mover's view; mate in n is ±(30000 - n)
  int depth = 0;
  int64_t nodes = 0;
};

// The path used: $ARENA_STOCKFISH when set, else /usr/games/stockfish.
std::string StockfishPath();

// INVALID_ARGUMENT for an Elo outside the range (other than 0) or a negative time;
// UNAVAILABLE when the engine cannot be started or stops answering.
absl::StatusOr<StockfishAnswer> StockfishMove(const StockfishRequest& request);

// A bot request whose stockfish_elo is set, on a parsed state: chess only (INVALID_ARGUMENT
// otherwise); the time is the request's time cap when smaller than the default.
absl::StatusOr<BotAnswer> StockfishBotMove(const engine::State& state, const BotRequest& request);

}  // namespace arena::bots
