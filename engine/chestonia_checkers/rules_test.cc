// One focused test per rule of the seed text and RULES-NOTES, on positions written in the
// notation of notation.h (phase=start begins the turn of the seat named by turn=).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/chestonia_checkers/chestonia_checkers_game.h"
#include "engine/chestonia_checkers/movegen.h"
#include "engine/chestonia_checkers/notation.h"
#include "engine/hex/dart.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arena::engine::chestonia_checkers {
namespace {

using ::testing::UnorderedElementsAreArray;

std::unique_ptr<State> Load(std::string_view fields) {
  auto state = ChestoniaCheckersGame::Instance().Parse(
      absl::StrCat("chestonia-checkers ", ToAbsl(fields)), Variant());
  EXPECT_TRUE(state.ok()) << state.status() << "\n" << fields;
  return state.ok() ? std::move(*state) : nullptr;
}

std::unique_ptr<State> New(std::string_view variant_text) {
  auto variant = Variant::Parse(variant_text);
  EXPECT_TRUE(variant.ok());
  auto state = ChestoniaCheckersGame::Instance().NewInitialState(*variant);
  EXPECT_TRUE(state.ok()) << state.status();
  return state.ok() ? std::move(*state) : nullptr;
}

const Position& Pos(const State& s) {
  return static_cast<const ChestoniaCheckersState&>(s).position();
}

bool Legal(const State& s, std::string_view action) {
  const auto actions = s.LegalActions();
  return std::find(actions.begin(), actions.end(), action) != actions.end();
}

std::vector<std::string> TurnsFrom(const State& s, std::string_view cell) {
  std::vector<std::string> out;
  for (const std::string& a : s.LegalActions()) {
    if (absl::StartsWith(a, absl::StrCat(ToAbsl(cell), ":"))) out.push_back(a);
  }
  return out;
}

Piece At(const State& s, std::string_view cell) {
  return Pos(s).cells[*ParseCell(cell)];
}

void Do(State& s, std::string_view action) {
  absl::Status st = s.Apply(action);
  ASSERT_TRUE(st.ok()) << st << " applying " << action << "\n" << s.Serialize();
}

std::string Cell(hex::Axial a) {
  return hex::CellText(a);
}

// A white man that is still in but out of every test's way: in a corner, where no line has a
// cell on both sides of it, so nothing can ever capture it.
constexpr const char* kFarWhite = "wM-7,7";

// --- Set-up ---------------------------------------------------------------------------------

TEST(SetupTest, NormalIsFifteenMenOnTwoTrimmedRowsAndLongTwentySevenOnThreeFullRows) {
  auto normal = New("");
  EXPECT_EQ(Pos(*normal).pieces[0].Count(), 15);
  EXPECT_EQ(Pos(*normal).pieces[1].Count(), 15);
  for (int q = 0; q <= 6; ++q) EXPECT_EQ(At(*normal, Cell({q, -6})), MakePiece(0, kMan)) << q;
  for (int q = -1; q <= 6; ++q) EXPECT_EQ(At(*normal, Cell({q, -5})), MakePiece(0, kMan)) << q;
  EXPECT_EQ(At(*normal, "-1,-6"), 0);  // the trimmed ends are rim cells
  EXPECT_EQ(At(*normal, "7,-6"), 0);
  for (int q = 0; q <= 7; ++q) EXPECT_EQ(At(*normal, Cell({q, -7})), 0);  // the rim row is empty
  EXPECT_EQ(At(*normal, "0,6"), MakePiece(1, kMan));                      // white: turned half
  auto long_game = New("setup=long");
  EXPECT_EQ(Pos(*long_game).pieces[0].Count(), 27);
  EXPECT_EQ(Pos(*long_game).pieces[1].Count(), 27);
  EXPECT_EQ(At(*long_game, "7,-7"), MakePiece(0, kMan));
  EXPECT_EQ(At(*long_game, "-2,-5"), MakePiece(0, kMan));
  auto three = New("players=3,setup=long");
  for (int seat = 0; seat < 3; ++seat) EXPECT_EQ(Pos(*three).pieces[seat].Count(), 27);
  EXPECT_EQ(At(*three, "7,0"), MakePiece(1, kMan));   // black's rim s = -7
  EXPECT_EQ(At(*three, "-7,0"), MakePiece(2, kMan));  // white's rim q = -7
  EXPECT_EQ(three->Seats()[1].name, "black");
}

// --- Men ------------------------------------------------------------------------------------

TEST(ManTest, StepsOneOrTwoCellsForwardAndSidewaysTurningCornersButNeverBack) {
  auto s = Load(absl::StrCat("turn=b pieces=bM0,0;", kFarWhite));
  // One cell: (0,1) (-1,1) forward, (1,0) (-1,0) sideways; two cells: every sum of two of
  // them except back to the start.
  const std::vector<std::string> want = {"0,0:0,1",  "0,0:-1,1", "0,0:1,0",  "0,0:-1,0",
                                         "0,0:0,2",  "0,0:-1,2", "0,0:-2,2", "0,0:1,1",
                                         "0,0:-2,1", "0,0:2,0",  "0,0:-2,0"};
  EXPECT_THAT(TurnsFrom(*s, "0,0"), UnorderedElementsAreArray(want));
  EXPECT_FALSE(Legal(*s, "0,0:0,-1"));  // straight back
  EXPECT_FALSE(Legal(*s, "0,0:1,-1"));
}

TEST(ManTest, ATwoCellMoveIsBlockedOnlyWhenEveryRouteIsBlocked) {
  // (1,1) has two routes, through (0,1) and through (1,0); (0,2) only one, through (0,1).
  auto one_blocked = Load(absl::StrCat("turn=b pieces=bM0,0;bM0,1;", kFarWhite));
  EXPECT_TRUE(Legal(*one_blocked, "0,0:1,1"));
  EXPECT_FALSE(Legal(*one_blocked, "0,0:0,2"));
  EXPECT_TRUE(Legal(*one_blocked, "0,0:-1,2"));  // through (-1,1)
  auto both_blocked = Load(absl::StrCat("turn=b pieces=bM0,0;bM0,1;bM1,0;", kFarWhite));
  EXPECT_FALSE(Legal(*both_blocked, "0,0:1,1"));
  // An opponent's piece blocks a route as well (when no capture is forced: its back is to
  // another piece).
  auto enemy = Load("turn=b pieces=bM0,0;wM0,1;wM0,2;bM1,0;wM-6,7");
  EXPECT_FALSE(Legal(*enemy, "0,0:1,1"));
}

TEST(ManTest, CapturesAlongAllTwelveLinesLandingJustBeyond) {
  for (int d = 0; d < hex::kNumDirections; ++d) {
    const hex::Axial v = hex::kDirections[d];
    auto s = Load(absl::StrCat("turn=b pieces=bM0,0;wM", Cell(v), ";", kFarWhite));
    EXPECT_EQ(s->LegalActions(), std::vector<std::string>{"0,0:" + Cell(2 * v)}) << d;
  }
}

TEST(ManTest, ADiagonalHopIsNotBlockedByTheCellsItPassesBetween) {
  // Diagonal (1,1) passes between (1,0) and (0,1); the victim stands on (1,1).
  auto s = Load("turn=b pieces=bM0,0;bM1,0;bM0,1;wM1,1;wM-6,7");
  EXPECT_TRUE(Legal(*s, "0,0:2,2"));
  auto landing_taken = Load("turn=b pieces=bM0,0;wM1,1;wM2,2;wM-6,7");
  EXPECT_FALSE(Legal(*landing_taken, "0,0:2,2"));
}

TEST(CaptureTest, CapturingIsCompulsory) {
  auto s = Load(absl::StrCat("turn=b pieces=bM0,0;bM3,-3;wM0,1;", kFarWhite));
  EXPECT_EQ(s->LegalActions(), std::vector<std::string>{"0,0:0,2"});
  EXPECT_EQ(s->Apply("3,-3:3,-2").code(), absl::StatusCode::kFailedPrecondition);
}

TEST(CaptureTest, ThePieceThatTookMustGoOnAndTheTurnIsWrittenWithEveryLanding) {
  auto s = Load(absl::StrCat("turn=b pieces=bM0,-5;wM0,-4;wM1,-3;", kFarWhite));
  EXPECT_EQ(s->LegalActions(), std::vector<std::string>{"0,-5:0,-3:2,-3"});
  EXPECT_EQ(s->Apply("0,-5:0,-3").code(), absl::StatusCode::kFailedPrecondition);
  Do(*s, "0,-5:0,-3:2,-3");
  EXPECT_EQ(At(*s, "0,-4"), 0);
  EXPECT_EQ(At(*s, "1,-3"), 0);
  EXPECT_EQ(At(*s, "2,-3"), MakePiece(0, kMan));
  EXPECT_EQ(s->ToMove(), 1);
}

TEST(CaptureTest, CapturedPiecesLeaveAtOnceAndTheOriginIsEmptyDuringTheChain) {
  // Around a triangle and back to the start: (0,0) over (0,1) to (0,2), over (1,1) to (2,0),
  // over (1,0) to (0,0).
  auto s = Load(absl::StrCat("turn=b pieces=bM0,0;wM0,1;wM1,1;wM1,0;", kFarWhite));
  Do(*s, "0,0:0,2:2,0:0,0");
  EXPECT_EQ(At(*s, "0,0"), MakePiece(0, kMan));
  for (const char* taken : {"0,1", "1,1", "1,0"}) EXPECT_EQ(At(*s, taken), 0) << taken;
  // A king flies back across the cell of the piece it took and across its own origin.
  auto k = Load(absl::StrCat("turn=b pieces=bK0,0;wM0,2;wM0,-2;", kFarWhite));
  EXPECT_EQ(k->Apply("0,0:0,4").code(), absl::StatusCode::kFailedPrecondition);
  // Routes with the same result (same pieces taken, same last cell) are one turn: 5 x 5
  // landings in either order give 10 results, listed once each; any route is accepted.
  EXPECT_EQ(k->LegalActions().size(), 10u);
  Do(*k, "0,0:0,4:0,-3");
  EXPECT_EQ(At(*k, "0,-3"), MakePiece(0, kKing));
}

TEST(CaptureTest, WhenSeveralCapturesExistAnyMayBeChosen) {
  // One hop here, two hops there: no rule to take the most.
  auto s = Load(absl::StrCat("turn=b pieces=bM0,0;wM-1,0;wM0,1;wM1,2;", kFarWhite));
  EXPECT_TRUE(Legal(*s, "0,0:-2,0"));
  EXPECT_TRUE(Legal(*s, "0,0:0,2:2,2"));
}

// --- Kings ----------------------------------------------------------------------------------

TEST(KingTest, FliesAlongAllTwelveLinesUntilSomethingIsInTheWay) {
  auto s = Load("turn=b pieces=bK0,0;wM-6,7");
  EXPECT_EQ(TurnsFrom(*s, "0,0").size(), 60u);  // 6 x 7 straight + 6 x 3 diagonal
  auto blocked = Load("turn=b pieces=bK0,0;bM0,3;wM-6,7");
  EXPECT_TRUE(Legal(*blocked, "0,0:0,2"));
  EXPECT_FALSE(Legal(*blocked, "0,0:0,4"));
}

TEST(KingTest, TakesAtRangeAndLandsOnAnyEmptyCellBeyond) {
  auto s = Load(absl::StrCat("turn=b pieces=bK0,-3;wM0,1;", kFarWhite));
  EXPECT_THAT(s->LegalActions(),
              UnorderedElementsAreArray(std::vector<std::string>{
                  "0,-3:0,2", "0,-3:0,3", "0,-3:0,4", "0,-3:0,5", "0,-3:0,6", "0,-3:0,7"}));
  // A diagonal at range: (2,-1) steps from (-4,2) to the victim on (2,-1).
  auto diag = Load(absl::StrCat("turn=b pieces=bK-4,2;wM2,-1;", kFarWhite));
  EXPECT_THAT(diag->LegalActions(),
              UnorderedElementsAreArray(std::vector<std::string>{"-4,2:4,-2", "-4,2:6,-3"}));
}

TEST(KingTest, OnePieceAtATimeAndNotWithItsBackToTheRim) {
  // Two pieces in a row stop the king; so does the rim right behind the enemy.
  auto two = Load(absl::StrCat("turn=b pieces=bK0,-3;wM0,1;wM0,2;", kFarWhite));
  EXPECT_FALSE(CanCapture(Pos(*two)));
  EXPECT_TRUE(Legal(*two, "0,-3:0,0"));
  EXPECT_FALSE(Legal(*two, "0,-3:0,3"));
  auto rim = Load(absl::StrCat("turn=b pieces=bK0,0;wM0,7;", kFarWhite));
  EXPECT_FALSE(CanCapture(Pos(*rim)));
  // An own piece first on the line blocks the capture.
  auto own = Load(absl::StrCat("turn=b pieces=bK0,-3;bM0,0;wM0,1;", kFarWhite));
  EXPECT_FALSE(Legal(*own, "0,-3:0,2"));
}

// --- Crowning -------------------------------------------------------------------------------

TEST(CrowningTest, AManReachingAnotherSeatsBackRowIsCrowned) {
  auto s = Load("turn=b pieces=bM0,5;wM-6,3");
  Do(*s, "0,5:0,7");  // two cells, through (0,6)
  EXPECT_EQ(At(*s, "0,7"), MakePiece(0, kKing));
  // A man taking backwards onto its own back row stays a man.
  auto own = Load("turn=b pieces=bM3,-5;wM3,-6;wM-6,3");
  Do(*own, "3,-5:3,-7");
  EXPECT_EQ(At(*own, "3,-7"), MakePiece(0, kMan));
}

TEST(CrowningTest, CrowningEndsTheTurnEvenMidChain) {
  // Over (0,6) onto white's back row; from (0,7) another hop over (-1,7) would be open.
  auto s = Load("turn=b pieces=bM0,5;wM0,6;wM-1,7");
  EXPECT_EQ(s->LegalActions(), std::vector<std::string>{"0,5:0,7"});
  Do(*s, "0,5:0,7");
  EXPECT_EQ(At(*s, "0,7"), MakePiece(0, kKing));
  EXPECT_EQ(At(*s, "-1,7"), MakePiece(1, kMan));
  EXPECT_EQ(s->ToMove(), 1);
}

TEST(CrowningTest, WithThreePlayersAnyOtherSeatsBackRowButNotAnEmptyEdge) {
  // Black's back row is s = -7, white's q = -7; r = +7 is nobody's.
  auto s = Load("players=3 turn=b pieces=bM3,3;bM-3,6;kM5,-5;wM-5,-1");
  Do(*s, "3,3:3,4");
  EXPECT_EQ(At(*s, "3,4"), MakePiece(0, kKing));
  auto edge = Load("players=3 turn=b pieces=bM-3,6;kM5,-5;wM-5,-1");
  Do(*edge, "-3,6:-3,7");
  EXPECT_EQ(At(*edge, "-3,7"), MakePiece(0, kMan));
}

// --- Going out ------------------------------------------------------------------------------

TEST(OutTest, ASeatWithNoPiecesLeftIsOutAndTheLastLeftWins) {
  auto s = Load("turn=b pieces=bM0,0;wM0,1");
  Do(*s, "0,0:0,2");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().winners, std::vector<int>{0});
  EXPECT_EQ(s->GetOutcome().reason, "last-player");
}

