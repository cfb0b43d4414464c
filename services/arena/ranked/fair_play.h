// The fair-play (engine-use) check for ranked chess (issue 26): how closely each player's moves
// follow a strong engine's, against what their rating explains.
//
// Every position of the game from the end of the opening on is searched once by the reference
// engine (Debian's Stockfish at full strength, fixed depth; bots/chess/stockfish_player.h). A
// search gives the best move and its score from the mover's view, so the score of the move
// actually played is the negated score of the next position's search. When the played move is
// not the engine's, the position after the engine's move is searched too, so both moves are
// scored the same way, at the same depth: N + 1 searches for N moves, plus one per mismatch.
// Our own engine (engine/chess/) replays the moves: it refuses illegal ones, finds the
// positions with one legal move, and scores a move that ends the game itself (mate for the
// mover, stalemate 0) where the engine has nothing to search.
//
// Per move: engine match (the engine's move, or one it scores as well) and centipawn loss,
// max(0, best − played) with both scores clamped to ±kClampCp first (0 for a match). Per
// player: the moves analysed, the match count and rate, the average centipawn loss (ACPL) and,
// when timings are given, the median think time and its coefficient of variation. Which moves
// are left out, and why, is in FairPlayOptions; the flag rule is in FlagLimits. The decisions
// and the measured cost are in docs/ranked.md ("Fair play").
//
// The check flags a player for an admin's review; it never decides anything by itself. The
// figures are evidence, repeated in `evidence_json` with every threshold used.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace arena::ranked {

// Scores are clamped to ±kClampCp before a loss is computed, so a missed mate or a blunder in
// a lost position counts as one big mistake, not as thirty thousand centipawns.
inline constexpr int kClampCp = 1000;
// The score the reference engine gives a mate (mate in n is ±(kMateCp − n)).
inline constexpr int kMateCp = 30000;

// What the check needs of a finished (or stopped) ranked game. Players are colour indices:
// 0 = white, 1 = black; the first move is made by the side to move in `start_fen`.
struct FairPlayGame {
  std::string start_fen;                         // empty: the standard start position
  std::vector<std::string> moves;                // UCI, in order
  std::vector<int64_t> think_ms;                 // per move, milliseconds; empty when unknown
  std::array<double, 2> ratings = {1500, 1500};  // Glicko-2 ratings before the game
};

// One search of the reference engine: its best move (UCI) and score (centipawns, the mover's
// view; mate in n is ±(kMateCp − n)) for the position after `moves` from `start_fen`.
struct EngineSearchResult {
  std::string best_move;
  int score_cp = 0;
};
using EngineSearch = std::function<absl::StatusOr<EngineSearchResult>(
    const std::string& start_fen, const std::vector<std::string>& moves, int depth)>;

// Debian's Stockfish at full strength, "go depth N", through StockfishMove. UNAVAILABLE when it
// cannot be started or stops answering.
absl::StatusOr<EngineSearchResult> StockfishSearch(const std::string& start_fen,
                                                   const std::vector<std::string>& moves,
                                                   int depth);

// When a player is an outlier: enough moves analysed, a match rate at least `min_match_rate`,
// and an ACPL at most `acpl_fraction` of what their rating explains (ExpectedAcpl). Both
// figures must be engine-like: a strong player matches the engine often but still loses
// centipawns; a careful weak one may lose few in a quiet game but rarely finds the engine's
// move.
struct FlagLimits {
  int min_moves = 20;
  double min_match_rate = 0.65;
  double acpl_fraction = 0.35;
};

struct FairPlayOptions {
  // Search depth of the reference engine, 1..30. At 12 a game takes a few seconds on the
  // two-core development machine: 2.7-4.0 s for 50 moves of engine-like play, 4.7-6.4 s for 40
  // moves of random play (every move a mismatch, so one more search each), measured with other
  // builds running (docs/ranked.md, "Fair play").
  int depth = 12;
  // The opening: the first `book_plies` plies of the game are not analysed (everyone, engine
  // or not, plays known moves there).
  int book_plies = 16;
  // A decided position: the engine's score of the position before the move beyond
  // ±decided_margin_cp for the mover. Any
  // sensible move keeps such a position won (or lost), so moves there say little, and near the
  // clamp they would count as free zero-loss moves.
  int decided_margin_cp = 500;
  FlagLimits limits;
  // The reference engine; empty means StockfishSearch. Tests may put a scripted one here.
  EngineSearch search;
};

