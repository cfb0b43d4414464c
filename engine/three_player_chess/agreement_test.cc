// Random games to the end with a facade round-trip along the way, and agreement of the fast
// move generator with the naive one (naive_movegen.h) on move sets and perft counts. Built
// twice: the CI test (a cheap sample) and the `slow` one (THREE_PLAYER_CHESS_SLOW: perft depth
// 3 from 2,000 random positions).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "engine/core/game.h"
#include "engine/three_player_chess/movegen.h"
#include "engine/three_player_chess/naive_movegen.h"
#include "engine/three_player_chess/notation.h"
#include "engine/three_player_chess/test_util.h"
#include "gtest/gtest.h"

namespace arena::engine::three_player_chess {
namespace {

#ifdef THREE_PLAYER_CHESS_SLOW
constexpr int kGames = 100;
constexpr int kCompareEvery = 1;  // compare the move lists at every n-th position
constexpr int kDepth3Positions = 2000;
#else
constexpr int kGames = 6;
constexpr int kCompareEvery = 10;
constexpr int kDepth3Positions = 3;
#endif

std::vector<Move> Sorted(std::vector<Move> moves) {
  std::sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) {
    if (a.from != b.from) return a.from < b.from;
    if (a.to != b.to) return a.to < b.to;
    return a.promotion < b.promotion;
  });
  return moves;
}

std::vector<Move> FastMoves(const Position& pos) {
  MoveList list;
  if (!pos.Over()) GenerateLegalMoves(pos, list);
  return std::vector<Move>(list.begin(), list.end());
}

std::string Texts(const std::vector<Move>& moves) {
  std::string out;
  for (const Move& m : moves) out += MoveText(m) + " ";
  return out;
}

// Positions of random games, every one compared move for move on the way.
std::vector<Position> PlayRandomGames(int games, uint64_t seed, int* finished) {
  std::mt19937_64 rng(seed);
  std::vector<Position> seen;
  for (int g = 0; g < games; ++g) {
    Position pos = Position::Initial();
    // No cap: the 75-move rule and the finite number of pawn moves and captures end every game.
    for (int ply = 0; !pos.Over(); ++ply) {
      if (ply % kCompareEvery == 0) {
        const std::vector<Move> fast = Sorted(FastMoves(pos));
        const std::vector<Move> slow = Sorted(naive::LegalMoves(pos));
        EXPECT_EQ(Texts(fast), Texts(slow)) << PositionText(pos);
        if (::testing::Test::HasFailure()) return seen;
        seen.push_back(pos);
      }
      testing_util::RandomMove(pos, rng);
    }
    ++*finished;
  }
  return seen;
}

TEST(Agreement, RandomGamesToTheEndAgreeMoveForMove) {
  int finished = 0;
  const std::vector<Position> seen = PlayRandomGames(kGames, 2026, &finished);
  EXPECT_EQ(finished, kGames) << "every random game ends by a rule";
  EXPECT_GT(seen.size(), static_cast<size_t>(kGames) * 5);
}

TEST(Agreement, PerftDepthThreeFromRandomPositions) {
  int finished = 0;
  std::vector<Position> seen = PlayRandomGames(kGames, 7, &finished);
  ASSERT_FALSE(seen.empty());
  std::mt19937_64 rng(11);
  std::shuffle(seen.begin(), seen.end(), rng);
  const auto start = std::chrono::steady_clock::now();
  int compared = 0;
  uint64_t leaves = 0;
  for (int i = 0; i < kDepth3Positions; ++i) {
    const Position& pos = seen[static_cast<size_t>(i) % seen.size()];
    const uint64_t fast = Perft(pos, 3);
    ASSERT_EQ(fast, naive::Perft(pos, 3)) << PositionText(pos);
    leaves += fast;
    ++compared;
  }
  std::printf("perft(3) agreed on %d random positions (%llu leaves) in %.1f s\n", compared,
              static_cast<unsigned long long>(leaves),
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

TEST(Agreement, FacadeReplaysRandomGamesExactly) {
  const Game& game = *FindGame("three-player-chess");
  std::mt19937_64 rng(5);
  for (int g = 0; g < 3; ++g) {
    std::unique_ptr<State> state = *game.NewInitialState(Variant());
    while (!state->IsTerminal()) {
      const std::vector<std::string> actions = state->LegalActions();
      ASSERT_FALSE(actions.empty());
      ASSERT_TRUE(
          state->Apply(actions[std::uniform_int_distribution<size_t>(0, actions.size() - 1)(rng)])
              .ok());
      if (state->ActionCount() % 37 == 0) {
        absl::StatusOr<std::unique_ptr<State>> back = game.Parse(state->Serialize(), Variant());
        ASSERT_TRUE(back.ok()) << back.status();
        EXPECT_EQ((*back)->Serialize(), state->Serialize());
        EXPECT_EQ((*back)->Hash(), state->Hash());
        absl::StatusOr<std::unique_ptr<State>> at = game.Parse(state->PositionText(), Variant());
        ASSERT_TRUE(at.ok()) << at.status();
        EXPECT_EQ((*at)->PositionText(), state->PositionText());
        EXPECT_EQ((*at)->LegalActions(), state->LegalActions());
      }
    }
    EXPECT_FALSE(state->GetOutcome().reason.empty());
  }
}

}  // namespace
}  // namespace arena::engine::three_player_chess
