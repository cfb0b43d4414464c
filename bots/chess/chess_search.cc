#include "bots/chess/chess_search.h"

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

bool IsCapture(const Position& pos, Move m) {
  return pos.piece_on(m.to()) != kNoPiece || m.kind() == kEnPassant;
}

int LmrReduction(int depth, int move_index) {
  static int table[64][64];
  static bool init = [] {
    for (int d = 0; d < 64; ++d) {
      for (int i = 0; i < 64; ++i) {
        table[d][i] = d < 3 || i < 2 ? 0 : int(0.8 + std::log(d) * std::log(i) / 2.1);
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
  for (auto& row : counter_) {
    for (Move& m : row) m = Move();
  }
  cont_hist_.assign(size_t(16 * 64) * 16 * 64, 0);
}

int16_t* ChessSearcher::ContHist(int ply, int back) {
  if (ply < back || ply >= kMaxPly) return nullptr;
  const int i = ply - back;
  if (line_piece_[i] == kNoPiece) return nullptr;
  return &cont_hist_[(size_t(line_piece_[i]) * 64 + line_move_[i].to()) * (16 * 64)];
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

namespace {

constexpr int kGoodCapture = 1 << 28;
constexpr int kPromotionScore = 1 << 27;
constexpr int kKillerScore = 1 << 26;
constexpr int kCounterScore = 1 << 25;
constexpr int kBadCapture = -(1 << 24);
constexpr int kHistoryMax = 1 << 14;

// Least valuable piece of `side` among `attackers`; kNoPieceType when none.
PieceType LeastValuable(const Position& pos, Bitboard attackers, Color side, Square& from) {
  for (int t = kPawn; t <= kKing; ++t) {
    const Bitboard b = attackers & pos.pieces(side, PieceType(t));
    if (b) {
      from = Lsb(b);
      return PieceType(t);
    }
  }
  return kNoPieceType;
}

}  // namespace

int StaticExchange(const Position& pos, Move m) {
  if (m.kind() == kCastling) return 0;
  const Square from = m.from(), to = m.to();
  const Color us = pos.side_to_move();
  int gain[40];
  int d = 0;
  Bitboard occ = pos.pieces() ^ SquareBB(from);
  if (m.kind() == kEnPassant) {
    gain[0] = PieceValue(kPawn);
    occ ^= SquareBB(Square(to ^ 8));
  } else {
    const Piece victim = pos.piece_on(to);
    gain[0] = victim == kNoPiece ? 0 : PieceValue(TypeOf(victim));
  }
  int risked = PieceValue(TypeOf(pos.piece_on(from)));
  if (m.kind() == kPromotion) {
    gain[0] += PieceValue(m.promotion()) - PieceValue(kPawn);
    risked = PieceValue(m.promotion());
  }
  const Bitboard diag = pos.pieces(kBishop) | pos.pieces(kQueen);
  const Bitboard orth = pos.pieces(kRook) | pos.pieces(kQueen);
  Bitboard attackers = pos.AttackersTo(to, occ) & occ;
  Color side = ~us;
  while (d < 38) {
    ++d;
    gain[d] = risked - gain[d - 1];  // what `side` gains by taking the piece just moved there
    if (std::max(-gain[d - 1], gain[d]) < 0) break;
    Square sq;
    const PieceType t = LeastValuable(pos, attackers, side, sq);
    if (t == kNoPieceType) break;
    occ ^= SquareBB(sq);
    attackers |= (BishopAttacks(to, occ) & diag) | (RookAttacks(to, occ) & orth);
    attackers &= occ;
    risked = PieceValue(t);
    side = ~side;
  }
  while (--d) gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
  return gain[0];
}

void ChessSearcher::OrderMoves(const MoveList& list, Move tt_move, int ply, int* scores) {
  const Color us = pos_.side_to_move();
  const int16_t* ch1 = ContHist(ply, 1);
  const int16_t* ch2 = ContHist(ply, 2);
  Move counter;
  if (ply > 0 && ply < kMaxPly && line_piece_[ply - 1] != kNoPiece) {
    counter = counter_[line_piece_[ply - 1]][line_move_[ply - 1].to()];
  }
  for (int i = 0; i < list.size(); ++i) {
    const Move m = list[i];
    int s;
    if (m == tt_move) {
      s = 1 << 30;
    } else if (IsCapture(pos_, m)) {
      const Piece victim = pos_.piece_on(m.to());
      const int v = victim == kNoPiece ? 100 : PieceValue(TypeOf(victim));
      const int a = PieceValue(TypeOf(pos_.piece_on(m.from())));
      const int mvv_lva = v * 16 - a / 100;
      // Only a capture by a more valuable piece can lose material.
      s = (a <= v || StaticExchange(pos_, m) >= 0) ? kGoodCapture + mvv_lva : kBadCapture + mvv_lva;
    } else if (m.kind() == kPromotion) {
      s = m.promotion() == kQueen ? kPromotionScore : kBadCapture - 1;
    } else if (ply < kMaxPly && m == killers_[ply][0]) {
      s = kKillerScore + 1;
    } else if (ply < kMaxPly && m == killers_[ply][1]) {
      s = kKillerScore;
    } else if (m == counter) {
      s = kCounterScore;
    } else {
      s = history_[us][m.from()][m.to()];
      const int pt = pos_.piece_on(m.from()) * 64 + m.to();
      if (ch1) s += ch1[pt];
      if (ch2) s += ch2[pt];
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

// History with gravity: entries stay within +-kHistoryMax and recent results weigh most.
void AddHistory(int& h, int bonus) {
  h += bonus - h * std::abs(bonus) / kHistoryMax;
}
void AddContHistory(int16_t& h, int bonus) {
  int v = h;
  AddHistory(v, bonus);
  h = int16_t(v);
}
}  // namespace

void ChessSearcher::UpdateQuietHistory(Move best, const Move* tried, int n, int depth, int ply) {
  const Color us = pos_.side_to_move();
  if (ply < kMaxPly && !(killers_[ply][0] == best)) {
    killers_[ply][1] = killers_[ply][0];
    killers_[ply][0] = best;
  }
  if (ply > 0 && ply < kMaxPly && line_piece_[ply - 1] != kNoPiece) {
    counter_[line_piece_[ply - 1]][line_move_[ply - 1].to()] = best;
  }
  const int bonus = std::min(depth * depth + depth, 1200);
  int16_t* ch1 = ContHist(ply, 1);
  int16_t* ch2 = ContHist(ply, 2);
  auto update = [&](Move m, int b) {
    AddHistory(history_[us][m.from()][m.to()], b);
    const int pt = pos_.piece_on(m.from()) * 64 + m.to();
    if (ch1) AddContHistory(ch1[pt], b);
    if (ch2) AddContHistory(ch2[pt], b);
  };
  update(best, bonus);
  for (int i = 0; i < n; ++i) {
    if (!(tried[i] == best)) update(tried[i], -bonus);
  }
}

int ChessSearcher::Quiesce(int ply, int alpha, int beta) {
  ++nodes_;
  if (OutOfBudget()) return 0;
  if (ply >= kMaxPly - 1) return EvaluateChess(pos_, weights_);
  const bool in_check = pos_.InCheck();

  const uint64_t key = pos_.key();
  TTEntry* tte = Probe(key);
  Move tt_move;
  const bool tt_hit = tte->key == key;
  if (tt_hit) {
    tt_move = std::bit_cast<Move>(tte->move);
    const int s = ScoreFromTT(tte->score, ply);
    if (beta - alpha == 1 && (tte->bound == kExact || (tte->bound == kLower && s >= beta) ||
                              (tte->bound == kUpper && s <= alpha))) {
      return s;
    }
  }
  int best = -kInf;
  int stand = 0;
  if (!in_check) {
    stand = tt_hit ? tte->eval : EvaluateChess(pos_, weights_);
    if (stand >= beta) {
      if (!tt_hit && tte->depth <= 0) {
        tte->key = key;
        tte->score = int16_t(stand);
        tte->eval = int16_t(stand);
        tte->move = 0;
        tte->depth = 0;
        tte->bound = kLower;
      }
      return stand;
    }
    if (stand > alpha) alpha = stand;
    best = stand;
  }
  MoveList list;
  GenerateTactical(pos_, list);
  if (list.empty() && in_check) return -kMateScore + ply;
  int scores[kMaxMoves];
  OrderMoves(list, tt_move, kMaxPly, scores);
  const int orig_alpha = alpha;
  Move best_move;
  for (int i = 0; i < list.size(); ++i) {
    PickNext(list, scores, i);
    const Move m = list[i];
    if (!in_check) {
      // Delta pruning: a capture that cannot lift the score near alpha is skipped.
      const Piece victim = pos_.piece_on(m.to());
      if (m.kind() != kPromotion && victim != kNoPiece &&
          stand + PieceValue(TypeOf(victim)) + 200 < alpha) {
        continue;
      }
      // Captures that lose material are not worth a look.
      if (scores[i] < kPromotionScore && StaticExchange(pos_, m) < 0) continue;
    }
    Position::Undo undo;
    pos_.DoMove(m, undo);
    __builtin_prefetch(Probe(pos_.key()));
    const int score = -Quiesce(ply + 1, -beta, -alpha);
    pos_.UndoMove(m, undo);
    if (aborted_) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        best_move = m;
        alpha = score;
        if (score >= beta) break;
      }
    }
  }
  // Quiescence results never displace an entry of the main search.
  if (tte->depth <= 0) {
    tte->key = key;
    tte->score = int16_t(ScoreToTT(best, ply));
    tte->eval = int16_t(in_check ? 0 : stand);
    tte->move = best_move.raw();
    tte->depth = 0;
    tte->bound = best >= beta ? kLower : best > orig_alpha ? kExact : kUpper;
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

  // A singular-extension search of this node without one move: no table cutoff or store, no
  // pruning of the whole node.
  const Move excluded = excluded_[ply];
  const bool excluding = !excluded.is_none();
  const uint64_t key = pos_.key();
  TTEntry* tte = Probe(key);
  Move tt_move;
  const bool tt_hit = tte->key == key;
  // Copies: the slot may be overwritten by the searches below.
  int tt_score = 0, tt_depth = -1;
  uint8_t tt_bound = kNone;
  if (tt_hit) {
    tt_move = std::bit_cast<Move>(tte->move);
    tt_score = ScoreFromTT(tte->score, ply);
    tt_depth = tte->depth;
    tt_bound = tte->bound;
    if (!pv_node && !excluding && tte->depth >= depth) {
      if (tte->bound == kExact || (tte->bound == kLower && tt_score >= beta) ||
          (tte->bound == kUpper && tt_score <= alpha)) {
        return tt_score;
      }
    }
  }

  const Color us = pos_.side_to_move();
  int static_eval = 0;
  if (!in_check) {
    static_eval = tt_hit ? tte->eval : EvaluateChess(pos_, weights_);
  }
  line_eval_[ply] = in_check ? -kInf : static_eval;
  const bool improving = !in_check && ply >= 2 && static_eval > line_eval_[ply - 2];
  // The TT score is a better guess than the static evaluation when its bound allows.
  int eval = static_eval;
  if (tt_hit && !in_check && std::abs(tt_score) < kMateBound &&
      (tt_bound & (tt_score > static_eval ? kLower : kUpper))) {
    eval = tt_score;
  }

  const bool can_prune = !pv_node && !in_check && !excluding && std::abs(beta) < kMateBound;
  // Reverse futility pruning: near the leaves, a static score far above beta stands.
  if (can_prune && depth <= 7 && eval - 80 * (depth - (improving ? 1 : 0)) >= beta) {
    return eval;
  }
  // Null move: give the opponent a free move; if we still beat beta, prune.
  if (null_ok && can_prune && depth >= 3 && eval >= beta && static_eval >= beta &&
      (pos_.pieces(us) & ~pos_.pieces(us, kPawn, kKing)) != 0) {
    const int r = 3 + depth / 4 + std::min(3, (eval - beta) / 200);
    Position::Undo undo;
    pos_.DoNullMove(undo);
    keys_.push_back(pos_.key());
    line_move_[ply] = Move();
    line_piece_[ply] = kNoPiece;
    const int score = -Negamax(depth - 1 - r, ply + 1, -beta, -beta + 1, false);
    keys_.pop_back();
    pos_.UndoNullMove(undo);
    if (aborted_) return 0;
    if (score >= beta) return score >= kMateBound ? beta : score;
  }
  // Internal iterative reduction: without a TT move this node was never searched; a shallower
  // search fills the table more cheaply.
  if (depth >= 4 && tt_move.is_none() && !root && !excluding) --depth;

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
  Move quiets[kMaxMoves];
  int n_quiets = 0;
  const int lmp_limit = (3 + depth * depth) / (improving ? 1 : 2);
  for (int i = 0; i < list.size(); ++i) {
    PickNext(list, scores, i);
    const Move m = list[i];
    if (m == excluded) continue;
    const bool capture = IsCapture(pos_, m);
    const bool quiet = !capture && m.kind() != kPromotion;
    const bool prunable = !root && !in_check && searched > 0 && best > -kMateBound;
    // Singular extension: when the TT move is much better than every other move (a search
    // without it at reduced depth fails low well below its score), it is searched one ply
    // deeper. When even the others beat beta, the node is cut at once (multi-cut).
    int extension = 0;
    if (m == tt_move && !root && !excluding && depth >= 7 && ply < 2 * iteration_ && tt_hit &&
        (tt_bound & kLower) && tt_depth >= depth - 3 && std::abs(tt_score) < kMateBound) {
      const int singular_beta = tt_score - 2 * depth;
      excluded_[ply] = m;
      const int s = Negamax((depth - 1) / 2, ply, singular_beta - 1, singular_beta, false);
      excluded_[ply] = Move();
      if (aborted_) return 0;
      if (s < singular_beta) {
        extension = 1;
      } else if (singular_beta >= beta) {
        return singular_beta;
      }
    }
    // Shallow pruning that needs no move made: losing captures and quiets late in the list.
    if (prunable && quiet && depth <= 7 && n_quiets >= lmp_limit && !pv_node) continue;
    if (prunable && capture && depth <= 5 && scores[i] < kPromotionScore &&
        StaticExchange(pos_, m) < -100 * depth) {
      continue;
    }
    // Futility: at the frontier, quiet moves cannot raise a hopeless static score to alpha;
    // nor is a quiet move that loses material worth a look there.
    const bool shallow_quiet = prunable && quiet && depth <= 4;
    const bool futile = shallow_quiet && (static_eval + 100 + 90 * depth <= alpha ||
                                          StaticExchange(pos_, m) < -60 * depth);
    const Piece mover = pos_.piece_on(m.from());
    Position::Undo undo;
    pos_.DoMove(m, undo);
    __builtin_prefetch(Probe(pos_.key()));
    const bool gives_check = pos_.InCheck();
    if (futile && !gives_check) {
      pos_.UndoMove(m, undo);
      continue;
    }
    keys_.push_back(pos_.key());
    line_move_[ply] = m;
    line_piece_[ply] = mover;
    int score;
    if (searched == 0) {
      score = -Negamax(depth - 1 + extension, ply + 1, -beta, -alpha, true);
    } else {
      int reduction = 0;
      if (depth >= 3 && searched >= 2 && (quiet || scores[i] < 0)) {
        reduction = LmrReduction(depth, searched);
        if (!pv_node) ++reduction;
        if (!improving) ++reduction;
        if (in_check || gives_check) --reduction;
        if (scores[i] >= kCounterScore) --reduction;  // killers and the counter move
        if (quiet && scores[i] < kCounterScore) reduction -= scores[i] / 10000;
        if (pv_node) --reduction;
        reduction = std::clamp(reduction, 0, depth - 2);
      }
      const int new_depth = depth - 1 + extension;
      score = -Negamax(new_depth - reduction, ply + 1, -alpha - 1, -alpha, true);
      if (!aborted_ && score > alpha && reduction > 0) {
        score = -Negamax(new_depth, ply + 1, -alpha - 1, -alpha, true);
      }
      if (!aborted_ && score > alpha && score < beta) {
        score = -Negamax(new_depth, ply + 1, -beta, -alpha, true);
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
          if (quiet) UpdateQuietHistory(m, quiets, n_quiets, depth, ply);
          break;
        }
      }
    }
    if (quiet) quiets[n_quiets++] = m;
  }

  if (excluding) return best == -kInf ? alpha : best;
  tte->key = key;
  tte->score = int16_t(ScoreToTT(best, ply));
  tte->eval = int16_t(static_eval);
  tte->move = best_move.raw();
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
      for (int& h : b) h /= 2;
    }
  }
  for (int i = 0; i < kMaxPly; ++i) {
    line_move_[i] = Move();
    line_piece_[i] = kNoPiece;
    line_eval_[i] = 0;
    excluded_[i] = Move();
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
    // Aspiration window around the last score, widened on each failure.
    int delta = 30;
    int alpha = -kInf, beta = kInf;
    if (depth >= 5 && std::abs(best_score) < kMateBound) {
      alpha = std::max(best_score - delta, -kInf);
      beta = std::min(best_score + delta, kInf);
    }
    int score = 0;
    while (true) {
      score = Negamax(depth, 0, alpha, beta, false);
      if (aborted_) break;
      if (score <= alpha && alpha > -kInf) {
        beta = (alpha + beta) / 2;
        alpha = std::max(score - delta, -kInf);
      } else if (score >= beta && beta < kInf) {
        beta = std::min(score + delta, kInf);
      } else {
        break;
      }
      delta += delta;
      if (delta > 1000) alpha = -kInf, beta = kInf;
    }
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
