// One focused test per rule of the seed text and RULES-NOTES, on positions written in the
// notation of notation.h (phase=start begins the turn of the seat named by turn=).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/chestonia_chess/chestonia_chess_game.h"
#include "engine/chestonia_chess/movegen.h"
#include "engine/chestonia_chess/notation.h"
#include "engine/hex/dart.h"
#include "gtest/gtest.h"

namespace arena::engine::chestonia_chess {
namespace {

std::unique_ptr<State> Load(std::string_view fields) {
  auto state = ChestoniaChessGame::Instance().Parse(
      absl::StrCat("chestonia-chess ", ToAbsl(fields)), Variant());
  EXPECT_TRUE(state.ok()) << state.status() << "\n" << fields;
  return state.ok() ? std::move(*state) : nullptr;
}

std::unique_ptr<State> New(std::string_view variant_text) {
  auto variant = Variant::Parse(variant_text);
  EXPECT_TRUE(variant.ok());
  auto state = ChestoniaChessGame::Instance().NewInitialState(*variant);
  EXPECT_TRUE(state.ok()) << state.status();
  return state.ok() ? std::move(*state) : nullptr;
}

const Position& Pos(const State& s) {
  return static_cast<const ChestoniaChessState&>(s).position();
}

bool Legal(const State& s, std::string_view action) {
  const auto actions = s.LegalActions();
  return std::find(actions.begin(), actions.end(), action) != actions.end();
}

std::vector<std::string> MovesFrom(const State& s, std::string_view cell) {
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

// Kings far from every line of the centre, for piece-range tests.
constexpr const char* kKings = "bK3,-7;wK-3,7";

// --- Set-up ---------------------------------------------------------------------------------

TEST(SetupTest, BlueBackRowAndTheAlternatingSwap) {
  auto plain = New("board=plain");
  const char* want_plain[8] = {"R", "N", "B", "K", "Q", "N", "B", "R"};
  const char* want_alt[8] = {"R", "N", "B", "K", "Q", "B", "N", "R"};
  auto alt = New("board=alternating");
  for (int q = 0; q < 8; ++q) {
    const std::string cell = absl::StrCat(q, ",-7");
    EXPECT_EQ(std::string(1, PieceLetter(TypeOf(At(*plain, cell)))), want_plain[q]) << cell;
    EXPECT_EQ(std::string(1, PieceLetter(TypeOf(At(*alt, cell)))), want_alt[q]) << cell;
  }
  for (int q = -1; q <= 7; ++q) EXPECT_EQ(At(*plain, absl::StrCat(q, ",-6")), MakePiece(0, kPawn));
  EXPECT_EQ(Pos(*plain).pieces[0].Count(), 17);
  EXPECT_EQ(Pos(*plain).pieces[1].Count(), 17);
}

TEST(SetupTest, TwoPlayerWhiteMirrorsBlueSoQueenFacesQueen) {
  // Counted from white's right (0,7): R B N Q K B N R on the plain board.
  auto s = New("board=plain");
  const char* want[8] = {"R", "B", "N", "Q", "K", "B", "N", "R"};
  for (int i = 0; i < 8; ++i) {
    const Piece p = At(*s, absl::StrCat(-i, ",7"));
    EXPECT_EQ(SeatOf(p), 1);
    EXPECT_EQ(std::string(1, PieceLetter(TypeOf(p))), want[i]) << i;
  }
  auto alt = New("board=alternating");
  const char* want_alt[8] = {"R", "N", "B", "Q", "K", "B", "N", "R"};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(std::string(1, PieceLetter(TypeOf(At(*alt, absl::StrCat(-i, ",7"))))), want_alt[i]);
  }
  EXPECT_FALSE(InCheck(Pos(*s), 0));
  EXPECT_FALSE(InCheck(Pos(*s), 1));
}

TEST(SetupTest, ThreePlayerArmiesAreRotations) {
  auto s = New("players=3,board=plain");
  EXPECT_EQ(At(*s, "4,3"), MakePiece(1, kKing));  // black: (3,-7) turned (s, q, r)
  EXPECT_EQ(At(*s, "3,4"), MakePiece(1, kQueen));
  EXPECT_EQ(At(*s, "-7,4"), MakePiece(2, kKing));  // white: turned again
  EXPECT_EQ(At(*s, "-7,3"), MakePiece(2, kQueen));
  for (int seat = 0; seat < 3; ++seat) EXPECT_EQ(Pos(*s).pieces[seat].Count(), 17);
  EXPECT_EQ(s->ToMove(), 0);
}

// --- Pieces ---------------------------------------------------------------------------------

TEST(PieceTest, SlidersUseAllSixOfTheirLinesAndTheKingTwelve) {
  struct Case {
    const char* piece;
    size_t moves;
  };
  for (Case c : {Case{"R", 42}, Case{"B", 18}, Case{"Q", 60}, Case{"N", 24}}) {
    auto s = Load(absl::StrCat("turn=b phase=start pieces=b", c.piece, "0,0;", kKings));
    EXPECT_EQ(MovesFrom(*s, "0,0").size(), c.moves) << c.piece;
  }
  auto k = Load("turn=b phase=start pieces=bK0,0;wK-3,7");
  EXPECT_EQ(MovesFrom(*k, "0,0").size(), 12u);
}

TEST(PieceTest, DiagonalPassesBetweenTwoCellsWithoutBeingBlocked) {
  auto s = Load(absl::StrCat("turn=b phase=start pieces=bB0,0;bP1,0;bP1,-1;", kKings));
  EXPECT_TRUE(Legal(*s, "0,0:2,-1"));
  EXPECT_TRUE(Legal(*s, "0,0:4,-2"));
  auto blocked = Load(absl::StrCat("turn=b phase=start pieces=bB0,0;bP2,-1;", kKings));
  EXPECT_FALSE(Legal(*blocked, "0,0:4,-2"));
}

TEST(PieceTest, KnightLeapsOverEverything) {
  auto s = Load(absl::StrCat(
      "turn=b phase=start pieces=bN0,0;bP1,0;bP0,1;bP-1,1;bP-1,0;bP0,-1;bP1,-1;", kKings));
  EXPECT_EQ(MovesFrom(*s, "0,0").size(), 24u);
  EXPECT_TRUE(Legal(*s, "0,0:3,-1"));   // 2 x (1,0) + (1,-1)
  EXPECT_TRUE(Legal(*s, "0,0:4,-1"));   // 3 x (1,0) + (1,-1)
  EXPECT_FALSE(Legal(*s, "0,0:2,0"));   // straight
  EXPECT_FALSE(Legal(*s, "0,0:2,-1"));  // diagonal
}

TEST(PawnTest, RunsFourThenThreeForwardAndStepsSideways) {
  auto s = Load(absl::StrCat("turn=b phase=start pieces=bP2,-2;", kKings));
  auto moves = MovesFrom(*s, "2,-2");
  EXPECT_EQ(moves.size(), 10u);
  EXPECT_TRUE(Legal(*s, "2,-2:2,2"));   // four along (0,+1)
  EXPECT_TRUE(Legal(*s, "2,-2:-2,2"));  // four along (-1,+1)
  EXPECT_TRUE(Legal(*s, "2,-2:3,-2"));  // sideways
  EXPECT_TRUE(Legal(*s, "2,-2:1,-2"));
  EXPECT_FALSE(Legal(*s, "2,-2:2,-3"));  // backwards
  EXPECT_FALSE(Legal(*s, "2,-2:3,-3"));
  EXPECT_FALSE(Legal(*s, "2,-2:4,-2"));  // two sideways
  auto moved = Load(absl::StrCat("turn=b phase=start pieces=bP*2,-2;", kKings));
  EXPECT_EQ(MovesFrom(*moved, "2,-2").size(), 8u);
  EXPECT_FALSE(Legal(*moved, "2,-2:2,2"));
}

TEST(PawnTest, RunStopsAtTheFirstPieceAndNeverCapturesByRunning) {
  auto s = Load(absl::StrCat("turn=b phase=start pieces=bP2,-2;wN2,0;", kKings));
  EXPECT_TRUE(Legal(*s, "2,-2:2,-1"));
  EXPECT_FALSE(Legal(*s, "2,-2:2,0"));
  EXPECT_FALSE(Legal(*s, "2,-2:2,1"));
}

TEST(PawnTest, CapturesOneCellForwardOrSidewaysOnly) {
  auto s = Load(absl::StrCat(
      "turn=b phase=start pieces=bP2,-2;wP*2,-1;wP*1,-1;wP*3,-2;wP*2,-3;wP*3,-1;", kKings));
  EXPECT_TRUE(Legal(*s, "2,-2:2,-1"));   // forward
  EXPECT_TRUE(Legal(*s, "2,-2:1,-1"));   // other forward
  EXPECT_TRUE(Legal(*s, "2,-2:3,-2"));   // sideways
  EXPECT_FALSE(Legal(*s, "2,-2:2,-3"));  // backwards
  EXPECT_FALSE(Legal(*s, "2,-2:3,-1"));  // diagonal
}

TEST(PawnTest, SidewaysStepCountsAsTheFirstMove) {
  auto s = Load(absl::StrCat("turn=b phase=start pieces=bP2,-2;", kKings));
  Do(*s, "2,-2:3,-2");
  EXPECT_TRUE(HasMoved(At(*s, "3,-2")));
  EXPECT_TRUE(absl::StrContains(s->Serialize(), "bP*3,-2"));
}

TEST(PawnTest, PromotesToQueenOnAnyOtherSeatsBackRow) {
  auto s = Load("turn=b phase=start pieces=bK3,-7;wK-4,7;bP*-2,6");
  Do(*s, "-2,6:-2,7");
  EXPECT_EQ(At(*s, "-2,7"), MakePiece(0, kQueen));
  // Three players: white's edge (q = -7) is a back row...
  auto three = Load("players=3 turn=b phase=start pieces=bK3,-7;kK4,3;wK-7,4;bP*-6,5;bP*-3,6");
  Do(*three, "-6,5:-7,6");
  EXPECT_EQ(At(*three, "-7,6"), MakePiece(0, kQueen));
  // ...the empty edge r = +7 is not.
  auto empty_edge = Load("players=3 turn=b phase=start pieces=bK3,-7;kK4,3;wK-7,4;bP*-3,6");
  Do(*empty_edge, "-3,6:-3,7");
  EXPECT_EQ(TypeOf(At(*empty_edge, "-3,7")), kPawn);
}

// --- Check and the king ----------------------------------------------------------------------

TEST(CheckTest, MovesMustNotLeaveTheKingAttacked) {
  auto s = Load("turn=b phase=start pieces=bK0,0;bN-5,0;wR0,5;wK3,4");
  for (const std::string& a : s->LegalActions()) {
    auto child = s->Clone();
    Do(*child, a);
    EXPECT_FALSE(IsAttacked(Pos(*child), Pos(*child).king[0], 2)) << a;
  }
  EXPECT_FALSE(Legal(*s, "0,0:0,1"));  // still on the rook's line
  EXPECT_TRUE(Legal(*s, "0,0:1,0"));
}

TEST(CheckTest, PinnedPieceMovesOnlyAlongThePin) {
  auto s = Load("turn=b phase=start pieces=bK0,0;bR0,2;wR0,5;wK3,4");
  EXPECT_TRUE(Legal(*s, "0,2:0,5"));
  EXPECT_TRUE(Legal(*s, "0,2:0,3"));
  EXPECT_FALSE(Legal(*s, "0,2:1,2"));
}

TEST(CheckTest, KingsAreNeverCaptured) {
  auto s = Load("players=3 turn=b phase=start pieces=bK3,-7;bR0,0;kK0,4;wK-7,4");
  EXPECT_FALSE(Legal(*s, "0,0:0,4"));
  EXPECT_FALSE(Legal(*s, "0,0:0,5"));
  EXPECT_TRUE(Legal(*s, "0,0:0,3"));
}

TEST(CheckTest, EveryOpponentStillInGivesCheck) {
  // Blue may not step onto a cell black attacks, nor one white attacks.
  auto s = Load("players=3 turn=b phase=start pieces=bK0,0;kR1,5;wR-1,5;kK7,0;wK-7,4");
  EXPECT_FALSE(Legal(*s, "0,0:1,0"));
  EXPECT_FALSE(Legal(*s, "0,0:-1,0"));
  EXPECT_TRUE(Legal(*s, "0,0:0,-1"));
}

// --- Checkmate, elimination, frozen armies ---------------------------------------------------

// Blue's king in the corner (0,-7) and a queen two cells in front of it: mate.
TEST(MateTest, TwoPlayerCheckmateEndsTheGame) {
  auto s = Load("turn=b phase=start pieces=bK0,-7;wQ0,-5;wK0,7");
  ASSERT_TRUE(s->IsTerminal());
  const Outcome o = s->GetOutcome();
  EXPECT_EQ(o.reason, "checkmate");
  EXPECT_EQ(o.winners, std::vector<int>{1});
  EXPECT_EQ(o.ResultText(), "0-1");
}

TEST(MateTest, ThreePlayerCheckmateFreezesTheArmyAndPlayGoesOn) {
  auto s = Load("players=3 turn=b phase=start pieces=bK0,-7;bR-3,0;kQ0,-5;kR1,0;kK4,3;wK-7,0");
  ASSERT_FALSE(s->IsTerminal());
  EXPECT_FALSE(Pos(*s).Active(0));
  EXPECT_EQ(s->ToMove(), 1);
  // Frozen pieces block and cannot be captured...
  EXPECT_TRUE(Legal(*s, "1,0:-2,0"));
  EXPECT_FALSE(Legal(*s, "1,0:-3,0"));
  EXPECT_FALSE(Legal(*s, "1,0:-4,0"));
  // ...and attack nothing: the frozen rook's line to white's king gives no check.
  EXPECT_FALSE(InCheck(Pos(*s), 2));
  EXPECT_TRUE(absl::StrContains(s->Serialize(), "out=b"));
  EXPECT_TRUE(absl::StrContains(s->Render({}), "br"));  // frozen: lower-case piece letter
}

TEST(MateTest, LastPlayerInWinsWithRanksByElimination) {
  // Black is already out; blue is mated now, so white wins, black last.
  auto s = Load("players=3 turn=b phase=start out=k pieces=bK0,-7;wQ0,-5;kK4,3;wK-7,0");
  ASSERT_TRUE(s->IsTerminal());
  const Outcome o = s->GetOutcome();
  EXPECT_EQ(o.winners, std::vector<int>{2});
  EXPECT_EQ(o.ranks, (std::vector<int>{1, 2, 0}));
}

TEST(StalemateTest, AStalematedSeatIsSkipped) {
  auto s = Load("turn=b phase=start pieces=bK0,-7;wK0,-5");
  EXPECT_FALSE(s->IsTerminal());
  EXPECT_EQ(s->ToMove(), 1);
  EXPECT_EQ(Pos(*s).moves_played, 0);
}

TEST(StalemateTest, NobodyCanMoveIsADraw) {
  // Black is out; its frozen pawns box in both remaining kings, which are not in check.
  auto s = Load(
      "players=3 turn=b phase=start out=k pieces=bK0,-7;wK0,7;kK4,3;"
      "kP1,-7;kP-1,-6;kP0,-6;kP-1,-5;kP1,-6;kP-1,7;kP1,6;kP0,6;kP1,5;kP-1,6");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().kind, Outcome::Kind::kDraw);
  EXPECT_EQ(s->GetOutcome().reason, "nobody-can-move");
}

// --- Draws ----------------------------------------------------------------------------------

TEST(DrawTest, PerpetualCheckAfterTenTurnsBegunInCheckWithTwoPlayers) {
  auto s = Load("turn=b phase=start checks=9/0 pieces=bK0,0;wR0,5;wK3,4");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().reason, "perpetual-check");
  auto nine = Load("turn=b phase=start checks=8/0 pieces=bK0,0;wR0,5;wK3,4");
  EXPECT_FALSE(nine->IsTerminal());
  EXPECT_EQ(Pos(*nine).check_turns[0], 9);
}

