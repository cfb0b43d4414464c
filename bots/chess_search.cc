#include "bots/chess_search.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "engine/chess/notation.h"

namespace arena::bots {

using namespace engine::chess;

namespace {

enum Bound : uint8_t { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };

constexpr int kInf = 32000;
constexpr int kMateBound = kMateScore - kMaxPly;

int ScoreToTT(int s, int ply) {
  if (s >= kMateBound) return s + ply;
  if (s <= -kMateBound) return s - ply;
  return s;
}
int ScoreFromTT(int s, int ply) {
  if (s >= kMateBound) return s - ply;
  if (s <= -kMateBound) return s + ply;
  return s;
}

int PieceValue(PieceType t) {
  static constexpr int v[7] = {100, 320, 330, 500, 950, 20000, 0};
  return v[t];
}

// Position offers no null move, so the searcher makes one through FEN: same placement,
// the other side to move, no en-passant square. Only used when the mover is not in check.
absl::StatusOr<Position> NullMovePosition(const Position& pos) {
  std::string fen = pos.Fen();
  // Fields: placement side castling ep rule50 fullmove.
  const size_t s1 = fen.find(' ');
  const size_t s2 = fen.find(' ', s1 + 1);
  const size_t s3 = fen.find(' ', s2 + 1);
  const size_t s4 = fen.find(' ', s3 + 1);
  std::string out = fen.substr(0, s1) + (pos.side_to_move() == kWhite ? " b " : " w ") +
                    fen.substr(s2 + 1, s3 - s2 - 1) + " - 0 1";
  (void)s4;
  return Position::FromFen(out);
}

bool IsCapture(const Position& pos, Move m) {
  return pos.piece_on(m.to()) != kNoPiece || m.kind() == kEnPassant;
}

int LmrReduction(int depth, int move_index) {
  static int table[64][64];
  static bool init = [] {
    for (int d = 0; d < 64; ++d) {
      for (int i = 0; i < 64; ++i) {
        table[d][i] = d < 3 || i < 3 ? 0 : int(0.75 + std::log(d) * std::log(i) / 2.25);
      }
    }
    return true;
  }();
  (void)init;
  return table[std::min(depth, 63)][std::min(move_index, 63)];
}

}  // namespace

ChessSearcher::ChessSearcher(int hash_mb) {
  Resize(hash_mb);
}

void ChessSearcher::Resize(int hash_mb) {
  size_t bytes = size_t(std::max(1, hash_mb)) << 20;
  size_t n = 1;
  while (n * 2 * sizeof(TTEntry) <= bytes) n *= 2;
  tt_.assign(n, TTEntry{});
  tt_mask_ = n - 1;
  Clear();
}

void ChessSearcher::Clear() {
  std::fill(tt_.begin(), tt_.end(), TTEntry{});
  std::memset(history_, 0, sizeof(history_));
  for (auto& k : killers_) k[0] = k[1] = Move();
}

ChessSearcher::TTEntry* ChessSearcher::Probe(uint64_t key) {
  return &tt_[key & tt_mask_];
}

bool ChessSearcher::OutOfBudget() {
  if (aborted_) return true;
  if (limits_.nodes > 0 && nodes_ >= limits_.nodes) aborted_ = true;
  // The first iteration always completes, so even a search stopped at once answers with a
  // searched move.
  if (iteration_ > 1 && (nodes_ & (kStopPollNodes - 1)) == 0 && StopRequested(limits_)) {
    aborted_ = true;
  }
  return aborted_;
}

bool ChessSearcher::IsRepetition() const {
  const int n = int(keys_.size());
  const uint64_t k = keys_.back();
  const int limit = std::min(n - 1, int(pos_.rule50()));
  for (int i = 4; i <= limit; i += 2) {
    if (keys_[n - 1 - i] == k) return true;
  }
  return false;
}

void ChessSearcher::OrderMoves(const MoveList& list, Move tt_move, int ply, int* scores) const {
  const Color us = pos_.side_to_move();
  for (int i = 0; i < list.size(); ++i) {
    const Move m = list[i];
    int s;
    if (m == tt_move) {
      s = 1 << 30;
    } else if (IsCapture(pos_, m)) {
      const Piece victim = pos_.piece_on(m.to());
      const int v = victim == kNoPiece ? 100 : PieceValue(TypeOf(victim));
      s = (1 << 28) + v * 16 - PieceValue(TypeOf(pos_.piece_on(m.from()))) / 100;
    } else if (m.kind() == kPromotion) {
      s = (1 << 27) + (m.promotion() == kQueen ? 1 : 0);
    } else if (ply < kMaxPly && m == killers_[ply][0]) {
      s = (1 << 26) + 1;
    } else if (ply < kMaxPly && m == killers_[ply][1]) {
      s = 1 << 26;
    } else {
      s = history_[us][m.from()][m.to()];
    }
    scores[i] = s;
  }
}

namespace {
// Picks the best remaining move into position i (selection sort step).
void PickNext(MoveList& list, int* scores, int i) {
  int best = i;
  for (int j = i + 1; j < list.size(); ++j) {
    if (scores[j] > scores[best]) best = j;
  }
  if (best != i) {
    std::swap(list.data()[i], list.data()[best]);
    std::swap(scores[i], scores[best]);
  }
}
}  // namespace

int ChessSearcher::Quiesce(int ply, int alpha, int beta) {
  ++nodes_;
  if (OutOfBudget()) return 0;
  const bool in_check = pos_.InCheck();
  if (ply >= kMaxPly - 1) return EvaluateChess(pos_, weights_);
  int best = -kInf;
  if (!in_check) {
    const int stand = EvaluateChess(pos_, weights_);
    if (stand >= beta) return stand;
    if (stand > alpha) alpha = stand;
    best = stand;
  }
  MoveList list;
  GenerateLegal(pos_, list);
  if (list.empty()) return in_check ? -kMateScore + ply : 0;
  int scores[kMaxMoves];
  OrderMoves(list, Move(), kMaxPly, scores);
  for (int i = 0; i < list.size(); ++i) {
    PickNext(list, scores, i);
    const Move m = list[i];
    if (!in_check && !IsCapture(pos_, m) && m.kind() != kPromotion) continue;
    // Delta pruning: a capture that cannot lift the score near alpha is skipped.
    if (!in_check && m.kind() != kPromotion && pos_.piece_on(m.to()) != kNoPiece &&
        best + PieceValue(TypeOf(pos_.piece_on(m.to()))) + 200 < alpha) {
      continue;
    }
    if (!in_check && m.kind() == kPromotion && m.promotion() != kQueen) continue;
    Position::Undo undo;
    pos_.DoMove(m, undo);
    const int score = -Quiesce(ply + 1, -beta, -alpha);
    pos_.UndoMove(m, undo);
    if (aborted_) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        if (score >= beta) break;
      }
    }
  }
  return best;
}