TEST(OutTest, ASeatWithNoLegalMoveIsOut) {
  // White's man on (0,-7) can go neither forward (off the board) nor sideways (blocked), and
  // (1,-7) has a piece behind it, so it cannot take.
  auto s = Load("turn=w pieces=bM1,-7;bM2,-7;wM0,-7");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().winners, std::vector<int>{0});
}

TEST(OutTest, WithThreePlayersTheLeftoversFreezeBlockAndCannotBeTaken) {
  // Black (seat 1) has no legal move at its turn: its man on (-7,0) cannot go forward (off
  // the board) or sideways (blocked), and cannot take (a piece behind): black is out.
  auto s = Load("players=3 turn=k pieces=kM-7,0;bM-6,-1;bM-5,-2;bM0,0;wM-6,3");
  ASSERT_FALSE(s->IsTerminal());
  EXPECT_FALSE(Pos(*s).Active(1));
  EXPECT_EQ(s->ToMove(), 2);
  EXPECT_EQ(At(*s, "-7,0"), MakePiece(1, kMan));  // still on the board
  // Blue next to the frozen man may not take it.
  auto f = Load("players=3 turn=b out=k pieces=bM0,0;kM0,1;wM-6,1");
  EXPECT_FALSE(Legal(*f, "0,0:0,2"));
  EXPECT_FALSE(CanCapture(Pos(*f)));
  EXPECT_FALSE(Legal(*f, "0,0:0,1"));  // and it blocks
  const BoardView view = f->Board(0);
  EXPECT_EQ(view.frozen_seats, std::vector<int>{1});
}