TEST(DrawTest, PerpetualCheckNeedsExactlyTwoPlayersIn) {
  auto s = Load("players=3 turn=b phase=start checks=9/0/0 pieces=bK0,0;kR0,5;kK4,3;wK-7,4");
  EXPECT_FALSE(s->IsTerminal());
  EXPECT_EQ(Pos(*s).check_turns[0], 10);
}

TEST(DrawTest, ATurnBegunOutOfCheckClearsTheCount) {
  auto s = Load("turn=b phase=start checks=9/0 pieces=bK0,0;wR1,5;wK3,4");
  EXPECT_FALSE(s->IsTerminal());
  EXPECT_EQ(Pos(*s).check_turns[0], 0);
}

TEST(DrawTest, SixtyMovesWithoutProgress) {
  auto s = Load("turn=b phase=start noprogress=59 pieces=bK0,0;bP5,-5;wK3,4");
  auto pawn = s->Clone();
  Do(*s, "0,0:0,-1");
  EXPECT_EQ(s->GetOutcome().reason, "no-progress");
  Do(*pawn, "5,-5:5,-4");  // a pawn move is progress
  EXPECT_FALSE(pawn->IsTerminal());
  EXPECT_EQ(Pos(*pawn).no_progress, 0);
}

TEST(DrawTest, CaptureIsProgress) {
  auto s = Load("turn=b phase=start noprogress=30 pieces=bK0,0;bR0,-3;wN0,-6;wK3,4");
  Do(*s, "0,-3:0,-6");
  EXPECT_EQ(Pos(*s).no_progress, 0);
}