int ChessSearcher::Negamax(int depth, int ply, int alpha, int beta, bool null_ok) {
  const bool root = ply == 0;
  const bool pv_node = beta - alpha > 1;
  if (!root) {
    if (pos_.rule50() >= 100 || IsRepetition() || pos_.InsufficientMaterial()) return 0;
    // Mate distance pruning.
    alpha = std::max(alpha, -kMateScore + ply);
    beta = std::min(beta, kMateScore - ply - 1);
    if (alpha >= beta) return alpha;
  }
  const bool in_check = pos_.InCheck();
  if (in_check) ++depth;  // check extension
  if (depth <= 0) return Quiesce(ply, alpha, beta);
  ++nodes_;
  if (OutOfBudget()) return 0;
  if (ply >= kMaxPly - 1) return EvaluateChess(pos_, weights_);

  const uint64_t key = pos_.key();
  TTEntry* tte = Probe(key);
  Move tt_move;
  if (tte->key == key) {
    tt_move = std::bit_cast<Move>(tte->move);
    if (!pv_node && tte->depth >= depth) {
      const int s = ScoreFromTT(tte->score, ply);
      if (tte->bound == kExact || (tte->bound == kLower && s >= beta) ||
          (tte->bound == kUpper && s <= alpha)) {
        return s;
      }
    }
  }

  const Color us = pos_.side_to_move();
  // Reverse futility pruning: near the leaves, a static score far above beta stands.
  int static_eval = 0;
  const bool can_prune = !pv_node && !in_check && std::abs(beta) < kMateBound;
  if (can_prune && depth <= 6) {
    static_eval = EvaluateChess(pos_, weights_);
    if (static_eval - 90 * depth >= beta) return static_eval - 90 * depth;
  }
  // Futility: at the frontier, quiet moves cannot raise a hopeless static score to alpha.
  const bool futile = can_prune && depth <= 2 && static_eval + 120 * depth <= alpha;
  // Null move: give the opponent a free move; if we still beat beta, prune.
  if (null_ok && !pv_node && !in_check && depth >= 3 &&
      (pos_.pieces(us) & ~pos_.pieces(us, kPawn, kKing)) != 0) {
    const int stand = EvaluateChess(pos_, weights_);
    if (stand >= beta) {
      const int r = 2 + depth / 4;
      absl::StatusOr<Position> passed = NullMovePosition(pos_);
      if (passed.ok()) {
        const Position saved = pos_;
        pos_ = *passed;
        keys_.push_back(pos_.key());
        const int score = -Negamax(depth - 1 - r, ply + 1, -beta, -beta + 1, false);
        keys_.pop_back();
        pos_ = saved;
        if (aborted_) return 0;
        if (score >= beta) return score >= kMateBound ? beta : score;
      }
    }
  }

  MoveList list;
  GenerateLegal(pos_, list);
  if (list.empty()) return in_check ? -kMateScore + ply : 0;
  int scores[kMaxMoves];
  OrderMoves(list, tt_move, ply, scores);
  if (root && root_noise_seed_ != 0) {
    // Seeded tie-break: a tiny deterministic perturbation of the quiet-move order.
    Rng rng(root_noise_seed_);
    for (int i = 0; i < list.size(); ++i) scores[i] += int(rng.Below(8));
  }

  int best = -kInf;
  Move best_move;
  const int orig_alpha = alpha;
  int searched = 0;
  for (int i = 0; i < list.size(); ++i) {
    PickNext(list, scores, i);
    const Move m = list[i];
    const bool capture = IsCapture(pos_, m);
    const bool quiet = !capture && m.kind() != kPromotion;
    Position::Undo undo;
    pos_.DoMove(m, undo);
    const bool gives_check = pos_.InCheck();
    if (futile && quiet && !gives_check && searched > 0) {
      pos_.UndoMove(m, undo);
      continue;
    }
    keys_.push_back(pos_.key());
    int score;
    if (searched == 0) {
      score = -Negamax(depth - 1, ply + 1, -beta, -alpha, true);
    } else {
      int reduction = 0;
      if (quiet && !in_check && !gives_check && depth >= 3 && searched >= 3) {
        reduction = LmrReduction(depth, searched);
        if (pv_node) reduction = std::max(0, reduction - 1);
        reduction = std::min(reduction, depth - 2);
      }
      score = -Negamax(depth - 1 - reduction, ply + 1, -alpha - 1, -alpha, true);
      if (!aborted_ && score > alpha && reduction > 0) {
        score = -Negamax(depth - 1, ply + 1, -alpha - 1, -alpha, true);
      }
      if (!aborted_ && score > alpha && score < beta) {
        score = -Negamax(depth - 1, ply + 1, -beta, -alpha, true);
      }
    }
    keys_.pop_back();
    pos_.UndoMove(m, undo);
    if (aborted_) return 0;
    ++searched;
    if (score > best) {
      best = score;
      best_move = m;
      if (root) {
        root_best_ = m;
        root_best_score_ = score;
      }
      if (score > alpha) {
        alpha = score;
        if (score >= beta) {
          if (quiet && ply < kMaxPly) {
            if (!(killers_[ply][0] == m)) {
              killers_[ply][1] = killers_[ply][0];
              killers_[ply][0] = m;
            }
            int& h = history_[us][m.from()][m.to()];
            h = std::min(h + depth * depth, 1 << 20);
          }
          break;
        }
      }
    }
  }
  (void)null_ok;

  tte->key = key;
  tte->score = int16_t(ScoreToTT(best, ply));
  uint16_t raw = best_move.raw();
  tte->move = raw;
  tte->depth = int8_t(std::min(depth, 127));
  tte->bound = best >= beta ? kLower : best > orig_alpha ? kExact : kUpper;
  return best;
}

