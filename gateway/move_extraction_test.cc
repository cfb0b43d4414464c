#include "gateway/move_extraction.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace arena::gateway {
namespace {

using ::testing::HasSubstr;

// The initial chess position, White to move.
class ChessExtractionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    game_ = engine::FindGame("chess");
    if (game_ == nullptr) GTEST_SKIP() << "chess is not registered in this build";
    auto state = game_->NewInitialState(engine::Variant());
    ASSERT_TRUE(state.ok());
    auto t = LoadTurnPosition("chess", "", (*state)->Serialize(), 0, {}, false);
    ASSERT_TRUE(t.ok()) << t.status();
    turn_ = *std::move(t);
  }
  const engine::Game* game_ = nullptr;
  TurnPosition turn_;
};

TEST_F(ChessExtractionTest, ExtractionAcceptsJsonFencesAndMoveLines) {
  auto ok = [&](const std::string& reply, const std::string& want) {
    Extraction x = ExtractMove(reply, "stop", turn_);
    EXPECT_EQ(x.label, ReplyLabel::kOk) << reply << " -> " << x.reason;
    EXPECT_EQ(x.move, want) << reply;
    return x;
  };
  Extraction x = ok(R"({"move": "e2e4", "reasoning": "centre"})", "e2e4");
  EXPECT_EQ(x.reasoning, "centre");
  ok("Sure!\n```json\n{\"move\": \"g1f3\", \"reasoning\": \"develop\"}\n```", "g1f3");
  x = ok("I like the king pawn.\nMOVE: e2e4", "e2e4");
  EXPECT_EQ(x.reasoning, "I like the king pawn.");
  ok("MOVE: `E2E4`.", "e2e4");
  auto probe = turn_.state->Clone();
  if (probe->Apply("Nf3").ok()) ok(R"({"move": "Nf3"})", "g1f3");
}

TEST_F(ChessExtractionTest, ExtractionLabelsEveryKindOfBadAnswer) {
  EXPECT_EQ(ExtractMove("   \n", "stop", turn_).label, ReplyLabel::kEmpty);
  EXPECT_EQ(ExtractMove(R"({"move": "e2e4"})", "length", turn_).label, ReplyLabel::kTruncated);
  EXPECT_EQ(ExtractMove("I would rather not.", "stop", turn_).label, ReplyLabel::kUnparsable);
  EXPECT_EQ(ExtractMove(R"({"reasoning": "no move"})", "stop", turn_).label,
            ReplyLabel::kUnparsable);
  Extraction x = ExtractMove(R"({"move": "e2e5"})", "stop", turn_);
  EXPECT_EQ(x.label, ReplyLabel::kIllegal);
  EXPECT_THAT(x.reason, HasSubstr("e2e5"));
  EXPECT_THAT(RepromptText(x, turn_), HasSubstr("'e2e5' is not a legal move"));
}

TEST_F(ChessExtractionTest, ReasoningIsBoundedAtAUtf8Boundary) {
  std::string long_reasoning;
  while (long_reasoning.size() < 3 * kMaxReasoningBytes) long_reasoning += "\xc3\xa9";
  Extraction x = ExtractMove(
      nlohmann::json({{"move", "e2e4"}, {"reasoning", long_reasoning}}).dump(), "stop", turn_);
  ASSERT_EQ(x.label, ReplyLabel::kOk);
  EXPECT_LE(x.reasoning.size(), kMaxReasoningBytes);
  EXPECT_EQ(x.reasoning.size() % 2, 0u);
}

TEST_F(ChessExtractionTest, ProseAnswersAreReadAfterTheirMarker) {
  auto ok = [&](const std::string& reply, const std::string& want) {
    Extraction x = ExtractMove(reply, "stop", turn_);
    EXPECT_EQ(x.label, ReplyLabel::kOk) << reply << " -> " << x.reason;
    EXPECT_EQ(x.move, want) << reply;
    return x;
  };
  // A reasoning model's style: other moves considered first, the answer last.
  Extraction x =
      ok("Let me think. e2e4 is popular and d2d4 is solid, but I want something unusual.\n"
         "Final Answer: h2h4",
         "h2h4");
  EXPECT_THAT(x.reasoning, HasSubstr("unusual"));
  ok("I considered g1f3.\n\n**Move:** e2e4", "e2e4");
  ok("**Final answer:**\n\nd2d4\n", "d2d4");
  ok("The best move here is b1c3, developing a piece.", "b1c3");
  ok("My answer: `a2a3`.", "a2a3");
  // The last marker that names a legal move wins.
  ok("Move e2e4 looked fine; on reflection my final choice is c2c4.", "c2c4");
  // Other notations the game reads (SAN), after a marker or alone.
  auto probe = turn_.state->Clone();
  if (probe->Apply("Nf3").ok()) {
    ok("After some thought: the answer is Nf3.", "g1f3");
    ok("I will play Nc3", "b1c3");
  }
  // The only legal move a reply names, without any marker.
  ok("I am going with g2g3 today.", "g2g3");
}