TEST(DrawTest, MoveCapIsADrawByAdjudication) {
  auto s = Load("movecap=10 moves=9 turn=b phase=start pieces=bK0,0;wK3,4");
  Do(*s, "0,0:0,-1");
  EXPECT_EQ(s->GetOutcome().reason, "move-cap");
  EXPECT_EQ(s->GetOutcome().kind, Outcome::Kind::kDraw);
}

// --- Plain board ----------------------------------------------------------------------------

int QueenBishopBackRowCaptures(const State& s) {
  const Position& p = Pos(s);
  int n = 0;
  for (const std::string& a : s.LegalActions()) {
    const Move m = *ParseMoveText(a);
    const int t = TypeOf(p.cells[m.from]);
    if ((t == kQueen || t == kBishop) && p.cells[m.to] && p.layout().all_back_rows.Test(m.to)) ++n;
  }
  return n;
}

TEST(PlainBoardTest, NoQueenOrBishopCaptureOnABackRowOnTheFirstMove) {
  auto first = New("board=plain");
  EXPECT_EQ(QueenBishopBackRowCaptures(*first), 0);
  // The same position one move later (as if it were not the game's first move) has them.
  std::string text = first->Serialize();
  text.replace(text.find(" moves=0"), 8, " moves=2");
  auto later = ChestoniaChessGame::Instance().Parse(text, Variant());
  ASSERT_TRUE(later.ok());
  EXPECT_GT(QueenBishopBackRowCaptures(**later), 0);
  EXPECT_TRUE(Legal(**later, "4,-7:-3,7"));  // the queen takes the queen along the long diagonal
  EXPECT_FALSE(Legal(*first, "4,-7:-3,7"));
  // The alternating board has no such restriction.
  EXPECT_GT(QueenBishopBackRowCaptures(*New("board=alternating")), 0);
}