TEST(OutTest, ThreePlayerRanksFollowTheOrderOfGoingOut) {
  // Blue takes black's last man: black is out first; then white's.
  auto s = Load("players=3 turn=b pieces=bM0,0;kM0,1;wM1,2");
  Do(*s, "0,0:0,2:2,2");
  ASSERT_TRUE(s->IsTerminal());
  const Outcome o = s->GetOutcome();
  EXPECT_EQ(o.winners, std::vector<int>{0});
  EXPECT_EQ(o.ranks, (std::vector<int>{0, 2, 1}));
}

// --- Draws ----------------------------------------------------------------------------------

TEST(DrawTest, SixtyMovesWithoutProgressDraw) {
  auto s = Load("turn=b noprogress=59 pieces=bK-6,0;wK6,-1");
  auto man = Load("turn=b noprogress=59 pieces=bK-6,0;bM-3,-3;wK6,-1");
  Do(*s, "-6,0:-6,1");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().reason, "no-progress");
  Do(*man, "-3,-3:-3,-2");  // a man's move is progress
  EXPECT_FALSE(man->IsTerminal());
  EXPECT_EQ(Pos(*man).no_progress, 0);
}

TEST(DrawTest, TheMoveCapDraws) {
  auto s = Load("turn=b movecap=10 moves=9 pieces=bK-6,0;wK6,-1");
  Do(*s, "-6,0:-6,1");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().reason, "move-cap");
}

