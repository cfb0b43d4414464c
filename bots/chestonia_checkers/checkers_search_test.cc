// The Chestonia checkers player through the bot dispatch arena-bot serves (ChooseBotMove):
// every level answers legally in every phase, the search sees a capture coming, and a position
// with a flying king amid many enemies stays bounded.
#include "bots/chestonia_checkers/checkers_search.h"

#include <algorithm>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "bots/core/bot.h"
#include "bots/core/game_bot.h"
#include "bots/core/levels.h"
#include "engine/chestonia_checkers/chestonia_checkers_game.h"
#include "engine/chestonia_checkers/movegen.h"
#include "engine/chestonia_checkers/notation.h"
#include "gtest/gtest.h"

namespace arena::bots {
namespace {

using engine::chestonia_checkers::ChestoniaCheckersGame;
using engine::chestonia_checkers::ChestoniaCheckersState;

std::unique_ptr<engine::State> New(const std::string& variant) {
  auto v = engine::Variant::Parse(variant);
  EXPECT_TRUE(v.ok());
  auto s = ChestoniaCheckersGame::Instance().NewInitialState(*v);
  EXPECT_TRUE(s.ok()) << s.status();
  return std::move(*s);
}

std::unique_ptr<engine::State> Load(const std::string& fields) {
  auto s =
      ChestoniaCheckersGame::Instance().Parse("chestonia-checkers " + fields, engine::Variant());
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? std::move(*s) : nullptr;
}

// Chance outcomes: a dart round whenever one may come, the likeliest landing; the same games
// on every run.
void Settle(engine::State& s) {
  while (s.ToMove() == engine::kChanceSeat) {
    auto outs = s.ChanceOutcomes();
    if (outs.front().action == "dart-round") {
      ASSERT_TRUE(s.Apply("dart-round").ok());
      continue;
    }
    auto best = std::max_element(outs.begin(), outs.end(), [](const auto& a, const auto& b) {
      return a.probability < b.probability;
    });
    ASSERT_TRUE(s.Apply(best->action).ok());
  }
}

TEST(CheckersBot, IsTheRegisteredPlayerWithSeatScores) {
  const GameBot* bot = FindGameBot("chestonia-checkers");
  ASSERT_NE(bot, nullptr);
  auto s = New("players=3");
  const std::vector<int> scores = bot->SeatScores(*s);
  ASSERT_EQ(scores.size(), 3u);
  EXPECT_EQ(scores[0], 0);  // the set-up is symmetric
  EXPECT_EQ(scores[1], 0);
}

// Levels 0, 1, 2 and the top of both seat counts play whole games with darts through the dispatch,
// each answer legal (aims, placements, penalties and turns alike).
TEST(CheckersBot, EveryLevelAnswersLegallyInEveryPhase) {
  for (int players : {2, 3}) {
    for (int level : {0, 1, 2, MaxLevel("chestonia-checkers", players)}) {
      const std::string variant =
          absl::StrCat("players=", players, ",darts=on,movecap=", players == 2 ? 24 : 18);
      auto s = New(variant);
      int decisions = 0;
      std::vector<std::string> phases;
      while (!s->IsTerminal()) {
        Settle(*s);
        if (s->IsTerminal()) break;
        BotRequest req;
        req.game = "chestonia-checkers";
        req.variant = variant;
        req.position = s->Serialize();
        req.seat = s->ToMove();
        req.level = level;
        // Small budgets keep the high levels cheap here; the levels' own are in the ladder
        // (docs/bots.md).
        req.node_budget = level >= 2 ? 300 : 0;
        req.seed = static_cast<uint64_t>(decisions);
        absl::StatusOr<BotAnswer> a = ChooseBotMove(req);
        ASSERT_TRUE(a.ok()) << a.status();
        // Apply checks a turn hop by hop without listing every turn (which can be many).
        phases.push_back(s->Phase());
        ASSERT_TRUE(s->Apply(a->result.move).ok())
            << "level " << level << " " << phases.back() << ": " << a->result.move;
        ++decisions;
      }
      EXPECT_GT(decisions, 5) << players << " " << level;
      EXPECT_NE(std::find(phases.begin(), phases.end(), "dart-aim"), phases.end());
    }
  }
}

// Blue's man on 0,-2 can step to 0,-1 (next to white's man on 0,0 with 0,1 empty beyond:
// white would take it) or stay safe elsewhere; one ply of search sees the loss.
TEST(CheckersBot, SearchDoesNotHangAManThatTheGreedyLevelCannotSee) {
  auto s = Load(
      "players=2 setup=normal board=plain darts=off reverse=off turn=b phase=start "
      "pieces=bM0,-2;wM0,0;wM-7,7;bM7,-7");
  ASSERT_NE(s, nullptr);
  const auto& pos = static_cast<const ChestoniaCheckersState&>(*s).position();
  SearchLimits limits;
  limits.nodes = 20000;
  const SearchResult r = CheckersSearch(pos, limits);
  ASSERT_FALSE(r.move.empty());
  auto after = s->Clone();
  ASSERT_TRUE(after->Apply(r.move).ok()) << r.move;
  // After the searched move white has nothing to take.
  const auto& next = static_cast<const ChestoniaCheckersState&>(*after).position();
  EXPECT_FALSE(engine::chestonia_checkers::CanCapture(next)) << r.move;
  EXPECT_GE(r.depth, 2);
}

// Three seats play a race to crown (a flying king usually takes dozens of pieces in one chain):
// blue's man on -1,0 is six steps from white's back row, the one on 3,-6 ten from any crowning
// cell, and neither crowns within the horizon. Whatever the seed's root order, the search runs
// with the near one (the plain material count, three a row, chose the far one on five seeds).
TEST(CheckersBot, ThreeSeatSearchRunsTheManNearestACrown) {
  auto s = Load(
      "players=3 setup=normal board=plain darts=off reverse=off turn=b phase=start "
      "pieces=bM-1,0;bM3,-6;kM5,2;wM6,-1");
  ASSERT_NE(s, nullptr);
  const auto& pos = static_cast<const ChestoniaCheckersState&>(*s).position();
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    SearchLimits limits;
    limits.nodes = 5000;
    limits.seed = seed;
    const SearchResult r = CheckersSearch(pos, limits);
    EXPECT_EQ(r.move.substr(0, r.move.find(':')), "-1,0") << seed << ": " << r.move;
  }
}

// A king among many enemies: its turns number in the thousands or more (movegen.h). The
// bounded listing and the bot stay within their budgets and answer legally.
TEST(CheckersBot, AKingAmidManyEnemiesStaysBounded) {
  std::string pieces = "bK0,0";
  for (int q = -6; q <= 6; ++q) {
    for (int r = -6; r <= 6; ++r) {
      const int ring = std::max({std::abs(q), std::abs(r), std::abs(q + r)});
      if (ring < 1 || ring > 6 || (q * 3 + r * 5 + 40) % 4 != 0) continue;
      absl::StrAppend(&pieces, ";wM", q, ",", r);
    }
  }
  auto s = Load(absl::StrCat(
      "players=2 setup=normal board=plain darts=off reverse=off turn=b phase=start pieces=",
      pieces));
  ASSERT_NE(s, nullptr);
  const std::vector<std::string> some = s->BoundedLegalActions(100);
  ASSERT_FALSE(some.empty());
  EXPECT_LE(some.size(), 100u);
  for (const std::string& a : some) {
    auto c = s->Clone();
    EXPECT_TRUE(c->Apply(a).ok()) << a;
  }
  for (int level : {0, 1, 2, 4}) {
    BotRequest req;
    req.game = "chestonia-checkers";
    req.variant = "players=2";
    req.position = s->Serialize();
    req.seat = 0;
    req.level = level;
    req.seed = 7;
    absl::StatusOr<BotAnswer> a = ChooseBotMove(req);
    ASSERT_TRUE(a.ok()) << a.status();
    auto c = s->Clone();
    EXPECT_TRUE(c->Apply(a->result.move).ok()) << a->result.move;
    EXPECT_LE(a->result.nodes, LevelNodeBudget("chestonia-checkers", level, 2) + 1000);
  }
}

// The experimental BRS+ (on request) answers a legal turn with three seats, deterministically.
TEST(CheckersBot, BrsOnRequestAnswersLegallyAndDeterministically) {
  auto s = New("players=3");
  Settle(*s);
  const auto& pos = static_cast<const ChestoniaCheckersState&>(*s).position();
  SearchLimits limits;
  limits.nodes = 5000;
  limits.seed = 3;
  const SearchResult a = CheckersSearch(pos, limits, CheckersAlgorithm::kBrs);
  const SearchResult b = CheckersSearch(pos, limits, CheckersAlgorithm::kBrs);
  ASSERT_FALSE(a.move.empty());
  EXPECT_EQ(a.move, b.move);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_GE(a.depth, 1);
  auto c = s->Clone();
  EXPECT_TRUE(c->Apply(a.move).ok()) << a.move;
}

}  // namespace
}  // namespace arena::bots