// --- Reverse chess --------------------------------------------------------------------------

TEST(ReverseTest, CapturesAreCompulsory) {
  auto s = Load("reverse=on turn=b phase=start pieces=bR0,0;bN5,-5;wN0,3;wK3,4");
  EXPECT_EQ(s->LegalActions(), std::vector<std::string>{"0,0:0,3"});
}

TEST(ReverseTest, KingIsAnOrdinaryPieceWithoutCheck) {
  auto s = Load("reverse=on turn=b phase=start pieces=bR0,0;bK5,-5;wK0,3;wP-5,6");
  EXPECT_EQ(s->LegalActions(), std::vector<std::string>{"0,0:0,3"});  // takes the king
  auto walk = Load("reverse=on turn=b phase=start pieces=bK0,0;wR1,5;wP-5,5");
  EXPECT_TRUE(Legal(*walk, "0,0:1,0"));  // into the rook's line: no check in reverse
}

TEST(ReverseTest, FirstPlayerWithNoPiecesWinsAtOnce) {
  auto s = Load("reverse=on turn=w phase=start pieces=bK0,0;wR0,5;wP-5,5");
  Do(*s, "0,5:0,0");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().winners, std::vector<int>{0});
  EXPECT_EQ(s->GetOutcome().reason, "no-pieces");
}