// --- Reverse --------------------------------------------------------------------------------

TEST(ReverseTest, TheFirstSeatWithNoPiecesWinsAtOnce) {
  auto s = Load("reverse=on turn=b pieces=bM0,0;bM5,-6;wM0,1");
  Do(*s, "0,0:0,2");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().winners, std::vector<int>{1});
  EXPECT_EQ(s->GetOutcome().reason, "no-pieces");
}

TEST(ReverseTest, NoLegalMoveWinsAndCapturesStayCompulsory) {
  auto stuck = Load("reverse=on turn=w pieces=bM1,-7;bM2,-7;wM0,-7");
  ASSERT_TRUE(stuck->IsTerminal());
  EXPECT_EQ(stuck->GetOutcome().winners, std::vector<int>{1});
  EXPECT_EQ(stuck->GetOutcome().reason, "no-legal-move");
  auto forced = Load("reverse=on turn=b pieces=bM0,0;bM3,-3;wM0,1;wM-6,7");
  EXPECT_EQ(forced->LegalActions(), std::vector<std::string>{"0,0:0,2"});
}

// --- Darts ----------------------------------------------------------------------------------

constexpr const char* kDartBase = "darts=on dartround=1 rounds=0 turn=b phase=aim ";

TEST(DartTest, TheBullseyePaysACrownedManAndTheNextTwoCirclesAMan) {
  auto s = Load(absl::StrCat(kDartBase, "pieces=bM3,-3;wM-3,3"));
  Do(*s, "aim 0,0");
  EXPECT_EQ(s->ToMove(), kChanceSeat);
  Do(*s, "land 0,0");
  EXPECT_EQ(s->Phase(), "placement");
  EXPECT_TRUE(Legal(*s, "place K 0,-6"));
  EXPECT_TRUE(Legal(*s, "place K -1,-5"));
  EXPECT_FALSE(Legal(*s, "place K -1,-6"));  // a rim cell: not a starting cell of normal
  EXPECT_FALSE(Legal(*s, "place M 0,-6"));
  EXPECT_TRUE(Legal(*s, "skip"));
  Do(*s, "place K 0,-6");
  EXPECT_EQ(At(*s, "0,-6"), MakePiece(0, kKing));
  EXPECT_EQ(s->Phase(), "move");
  for (const char* land : {"land 1,0", "land 2,-4"}) {  // zones 2 and 3
    auto z = Load(absl::StrCat(kDartBase, "pieces=bM3,-3;wM-3,3"));
    Do(*z, "aim 0,0");
    Do(*z, land);
    EXPECT_TRUE(Legal(*z, "place M 0,-6")) << land;
    EXPECT_FALSE(Legal(*z, "place K 0,-6")) << land;
  }
  auto outer = Load(absl::StrCat(kDartBase, "pieces=bM3,-3;wM-3,3"));
  Do(*outer, "aim 0,0");
  Do(*outer, "land 0,5");  // zone 4 pays nothing
  EXPECT_EQ(outer->Phase(), "move");
}

