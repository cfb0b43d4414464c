#include "tools/arenactl/play_input.h"

#include "gtest/gtest.h"

namespace arena::arenactl {
namespace {

using Kind = PlayInput::Kind;

TEST(PlayInputTest, WordsAreCommands) {
  EXPECT_EQ(ParsePlayInput("resign", "move", {}).kind, Kind::kResign);
  EXPECT_EQ(ParsePlayInput("  draw ", "move", {}).kind, Kind::kOfferDraw);
  EXPECT_EQ(ParsePlayInput("accept", "move", {}).kind, Kind::kAccept);
  EXPECT_EQ(ParsePlayInput("decline", "move", {}).kind, Kind::kDecline);
  EXPECT_EQ(ParsePlayInput("clue", "move", {}).kind, Kind::kClue);
  EXPECT_EQ(ParsePlayInput("help", "move", {}).kind, Kind::kHelp);
  EXPECT_EQ(ParsePlayInput("quit", "move", {}).kind, Kind::kQuit);
  EXPECT_EQ(ParsePlayInput("", "move", {}).kind, Kind::kNothing);
  PlayInput moves = ParsePlayInput("moves e2", "move", {});
  EXPECT_EQ(moves.kind, Kind::kMoves);
  EXPECT_EQ(moves.text, "e2");
}

TEST(PlayInputTest, ActionsKeepTheirTextAndShortFormsAreCompleted) {
  PlayInput move = ParsePlayInput("e2e4", "move", {"e2e4", "d2d4"});
  EXPECT_EQ(move.kind, Kind::kAction);
  EXPECT_EQ(move.text, "e2e4");
  // A dart is owed: "0,0" is the aim; the full form stays as typed.
  EXPECT_EQ(ParsePlayInput("0,0", "dart-aim", {"aim 0,0"}).text, "aim 0,0");
  EXPECT_EQ(ParsePlayInput("aim 0,0", "dart-aim", {}).text, "aim 0,0");
  EXPECT_EQ(ParsePlayInput("Q 1,2", "placement", {}).text, "place Q 1,2");
  EXPECT_EQ(ParsePlayInput("skip", "placement", {}).text, "skip");
  EXPECT_EQ(ParsePlayInput("3,4", "penalty", {}).text, "penalty 3,4");
  // A listed action is sent as it is, whatever the phase is called.
  EXPECT_EQ(ParsePlayInput("1,0", "placement", {"1,0"}).text, "1,0");
  // A word with more after it is an action, not a command ("draw" takes nothing).
  EXPECT_EQ(ParsePlayInput("draw now", "move", {}).kind, Kind::kAction);
}

}  // namespace
}  // namespace arena::arenactl