TEST(ReverseTest, FirstPlayerWithNoLegalMoveWinsAtOnce) {
  // Three players: blue's pawns fill the empty lower-left edge and cannot move.
  auto s = Load(
      "players=3 reverse=on turn=b phase=start pieces=bP*0,7;bP*-1,7;bP*-2,7;bP*-3,7;bP*-4,7;"
      "bP*-5,7;bP*-6,7;bP*-7,7;kK4,3;wK-7,0");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().winners, std::vector<int>{0});
  EXPECT_EQ(s->GetOutcome().reason, "no-legal-move");
}

// --- Darts ----------------------------------------------------------------------------------

TEST(DartRoundTest, TimingIsAChanceEventWithProbabilityOneOverElevenMinusK) {
  auto early = Load("darts=on turn=w phase=start rounds=1 pieces=bK0,0;wK3,4");
  Do(*early, "3,4:2,4");  // the round ends: k = 2, too early
  EXPECT_EQ(early->Phase(), "move");
  EXPECT_EQ(Pos(*early).dart.rounds_since_dart, 2);
  for (int k = 3; k <= 10; ++k) {
    auto s =
        Load(absl::StrCat("darts=on turn=w phase=start rounds=", k - 1, " pieces=bK0,0;wK3,4"));
    Do(*s, "3,4:2,4");
    ASSERT_EQ(s->ToMove(), kChanceSeat);
    const auto outcomes = s->ChanceOutcomes();
    EXPECT_EQ(outcomes[0].action, "dart-round");
    EXPECT_DOUBLE_EQ(outcomes[0].probability, 1.0 / (11 - k));
    EXPECT_EQ(outcomes.size(), k == 10 ? 1u : 2u);
  }
}

TEST(DartRoundTest, TheScheduleIsUniformOverThreeToTenRounds) {
  // P(first dart round after exactly n full rounds) = 1/8 for n = 3..10.
  double not_yet = 1.0;
  for (int k = 3; k <= 10; ++k) {
    auto s =
        Load(absl::StrCat("darts=on turn=w phase=start rounds=", k - 1, " pieces=bK0,0;wK3,4"));
    Do(*s, "3,4:2,4");
    const double p = s->ChanceOutcomes()[0].probability;
    EXPECT_NEAR(not_yet * p, 1.0 / 8, 1e-12) << k;
    not_yet *= 1 - p;
  }
  EXPECT_NEAR(not_yet, 0.0, 1e-12);
}