TEST_F(ChessExtractionTest, AmbiguousProseIsRepromptedWithWhatWasAmbiguous) {
  Extraction x = ExtractMove("Both e2e4 and d2d4 look good to me.", "stop", turn_);
  EXPECT_EQ(x.label, ReplyLabel::kUnparsable);
  EXPECT_THAT(x.reason, HasSubstr("ambiguous"));
  EXPECT_THAT(x.reason, HasSubstr("e2e4"));
  EXPECT_THAT(x.reason, HasSubstr("d2d4"));
  std::string again = RepromptText(x, turn_);
  EXPECT_THAT(again, HasSubstr("ambiguous"));
  EXPECT_THAT(again, HasSubstr("{\"move\""));
}

TEST_F(ChessExtractionTest, JsonWinsOverProseAndAnIllegalDeclarationIsIllegal) {
  // The JSON's move, even with other moves named around it.
  Extraction x = ExtractMove("I thought about d2d4.\n{\"move\": \"e2e4\", \"reasoning\": \"r\"}",
                             "stop", turn_);
  EXPECT_EQ(x.label, ReplyLabel::kOk);
  EXPECT_EQ(x.move, "e2e4");
  // JSON naming an illegal move is illegal, not read from the prose.
  x = ExtractMove("d2d4 is nice. {\"move\": \"e2e5\"}", "stop", turn_);
  EXPECT_EQ(x.label, ReplyLabel::kIllegal);
  // A final declaration that names nothing legal, after a legal move mentioned: illegal.
  x = ExtractMove("The best move is e2e4, or rather...\nFinal Answer: e2e5", "stop", turn_);
  EXPECT_EQ(x.label, ReplyLabel::kIllegal) << x.reason;
  EXPECT_EQ(x.candidate, "e2e5");
  EXPECT_THAT(x.reason, HasSubstr("'e2e5' is not a legal move"));
  // Moves inside longer tokens are not moves.
  EXPECT_EQ(ExtractMove("see e2e4e5 and xe2e4", "stop", turn_).label, ReplyLabel::kUnparsable);
}

TEST_F(ChessExtractionTest, TruncatedRepliesAreTruncatedEvenWithAMoveInThem) {
  Extraction x = ExtractMove("Let me think about e2e4 and then Final Answer: e2", "length", turn_);
  EXPECT_EQ(x.label, ReplyLabel::kTruncated);
  EXPECT_THAT(x.reason, HasSubstr("cut off"));
  EXPECT_THAT(RepromptText(x, turn_), HasSubstr("cut off"));
}

// Every game: a prose answer naming a legal action after "Final Answer:" is that action, and
// a reply naming two different legal actions without a marker is ambiguous.
TEST(ExtractionEveryGameTest, ProseAnswersWorkForEveryGame) {
  for (const engine::Game* game : engine::AllGames()) {
    for (const std::string& variant_text : game->ExampleVariants()) {
      SCOPED_TRACE(std::string(game->Id()) + " " + variant_text);
      auto variant = engine::Variant::Parse(variant_text);
      ASSERT_TRUE(variant.ok());
      auto state = game->NewInitialState(*variant);
      ASSERT_TRUE(state.ok());
      for (int i = 0; i < 8 && (*state)->ToMove() == engine::kChanceSeat; ++i) {
        auto outcomes = (*state)->ChanceOutcomes();
        if (outcomes.empty() || !(*state)->Apply(outcomes[0].action).ok()) break;
      }
      auto turn = LoadTurnPosition(std::string(game->Id()), variant_text, (*state)->Serialize(),
                                   (*state)->ToMove(), {}, false);
      if (!turn.ok()) continue;
      const std::string& last = turn->legal.back();
      Extraction x = ExtractMove("I weighed it all.\n\n**Final Answer:** " + last, "stop", *turn);
      EXPECT_EQ(x.label, ReplyLabel::kOk) << x.reason;
      EXPECT_EQ(x.move, last);
      if (turn->legal.size() > 1) {
        x = ExtractMove("Either " + turn->legal.front() + " or " + last + " will do.", "stop",
                        *turn);
        EXPECT_EQ(x.label, ReplyLabel::kUnparsable) << x.move;
        EXPECT_THAT(x.reason, HasSubstr("ambiguous"));
      }
    }
  }
}

TEST(TruncateUtf8Test, CutsAtACharacterBoundary) {
  EXPECT_EQ(TruncateUtf8("abc", 10), "abc");
  EXPECT_EQ(TruncateUtf8("a\xc3\xa9", 2), "a");
}

}  // namespace
}  // namespace arena::gateway
