// Random games to the end with a serialization round-trip at every step, and agreement of the
// fast turn generator with the naive one (naive_movegen.h) on turn sets and perft counts.
// Built twice: the CI test (perft depth 2 from 200 positions; CHECKERS_SLOW undefined) and the
// `slow` one (perft depth 3 from 2,000 positions).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "engine/chestonia_checkers/movegen.h"
#include "engine/chestonia_checkers/naive_movegen.h"
#include "engine/chestonia_checkers/notation.h"
#include "engine/chestonia_checkers/test_util.h"
#include "gtest/gtest.h"

namespace arena::engine::chestonia_checkers {
namespace {

#ifdef CHECKERS_SLOW
constexpr int kGames = 400;
constexpr int kPerftDepth = 3;
constexpr int kPerftPositions = 2000;
constexpr int kMoveCap = 400;
#else
constexpr int kGames = 32;
constexpr int kPerftDepth = 2;
constexpr int kPerftPositions = 200;
constexpr int kMoveCap = 60;
#endif

// 2p/3p x normal/long x darts on/off x reverse on/off.
std::vector<Rules> VariantsToPlay() {
  std::vector<Rules> out;
  for (int players : {2, 3}) {
    for (chestonia_checkers::Setup setup :
         {chestonia_checkers::Setup::kNormal, chestonia_checkers::Setup::kLong}) {
      for (bool darts : {false, true}) {
        for (bool reverse : {false, true}) {
          Rules r;
          r.players = players;
          r.setup = setup;
          r.darts = darts;
          r.reverse = reverse;
          r.movecap = kMoveCap;
          r.first = players - 1;
          out.push_back(r);
        }
      }
    }
  }
  return out;
}

using Result = std::tuple<int, int, std::vector<int>>;  // from, to, cells taken (ascending)

std::vector<Result> FastTurns(const Position& pos) {
  TurnList list;
  GenerateTurns(pos, list);
  std::vector<Result> out;
  for (int i = 0; i < list.size(); ++i) {
    const Turn t = list[i];
    absl::StatusOr<TurnKey> key = ReplayTurn(pos, t.path, t.len);
    EXPECT_TRUE(key.ok()) << key.status();
    if (!key.ok()) continue;
    std::vector<int> taken;
    key->taken.ForEach([&](int c) { taken.push_back(c); });
    out.emplace_back(key->from, key->to, taken);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Result> NaiveTurns(const Position& pos) {
  std::vector<Result> out;
  for (const naive::NaiveTurn& t : naive::LegalTurns(pos)) out.emplace_back(t.from, t.to, t.taken);
  return out;
}

// The naive generator copies a std::map per hop, so it is compared only where the legal list
// stays below this. (Random play leaves kings amid scattered enemies, where one turn can have
// hundreds of thousands of distinct results: docs/rules/chestonia-checkers.md, "How many
// turns".)
constexpr int kMaxCompared = 2000;

// The fast perft, or -1 when some node on the way has more than kMaxCompared turns.
int64_t GuardedPerft(const Position& pos, int depth) {
  if (depth <= 0 || pos.phase != Phase::kMove) return 1;
  TurnList list;
  if (!GenerateTurns(pos, list, kMaxCompared) || list.size() > kMaxCompared) return -1;
  if (depth == 1) return list.size();
  int64_t total = 0;
  for (int i = 0; i < list.size(); ++i) {
    Position child = pos;
    child.ApplyTurn(list[i]);
    const int64_t n = GuardedPerft(child, depth - 1);
    if (n < 0) return -1;
    total += n;
  }
  return total;
}

// Positions gathered from the random games for the perft comparison.
std::vector<Position>& Collected() {
  static std::vector<Position> positions;
  return positions;
}

TEST(AgreementTest, RandomGamesEndByTheRulesAndRoundTrip) {
  const std::vector<Rules> variants = VariantsToPlay();
  std::mt19937_64 rng(0xC4EC);
  int finished_by_rule = 0, move_cap = 0, turn_checks = 0, capture_positions = 0, too_many = 0;
  size_t most_turns = 0;
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
        TurnList list;
        const bool complete = GenerateTurns(pos, list, kMaxCompared);
        most_turns = std::max(most_turns, static_cast<size_t>(list.size()));
        if (!complete || list.size() > kMaxCompared) {
          ++too_many;
          testing_util::RandomStep(pos, rng);
          continue;
        }
        const auto fast = FastTurns(pos);
        ASSERT_EQ(fast.size(), std::set<Result>(fast.begin(), fast.end()).size()) << text;
        {
          ASSERT_EQ(fast, NaiveTurns(pos)) << text;
          ++turn_checks;
        }
        if (!std::get<2>(fast.front()).empty()) ++capture_positions;
        if (static_cast<int>(Collected().size()) < kPerftPositions * 3 / 2 && fast.size() <= 400 &&
            rng() % 4 == 0) {
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
  std::printf(
      "games %d: %d ended by a rule, %d by the move cap; %d turn-set comparisons, "
      "%d positions with a capture; %d positions with more than %d turns not compared "
      "(most listed: %zu)\n",
      kGames, finished_by_rule, move_cap, turn_checks, capture_positions, too_many, kMaxCompared,
      most_turns);
  EXPECT_GT(finished_by_rule, 0);
  EXPECT_GT(capture_positions, 0);
  EXPECT_GE(static_cast<int>(Collected().size()), kPerftPositions);  // with a margin for skips
}

TEST(AgreementTest, PerftAgreesWithTheNaiveGenerator) {
  ASSERT_FALSE(Collected().empty()) << "run together with RandomGamesEndByTheRulesAndRoundTrip";
  uint64_t nodes = 0;
  int checks = 0, skipped = 0;
  for (int i = 0; i < static_cast<int>(Collected().size()) && checks < kPerftPositions; ++i) {
    const Position& pos = Collected()[i];
    if (GuardedPerft(pos, kPerftDepth) < 0) {
      ++skipped;
      continue;
    }
    const uint64_t fast = Perft(pos, kPerftDepth);
    ASSERT_EQ(fast, naive::Perft(pos, kPerftDepth)) << "depth " << kPerftDepth << "\n"
                                                    << SerializePosition(pos);
    nodes += fast;
    ++checks;
  }
  std::printf(
      "perft(%d) agreement: %d positions, %llu leaf nodes, 0 disagreements (%d skipped: "
      "a node with more than %d turns)\n",
      kPerftDepth, checks, static_cast<unsigned long long>(nodes), skipped, kMaxCompared);
  EXPECT_EQ(checks, kPerftPositions);
}

TEST(AgreementTest, StartPositionPerftIsReproducible) {
  for (int players : {2, 3}) {
    for (chestonia_checkers::Setup setup :
         {chestonia_checkers::Setup::kNormal, chestonia_checkers::Setup::kLong}) {
      Rules rules;
      rules.players = players;
      rules.setup = setup;
      const Position pos = Position::Initial(rules);
      EXPECT_EQ(Perft(pos, 1), naive::Perft(pos, 1));
      EXPECT_EQ(Perft(pos, 2), naive::Perft(pos, 2));
      std::printf("%dp %s start: perft(1)=%llu perft(2)=%llu perft(3)=%llu\n", players,
                  std::string(SetupName(setup)).c_str(),
                  static_cast<unsigned long long>(Perft(pos, 1)),
                  static_cast<unsigned long long>(Perft(pos, 2)),
                  static_cast<unsigned long long>(Perft(pos, 3)));
    }
  }
}

}  // namespace
}  // namespace arena::engine::chestonia_checkers