TEST(DartRoundTest, EverySeatInThrowsAtTheStartOfItsTurn) {
  auto s = Load("darts=on turn=w phase=start rounds=2 pieces=bK0,0;bP5,-5;wK3,4;wP-5,5");
  Do(*s, "3,4:2,4");
  Do(*s, "dart-round");
  EXPECT_EQ(s->Phase(), "dart-aim");
  EXPECT_EQ(s->ToMove(), 0);
  EXPECT_EQ(s->LegalActions().size(), 169u);
  Do(*s, "aim 0,-3");
  const auto outcomes = s->ChanceOutcomes();
  ASSERT_EQ(outcomes.size(), 170u);
  double total = 0;
  for (const auto& o : outcomes) total += o.probability;
  EXPECT_NEAR(total, 1.0, 1e-12);
  EXPECT_EQ(outcomes.back().action, "land miss");
  Do(*s, "land 7,-7");  // zone 5: nothing
  EXPECT_EQ(s->Phase(), "move");
  Do(*s, "0,0:0,1");
  EXPECT_EQ(s->Phase(), "dart-aim");  // white throws in the same round
  EXPECT_EQ(s->ToMove(), 1);
}

TEST(DartRoundTest, LandingProbabilitiesAreTheExactScatter) {
  auto s = Load("darts=on dartround=1 turn=b phase=start pieces=bK0,0;wK3,4");
  Do(*s, "aim 0,0");
  const auto& dist = hex::DartScatter::ForRadius(7).Distribution(*ParseCell("0,0"));
  for (const ChanceOutcome& o : s->ChanceOutcomes()) {
    if (o.action == "land miss") {
      EXPECT_EQ(o.probability, dist.back());
    } else {
      EXPECT_EQ(o.probability, dist[*ParseCell(o.action.substr(5))]);
    }
  }
}

std::unique_ptr<State> Thrown(std::string_view pieces, std::string_view landing,
                              std::string_view extra = "") {
  auto s = Load(absl::StrCat("darts=on dartround=1 turn=b phase=start ", ToAbsl(extra),
                             " pieces=", ToAbsl(pieces)));
  if (!s) return nullptr;
  EXPECT_TRUE(s->Apply("aim 0,0").ok());
  EXPECT_TRUE(s->Apply(landing).ok()) << landing;
  return s;
}

TEST(DartTest, KnockOffRemovesAnyonesPieceIncludingYourOwn) {
  auto s = Thrown("bK3,-7;bN5,0;wK-3,7;wN-5,0", "land 5,0");
  EXPECT_EQ(At(*s, "5,0"), 0);
  auto t = Thrown("bK3,-7;bN5,0;wK-3,7;wN-5,0", "land -5,0");
  EXPECT_EQ(At(*t, "-5,0"), 0);
  EXPECT_EQ(Pos(*t).no_progress, 0);
}

TEST(DartTest, KingsAreImmuneExceptInReverse) {
  auto s = Thrown("bK3,-7;wK0,0", "land 0,0");
  EXPECT_EQ(At(*s, "0,0"), MakePiece(1, kKing));
  auto r = Thrown("bK3,-7;bP4,-4;wK0,0;wP-4,4", "land 0,0", "reverse=on");
  EXPECT_EQ(At(*r, "0,0"), 0);
}

TEST(DartTest, FrozenPiecesCannotBeHit) {
  auto s = Thrown("bK3,-7;kN6,-6;kK4,3;wK-7,4;wN0,0", "land 0,0", "players=3 out=k");
  EXPECT_EQ(At(*s, "0,0"), 0);  // white is still in: its knight is knocked off
  auto frozen = Thrown("bK3,-7;kN0,0;kK4,3;wK-7,4", "land 0,0", "players=3 out=k");
  EXPECT_EQ(At(*frozen, "0,0"), MakePiece(1, kKnight));
}

TEST(DartTest, RewardsByZoneGoOnYourHomeRows) {
  auto bull = Thrown("bK3,-7;wK-3,7", "land 0,0");
  EXPECT_EQ(bull->Phase(), "placement");
  EXPECT_TRUE(Legal(*bull, "place Q 0,-7"));
  EXPECT_TRUE(Legal(*bull, "place Q 4,-6"));
  EXPECT_FALSE(Legal(*bull, "place Q 0,-5"));  // not a home row
  EXPECT_FALSE(Legal(*bull, "place Q 3,-7"));  // occupied
  EXPECT_FALSE(Legal(*bull, "place R 0,-7"));
  EXPECT_TRUE(Legal(*bull, "skip"));
  auto zone2 = Thrown("bK3,-7;wK-3,7", "land 1,1");
  for (const char* p : {"R", "B", "N"})
    EXPECT_TRUE(Legal(*zone2, absl::StrCat("place ", p, " 0,-7")));
  EXPECT_FALSE(Legal(*zone2, "place Q 0,-7"));
  auto zone3 = Thrown("bK3,-7;wK-3,7", "land 0,4");
  EXPECT_EQ(zone3->LegalActions().size(), 1 + 16u);  // skip + 16 free home cells
  Do(*zone3, "place P 2,-6");
  EXPECT_EQ(At(*zone3, "2,-6"), MakePiece(0, kPawn));  // a placed pawn has not moved
  EXPECT_EQ(zone3->Phase(), "move");
  auto zone4 = Thrown("bK3,-7;wK-3,7", "land 0,5");
  EXPECT_EQ(zone4->Phase(), "move");
}

