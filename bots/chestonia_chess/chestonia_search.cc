#include "bots/chestonia_chess/chestonia_search.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/chestonia_chess/notation.h"
#include "engine/hex/dart.h"

namespace arena::bots {

using namespace engine::chestonia_chess;
namespace hex = engine::hex;

namespace {

enum Bound : uint8_t { kNone = 0, kUpper = 1, kLower = 2, kExact = 3 };
constexpr int kInf = 1 << 29;
constexpr int kTTBits = 18;
constexpr int kMaxPlyC = 127;
constexpr int kMaxQDepth = 6;

struct Zobrist {
  uint64_t cell[kNumCells][64];
  uint64_t turn[kMaxSeats];
  uint64_t phase[8];
  uint64_t reply_used;
  Zobrist() {
    Rng rng(0xC4E5701A);
    for (auto& c : cell) {
      for (uint64_t& k : c) k = rng.Next();
    }
    for (uint64_t& k : turn) k = rng.Next();
    for (uint64_t& k : phase) k = rng.Next();
    reply_used = rng.Next();
  }
};
const Zobrist& Z() {
  static const Zobrist z;
  return z;
}

int PieceIndex(Piece p) {
  return (p & 0x1F) | ((p >> 7) << 5);
}

int Value(Piece p) {
  static constexpr int v[8] = {0, 100, 300, 320, 480, 900, 2000, 0};
  return v[TypeOf(p)];
}

bool IsCapture(const Position& pos, Move m) {
  return pos.cells[m.to] != 0;
}

// Row of each cell as seen from each seat's rim (0 = its rim row), per player count: the
// evaluation reads it for every pawn of every leaf.
struct RimRows {
  std::array<std::array<int8_t, kNumCells>, kMaxSeats> row[2];  // [players - 2][seat][cell]
  RimRows() {
    const hex::Grid& g = BoardGrid();
    for (int players = 2; players <= 3; ++players) {
      const Layout& layout = LayoutFor(players);
      for (int seat = 0; seat < players; ++seat) {
        const int sixths = layout.seats[seat].sixths;
        for (int cell = 0; cell < kNumCells; ++cell) {
          const int c = g.Rotated(cell, (6 - sixths) % 6);
          row[players - 2][seat][cell] = static_cast<int8_t>(g.At(c).r + kRadius);
        }
      }
    }
  }
};
const RimRows& Rows() {
  static const RimRows rows;
  return rows;
}

// Hex distance between every two cells (the king-safety terms read it for every piece).
struct DistanceTable {
  std::array<std::array<int8_t, kNumCells>, kNumCells> d;
  DistanceTable() {
    const hex::Grid& g = BoardGrid();
    for (int a = 0; a < kNumCells; ++a) {
      for (int b = 0; b < kNumCells; ++b) {
        d[a][b] = static_cast<int8_t>(hex::Distance(g.At(a), g.At(b)));
      }
    }
  }
};
const auto& Distances() {
  static const DistanceTable table;
  return table.d;
}

// Moves are copy-made; this wraps the copy and the turn logic of the engine.
Position After(const Position& pos, Move m) {
  Position next = pos;
  next.ApplyMove(m);
  return next;
}

}  // namespace

const ChestoniaEvalWeights& DefaultChestoniaEvalWeights() {
  static const ChestoniaEvalWeights w;
  return w;
}

absl::Status ApplyChestoniaEvalOverrides(std::string_view text, ChestoniaEvalWeights* w) {
  if (text.empty()) return absl::OkStatus();
  const std::pair<const char*, int ChestoniaEvalWeights::*> fields[] = {
      {"pawn_advance", &ChestoniaEvalWeights::pawn_advance},
      {"centre", &ChestoniaEvalWeights::centre},
      {"in_check", &ChestoniaEvalWeights::in_check},
      {"king_rim", &ChestoniaEvalWeights::king_rim},
      {"elimination_tempo", &ChestoniaEvalWeights::elimination_tempo},
      {"leader_percent", &ChestoniaEvalWeights::leader_percent},
      {"king_attack", &ChestoniaEvalWeights::king_attack},
      {"king_shelter", &ChestoniaEvalWeights::king_shelter},
      {"check_extension", &ChestoniaEvalWeights::check_extension},
  };
  ChestoniaEvalWeights out = *w;
  for (absl::string_view item : absl::StrSplit(absl::string_view(text.data(), text.size()), '+')) {
    const size_t eq = item.find('=');
    int value = 0;
    if (eq == absl::string_view::npos || !absl::SimpleAtoi(item.substr(eq + 1), &value)) {
      return absl::InvalidArgumentError(
          absl::StrCat("evaluation override '", item, "' is not name=integer"));
    }
    const absl::string_view name = item.substr(0, eq);
    bool found = false;
    for (const auto& [field, member] : fields) {
      if (name != field) continue;
      out.*member = value;
      found = true;
      break;
    }
    if (!found) {
      return absl::InvalidArgumentError(absl::StrCat("unknown evaluation weight '", name, "'"));
    }
  }
  *w = out;
  return absl::OkStatus();
}

const char* MultiAlgorithmName(MultiAlgorithm a) {
  switch (a) {
    case MultiAlgorithm::kParanoid:
      return "paranoid";
    case MultiAlgorithm::kBestReply:
      return "brs";
    case MultiAlgorithm::kMaxN:
      return "maxn";
  }
  return "?";
}

std::array<int, 3> ChestoniaSeatScores(const Position& pos, const ChestoniaEvalWeights& w) {
  std::array<int, 3> score{0, 0, 0};
  const hex::Grid& g = BoardGrid();
  const auto& rim_rows = Rows().row[pos.rules.players == 3 ? 1 : 0];
  if (pos.phase == Phase::kOver) {
    for (int s = 0; s < pos.rules.players; ++s) {
      score[s] = pos.draw ? 0 : (pos.winner == s ? w.win : -w.win);
    }
    return score;
  }
  const bool king_terms = (w.king_attack != 0 || w.king_shelter != 0) && !pos.rules.reverse;
  const auto& dist = Distances();
  std::array<int, 3> attack_units{0, 0, 0}, shelter{0, 0, 0};
  for (int s = 0; s < pos.rules.players; ++s) {
    if (!pos.Active(s)) {
      score[s] = -w.out;
      continue;
    }
    const auto& rows = rim_rows[s];
    int v = 0;
    pos.pieces[s].ForEach([&](int c) {
      const int t = TypeOf(pos.cells[c]);
      v += w.material[t];
      switch (t) {
        case kPawn:
          v += w.pawn_advance * std::max(0, rows[c] - 1);
          break;
        case kKnight:
        case kBishop:
        case kQueen:
          v += w.centre * (kRadius - g.Ring(c));
          break;
        case kKing:
          v -= w.king_rim * (kRadius - g.Ring(c));
          break;
        default:
          break;
      }
      if (!king_terms || t == kKing) return;
      if (pos.king[s] >= 0 && dist[c][pos.king[s]] == 1) ++shelter[s];
      if (t == kPawn) return;
      for (int e = 0; e < pos.rules.players; ++e) {
        if (e == s || !pos.Active(e) || pos.king[e] < 0) continue;
        const int d = dist[c][pos.king[e]];
        if (d > 3) continue;
        const int units = t == kQueen ? 4 : 2;
        attack_units[e] += d <= 2 ? units : units / 2;
      }
    });
    // (InCheck answers for the seat to move from the engine's cache.)
    if (InCheck(pos, s)) v -= w.in_check;
    score[s] = v;
  }
  for (int s = 0; s < pos.rules.players; ++s) {
    if (!pos.Active(s)) continue;
    if (king_terms) {
      const int u = std::min(attack_units[s], 16);
      score[s] += w.king_shelter * std::min(shelter[s], 4) - w.king_attack * u * u / 4;
    }
    if (pos.rules.reverse) score[s] = -score[s];  // reverse: the aim is to lose everything
  }
  return score;
}

namespace {
int RelativeValue(const std::array<int, 3>& s, int seat, int players, int leader_percent) {
  int others = 0, best = INT32_MIN;
  for (int i = 0; i < players; ++i) {
    if (i == seat) continue;
    others += s[i];
    best = std::max(best, s[i]);
  }
  const int mean = others / (players - 1);
  return s[seat] - (mean * (100 - leader_percent) + best * leader_percent) / 100;
}
}  // namespace

int ChestoniaValueFor(const Position& pos, int seat, const ChestoniaEvalWeights& w) {
  return RelativeValue(ChestoniaSeatScores(pos, w), seat, pos.rules.players, w.leader_percent);
}

ChestoniaSearcher::ChestoniaSearcher()
    : tt_(size_t{1} << kTTBits),
      history_(kMaxSeats * kNumCells * kNumCells, 0),
      frames_(std::make_unique_for_overwrite<Frame[]>(kMaxPlyC + 1)) {}

bool ChestoniaSearcher::OutOfBudget() {
  if (aborted_) return true;
  if (limits_.nodes > 0 && nodes_ >= limits_.nodes) aborted_ = true;
  // The first iteration always completes (see ChessSearcher).
  if (iteration_ > 1 && (nodes_ & (kStopPollNodes - 1)) == 0 && StopRequested(limits_)) {
    aborted_ = true;
  }
  return aborted_;
}

uint64_t ChestoniaSearcher::Key(const Position& pos) const {
  const Zobrist& z = Z();
  uint64_t k = z.turn[pos.turn] ^ z.phase[int(pos.phase)];
  for (int s = 0; s < pos.rules.players; ++s) {
    pos.pieces[s].ForEach([&](int c) { k ^= z.cell[c][PieceIndex(pos.cells[c])]; });
  }
  return k ^ (uint64_t(pos.active) << 56);
}

bool ChestoniaSearcher::Settle(Position& pos) const {
  while (pos.phase == Phase::kRoundChance) {
    if (pos.dart.rounds_since_dart >= kMaxRoundsBetweenDarts) return false;
    pos.ApplyRoundChance(false);
  }
  return pos.phase == Phase::kMove;
}

int ChestoniaSearcher::Leaf(const Position& pos, int ply) const {
  int v = RelativeValue(ChestoniaSeatScores(pos, weights_), root_, pos.rules.players,
                        weights_.leader_percent);
  if (pos.rules.players >= 3) {
    // How soon the root seat's fate comes: going out later, or winning sooner, is better.
    // Paranoid search often "proves" that both opponents together can knock the root seat out;
    // without this every move then looks equally lost and the first one in the list is played,
    // where the move that holds out longest keeps the seat in the game, and the opponents rarely
    // work together as the search assumes.
    const bool won = pos.phase == Phase::kOver && !pos.draw && pos.winner == root_;
    const bool lost =
        pos.phase == Phase::kOver ? !pos.draw && pos.winner != root_ : !pos.Active(root_);
    if (won) v -= weights_.elimination_tempo * ply;
    if (lost) v += weights_.elimination_tempo * ply;
  }
  return v;
}

std::array<int, 3> ChestoniaSearcher::LeafVector(const Position& pos) const {
  const std::array<int, 3> s = ChestoniaSeatScores(pos, weights_);
  std::array<int, 3> v{0, 0, 0};
  for (int i = 0; i < pos.rules.players; ++i)
    v[i] = RelativeValue(s, i, pos.rules.players, weights_.leader_percent);
  return v;
}

void ChestoniaSearcher::Order(const Position& pos, MoveList& list, Move tt_move, int ply,
                              int* scores) const {
  const int seat = pos.turn;
  for (int i = 0; i < list.size; ++i) {
    const Move m = list.moves[i];
    int s;
    if (m == tt_move) {
      s = 1 << 30;
    } else if (IsCapture(pos, m)) {
      s = (1 << 28) + Value(pos.cells[m.to]) * 16 - Value(pos.cells[m.from]) / 100;
    } else if (ply < 128 && m == killers_[ply][0]) {
      s = (1 << 26) + 1;
    } else if (ply < 128 && m == killers_[ply][1]) {
      s = 1 << 26;
    } else {
      s = history_[(seat * kNumCells + m.from) * kNumCells + m.to];
    }
    scores[i] = s;
  }
}

namespace {
void PickNext(MoveList& list, int* scores, int i) {
  int best = i;
  for (int j = i + 1; j < list.size; ++j) {
    if (scores[j] > scores[best]) best = j;
  }
  if (best != i) {
    std::swap(list.moves[i], list.moves[best]);
    std::swap(scores[i], scores[best]);
  }
}
}  // namespace

void ChestoniaSearcher::NoteCutoff(const Position& pos, Move m, int ply, int depth) {
  if (IsCapture(pos, m) || ply >= 128) return;
  if (!(killers_[ply][0] == m)) {
    killers_[ply][1] = killers_[ply][0];
    killers_[ply][0] = m;
  }
  int& h = history_[(pos.turn * kNumCells + m.from) * kNumCells + m.to];
  h = std::min(h + depth * depth, 1 << 20);
}

int ChestoniaSearcher::Quiesce(const Position& pos, int ply, int alpha, int beta, int qdepth) {
  ++nodes_;
  if (OutOfBudget()) return 0;
  const int stand = Leaf(pos, ply);
  if (pos.phase != Phase::kMove || qdepth >= kMaxQDepth || ply >= kMaxPlyC || RootOut(pos))
    return stand;
  const bool maximizing = pos.turn == root_;
  if (maximizing) {
    if (stand >= beta) return stand;
    alpha = std::max(alpha, stand);
  } else {
    if (stand <= alpha) return stand;
    beta = std::min(beta, stand);
  }
  int best = stand;
  // Only captures, in MVV-LVA order.
  MoveList* list = &frames_[ply].list;
  GenerateLegalCaptures(pos, *list);
  const int n = list->size;
  int* scores = frames_[ply].scores.data();
  Order(pos, *list, Move{}, 128, scores);
  for (int i = 0; i < n; ++i) {
    PickNext(*list, scores, i);
    Position next = After(pos, list->moves[i]);
    if (next.phase == Phase::kRoundChance) Settle(next);
    const int v = Quiesce(next, ply + 1, alpha, beta, qdepth + 1);
    if (aborted_) return 0;
    if (maximizing) {
      if (v > best) best = v;
      if (v > alpha) alpha = v;
    } else {
      if (v < best) best = v;
      if (v < beta) beta = v;
    }
    if (alpha >= beta) break;
  }
  return best;
}

int ChestoniaSearcher::Paranoid(const Position& pos_in, int depth, int ply, int alpha, int beta,
                                bool null_ok) {
  Position pos = pos_in;
  if (!Settle(pos) || RootOut(pos)) {
    ++nodes_;
    return Leaf(pos, ply);
  }
  const bool in_check = !pos.rules.reverse && InCheck(pos, pos.turn);
  // Check extension (three or more seats): a seat in check is searched a ply deeper, up to
  // twice the iteration's depth from the root.
  if (in_check && weights_.check_extension > 0 && pos.rules.players >= 3 && ply < 2 * iteration_) {
    depth += weights_.check_extension;
  }
  if (depth <= 0) return Quiesce(pos, ply, alpha, beta, 0);
  ++nodes_;
  if (OutOfBudget()) return 0;
  if (ply >= kMaxPlyC) return Leaf(pos, ply);
  const bool maximizing = pos.turn == root_;
  const bool root = ply == 0;
  const bool pv_node = beta - alpha > 1;

  const uint64_t key = Key(pos);
  TTEntry& tte = tt_[key & ((size_t{1} << kTTBits) - 1)];
  Move tt_move{};
  if (tte.key == key) {
    tt_move = tte.move;
    if (!root && !pv_node && tte.depth >= depth) {
      if (tte.bound == kExact || (tte.bound == kLower && tte.score >= beta) ||
          (tte.bound == kUpper && tte.score <= alpha)) {
        return tte.score;
      }
    }
  }

  // Null move (two players): let the other side move twice.
  if (null_ok && !root && !pv_node && !in_check && depth >= 3 && pos.rules.players == 2 &&
      pos.pieces[pos.turn].Count() > 4) {
    const int stand = Leaf(pos, ply);
    const int r = 2 + depth / 4;
    Position passed = pos;
    passed.turn = static_cast<int8_t>(1 - pos.turn);
    passed.turn_in_check = -1;  // the cached check state was the other seat's
    if (HasLegalMove(passed)) {
      if (maximizing && stand >= beta) {
        const int v = Paranoid(passed, depth - 1 - r, ply + 1, beta - 1, beta, false);
        if (aborted_) return 0;
        if (v >= beta) return v;
      } else if (!maximizing && stand <= alpha) {
        const int v = Paranoid(passed, depth - 1 - r, ply + 1, alpha, alpha + 1, false);
        if (aborted_) return 0;
        if (v <= alpha) return v;
      }
    }
  }

  MoveList* list = &frames_[ply].list;
  GenerateLegalMoves(pos, *list);
  int* scores = frames_[ply].scores.data();
  Order(pos, *list, tt_move, ply, scores);
  if (root && noise_seed_ != 0) {
    Rng rng(noise_seed_);
    for (int i = 0; i < list->size; ++i) scores[i] += int(rng.Below(8));
  }
  const int orig_alpha = alpha, orig_beta = beta;
  int best = maximizing ? -kInf : kInf;
  Move best_move{};
  for (int i = 0; i < list->size; ++i) {
    PickNext(*list, scores, i);
    const Move m = list->moves[i];
    const bool quiet = !IsCapture(pos, m);
    Position next = After(pos, m);
    int v;
    if (i == 0) {
      v = Paranoid(next, depth - 1, ply + 1, alpha, beta, true);
    } else {
      int red = 0;
      if (quiet && !in_check && depth >= 3 && i >= 3) {
        red = std::min(depth - 2, 1 + (i >= 8 ? 1 : 0) + (depth >= 6 ? 1 : 0));
        if (pv_node) red = std::max(0, red - 1);
      }
      // Null window on the side that matters to this node.
      if (maximizing) {
        v = Paranoid(next, depth - 1 - red, ply + 1, alpha, alpha + 1, true);
        if (!aborted_ && v > alpha && red > 0) {
          v = Paranoid(next, depth - 1, ply + 1, alpha, alpha + 1, true);
        }
        if (!aborted_ && v > alpha && v < beta)
          v = Paranoid(next, depth - 1, ply + 1, alpha, beta, true);
      } else {
        v = Paranoid(next, depth - 1 - red, ply + 1, beta - 1, beta, true);
        if (!aborted_ && v < beta && red > 0) {
          v = Paranoid(next, depth - 1, ply + 1, beta - 1, beta, true);
        }
        if (!aborted_ && v < beta && v > alpha)
          v = Paranoid(next, depth - 1, ply + 1, alpha, beta, true);
      }
    }
    if (aborted_) return 0;
    if (maximizing ? v > best : v < best) {
      best = v;
      best_move = m;
      if (root) {
        root_best_ = m;
        root_has_best_ = true;
        root_best_score_ = v;
      }
    }
    if (maximizing)
      alpha = std::max(alpha, v);
    else
      beta = std::min(beta, v);
    if (alpha >= beta) {
      NoteCutoff(pos, m, ply, depth);
      break;
    }
  }
  tte.key = key;
  tte.score = best;
  tte.move = best_move;
  tte.depth = static_cast<int8_t>(std::min(depth, 127));
  tte.bound = best <= orig_alpha ? kUpper : best >= orig_beta ? kLower : kExact;
  return best;
}

int ChestoniaSearcher::Brs(const Position& pos_in, int depth, int ply, int alpha, int beta,
                           bool reply_used) {
  Position pos = pos_in;
  if (!Settle(pos) || RootOut(pos)) {
    ++nodes_;
    return Leaf(pos, ply);
  }
  const bool maximizing = pos.turn == root_;
  if (depth <= 0 && maximizing) return Quiesce(pos, ply, alpha, beta, 0);
  ++nodes_;
  if (OutOfBudget()) return 0;
  if (ply >= kMaxPlyC) return Leaf(pos, ply);
  const bool root = ply == 0;

  const uint64_t key = Key(pos) ^ (reply_used ? Z().reply_used : 0);
  TTEntry& tte = tt_[key & ((size_t{1} << kTTBits) - 1)];
  Move tt_move{};
  if (tte.key == key) {
    tt_move = tte.move;
    if (!root && tte.depth >= depth) {
      if (tte.bound == kExact || (tte.bound == kLower && tte.score >= beta) ||
          (tte.bound == kUpper && tte.score <= alpha)) {
        return tte.score;
      }
    }
  }
  MoveList* list = &frames_[ply].list;
  GenerateLegalMoves(pos, *list);
  int* scores = frames_[ply].scores.data();
  Order(pos, *list, tt_move, ply, scores);
  if (root && noise_seed_ != 0) {
    Rng rng(noise_seed_);
    for (int i = 0; i < list->size; ++i) scores[i] += int(rng.Below(8));
  }
  const int orig_alpha = alpha, orig_beta = beta;
  int best = maximizing ? -kInf : kInf;
  Move best_move{};

  if (!maximizing) {
    PickNext(*list, scores, 0);
    const Move ordered = list->moves[0];
    // Branch 1: this opponent plays its ordered move and a later opponent replies.
    if (reply_used || depth <= 0) {
      const int v = Brs(After(pos, ordered), depth, ply + 1, alpha, beta, reply_used);
      if (aborted_) return 0;
      return v;
    }
    {
      Position next = After(pos, ordered);
      if (next.phase == Phase::kMove && next.turn != root_) {
        const int v = Brs(next, depth, ply + 1, alpha, beta, false);
        if (aborted_) return 0;
        best = v;
        best_move = ordered;
        beta = std::min(beta, v);
      }
    }
    // Branch 2: this opponent is the one that replies: every move.
    for (int i = 0; i < list->size && alpha < beta; ++i) {
      if (i > 0) PickNext(*list, scores, i);
      const Move m = list->moves[i];
      const int v = Brs(After(pos, m), depth - 1, ply + 1, alpha, beta, true);
      if (aborted_) return 0;
      if (v < best) {
        best = v;
        best_move = m;
      }
      beta = std::min(beta, v);
      if (alpha >= beta) NoteCutoff(pos, m, ply, depth);
    }
  } else {
    for (int i = 0; i < list->size; ++i) {
      PickNext(*list, scores, i);
      const Move m = list->moves[i];
      Position next = After(pos, m);
      int v;
      if (i == 0) {
        v = Brs(next, depth - 1, ply + 1, alpha, beta, false);
      } else {
        v = Brs(next, depth - 1, ply + 1, alpha, alpha + 1, false);
        if (!aborted_ && v > alpha && v < beta)
          v = Brs(next, depth - 1, ply + 1, alpha, beta, false);
      }
      if (aborted_) return 0;
      if (v > best) {
        best = v;
        best_move = m;
        if (root) {
          root_best_ = m;
          root_has_best_ = true;
          root_best_score_ = v;
        }
      }
      alpha = std::max(alpha, v);
      if (alpha >= beta) {
        NoteCutoff(pos, m, ply, depth);
        break;
      }
    }
  }
  tte.key = key;
  tte.score = best;
  tte.move = best_move;
  tte.depth = static_cast<int8_t>(std::min(depth, 127));
  tte.bound = best <= orig_alpha ? kUpper : best >= orig_beta ? kLower : kExact;
  return best;
}

std::array<int, 3> ChestoniaSearcher::MaxN(const Position& pos_in, int depth, int ply) {
  Position pos = pos_in;
  ++nodes_;
  if (!Settle(pos) || depth <= 0 || ply >= kMaxPlyC) return LeafVector(pos);
  if (OutOfBudget()) return {0, 0, 0};
  const int me = pos.turn;
  MoveList* list = &frames_[ply].list;
  GenerateLegalMoves(pos, *list);
  int* scores = frames_[ply].scores.data();
  Order(pos, *list, Move{}, ply, scores);
  if (ply == 0 && noise_seed_ != 0) {
    Rng rng(noise_seed_);
    for (int i = 0; i < list->size; ++i) scores[i] += int(rng.Below(8));
  }
  std::array<int, 3> best{-kInf, -kInf, -kInf};
  for (int i = 0; i < list->size; ++i) {
    PickNext(*list, scores, i);
    const Move m = list->moves[i];
    const std::array<int, 3> v = MaxN(After(pos, m), depth - 1, ply + 1);
    if (aborted_) return {0, 0, 0};
    if (v[me] > best[me]) {
      best = v;
      if (ply == 0) {
        root_best_ = m;
        root_has_best_ = true;
        root_best_score_ = v[me];
      }
    }
  }
  return best;
}

SearchResult ChestoniaSearcher::Search(const Position& pos, MultiAlgorithm algorithm,
                                       const SearchLimits& limits) {
  limits_ = limits;
  nodes_ = 0;
  aborted_ = false;
  root_ = pos.turn;
  noise_seed_ = limits.seed;
  std::fill(tt_.begin(), tt_.end(), TTEntry{});
  std::fill(history_.begin(), history_.end(), 0);
  for (auto& k : killers_) k[0] = k[1] = Move{};

  SearchResult result;
  auto list = std::make_unique<MoveList>();
  GenerateLegalMoves(pos, *list);
  if (list->size == 0) return result;
  Move best = list->moves[0];
  int best_score = 0;
  for (int depth = 1; depth <= std::min(limits.depth, 60); ++depth) {
    root_has_best_ = false;
    iteration_ = depth;
    int score = 0;
    switch (algorithm) {
      case MultiAlgorithm::kParanoid:
        score = Paranoid(pos, depth, 0, -kInf, kInf, false);
        break;
      case MultiAlgorithm::kBestReply:
        score = Brs(pos, depth, 0, -kInf, kInf, false);
        break;
      case MultiAlgorithm::kMaxN:
        score = MaxN(pos, depth, 0)[pos.turn];
        break;
    }
    if (aborted_) {
      if (root_has_best_ && depth > 1 && root_best_score_ > best_score) best = root_best_;
      result.stopped = StopRequested(limits) && !(limits.nodes > 0 && nodes_ >= limits.nodes);
      break;
    }
    if (root_has_best_) best = root_best_;
    best_score = score;
    result.depth = depth;
    if (std::abs(score) >= weights_.win / 2) break;  // decided
    if (list->size == 1) break;
  }
  result.move = MoveText(best);
  result.score = best_score;
  result.nodes = nodes_;
  // Principal variation from the table (paranoid), else the move alone.
  result.pv = {result.move};
  if (algorithm == MultiAlgorithm::kParanoid) {
    Position p = After(pos, best);
    for (int i = 1; i < result.depth && Settle(p); ++i) {
      const uint64_t key = Key(p);
      const TTEntry& e = tt_[key & ((size_t{1} << kTTBits) - 1)];
      if (e.key != key || (e.move.from == 0 && e.move.to == 0)) break;
      auto l = std::make_unique<MoveList>();
      GenerateLegalMoves(p, *l);
      if (std::find(l->begin(), l->end(), e.move) == l->end()) break;
      result.pv.push_back(MoveText(e.move));
      p = After(p, e.move);
    }
  }
  return result;
}

Move ChestoniaGreedyMove(const Position& pos, uint64_t seed) {
  auto list = std::make_unique<MoveList>();
  GenerateLegalMoves(pos, *list);
  Rng rng(seed);
  const ChestoniaEvalWeights& w = DefaultChestoniaEvalWeights();
  Move best{};
  int64_t best_key = INT64_MIN;
  for (const Move m : *list) {
    const int v = ChestoniaValueFor(After(pos, m), pos.turn, w);
    const int64_t key = int64_t(v) * 1024 + int64_t(rng.Below(1024));
    if (key > best_key) {
      best_key = key;
      best = m;
    }
  }
  return best;
}

namespace {

std::vector<int> RewardTypesOf(int zone) {
  if (zone == 1) return {kQueen};
  if (zone == 2) return {kRook, kBishop, kKnight};
  if (zone == 3) return {kPawn};
  return {};
}

// Best follow-up of a placement or penalty phase for the seat to act, greedily; returns the
// value for `seat` of the result and fills `action`.
int ResolveRewardOrPenalty(const Position& pos, int seat, Rng& rng, std::string* action) {
  const ChestoniaEvalWeights& w = DefaultChestoniaEvalWeights();
  int64_t best_key = INT64_MIN;
  int best_value = ChestoniaValueFor(pos, seat, w);
  auto consider = [&](const Position& after, std::string text) {
    const int v = ChestoniaValueFor(after, seat, w);
    const int64_t key = int64_t(v) * 1024 + int64_t(rng.Below(1024));
    if (key > best_key) {
      best_key = key;
      best_value = v;
      if (action) *action = std::move(text);
    }
  };
  if (pos.phase == Phase::kPlacement) {
    Position skip = pos;
    skip.ApplySkipPlacement();
    consider(skip, "skip");
    for (int type : RewardTypesOf(pos.dart.reward_zone)) {
      pos.layout().seats[pos.turn].home_rows.ForEach([&](int c) {
        if (pos.cells[c]) return;
        Position p = pos;
        p.ApplyPlacement(type, c);
        consider(p, "place " + std::string(1, PieceLetter(type)) + " " + CellName(c));
      });
    }
  } else if (pos.phase == Phase::kPenalty) {
    pos.PawnsOf(pos.turn).ForEach([&](int c) {
      Position p = pos;
      p.ApplyPenalty(c);
      consider(p, "penalty " + CellName(c));
    });
  }
  return best_value;
}

}  // namespace

std::string ChestoniaChooseRewardOrPenalty(const Position& pos, uint64_t seed) {
  Rng rng(seed);
  std::string action = pos.phase == Phase::kPlacement ? "skip" : "";
  ResolveRewardOrPenalty(pos, pos.turn, rng, &action);
  return action;
}

int ChestoniaChooseAim(const Position& pos, uint64_t seed, double* expected_value) {
  const hex::Grid& g = BoardGrid();
  const int seat = pos.turn;
  Rng rng(seed);
  // Value of each landing class.
  auto value_of_landing = [&](int cell) {
    Position p = pos;
    p.ApplyLanding(cell);
    if (p.phase == Phase::kPlacement || p.phase == Phase::kPenalty) {
      Rng inner(seed);
      return double(ResolveRewardOrPenalty(p, seat, inner, nullptr));
    }
    return double(ChestoniaValueFor(p, seat, DefaultChestoniaEvalWeights()));
  };
  std::vector<double> cell_value(kNumCells + 1);
  double zone_value[8];
  bool zone_done[8] = {};
  for (int c = 0; c < kNumCells; ++c) {
    if (pos.cells[c]) {
      cell_value[c] = value_of_landing(c);
    } else {
      const int zone = hex::DartZone(g.Ring(c));
      if (!zone_done[zone]) {
        zone_value[zone] = value_of_landing(c);
        zone_done[zone] = true;
      }
      cell_value[c] = zone_value[zone];
    }
  }
  cell_value[kNumCells] = value_of_landing(-1);

  std::vector<int> candidates;
  for (int c = 0; c < kNumCells; ++c) {
    const Piece p = pos.cells[c];
    const bool knock = p && SeatOf(p) != seat && pos.Active(SeatOf(p)) && TypeOf(p) != kKing;
    if (g.Ring(c) <= 3 || knock) candidates.push_back(c);
  }
  const hex::DartScatter& scatter = hex::DartScatter::ForRadius(kRadius);
  int best = candidates.front();
  double best_ev = -1e18;
  for (int aim : candidates) {
    const std::vector<double>& dist = scatter.Distribution(aim);
    double ev = 0;
    for (int c = 0; c <= kNumCells; ++c) ev += dist[c] * cell_value[c];
    ev += double(rng.Below(1000)) * 1e-9;  // seeded tie-break
    if (ev > best_ev) {
      best_ev = ev;
      best = aim;
    }
  }
  if (expected_value) *expected_value = best_ev;
  return best;
}

}  // namespace arena::bots
