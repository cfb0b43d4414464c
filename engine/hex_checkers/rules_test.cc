// One focused test per rule of the seed text and RULES-NOTES, on positions written in the
// notation of notation.h (a position without result is settled: the first seat from turn= on
// with a legal turn moves).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/hex_checkers/hex_checkers_game.h"
#include "engine/hex_checkers/movegen.h"
#include "engine/hex_checkers/notation.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arena::engine::hex_checkers {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

std::unique_ptr<State> Load(std::string_view fields) {
  auto state =
      HexCheckersGame::Instance().Parse(absl::StrCat("hex-checkers ", ToAbsl(fields)), Variant());
  EXPECT_TRUE(state.ok()) << state.status() << "\n" << fields;
  return state.ok() ? std::move(*state) : nullptr;
}

std::unique_ptr<State> New(std::string_view variant_text) {
  auto variant = Variant::Parse(variant_text);
  EXPECT_TRUE(variant.ok());
  auto state = HexCheckersGame::Instance().NewInitialState(*variant);
  EXPECT_TRUE(state.ok()) << state.status();
  return state.ok() ? std::move(*state) : nullptr;
}

const Position& Pos(const State& s) {
  return static_cast<const HexCheckersState&>(s).position();
}

Piece At(const State& s, std::string_view cell) {
  return Pos(s).cells[*ParseCell(Pos(s).grid(), cell)];
}

// The serialization's value of one field.
std::string Field(const State& s, std::string_view key) {
  for (absl::string_view w : absl::StrSplit(s.Serialize(), ' ')) {
    if (absl::StartsWith(w, absl::StrCat(ToAbsl(key), "="))) {
      return std::string(w.substr(key.size() + 1));
    }
  }
  return "";
}

void Do(State& s, std::string_view action) {
  absl::Status st = s.Apply(action);
  ASSERT_TRUE(st.ok()) << st << " applying " << action << "\n" << s.Serialize();
}

// --- Board, seats, armies -------------------------------------------------------------------

TEST(HexCheckersRules, SeatsSitAtRoundedFacesHalvesUp) {
  auto faces = [](int n) {
    std::vector<int> out;
    for (int s = 0; s < n; ++s) out.push_back(SeatFace(n, s));
    return out;
  };
  EXPECT_THAT(faces(2), ElementsAre(0, 3));
  EXPECT_THAT(faces(3), ElementsAre(0, 2, 4));
  EXPECT_THAT(faces(4), ElementsAre(0, 2, 3, 5));
  EXPECT_THAT(faces(5), ElementsAre(0, 1, 2, 4, 5));
  EXPECT_THAT(faces(6), ElementsAre(0, 1, 2, 3, 4, 5));
}

TEST(HexCheckersRules, ArmyFillsTwoRowsMinusSeamsSevenMenAtRadiusFive) {
  const hex::Grid& g = hex::Grid::Get(5);
  std::vector<std::string> blue;
  HomeCells(0, 5).ForEach([&](int c) { blue.push_back(CellName(g, c)); });
  // Rows r = -4 and r = -3; the rim r = -5 stays empty; seams with faces 1 and 5 are out.
  EXPECT_THAT(blue, UnorderedElementsAre("-1,-4", "2,-4", "5,-4", "-2,-3", "1,-3", "2,-3", "5,-3"));
  for (int players = 2; players <= 6; ++players) {
    auto s = New(absl::StrCat("players=", players));
    for (int seat = 0; seat < players; ++seat) EXPECT_EQ(Pos(*s).pieces[seat].Count(), 7);
  }
  EXPECT_EQ(Pos(*New("players=6")).NumCells(), 91);
  // Seams are empty whether or not the neighbouring face is seated: the two-player board
  // leaves 0,-4 (in face 5's rows) empty although face 5 has nobody.
  EXPECT_EQ(At(*New("players=2"), "0,-4"), kEmpty);
}

TEST(HexCheckersRules, RadiusIsAParameter) {
  EXPECT_EQ(Pos(*New("players=3,radius=8")).NumCells(), 217);
  EXPECT_EQ(Pos(*New("players=3,radius=4")).NumCells(), 61);
  EXPECT_EQ(Pos(*New("players=6,radius=7")).pieces[0].Count(), 11);
}

