// Random games to the end with a serialization round-trip at every step, and agreement of the
// fast move generator with the naive one (naive_movegen.h) on move sets and perft counts.
// Built twice: the normal test (CHESTONIA_SLOW undefined) and the `slow` one.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

#include "engine/chestonia_chess/movegen.h"
#include "engine/chestonia_chess/naive_movegen.h"
#include "engine/chestonia_chess/notation.h"
#include "engine/chestonia_chess/test_util.h"
#include "gtest/gtest.h"

namespace arena::engine::chestonia_chess {
namespace {

#ifdef CHESTONIA_SLOW
constexpr int kGames = 10000;
constexpr int kDepth2Positions = 0;
constexpr int kDepth3Positions = 2000;
constexpr int kMoveCap = 400;
#else
constexpr int kGames = 500;
constexpr int kDepth2Positions = 2000;
constexpr int kDepth3Positions = 20;
constexpr int kMoveCap = 100;
#endif

std::vector<Rules> VariantsToPlay() {
  std::vector<Rules> out;
  for (int players : {2, 3}) {
    for (bool darts : {false, true}) {
      for (bool reverse : {false, true}) {
        for (BoardKind board : {BoardKind::kAlternating, BoardKind::kPlain}) {
          Rules r;
          r.players = players;
          r.darts = darts;
          r.reverse = reverse;
          r.board = board;
          r.movecap = kMoveCap;
          r.first = players - 1;
          out.push_back(r);
        }
      }
    }
  }
  return out;
}

std::vector<Move> Sorted(std::vector<Move> moves) {
  std::sort(moves.begin(), moves.end(),
            [](Move a, Move b) { return a.from != b.from ? a.from < b.from : a.to < b.to; });
  return moves;
}

std::vector<Move> FastMoves(const Position& pos) {
  auto list = std::make_unique<MoveList>();
  GenerateLegalMoves(pos, *list);
  return std::vector<Move>(list->begin(), list->end());
}

// The captures of the full legal list, in its order (what GenerateLegalCaptures must give).
std::vector<Move> CapturesOf(const Position& pos, const std::vector<Move>& moves) {
  std::vector<Move> out;
  for (const Move m : moves) {
    if (pos.cells[m.to]) out.push_back(m);
  }
  return out;
}

std::vector<Move> FastCaptures(const Position& pos) {
  auto list = std::make_unique<MoveList>();
  GenerateLegalCaptures(pos, *list);
  return std::vector<Move>(list->begin(), list->end());
}

// Positions gathered from the random games for the perft comparison.
std::vector<Position>& Collected() {
  static std::vector<Position> positions;
  return positions;
}

TEST(AgreementTest, RandomGamesEndByTheRulesAndRoundTrip) {
  const std::vector<Rules> variants = VariantsToPlay();
  std::mt19937_64 rng(0xC4E5);
  int finished_by_rule = 0, move_cap = 0, move_checks = 0;
  const int wanted = std::max(kDepth2Positions, kDepth3Positions);
  for (int game = 0; game < kGames; ++game) {
    const Rules& rules = variants[game % variants.size()];
    Position pos = Position::Initial(rules);
    for (int step = 0; pos.phase != Phase::kOver; ++step) {
      ASSERT_LT(step, 20 * kMoveCap) << "game does not end";
      const std::string text = SerializePosition(pos);
      absl::StatusOr<Position> parsed = ParsePosition(text, Rules{});
      ASSERT_TRUE(parsed.ok()) << parsed.status() << "\n" << text;
      ASSERT_EQ(SerializePosition(*parsed), text);
      if (pos.phase == Phase::kMove) {
        const std::vector<Move> fast = FastMoves(pos);
        ASSERT_EQ(Sorted(fast), Sorted(naive::LegalMoves(pos))) << text;
        ASSERT_EQ(FastCaptures(pos), CapturesOf(pos, fast)) << text;
        ++move_checks;
        if (static_cast<int>(Collected().size()) < wanted && rng() % 8 == 0) {
          Position p = pos;
          p.rules.darts = false;  // perft is defined with darts off
          p.rules.movecap = 0;
          p.dart.dart_round = false;
          p.dart.rounds_since_dart = 0;
          Collected().push_back(p);
        }
      }
      testing_util::RandomStep(pos, rng);
    }
    if (pos.reason == EndReason::kMoveCap) {
      ++move_cap;
    } else {
      ++finished_by_rule;
    }
  }
  std::printf("games %d: %d ended by a rule, %d by the move cap; %d move-set comparisons\n", kGames,
              finished_by_rule, move_cap, move_checks);
  EXPECT_GT(finished_by_rule, 0);
  EXPECT_GE(static_cast<int>(Collected().size()), wanted);
}

TEST(AgreementTest, PerftAgreesWithTheNaiveGenerator) {
  ASSERT_FALSE(Collected().empty()) << "run together with RandomGamesEndByTheRulesAndRoundTrip";
  uint64_t nodes = 0;
  int checks = 0;
  for (int depth : {2, 3}) {
    const int count = depth == 2 ? kDepth2Positions : kDepth3Positions;
    for (int i = 0; i < count && i < static_cast<int>(Collected().size()); ++i) {
      // Spread the deeper checks over the collection.
      const Position& pos = Collected()[depth == 2 ? i : (i * 7919) % Collected().size()];
      const uint64_t fast = Perft(pos, depth);
      ASSERT_EQ(fast, naive::Perft(pos, depth)) << "depth " << depth << "\n"
                                                << SerializePosition(pos);
      nodes += fast;
      ++checks;
    }
  }
  std::printf("perft agreement: %d positions, %llu leaf nodes\n", checks,
              static_cast<unsigned long long>(nodes));
}

TEST(AgreementTest, StartPositionPerftIsReproducible) {
  for (int players : {2, 3}) {
    Rules rules;
    rules.players = players;
    rules.board = BoardKind::kPlain;
    const Position pos = Position::Initial(rules);
    EXPECT_EQ(Perft(pos, 1), naive::Perft(pos, 1));
    EXPECT_EQ(Perft(pos, 2), naive::Perft(pos, 2));
    std::printf("%dp plain start: perft(1)=%llu perft(2)=%llu\n", players,
                static_cast<unsigned long long>(Perft(pos, 1)),
                static_cast<unsigned long long>(Perft(pos, 2)));
  }
}

}  // namespace
}  // namespace arena::engine::chestonia_chess