// Why a move was left out of the figures.
enum class MoveExclusion {
  kNone,     // analysed
  kBook,     // within the first book_plies plies
  kForced,   // the only legal move
  kDecided,  // the position was already decided (|best score| > decided_margin_cp)
};
const char* MoveExclusionName(MoveExclusion e);

// One move of the game as the check saw it. For a book move nothing was searched: `best` is
// empty and the scores are 0.
struct MoveVerdict {
  int ply = 0;    // 0-based index into FairPlayGame::moves
  int color = 0;  // 0 = white, 1 = black
  std::string played;
  std::string best;        // the engine's best move in the position before
  int best_cp = 0;         // its score for the mover, from the position it leads to, clamped
  int played_cp = 0;       // the played move's score, found the same way
  int cp_loss = 0;         // max(0, best_cp − played_cp)
  bool same_move = false;  // played == best
  // The engine's choice: its move, or one it scores at least as well when both are searched
  // the same way (cp_loss 0). Between moves of equal value the engine's pick depends on what
  // its hash table holds from earlier searches, so "the same move" alone would count an
  // engine's own equal alternative as a miss.
  bool engine_match = false;
  int64_t think_ms = -1;  // -1: unknown
  MoveExclusion excluded = MoveExclusion::kNone;
};

// One player's figures over their analysed moves.
struct PlayerFairPlay {
  int color = 0;
  double rating = 0;
  int moves_played = 0;
  int moves_analysed = 0;
  int engine_matches = 0;  // analysed moves with engine_match
  int same_moves = 0;      // analysed moves with same_move (evidence only)
  double match_rate = 0;   // engine_matches / moves_analysed; 0 when nothing was analysed
  double acpl = 0;         // average cp_loss over the analysed moves
  std::optional<double> median_think_ms;  // over the analysed moves, when timings are given
  std::optional<double> think_time_cv;    // stddev / mean of the same; needs 2+ and mean > 0
  double expected_acpl = 0;               // ExpectedAcpl(rating)
  double acpl_limit = 0;  // expected_acpl × acpl_fraction: an ACPL at or below is suspicious
  bool flagged = false;
  // Every figure above, the options and limits used, and the player's moves (analysed and
  // excluded, with the reason) as JSON.
  std::string evidence_json;
};

struct FairPlayReport {
  int depth = 0;
  std::vector<MoveVerdict> moves;  // every move of the game, in order
  std::array<PlayerFairPlay, 2> players;
};

// The ACPL a player of `rating` is expected to show against a strong engine: a coarse straight
// line, 120 − 0.04 × rating clamped to [15, 100] (1000 → 80, 1500 → 60, 2000 → 40, 2500 → 20).
// Deliberately generous to strong players (the floor), so the flag needs a very clean game.
double ExpectedAcpl(double rating);

// The per-player figures and the flag decision from already judged moves: pure, no engine.
// `moves` is a game's list (both colours); only `color`'s moves count.
PlayerFairPlay SummarisePlayer(const std::vector<MoveVerdict>& moves, int color, double rating,
                               const FairPlayOptions& options);

// Runs the check over a game. INVALID_ARGUMENT for a bad FEN, an illegal move (the ply is
// named), a timing list whose length is neither 0 nor the number of moves, a negative timing,
// a rating that is not finite or options out of range; UNAVAILABLE when the engine fails.
// Figures may differ by a few centipawns between runs: the engine's hash table keeps what
// earlier searches found.
absl::StatusOr<FairPlayReport> AnalyseFairPlay(const FairPlayGame& game,
                                               const FairPlayOptions& options = {});

}  // namespace arena::ranked
