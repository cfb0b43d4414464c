// The chess searcher: negamax alpha-beta over engine/chess's Position with make/unmake.
//
// Iterative deepening with aspiration windows; principal variation search (null windows after
// the first move); a transposition table of fixed size (always replace; the entry also keeps
// the static evaluation) used by the main search and by quiescence; quiescence over captures
// and queen promotions (all evasions when in check) with static-exchange (SEE) pruning of
// losing captures; null-move pruning (Position::DoNullMove); reverse futility, futility,
// late-move and SEE pruning near the leaves; late-move reductions; check and singular
// extensions; move
// ordering TT move, winning and even captures by MVV-LVA, queen promotions, two killers per
// ply, a counter move, history and continuation history (with a malus for quiet moves that
// failed), losing captures last. Repetitions of the game history or of the search line score
// as draws. A ChessSearcher keeps its tables between calls (arena-uci) unless Clear() is
// called; the bot service builds a fresh one per request so answers depend only on the
// request.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "bots/chess/chess_eval.h"
#include "bots/core/search_common.h"
#include "engine/chess/movegen.h"
#include "engine/chess/position.h"

namespace arena::bots {

inline constexpr int kMateScore = 30000;
inline constexpr int kMaxPly = 128;

class ChessSearcher {
 public:
  explicit ChessSearcher(int hash_mb = 4);
  void Resize(int hash_mb);
  void Clear();
  void set_weights(const ChessEvalWeights& w) { weights_ = w; }

  // `history` holds the repetition keys of the positions before `pos` in the game (oldest
  // first), so repetitions count as draws. `pos` must have a legal move.
  // `on_iteration` (optional) is told about each finished iteration.
  SearchResult Search(const engine::chess::Position& pos, const std::vector<uint64_t>& history,
                      const SearchLimits& limits,
                      const std::function<void(const SearchResult&)>& on_iteration = {});

 private:
  struct TTEntry {
    uint64_t key = 0;
    int16_t score = 0;
    int16_t eval = 0;  // static evaluation of the position
    uint16_t move = 0;
    int8_t depth = -1;  // 0 = stored by quiescence
    uint8_t bound = 0;
  };
  int Negamax(int depth, int ply, int alpha, int beta, bool null_ok);
  int Quiesce(int ply, int alpha, int beta);
  bool IsRepetition() const;
  bool OutOfBudget();
  void OrderMoves(const engine::chess::MoveList& list, engine::chess::Move tt_move, int ply,
                  int* scores);
  void UpdateQuietHistory(engine::chess::Move best, const engine::chess::Move* tried, int n,
                          int depth, int ply);
  TTEntry* Probe(uint64_t key);
  std::vector<std::string> ExtractPv(int max_len);

  engine::chess::Position pos_;
  std::vector<TTEntry> tt_;
  uint64_t tt_mask_ = 0;
  ChessEvalWeights weights_;
  std::vector<uint64_t> keys_;  // repetition keys along game + search line
  int game_keys_ = 0;
  engine::chess::Move killers_[kMaxPly][2];
  int history_[2][64][64];
  engine::chess::Move counter_[16][64];  // reply that refuted [piece][to] last time
  // Continuation history: how good moving [piece][to] was right after [piece][to] one or two
  // plies earlier; 16*64 tables of 16*64 entries.
  std::vector<int16_t> cont_hist_;
  int16_t* ContHist(int ply, int back);
  engine::chess::Move line_move_[kMaxPly];    // move made at each ply of the current line
  engine::chess::Piece line_piece_[kMaxPly];  // the piece that made it (kNoPiece for null)
  int line_eval_[kMaxPly];                    // static evaluation at each ply
  engine::chess::Move excluded_[kMaxPly];     // move left out by a singular-extension search
  uint64_t root_noise_seed_ = 0;
  SearchLimits limits_;
  int64_t nodes_ = 0;
  bool aborted_ = false;
  int iteration_ = 0;
  engine::chess::Move root_best_;
  int root_best_score_ = 0;
};

// Greedy one-ply choice (level 1): the move whose resulting static evaluation is best, ties
// broken by `seed`.
engine::chess::Move ChessGreedyMove(const engine::chess::Position& pos, uint64_t seed);

// Static exchange evaluation of a legal move: the material (pawn 100, minor 320/330, rook 500,
// queen 950) the mover wins if both sides then keep recapturing on the target square with
// their least valuable attacker, each free to stop (x-rays through the square are seen; pins
// are not). 0 for castling; a quiet move onto a defended square is negative.
int StaticExchange(const engine::chess::Position& pos, engine::chess::Move m);

}  // namespace arena::bots