TEST(DartTest, AMissCostsAPawnOfTheThrowersChoice) {
  auto s = Thrown("bK3,-7;bP2,-6;bP5,-5;wK-3,7", "land miss");
  EXPECT_EQ(s->Phase(), "penalty");
  EXPECT_EQ(s->LegalActions(), (std::vector<std::string>{"penalty 2,-6", "penalty 5,-5"}));
  Do(*s, "penalty 5,-5");
  EXPECT_EQ(At(*s, "5,-5"), 0);
  EXPECT_EQ(s->Phase(), "move");
  auto none = Thrown("bK3,-7;wK-3,7", "land miss");
  EXPECT_EQ(none->Phase(), "move");
}

TEST(DartTest, ThrowComesBeforeTheCheckmateTest) {
  // Blue is mated by the queen, but its dart knocks the queen off first.
  auto s = Thrown("bK0,-7;wQ0,-5;wK0,7", "land 0,-5");
  EXPECT_FALSE(s->IsTerminal());
  EXPECT_EQ(s->Phase(), "move");
  EXPECT_EQ(s->ToMove(), 0);
  auto unlucky = Thrown("bK0,-7;wQ0,-5;wK0,7", "land 5,-5");
  EXPECT_EQ(unlucky->GetOutcome().reason, "checkmate");
}

TEST(DartTest, AStalematedSeatStillThrows) {
  auto s = Load("darts=on dartround=1 turn=b phase=start pieces=bK0,-7;wK0,-5");
  EXPECT_EQ(s->Phase(), "dart-aim");
  EXPECT_EQ(s->ToMove(), 0);
}

// --- Seat events ----------------------------------------------------------------------------