TEST(DartTest, KnocksOffAnyManButCrownedMenAndFrozenPiecesStay) {
  auto s = Load(absl::StrCat(kDartBase, "pieces=bM3,-3;bM0,5;wM-3,3;wK0,6"));
  Do(*s, "aim 0,5");
  Do(*s, "land 0,5");  // the thrower's own man
  EXPECT_EQ(At(*s, "0,5"), 0);
  auto king = Load(absl::StrCat(kDartBase, "pieces=bM3,-3;wM-3,3;wK0,6"));
  Do(*king, "aim 0,6");
  Do(*king, "land 0,6");
  EXPECT_EQ(At(*king, "0,6"), MakePiece(1, kKing));
  auto frozen =
      Load("players=3 darts=on dartround=1 turn=b phase=aim out=k pieces=bM3,-3;kM0,5;wM-3,3");
  Do(*frozen, "aim 0,5");
  Do(*frozen, "land 0,5");
  EXPECT_EQ(At(*frozen, "0,5"), MakePiece(1, kMan));
}

TEST(DartTest, AKnockOffOfTheLastManPutsThatSeatOut) {
  auto s = Load(absl::StrCat(kDartBase, "pieces=bM3,-3;wM0,5"));
  Do(*s, "aim 0,5");
  Do(*s, "land 0,5");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().winners, std::vector<int>{0});
}