TEST(HexCheckersRules, SeatNamesFollowTheFaces) {
  std::vector<std::string> names;
  for (const SeatInfo& s : New("players=4")->Seats()) names.push_back(s.name);
  EXPECT_THAT(names, ElementsAre("blue", "green", "white", "yellow"));
}

// --- Movement -------------------------------------------------------------------------------

TEST(HexCheckersRules, ManMovesTwoForwardTwoLateralNeverBack) {
  auto s = Load("players=2 turn=b pieces=bM2,-2;wM-3,4");
  EXPECT_THAT(s->LegalActions(),
              UnorderedElementsAre("2,-2:2,-1", "2,-2:1,-1", "2,-2:3,-2", "2,-2:1,-2"));
  // White's forward is the other way: (0,-1) and (+1,-1).
  auto w = Load("players=2 turn=w pieces=bM2,-2;wM-3,3");
  EXPECT_THAT(w->LegalActions(),
              UnorderedElementsAre("-3,3:-3,2", "-3,3:-2,2", "-3,3:-2,3", "-3,3:-4,3"));
}

TEST(HexCheckersRules, KingMovesOneCellInAllSixDirections) {
  auto s = Load("players=2 turn=b pieces=bK2,-2;wM-3,4");
  EXPECT_EQ(s->LegalActions().size(), 6u);
  EXPECT_FALSE(s->Apply("2,-2:2,0").ok());  // one cell only
}

TEST(HexCheckersRules, CaptureIsCompulsoryAndTheJumperChooses) {
  // Blue's 2,-2 may jump forward over 2,-1 or sideways over 3,-2; -3,0's steps are not legal.
  auto s = Load("players=2 turn=b pieces=bM2,-2;bM-3,0;wM2,-1;wM3,-2");
  EXPECT_THAT(s->LegalActions(), UnorderedElementsAre("2,-2:2,0", "2,-2:4,-2"));
  absl::Status quiet = s->Apply("-3,0:-3,1");
  EXPECT_EQ(quiet.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(quiet.message()), HasSubstr("compulsory"));
}

TEST(HexCheckersRules, NoJumpBackwardsForAMan) {
  // The white man behind blue's man (at 2,-3) cannot be jumped: (0,-1) is back for blue.
  auto s = Load("players=2 turn=b pieces=bM2,-2;wM2,-3");
  for (const std::string& a : s->LegalActions()) EXPECT_FALSE(absl::StrContains(a, "2,-4")) << a;
}

TEST(HexCheckersRules, ChainGoesOnWhileJumpsRemainAndPiecesLeaveHopByHop) {
  // 1,-4 jumps 1,-3 to 1,-2, then 1,-1 to 1,0; the stop at 1,-2 is not a turn.
  auto s = Load("players=2 turn=b pieces=bM1,-4;wM1,-3;wM1,-1;wM-4,4");
  EXPECT_THAT(s->LegalActions(), ElementsAre("1,-4:1,-2:1,0"));
  EXPECT_FALSE(s->Apply("1,-4:1,-2").ok());
  Do(*s, "1,-4:1,-2:1,0");
  EXPECT_EQ(At(*s, "1,-3"), kEmpty);
  EXPECT_EQ(At(*s, "1,-1"), kEmpty);
  EXPECT_EQ(Field(*s, "captured"), "1,-3;1,-1");
}

TEST(HexCheckersRules, ALandingOnTheCentrePromotesAndEndsTheTurnEvenMidChain) {
  // After 0,-2 x 0,-1 onto 0,0, the jump over 0,1 would be open, but the turn ends.
  auto s = Load("players=2 turn=b pieces=bM0,-2;wM0,-1;wM0,1");
  EXPECT_THAT(s->LegalActions(), ElementsAre("0,-2:0,0"));
  Do(*s, "0,-2:0,0");
  EXPECT_EQ(At(*s, "0,0"), MakePiece(0, kKing));
  EXPECT_EQ(Field(*s, "promoted"), "1");
  // The centre gives no protection: white's man at 0,1 must take the new king.
  EXPECT_THAT(s->LegalActions(), ElementsAre("0,1:0,-1"));
}

TEST(HexCheckersRules, AQuietStepOntoTheCentrePromotes) {
  auto s = Load("players=2 turn=b pieces=bM0,-1;wM-4,4");
  Do(*s, "0,-1:0,0");
  EXPECT_EQ(KindOf(At(*s, "0,0")), kKing);
  EXPECT_EQ(Field(*s, "promoted"), "1");
}