TEST(TimeoutTest, ForfeitsTheTurn) {
  auto s = Load("turn=b phase=start pieces=bK0,0;wK3,4");
  ASSERT_TRUE(s->ApplySeatEvent(0, SeatEvent::kTimeout).ok());
  EXPECT_EQ(s->ToMove(), 1);
  EXPECT_EQ(Pos(*s).moves_played, 0);
  EXPECT_EQ(s->ApplySeatEvent(0, SeatEvent::kTimeout).code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(TimeoutTest, ForfeitsAnOwedPlacementAndTheMove) {
  auto s = Thrown("bK3,-7;wK-3,7", "land 0,0");
  ASSERT_TRUE(s->ApplySeatEvent(0, SeatEvent::kTimeout).ok());
  EXPECT_EQ(Pos(*s).pieces[0].Count(), 1);
  EXPECT_EQ(s->ToMove(), 1);
}

TEST(TimeoutTest, ServiceTakesThePawnNearestTheEdgeFromTheRight) {
  auto s = Thrown("bK3,-7;bP5,-6;bP2,-6;bP0,0;wK-3,7", "land miss");
  ASSERT_TRUE(s->ApplySeatEvent(0, SeatEvent::kTimeout).ok());
  EXPECT_EQ(At(*s, "2,-6"), 0);  // row next to blue's edge; (2,-6) is nearer blue's right
  EXPECT_NE(At(*s, "5,-6"), 0);
  // White (two players): its edge is r = +7 and its right end is (0,7).
  auto w = Load("darts=on dartround=1 turn=w phase=start pieces=bK3,-7;wK-3,7;wP-5,6;wP-2,6");
  Do(*w, "aim 0,0");
  Do(*w, "land miss");
  ASSERT_TRUE(w->ApplySeatEvent(1, SeatEvent::kTimeout).ok());
  EXPECT_EQ(At(*w, "-2,6"), 0);
  EXPECT_NE(At(*w, "-5,6"), 0);
}

TEST(ResignTest, ThreePlayerResignationFreezesTheArmy) {
  auto s = New("players=3");
  ASSERT_TRUE(s->ApplySeatEvent(1, SeatEvent::kResign).ok());
  EXPECT_FALSE(s->IsTerminal());
  EXPECT_FALSE(Pos(*s).Active(1));
  EXPECT_EQ(Pos(*s).pieces[1].Count(), 17);
  ASSERT_TRUE(s->ApplySeatEvent(0, SeatEvent::kResign).ok());
  EXPECT_EQ(s->GetOutcome().winners, std::vector<int>{2});
  EXPECT_EQ(s->GetOutcome().reason, "resignation");
}

TEST(ResignTest, TwoPlayerResignationLoses) {
  auto s = New("");
  ASSERT_TRUE(s->ApplySeatEvent(0, SeatEvent::kResign).ok());
  EXPECT_EQ(s->GetOutcome().ResultText(), "0-1");
}

TEST(ResignTest, NoDrawsByAgreement) {
  auto s = New("");
  EXPECT_EQ(s->ApplySeatEvent(0, SeatEvent::kOfferDraw).code(),
            absl::StatusCode::kFailedPrecondition);
}

// --- Notation and facade --------------------------------------------------------------------

TEST(NotationTest, MoveTextIsUnambiguousWithNegativeNumbers) {
  const Move m{static_cast<uint8_t>(*ParseCell("3,-6")), static_cast<uint8_t>(*ParseCell("3,-3"))};
  EXPECT_EQ(MoveText(m), "3,-6:3,-3");
  EXPECT_EQ(*ParseMoveText("3,-6:3,-3"), m);
  EXPECT_FALSE(ParseMoveText("3,-6-3,-3").ok());
  EXPECT_FALSE(ParseMoveText("3,-6:9,0").ok());
}

TEST(NotationTest, RefusedActionsLeaveTheStateUnchanged) {
  auto s = New("players=3,board=plain");
  const std::string before = s->Serialize();
  EXPECT_EQ(s->Apply("garbage").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s->Apply("0,0:0,1").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s->Apply("aim 0,0").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s->Serialize(), before);
}

TEST(NotationTest, SerializationRoundTripsAndIsPublic) {
  auto s = New("players=3,board=target,reverse=on,movecap=50,first=w");
  const std::string text = s->Serialize();
  auto parsed = ChestoniaChessGame::Instance().Parse(text, Variant());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ((*parsed)->Serialize(), text);
  EXPECT_EQ(s->PublicSerialize(), text);
  EXPECT_EQ(s->ToMove(), 2);
  EXPECT_TRUE(absl::StrContains(text, "darts=on"));  // default on the target board
}

TEST(NotationTest, RefusesBrokenPositions) {
  for (const char* text :
       {"chestonia-chess pieces=bK0,0",                      // white has no king
        "chestonia-chess pieces=bK0,0;bK1,0;wK3,4",          // two kings
        "chestonia-chess pieces=bK0,0;wK0,0",                // one cell, two pieces
        "chestonia-chess pieces=bK0,0;wK9,0",                // off the board
        "chestonia-chess pieces=bK0,0;wK3,4 colour=red",     // unknown field
        "chestonia-chess pieces=bK0,0;wK3,4 phase=penalty",  // dart phase without darts
        "chess pieces=bK0,0;wK3,4"}) {
    EXPECT_FALSE(ChestoniaChessGame::Instance().Parse(text, Variant()).ok()) << text;
  }
}

TEST(VariantTest, KeysAndDefaults) {
  auto bad = Variant::Parse("players=4");
  EXPECT_FALSE(ChestoniaChessGame::Instance().NewInitialState(*bad).ok());
  EXPECT_FALSE(ChestoniaChessGame::Instance().NewInitialState(*Variant::Parse("colour=red")).ok());
  EXPECT_TRUE(Pos(*New("board=circles")).rules.darts);
  EXPECT_FALSE(Pos(*New("board=circles,darts=off")).rules.darts);
  EXPECT_FALSE(Pos(*New("board=plain")).rules.darts);
}

TEST(RenderTest, OwnEdgeAtTheBottom) {
  auto s = New("players=3");
  for (int seat = 0; seat < 3; ++seat) {
    RenderOptions options;
    options.perspective = seat;
    const std::string text = s->Render(options);
    const size_t last_row = text.rfind('\n', text.rfind("to act") - 2);
    const std::string bottom = text.substr(last_row, text.rfind("to act") - last_row);
    const char letter = SeatLetter(3, seat);
    EXPECT_TRUE(absl::StrContains(bottom, std::string(1, letter) + "K")) << text;
  }
  RenderOptions coords;
  coords.coordinates = true;
  // Blue's back row is the bottom line, its right-hand end (0,-7) on the right.
  const std::string text = s->Render(coords);
  const size_t bottom = text.find("7,-7 .. 0,-7");
  ASSERT_NE(bottom, std::string::npos) << text;
  EXPECT_EQ(text.find('\n', bottom), text.find("to act") - 1);
}

TEST(PerftTest, FacadePerftMatchesTheGenericWalk) {
  auto s = New("players=3,board=plain");
  EXPECT_EQ(s->Perft(2), s->State::Perft(2));
  auto d = New("players=2,board=circles");  // darts on: the facade walk
  EXPECT_EQ(d->Perft(1), d->LegalActions().size());
}

}  // namespace
}  // namespace arena::engine::chestonia_chess
