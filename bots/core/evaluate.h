// A bot's judgement of one move already chosen (a model's or a person's): the move the search
// prefers, how much the played move gives away against it, and a mark for the bad ones.
//
// Two seats: the position after each of the two moves (the search's best and the one played) is
// searched for the seat to act there with the same budget, and its value is read from the mover's
// side (negated when the other seat is to act, as is when the mover acts again). Both moves are
// judged by the same search, so the best move loses nothing and a played move equal to it loses
// exactly 0. A move that ends the game is worth its outcome. The loss is turned into the share of
// winning chances it gives away (WinShare below), which is what the marks read, so a move that
// only turns +2,000 into +1,500 in a won position is not a blunder.
//
// Three or more seats: the searches' values are each seat's own standing against the others, not
// comparable from one seat's side across two children, so only the preferred move is reported
// (`has_loss` false, no mark). Neither is there a loss when the move leads to a chance event (a
// dart round): the value would be an average the searches do not compute.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "bots/core/bot.h"
#include "engine/core/game.h"

namespace arena::bots {

// Win-share drops (in percentage points) from which a move is marked.
inline constexpr double kInaccuracyShare = 10;
inline constexpr double kMistakeShare = 20;
inline constexpr double kBlunderShare = 30;

struct MoveEvaluation {
  std::string best_move;  // what the search prefers for the mover
  bool matched = false;   // the played move is that move
  bool has_loss = false;  // the fields below are set (two seats, no chance event next)
  int best_cp = 0;        // the value of the best move, mover's view (wins +-30000)
  int played_cp = 0;      // the value of the played move, the same way
  int loss_cp = 0;        // max(0, best_cp - played_cp)
  double share_lost = 0;  // WinShare(best_cp) - WinShare(played_cp), at least 0
  std::string mark;       // "", "inaccuracy", "mistake" or "blunder"
  std::string algorithm;  // what searched ("alphabeta", "mcts", ...)
  int depth = 0;          // the root search's completed depth
  int64_t nodes = 0;      // every search's nodes together
  bool stopped = false;   // a search was stopped by `request.stop` before its budget
};

// The share of winning chances (0..100) a value gives its side: a logistic curve through 50 at 0,
// about 68 at +200 and 97.5 at +1000.
double WinShare(int cp);

// The mark of a win-share drop, "" below kInaccuracyShare.
std::string_view MarkOf(double share_lost);

// Evaluates `move` (as LegalActions writes it) for `request.seat` in `state` with the search of
// `request.level` (or `request.node_budget`). INVALID_ARGUMENT: the move is not legal there, or
// the request is one ChooseBotMoveForState refuses; FAILED_PRECONDITION: as it.
absl::StatusOr<MoveEvaluation> EvaluateMoveForState(const engine::State& state,
                                                    const BotRequest& request,
                                                    std::string_view move);

// The same from the request's game, variant and position.
absl::StatusOr<MoveEvaluation> EvaluateMove(const BotRequest& request, std::string_view move);

}  // namespace arena::bots
