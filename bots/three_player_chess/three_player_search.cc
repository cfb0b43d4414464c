// The three-player chess player. Level 1 is greedy: the move after which its standing (below) is
// best, ties broken by the seed. Levels 2 and up search paranoid alpha-beta in the real turn
// order (the seat to move maximises its standing, every other seat minimises it), iteratively
// deepened until the level's node budget is spent; captures and promotions are searched first.
// A seat's standing is its material (every army it controls, so an inheritance counts) minus
// the mean of the others', plus a small bonus for pieces near the centre; a seat out is lost.
// Only "paranoid" is offered: BRS+ was not measured against it yet (docs/bots.md).
#include <algorithm>
#include <array>
#include <memory>

#include "absl/strings/str_cat.h"
#include "bots/core/game_bot.h"
#include "bots/core/search_common.h"
#include "engine/three_player_chess/movegen.h"
#include "engine/three_player_chess/notation.h"
#include "engine/three_player_chess/three_player_chess_game.h"

namespace arena::bots {
namespace {

namespace tpc = engine::three_player_chess;

constexpr int kWin = 30000;
constexpr int kValue[7] = {0, 100, 300, 320, 500, 900, 0};

// Material and a centre bonus per player.
std::array<int, 3> Material(const tpc::Position& pos) {
  std::array<int, 3> m{};
  for (int cell = 0; cell < tpc::kNumCells; ++cell) {
    const tpc::Piece p = pos.cells[cell];
    if (p == tpc::kEmpty) continue;
    const int r = tpc::RowOf(cell), c = tpc::ColumnOf(cell);
    const int centre = (c >= 2 && c <= 5 ? 4 : 0) + r * 3;
    m[static_cast<size_t>(pos.OwnerAt(cell))] += kValue[tpc::TypeOf(p)] + centre;
  }
  return m;
}

// The standing of `seat`: positive is good for it.
int Standing(const tpc::Position& pos, int seat) {
  if (pos.Over()) {
    const int winner = pos.Winner();
    if (winner == seat) return kWin;
    if (winner >= 0 || !pos.In(seat)) return -kWin;
    return 0;  // a draw
  }
  if (!pos.In(seat)) return -kWin;
  const std::array<int, 3> m = Material(pos);
  int others = 0, count = 0;
  for (int p = 0; p < 3; ++p) {
    if (p != seat && pos.In(p)) {
      others += m[static_cast<size_t>(p)];
      ++count;
    }
  }
  return m[static_cast<size_t>(seat)] - (count ? others / count : 0);
}

// Captures and promotions first, the most valuable victim first.
void Order(const tpc::Position& pos, tpc::MoveList& list) {
  auto key = [&](const tpc::Move& m) {
    return kValue[tpc::TypeOf(pos.cells[m.to])] * 10 + (m.promotion ? 8000 : 0) -
           kValue[tpc::TypeOf(pos.cells[m.from])] / 10;
  };
  std::stable_sort(list.moves.begin(), list.moves.begin() + list.size,
                   [&](const tpc::Move& a, const tpc::Move& b) { return key(a) > key(b); });
}

class Paranoid {
 public:
  Paranoid(int seat, int64_t budget) : seat_(seat), budget_(budget) {}

  int Search(const tpc::Position& pos, int depth, int alpha, int beta) {
    ++nodes_;
    if (depth == 0 || pos.Over()) return Standing(pos, seat_);
    if (budget_ > 0 && nodes_ > budget_) {
      out_of_budget_ = true;
      return Standing(pos, seat_);
    }
    tpc::MoveList list;
    tpc::GenerateLegalMoves(pos, list);
    Order(pos, list);
    const bool maximise = pos.turn == seat_;
    int best = maximise ? -kWin - 1 : kWin + 1;
    for (const tpc::Move m : list) {
      tpc::Position next = pos;
      next.ApplyMove(m);
      const int v = Search(next, depth - 1, alpha, beta);
      if (maximise) {
        best = std::max(best, v);
        alpha = std::max(alpha, v);
      } else {
        best = std::min(best, v);
        beta = std::min(beta, v);
      }
      if (alpha >= beta || out_of_budget_) break;
    }
    return best;
  }

  int64_t nodes() const { return nodes_; }
  bool out_of_budget() const { return out_of_budget_; }

 private:
  int seat_;
  int64_t budget_;
  int64_t nodes_ = 0;
  bool out_of_budget_ = false;
};

class ThreePlayerChessBot : public GameBot {
 public:
  std::string_view GameId() const override { return "three-player-chess"; }
  std::vector<std::string> Algorithms() const override { return {"paranoid"}; }

  absl::StatusOr<BotAnswer> Choose(const engine::State& state,
                                   const BotRequest& req) const override {
    const tpc::Position& pos = static_cast<const tpc::ThreePlayerChessState&>(state).position();
    tpc::MoveList list;
    tpc::GenerateLegalMoves(pos, list);
    if (list.size == 0) return absl::FailedPreconditionError("no legal move");
    // A seeded shuffle first, so equal moves are broken by the seed.
    Rng rng(req.seed);
    for (int i = list.size - 1; i > 0; --i) {
      std::swap(list.moves[static_cast<size_t>(i)],
                list.moves[static_cast<size_t>(rng.Next() % static_cast<uint64_t>(i + 1))]);
    }
    BotAnswer a;
    if (req.level == 1) {
      a.algorithm = "greedy";
      int best = -kWin - 1;
      for (const tpc::Move m : list) {
        tpc::Position next = pos;
        next.ApplyMove(m);
        const int v = Standing(next, req.seat);
        ++a.result.nodes;
        if (v > best) {
          best = v;
          a.result.move = tpc::MoveText(m);
          a.result.score = v;
        }
      }
      a.result.depth = 1;
      a.result.pv = {a.result.move};
      return a;
    }
    a.algorithm = "paranoid";
    const SearchLimits limits = LimitsFor(req, state);
    Order(pos, list);
    std::string chosen = tpc::MoveText(list.moves[0]);
    int64_t nodes = 0;
    for (int depth = 1; depth <= std::min(limits.depth, 12); ++depth) {
      Paranoid search(req.seat, limits.nodes > 0 ? limits.nodes - nodes : 0);
      int best = -kWin - 1;
      std::string best_move;
      for (const tpc::Move m : list) {
        tpc::Position next = pos;
        next.ApplyMove(m);
        const int v = search.Search(next, depth - 1, best, kWin + 1);
        if (search.out_of_budget()) break;
        if (v > best) {
          best = v;
          best_move = tpc::MoveText(m);
        }
      }
      nodes += search.nodes();
      if (search.out_of_budget()) break;
      chosen = best_move;
      a.result.depth = depth;
      a.result.score = best;
      if (best >= kWin) break;
      if (limits.nodes > 0 && nodes >= limits.nodes) break;
    }
    a.result.move = chosen;
    a.result.nodes = nodes;
    a.result.pv = {chosen};
    return a;
  }

  std::vector<int> SeatScores(const engine::State& state) const override {
    const tpc::Position& pos = static_cast<const tpc::ThreePlayerChessState&>(state).position();
    return {Standing(pos, 0), Standing(pos, 1), Standing(pos, 2)};
  }
};

}  // namespace

const GameBot& RegisteredBot_three_player_chess() {
  static const ThreePlayerChessBot* bot = new ThreePlayerChessBot();
  return *bot;
}

}  // namespace arena::bots
