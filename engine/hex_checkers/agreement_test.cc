// Random games to the end for every player count and radius, and agreement of the fast turn
// generator (movegen.h) with the naive one (naive_movegen.h) on the start cells, on the turn
// set of every position reached and on perft counts. Built twice: the CI test (perft depth 3
// from the start and depth 2 from a sample; HEX_CHECKERS_SLOW undefined) and the `slow` one
// (perft depth 3 from many positions of every player count and radius).
#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/game.h"

#include "engine/hex_checkers/movegen.h"
#include "engine/hex_checkers/naive_movegen.h"
#include "engine/hex_checkers/notation.h"
#include "gtest/gtest.h"

namespace arena::engine::hex_checkers {
namespace {

#ifdef HEX_CHECKERS_SLOW
constexpr int kGamesPerVariant = 12;
constexpr int kPerftDepth = 3;
constexpr int kPerftEvery = 7;  // perft from every 7th position of a game
#else
constexpr int kGamesPerVariant = 2;
constexpr int kPerftDepth = 2;
constexpr int kPerftEvery = 40;
#endif
constexpr int kMoveCap = 1500;

std::vector<std::vector<int>> FastTurns(const Position& pos) {
  TurnList list;
  GenerateTurns(pos, list);
  std::vector<std::vector<int>> out;
  for (int i = 0; i < list.size(); ++i) {
    const Turn t = list[i];
    out.emplace_back(t.path, t.path + t.len);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Rules MakeRules(int players, int radius) {
  Rules r;
  r.players = players;
  r.radius = radius;
  r.movecap = kMoveCap;
  r.first = players - 1;
  return r;
}

TEST(HexCheckersAgreement, StartCellsMatchTheRuleText) {
  for (int players = kMinSeats; players <= kMaxSeats; ++players) {
    for (int radius = kMinRadius; radius <= kMaxRadius; ++radius) {
      const Position pos = Position::Initial(MakeRules(players, radius));
      for (int s = 0; s < players; ++s) {
        std::vector<int> fast;
        pos.pieces[s].ForEach([&](int c) { fast.push_back(c); });
        EXPECT_EQ(fast, naive::StartCells(players, radius, s))
            << "players " << players << " radius " << radius << " seat " << s;
      }
    }
  }
}

TEST(HexCheckersAgreement, PerftDepthThreeFromTheStartForEveryPlayerCount) {
  for (int players = kMinSeats; players <= kMaxSeats; ++players) {
    const Position pos = Position::Initial(MakeRules(players, kDefaultRadius));
    EXPECT_EQ(Perft(pos, 3), naive::Perft(pos, 3)) << "players " << players;
  }
}

// Random games to the end with the turn sets compared at every position and perft from a
// sample; every player count 2-6 and radius 4-8 (the slow build plays more and deeper).
TEST(HexCheckersAgreement, RandomGamesToTheEnd) {
  std::mt19937_64 rng(23);
  std::map<std::string, int> endings;
  int positions = 0, perfts = 0, unfinished = 0;
  for (int players = kMinSeats; players <= kMaxSeats; ++players) {
    for (int radius = kMinRadius; radius <= kMaxRadius; ++radius) {
      for (int game = 0; game < kGamesPerVariant; ++game) {
        Position pos = Position::Initial(MakeRules(players, radius));
        for (int ply = 0; !pos.Over(); ++ply) {
          const auto fast = FastTurns(pos);
          const auto slow = naive::LegalTurns(pos);
          ++positions;
          ASSERT_EQ(fast, slow) << SerializePosition(pos);
          ASSERT_FALSE(fast.empty()) << SerializePosition(pos);
          if (ply % kPerftEvery == kPerftEvery - 1) {
            ++perfts;
            ASSERT_EQ(Perft(pos, kPerftDepth), naive::Perft(pos, kPerftDepth))
                << SerializePosition(pos);
          }
          TurnList list;
          GenerateTurns(pos, list);
          pos.ApplyTurn(list[static_cast<int>(rng() % list.size())]);
        }
        ++endings[absl::StrCat(players, "p ", ToAbsl(EndReasonName(pos.reason)))];
        unfinished += pos.reason == EndReason::kMoveCap;
      }
    }
  }
  for (const auto& [what, n] : endings) std::printf("%s: %d\n", what.c_str(), n);
  std::printf("%d positions compared, %d perfts at depth %d, %d games reached the cap\n", positions,
              perfts, kPerftDepth, unfinished);
}

}  // namespace
}  // namespace arena::engine::hex_checkers