TEST(DartTest, AMissCostsAManOfTheThrowersChoiceOrTheServicesOnTimeout) {
  auto s = Load(absl::StrCat(kDartBase, "pieces=bM3,-3;bM1,-6;bK2,-2;wM-3,3"));
  Do(*s, "aim 0,-7");
  Do(*s, "land miss");
  EXPECT_EQ(s->Phase(), "penalty");
  EXPECT_THAT(s->LegalActions(), UnorderedElementsAreArray(std::vector<std::string>{
                                     "penalty 3,-3", "penalty 1,-6"}));  // men only
  Do(*s, "penalty 3,-3");
  EXPECT_EQ(At(*s, "3,-3"), 0);
  EXPECT_EQ(s->Phase(), "move");
  // On a timeout the service takes the man nearest the thrower's edge.
  auto t = Load(absl::StrCat(kDartBase, "pieces=bM3,-3;bM1,-6;bK2,-2;wM-3,3"));
  Do(*t, "aim 0,-7");
  Do(*t, "land miss");
  ASSERT_TRUE(t->ApplySeatEvent(0, SeatEvent::kTimeout).ok());
  EXPECT_EQ(At(*t, "1,-6"), 0);
  EXPECT_EQ(t->ToMove(), 1);
  // With kings only there is no man to lose.
  auto kings = Load(absl::StrCat(kDartBase, "pieces=bK3,-3;wM-3,3"));
  Do(*kings, "aim 0,-7");
  Do(*kings, "land miss");
  EXPECT_EQ(kings->Phase(), "move");
}

TEST(DartTest, DartRoundsComeAfterThreeToTenFullRounds) {
  auto s = New("darts=on");
  int moves = 0;
  while (s->ToMove() != kChanceSeat) {
    Do(*s, s->LegalActions().front());
    ++moves;
  }
  EXPECT_EQ(moves, 6);  // three full rounds of two seats
  const auto outcomes = s->ChanceOutcomes();
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_NEAR(outcomes[0].probability, 1.0 / 8, 1e-12);
  Do(*s, "dart-round");
  EXPECT_EQ(s->Phase(), "dart-aim");
}

// --- Facade ---------------------------------------------------------------------------------