TEST(HexCheckersRules, AKingPassingTheCentreGoesOn) {
  auto s = Load("players=2 turn=b pieces=bK0,-2;wM0,-1;wM0,1;wM-4,4");
  EXPECT_THAT(s->LegalActions(), ElementsAre("0,-2:0,0:0,2"));
}

TEST(HexCheckersRules, KingsJumpInAllSixDirections) {
  auto s = Load("players=2 turn=b pieces=bK0,2;wM0,1;wM-4,4");  // (0,-1) is back for a man
  EXPECT_THAT(s->LegalActions(), ElementsAre("0,2:0,0"));
}

TEST(HexCheckersRules, AManMayNotStandOnTheCentre) {
  auto bad =
      HexCheckersGame::Instance().Parse("hex-checkers players=2 pieces=bM0,0;wM1,1", Variant());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

// --- Elimination, skips, the end -------------------------------------------------------------

TEST(HexCheckersRules, LosingTheLastPieceEliminatesAndTheLastSeatWins) {
  auto s = Load("players=3 turn=b pieces=bM2,-2;gM2,-1;oM-2,1");
  Do(*s, "2,-2:2,0");
  EXPECT_EQ(Field(*s, "eliminated"), "g");
  EXPECT_EQ(s->ToMove(), 2);  // green is out, orange moves
  EXPECT_FALSE(s->IsTerminal());

  auto two = Load("players=2 turn=b pieces=bM2,-2;wM2,-1");
  Do(*two, "2,-2:2,0");
  const Outcome o = two->GetOutcome();
  EXPECT_EQ(o.kind, Outcome::Kind::kWin);
  EXPECT_THAT(o.winners, ElementsAre(0));
  EXPECT_EQ(o.reason, "last-player");
  EXPECT_THAT(o.ranks, ElementsAre(0, 1));
}

TEST(HexCheckersRules, AFrozenSeatIsSkippedAndCanBeFreedLater) {
  // White's man on blue's rim has no step and no jump; blue moves twice in a row.
  auto s = Load("players=2 turn=b pieces=bM1,-5;bM2,-5;bM-3,2;wM0,-5");
  Do(*s, "-3,2:-3,3");
  EXPECT_EQ(Field(*s, "skipped"), "w");
  EXPECT_EQ(s->ToMove(), 0);
  // Blue's 1,-5 steps forward; white's man may now step onto 1,-5.
  Do(*s, "1,-5:1,-4");
  EXPECT_EQ(s->ToMove(), 1);
  EXPECT_EQ(Field(*s, "skipped"), "-");
}

TEST(HexCheckersRules, EveryoneFrozenIsADraw) {
  auto s = Load(
      "players=2 turn=b pieces=bM-5,5;bM-4,5;bM-3,5;bM-2,5;bM-1,5;bM0,5;"
      "wM0,-5;wM1,-5;wM2,-5;wM3,-5;wM4,-5;wM5,-5");
  const Outcome o = s->GetOutcome();
  EXPECT_EQ(o.kind, Outcome::Kind::kDraw);
  EXPECT_EQ(o.reason, "all-frozen");
  EXPECT_THAT(o.ranks, ElementsAre(0, 0));
}

TEST(HexCheckersRules, TheMoveCapDraws) {
  auto s = New("players=2,movecap=1");
  Do(*s, s->LegalActions().front());
  EXPECT_EQ(s->GetOutcome().reason, "move-cap");
}

TEST(HexCheckersRules, SeatsOutAtTheSameTurnShareAPlace) {
  // Blue's chain takes green's and orange's last men; red is still in.
  auto s = Load("players=6 turn=b pieces=bM1,-4;gM1,-3;oM1,-1;rM-3,3;wM-4,4;yM-5,5");
  ASSERT_THAT(s->LegalActions(), ElementsAre("1,-4:1,-2:1,0"));
  Do(*s, "1,-4:1,-2:1,0");
  EXPECT_EQ(Field(*s, "eliminated"), "go");
  EXPECT_EQ(Field(*s, "out"), "g@1;o@1");
}

TEST(HexCheckersRules, ResignationTakesTheArmyOffAndDrawsNeedEverySeatStillIn) {
  auto s = New("players=3");
  ASSERT_TRUE(s->ApplySeatEvent(1, SeatEvent::kResign).ok());
  EXPECT_TRUE(Pos(*s).pieces[1].Empty());
  EXPECT_EQ(s->ApplySeatEvent(1, SeatEvent::kResign).code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(s->ApplySeatEvent(0, SeatEvent::kOfferDraw).ok());
  EXPECT_FALSE(s->IsTerminal());
  ASSERT_TRUE(s->ApplySeatEvent(2, SeatEvent::kAcceptDraw).ok());
  const Outcome o = s->GetOutcome();
  EXPECT_EQ(o.reason, "agreed-draw");
  EXPECT_THAT(o.ranks, ElementsAre(0, 2, 0));
}

// --- Input, output, numbers -------------------------------------------------------------------

TEST(HexCheckersRules, BadInputIsRefusedPreciselyAndChangesNothing) {
  auto s = New("players=4");
  const std::string before = s->Serialize();
  EXPECT_EQ(s->Apply("0,-4").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s->Apply("0,-9:0,-8").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s->Apply("x:y").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s->Apply("2,-4:2,-5").code(), absl::StatusCode::kFailedPrecondition);  // back
  EXPECT_EQ(s->Apply("0,0:0,1").code(), absl::StatusCode::kFailedPrecondition);    // empty
  EXPECT_EQ(s->Serialize(), before);
  for (const char* v :
       {"players=7", "players=1", "radius=3", "radius=9", "colour=red", "first=z", "movecap=-1"}) {
    auto variant = Variant::Parse(v);
    ASSERT_TRUE(variant.ok());
    EXPECT_EQ(HexCheckersGame::Instance().NewInitialState(*variant).status().code(),
              absl::StatusCode::kInvalidArgument)
        << v;
  }
  for (const char* text :
       {"hex-checkers pieces=bM9,9", "hex-checkers pieces=qM1,1", "hex-checkers pieces=bM1,1;wM1,1",
        "hex-checkers turn=q", "hex-checkers bogus=1", "chess", "hex-checkers result=win:w"}) {
    EXPECT_EQ(HexCheckersGame::Instance().Parse(text, Variant()).status().code(),
              absl::StatusCode::kInvalidArgument)
        << text;
  }
}

TEST(HexCheckersRules, DescribeActionAndPieceActions) {
  auto s = Load("players=2 turn=b pieces=bM1,-4;wM1,-3;wM1,-1;wM-4,4");
  auto facts = s->DescribeAction("1,-4:1,-2:1,0");
  ASSERT_TRUE(facts.ok());
  EXPECT_THAT(facts->cells, ElementsAre("1,-4", "1,-2", "1,0"));
  EXPECT_TRUE(facts->ends_turn);
  EXPECT_TRUE(facts->irreversible);
  EXPECT_THAT(PieceActions(*s, "1,-4"), ElementsAre("1,-4:1,-2:1,0"));
  EXPECT_TRUE(PieceActions(*s, "-4,4").empty());
  auto king = Load("players=2 turn=b pieces=bK3,-1;wM-4,4");
  EXPECT_FALSE(king->DescribeAction("3,-1:3,0")->irreversible);
}

TEST(HexCheckersRules, PerftFromTheStartIsPinned) {
  // Cross-checked by the naive generator (agreement_test.cc).
  const std::vector<std::pair<std::string, uint64_t>> expected = {{"players=2", 6372},
                                                                  {"players=3", 2299},
                                                                  {"players=4", 1666},
                                                                  {"players=5", 633},
                                                                  {"players=6", 525}};
  for (const auto& [variant, count] : expected) EXPECT_EQ(New(variant)->Perft(3), count) << variant;
}

TEST(HexCheckersRules, BoardViewTurnsThePerspectiveSeatsEdgeDown) {
  auto s = New("players=6");
  for (int seat = 0; seat < 6; ++seat) {
    const BoardView v = s->Board(seat);
    double own_y = 0, other_y = 0;
    int own = 0, other = 0;
    for (const BoardPiece& p : v.pieces) {
      for (const BoardCell& c : v.cells) {
        if (c.id != p.cell) continue;
        (p.seat == seat ? own_y : other_y) += c.y;
        ++(p.seat == seat ? own : other);
      }
    }
    EXPECT_GT(own_y / own, other_y / other) << "seat " << seat;  // y grows downwards
  }
}

}  // namespace
}  // namespace arena::engine::hex_checkers
