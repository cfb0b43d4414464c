#include "gateway/prompt.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gateway/move_extraction.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace arena::gateway {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

absl::StatusOr<TurnPosition> Initial(const engine::Game& game, const std::string& variant,
                                     bool show) {
  auto v = engine::Variant::Parse(variant);
  if (!v.ok()) return v.status();
  auto state = game.NewInitialState(*v);
  if (!state.ok()) return state.status();
  // Walk past chance nodes to a seat's decision.
  for (int i = 0; i < 8 && (*state)->ToMove() == engine::kChanceSeat; ++i) {
    auto outcomes = (*state)->ChanceOutcomes();
    if (outcomes.empty() || !(*state)->Apply(outcomes[0].action).ok()) break;
  }
  return LoadTurnPosition(std::string(game.Id()), variant, (*state)->Serialize(),
                          (*state)->ToMove(), {"e2e4", "e7e5"}, show);
}

// Every registered game gets a prompt whose position markers carry a parseable position, and
// a JSON answer naming any legal move is accepted as that move.
TEST(PromptTest, EveryGameGetsAPromptTheMockCanReadBack) {
  for (const engine::Game* game : engine::AllGames()) {
    for (const std::string& variant : game->ExampleVariants()) {
      SCOPED_TRACE(std::string(game->Id()) + " " + variant);
      auto turn = Initial(*game, variant, true);
      if (!turn.ok()) continue;  // e.g. a variant whose first decision is not a seat's
      std::string prompt = BuildTurnPrompt(*turn);
      EXPECT_THAT(prompt, HasSubstr(kPositionBegin));
      EXPECT_THAT(prompt, HasSubstr("Legal moves"));
      EXPECT_THAT(prompt, HasSubstr("1.e2e4 2.e7e5"));
      auto found = FindPromptedPosition(prompt);
      ASSERT_TRUE(found.ok());
      EXPECT_EQ(found->game_id, game->Id());
      auto v = engine::Variant::Parse(found->variant);
      ASSERT_TRUE(v.ok());
      auto reparsed = game->Parse(found->position, *v);
      ASSERT_TRUE(reparsed.ok()) << reparsed.status();
      EXPECT_EQ((*reparsed)->LegalActions(), turn->legal);
      const std::string& move = turn->legal.back();
      Extraction x =
          ExtractMove("{\"move\": \"" + move + "\", \"reasoning\": \"r\"}", "stop", *turn);
      EXPECT_EQ(x.label, ReplyLabel::kOk);
      EXPECT_EQ(x.move, move);
    }
  }
}

class ChessPromptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    game_ = engine::FindGame("chess");
    if (game_ == nullptr) GTEST_SKIP() << "chess is not registered in this build";
    auto t = Initial(*game_, "", false);
    ASSERT_TRUE(t.ok()) << t.status();
    turn_ = *std::move(t);
  }
  const engine::Game* game_ = nullptr;
  TurnPosition turn_;
};

TEST_F(ChessPromptTest, PromptHasRulesPositionTurnAndFormat) {
  std::string prompt = BuildTurnPrompt(turn_);
  EXPECT_THAT(prompt, HasSubstr("Standard chess"));
  EXPECT_THAT(prompt, HasSubstr("UCI"));
  EXPECT_THAT(prompt, HasSubstr("You play white (seat 0)"));
  EXPECT_THAT(prompt, HasSubstr("You owe a move action, written UCI"));
  EXPECT_THAT(prompt, HasSubstr("For example: a2a3"));
  EXPECT_THAT(prompt, HasSubstr("wK"));  // the board drawn from the board view
  EXPECT_THAT(prompt, HasSubstr("{\"move\""));
  EXPECT_THAT(prompt, Not(HasSubstr("Legal moves")));  // not a beginner table
  turn_.show_legal_moves = true;
  EXPECT_THAT(BuildTurnPrompt(turn_), HasSubstr("e2e4"));
}