TEST(FacadeTest, ATurnIsOneActionDescribedWithEveryLanding) {
  auto s = Load(absl::StrCat("turn=b pieces=bM0,-5;wM0,-4;wM1,-3;bK4,-4;", kFarWhite));
  auto facts = s->DescribeAction("0,-5:0,-3:2,-3");
  ASSERT_TRUE(facts.ok());
  EXPECT_EQ(facts->cells, (std::vector<std::string>{"0,-5", "0,-3", "2,-3"}));
  EXPECT_TRUE(facts->ends_turn);
  EXPECT_TRUE(facts->irreversible);
  auto quiet = Load(absl::StrCat("turn=b pieces=bK4,-4;", kFarWhite));
  EXPECT_FALSE(quiet->DescribeAction("4,-4:4,-2")->irreversible);  // a king's quiet move
  EXPECT_EQ(PieceActions(*quiet, "4,-4").size(), TurnsFrom(*quiet, "4,-4").size());
  EXPECT_FALSE(s->DescribeAction("0,-5").ok());
  EXPECT_EQ(s->Apply("0,-5:9,9").code(), absl::StatusCode::kInvalidArgument);
}

// A position from random play (three players, long set-up) where blue's king on 5,2 has about
// 1.8 million distinct turns: listing them all takes seconds and gigabytes. A click on the
// board (PieceActions) lists the clicked piece's turns within a budget instead, so the web
// edge, which is given positions by anyone, stays cheap.
constexpr char kKingAmidEnemies[] =
    "players=3 setup=long board=plain darts=off reverse=off movecap=0 first=b turn=b phase=move "
    "pieces=bM0,-7;bM2,-7;bM3,-7;bM4,-7;bM5,-7;bM6,-7;bM7,-7;bM-1,-6;bM2,-6;bM4,-6;bM0,-5;bM3,-4;"
    "bM7,-4;bM-1,-3;bM2,-3;bK-7,0;wM-2,0;kM5,0;wM-6,1;kM4,1;kM6,1;wM-6,2;wM-5,2;wM-4,2;kM3,2;kM4,2;"
    "bK5,2;wM-7,3;wM-5,3;wM-4,3;kM3,3;kM4,3;wM-7,4;wM-6,4;wM-4,4;kM3,4;wM-6,5;wM-5,5;kM1,5;kM2,5;"
    "wM-6,6;kM-1,6;kM0,6;kM1,6;wM-6,7;wM-4,7;kM-1,7;kM0,7 out=- moves=93 noprogress=0 rounds=0 "
    "dartround=0 aim=- reward=0 actions=93";

TEST(FacadeTest, PieceActionsAreBoundedAmidMillionsOfTurns) {
  std::unique_ptr<State> s = Load(kKingAmidEnemies);
  ASSERT_NE(s, nullptr);
  const std::vector<std::string> king = PieceActions(*s, "5,2");
  ASSERT_FALSE(king.empty());
  EXPECT_LE(king.size(), static_cast<size_t>(kMaxPieceActions));
  for (size_t i = 0; i < king.size(); i += 97) {
    EXPECT_TRUE(absl::StartsWith(king[i], "5,2:")) << king[i];
    EXPECT_TRUE(s->Clone()->Apply(king[i]).ok()) << king[i];
  }
  // The other king's turns are listed too (a budget per piece, not one for the list).
  const std::vector<std::string> other = PieceActions(*s, "-7,0");
  EXPECT_FALSE(other.empty());
  for (const std::string& a : other) EXPECT_TRUE(s->Clone()->Apply(a).ok()) << a;
  EXPECT_TRUE(PieceActions(*s, "0,0").empty());  // an empty cell
  EXPECT_TRUE(PieceActions(*s, "not a cell").empty());
}

TEST(FacadeTest, VariantKeysAreCheckedAndPerftCountsWholeTurns) {
  EXPECT_FALSE(
      ChestoniaCheckersGame::Instance().NewInitialState(*Variant::Parse("setup=short")).ok());
  EXPECT_FALSE(
      ChestoniaCheckersGame::Instance().NewInitialState(*Variant::Parse("players=4")).ok());
  EXPECT_FALSE(
      ChestoniaCheckersGame::Instance().NewInitialState(*Variant::Parse("colour=red")).ok());
  auto s = Load("turn=b pieces=bM0,-5;wM0,-4;wM1,-3;wM-6,7");
  EXPECT_EQ(s->Perft(1), 1u);  // the whole chain is one turn
  auto start = New("players=2,setup=normal,darts=off,reverse=off");
  EXPECT_EQ(start->Perft(1), start->LegalActions().size());
}

}  // namespace
}  // namespace arena::engine::chestonia_checkers