std::vector<std::string> ChessSearcher::ExtractPv(int max_len) {
  std::vector<std::string> pv;
  std::vector<std::pair<Move, Position::Undo>> done;
  for (int i = 0; i < max_len; ++i) {
    const TTEntry* e = Probe(pos_.key());
    if (e->key != pos_.key() || e->move == 0) break;
    const Move m = std::bit_cast<Move>(e->move);
    MoveList list;
    GenerateLegal(pos_, list);
    if (!list.contains(m)) break;
    pv.push_back(MoveToUci(m));
    Position::Undo undo;
    pos_.DoMove(m, undo);
    done.push_back({m, undo});
  }
  for (auto it = done.rbegin(); it != done.rend(); ++it) pos_.UndoMove(it->first, it->second);
  return pv;
}

SearchResult ChessSearcher::Search(const Position& pos, const std::vector<uint64_t>& history,
                                   const SearchLimits& limits,
                                   const std::function<void(const SearchResult&)>& on_iteration) {
  pos_ = pos;
  limits_ = limits;
  nodes_ = 0;
  aborted_ = false;
  keys_ = history;
  keys_.push_back(pos_.key());
  root_noise_seed_ = limits.seed;
  for (auto& k : killers_) k[0] = k[1] = Move();
  for (auto& a : history_) {
    for (auto& b : a) {
      for (int& h : b) h /= 8;
    }
  }

  SearchResult result;
  MoveList list;
  GenerateLegal(pos_, list);
  if (list.empty()) return result;
  // A first move to fall back on even if the very first iteration is cut short.
  Move best = list[0];
  int best_score = 0;
  for (int depth = 1; depth <= std::min(limits.depth, kMaxPly - 2); ++depth) {
    root_best_ = Move();
    iteration_ = depth;
    const int score = Negamax(depth, 0, -kInf, kInf, false);
    if (aborted_) {
      // A move of the unfinished iteration that beat the previous best is trusted.
      if (!root_best_.is_none() && depth > 1 && root_best_score_ > best_score) {
        best = root_best_;
        best_score = root_best_score_;
      }
      result.stopped = StopRequested(limits) && !(limits.nodes > 0 && nodes_ >= limits.nodes);
      break;
    }
    best = root_best_.is_none() ? best : root_best_;
    best_score = score;
    result.depth = depth;
    result.score = best_score;
    result.move = MoveToUci(best);
    result.nodes = nodes_;
    result.pv = ExtractPv(depth);
    if (result.pv.empty() || result.pv[0] != result.move) result.pv = {result.move};
    if (on_iteration) on_iteration(result);
    if (std::abs(score) >= kMateBound && depth > 2 * (kMateScore - std::abs(score)) + 2) break;
  }
  result.move = MoveToUci(best);
  result.score = best_score;
  result.nodes = nodes_;
  if (result.pv.empty() || result.pv[0] != result.move) result.pv = {result.move};
  return result;
}

Move ChessGreedyMove(const Position& pos, uint64_t seed) {
  MoveList list;
  GenerateLegal(pos, list);
  if (list.empty()) return Move();
  Rng rng(seed);
  const ChessEvalWeights& w = DefaultChessEvalWeights();
  Move best;
  int64_t best_key = INT64_MIN;
  Position p = pos;
  for (Move m : list) {
    Position::Undo undo;
    p.DoMove(m, undo);
    MoveList reply;
    GenerateLegal(p, reply);
    int score;
    if (reply.empty()) {
      score = p.InCheck() ? kMateScore : 0;
    } else {
      score = -EvaluateChess(p, w);
    }
    p.UndoMove(m, undo);
    const int64_t key = int64_t(score) * 1024 + int64_t(rng.Below(1024));
    if (key > best_key) {
      best_key = key;
      best = m;
    }
  }
  return best;
}

}  // namespace arena::bots