// At a clue table the prompt carries the clue on one labelled line of its own, which the mock
// (and anyone) can read back; without a clue there is no such line.
TEST_F(ChessPromptTest, ClueLineOnlyWhenTheTurnHasAClue) {
  const std::string without = BuildTurnPrompt(turn_);
  EXPECT_THAT(without, Not(HasSubstr("Clue")));
  EXPECT_THAT(without, Not(HasSubstr("suggests")));
  EXPECT_EQ(FindPromptedClue(without).status().code(), absl::StatusCode::kNotFound);

  turn_.clue_move = "g1f3";
  turn_.clue_level = 4;
  const std::string with = BuildTurnPrompt(turn_);
  const std::string line = "\nClue (a level-4 bot suggests): g1f3 -- you may follow it or not.\n";
  EXPECT_THAT(with, HasSubstr(line));
  EXPECT_EQ(with.find("Clue ("), with.rfind("Clue ("));  // one line, once
  EXPECT_EQ(ClueLine("g1f3", 4), line.substr(1, line.size() - 2));
  auto clue = FindPromptedClue(with);
  ASSERT_TRUE(clue.ok()) << clue.status();
  EXPECT_EQ(clue->move, "g1f3");
  EXPECT_EQ(clue->level, 4);
  // The rest of the prompt is the same, and the mock still finds the position.
  EXPECT_EQ(with.size(), without.size() + line.size() - 1);
  auto found = FindPromptedPosition(with);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->game_id, "chess");

  // Multi-word actions (a dart aim, a placement) read back whole.
  EXPECT_EQ(FindPromptedClue("x\n" + ClueLine("aim 1,2", 3) + "\ny")->move, "aim 1,2");
  // A line that only mentions the words is no clue line.
  EXPECT_FALSE(FindPromptedClue("say Clue (a level-4 bot suggests): e2e4 -- you may follow it "
                                "or not.")
                   .ok());
  EXPECT_FALSE(
      FindPromptedClue("Clue (a level-x bot suggests): e2e4 -- you may follow it or not.").ok());
}

TEST_F(ChessPromptTest, LoadRefusesTheWrongSeatAndBadPositions) {
  EXPECT_EQ(LoadTurnPosition("chess", "", turn_.state->Serialize(), 1, {}, false).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(LoadTurnPosition("chess", "", "garbage", 0, {}, false).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(LoadTurnPosition("no-such-game", "", "x", 0, {}, false).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// The prompt states the rules as the engine plays them: along random games of every game and
// variant, each decision's prompt names the seat by the game's own name, gives the exact format
// of the action owed with an example that is one of the seat's legal actions, and the brief of
// a reverse variant states the reversed aim while no other brief says a king can be taken.
TEST(PromptBriefTest, PromptsStateWhatTheEngineAsksFor) {
  for (const engine::Game* game : engine::AllGames()) {
    for (const std::string& variant_text : game->ExampleVariants()) {
      SCOPED_TRACE(std::string(game->Id()) + " " + variant_text);
      auto variant = engine::Variant::Parse(variant_text);
      ASSERT_TRUE(variant.ok());
      auto state = game->NewInitialState(*variant);
      ASSERT_TRUE(state.ok());
      std::set<std::string> phases;
      uint64_t pick = 7;
      for (int n = 0; n < 300 && !(*state)->IsTerminal(); ++n) {
        pick = pick * 6364136223846793005ull + 1442695040888963407ull;
        if ((*state)->ToMove() == engine::kChanceSeat) {
          auto outcomes = (*state)->ChanceOutcomes();
          ASSERT_TRUE((*state)->Apply(outcomes[(pick >> 33) % outcomes.size()].action).ok());
          continue;
        }
        const std::string phase = (*state)->Phase();
        if (phases.insert(phase).second || n % 40 == 0) {
          auto turn = LoadTurnPosition(std::string(game->Id()), variant_text, (*state)->Serialize(),
                                       (*state)->ToMove(), {}, false);
          ASSERT_TRUE(turn.ok()) << turn.status();
          const std::string prompt = BuildTurnPrompt(*turn);
          const engine::RulesBrief brief = (*state)->Brief();
          const std::string seat_name = (*state)->Seats()[(*state)->ToMove()].name;
          EXPECT_THAT(prompt, HasSubstr("You play " + seat_name));
          bool described = false;
          for (const engine::ActionFormat& f : brief.formats) {
            if (f.kind != phase) continue;
            described = true;
            EXPECT_THAT(prompt, HasSubstr(f.format));
          }
          EXPECT_TRUE(described) << "no format for " << phase;
          EXPECT_THAT(prompt, HasSubstr("For example: " + turn->legal.front()));
          const bool reverse = variant->GetBool("reverse", false).value_or(false);
          const std::string lower = absl::AsciiStrToLower(brief.text);
          if (reverse) {
            EXPECT_THAT(lower, HasSubstr("lose")) << "a reverse brief must state the aim";
          } else {
            EXPECT_THAT(lower, Not(HasSubstr("king is captured")));
            EXPECT_THAT(lower, Not(HasSubstr("capture the king")));
          }
        }
        auto legal = (*state)->LegalActions();
        ASSERT_TRUE((*state)->Apply(legal[(pick >> 33) % legal.size()]).ok());
      }
    }
  }
}

// A Chestonia checkers king amid scattered enemies: more turns than a turn lists
// (docs/rules/chestonia-checkers.md, "How many turns").
std::string KingAmidManyEnemies() {
  std::string pieces = "bK0,0";
  for (int q = -6; q <= 6; ++q) {
    for (int r = -6; r <= 6; ++r) {
      const int ring = std::max({std::abs(q), std::abs(r), std::abs(q + r)});
      if (ring < 1 || ring > 6 || (q * 3 + r * 5 + 40) % 4 != 0) continue;
      absl::StrAppend(&pieces, ";wM", q, ",", r);
    }
  }
  return absl::StrCat(
      "chestonia-checkers players=2 setup=normal board=plain darts=off reverse=off turn=b "
      "phase=start pieces=",
      pieces);
}

// The turn lists at most kMaxLegalListed actions and the prompt shows at most kMaxLegalShown,
// and a legal turn outside the list is still read as the model's move; an illegal one is not.
// (LoadTurnPosition used to list every turn: in this position that ran for over ten minutes and
// grew past 3 GB in the release build, so the test timed out.)
TEST(PromptBoundTest, AHugeLegalListIsCutAndAnyLegalTurnIsStillRead) {
  auto turn =
      LoadTurnPosition("chestonia-checkers", "players=2", KingAmidManyEnemies(), 0, {}, true);
  ASSERT_TRUE(turn.ok()) << turn.status();
  EXPECT_LE(turn->legal.size(), static_cast<size_t>(kMaxLegalListed));
  EXPECT_GT(turn->legal.size(), kMaxLegalShown);
  const std::string prompt = BuildTurnPrompt(*turn);
  const size_t at = prompt.find("Legal moves (");
  ASSERT_NE(at, std::string::npos);
  EXPECT_THAT(prompt, HasSubstr("any other legal move is accepted too"));
  const std::string line = prompt.substr(at, prompt.find('\n', at) - at);
  const std::string list = line.substr(line.find("): ") + 3);
  EXPECT_EQ(std::count(list.begin(), list.end(), ' ') + 1, static_cast<long>(kMaxLegalShown));

  const std::set<std::string> listed(turn->legal.begin(), turn->legal.end());
  std::string unlisted;
  // (Listing every turn here takes minutes and gigabytes: a longer bounded list finds one.)
  for (const std::string& a : turn->state->BoundedLegalActions(2 * kMaxLegalListed)) {
    if (listed.count(a) == 0) {
      unlisted = a;
      break;
    }
  }
  ASSERT_FALSE(unlisted.empty());
  const std::string reply = nlohmann::json({{"move", unlisted}, {"reasoning", "r"}}).dump();
  Extraction x = ExtractMove(reply, "stop", *turn);
  EXPECT_EQ(x.label, ReplyLabel::kOk) << x.reason;
  EXPECT_EQ(x.move, unlisted);
  Extraction bad = ExtractMove(nlohmann::json({{"move", "0,0:0,1"}}).dump(), "stop", *turn);
  EXPECT_NE(bad.label, ReplyLabel::kOk);
}

// A short list is shown whole, as before.
TEST(PromptBoundTest, AShortLegalListIsShownWhole) {
  auto state = engine::FindGame("chess")->NewInitialState(engine::Variant());
  ASSERT_TRUE(state.ok());
  auto turn = LoadTurnPosition("chess", "", (*state)->Serialize(), 0, {}, true);
  ASSERT_TRUE(turn.ok());
  EXPECT_EQ(turn->legal.size(), 20u);
  EXPECT_THAT(BuildTurnPrompt(*turn),
              HasSubstr("Legal moves (choose exactly one): " + absl::StrJoin(turn->legal, " ")));
}

TEST(PromptBriefTest, TruncatesOnCharacterBoundaries) {
  EXPECT_EQ(TruncateUtf8("abc", 10), "abc");
  EXPECT_EQ(TruncateUtf8("a\xc3\xa9", 2), "a");
}

}  // namespace
}  // namespace arena::gateway
