// One focused test per rule of the seed text and RULES-NOTES for Chestonia Go, on positions
// written in the notation of notation.h (phase=start begins the turn of the seat named by
// turn=). Neighbours of q,r: q+1,r  q+1,r-1  q,r-1  q-1,r  q-1,r+1  q,r+1.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/chestonia_go/chestonia_go_game.h"
#include "engine/chestonia_go/notation.h"
#include "gtest/gtest.h"

namespace arena::engine::chestonia_go {
namespace {

// Stones as {cell, seat letter}.
using Stones = std::vector<std::pair<std::string, char>>;

std::string StonesField(const Stones& stones) {
  std::string text(kNumCells, '.');
  for (const auto& [cell, seat] : stones) {
    absl::StatusOr<int> c = ParseCell(cell);
    EXPECT_TRUE(c.ok()) << cell;
    if (c.ok()) text[*c] = seat;
  }
  return "stones=" + text;
}

std::unique_ptr<State> Load(std::string_view variant, const Stones& stones,
                            std::string_view fields = "") {
  auto v = Variant::Parse(variant);
  EXPECT_TRUE(v.ok());
  auto state = ChestoniaGoGame::Instance().Parse(
      absl::StrCat("chestonia-go ", StonesField(stones), " ", ToAbsl(fields)), *v);
  EXPECT_TRUE(state.ok()) << state.status();
  return state.ok() ? std::move(*state) : nullptr;
}

std::unique_ptr<State> New(std::string_view variant_text) {
  auto variant = Variant::Parse(variant_text);
  EXPECT_TRUE(variant.ok());
  auto state = ChestoniaGoGame::Instance().NewInitialState(*variant);
  EXPECT_TRUE(state.ok()) << state.status();
  return state.ok() ? std::move(*state) : nullptr;
}

const Position& Pos(const State& s) {
  return static_cast<const ChestoniaGoState&>(s).position();
}

bool Legal(const State& s, std::string_view action) {
  const auto actions = s.LegalActions();
  return std::find(actions.begin(), actions.end(), action) != actions.end();
}

int At(const State& s, std::string_view cell) {
  return Pos(s).Owner(*ParseCell(cell));
}

void Do(State& s, std::string_view action) {
  absl::Status st = s.Apply(action);
  ASSERT_TRUE(st.ok()) << st << " applying " << action << "\n" << s.Serialize();
}

// Blue to move, a white stone at 0,0 with five blue neighbours; 0,1 is its last liberty.
const Stones kWhiteInAtari = {{"0,0", 'w'},  {"1,0", 'b'},  {"1,-1", 'b'},
                              {"0,-1", 'b'}, {"-1,0", 'b'}, {"-1,1", 'b'}};

TEST(ChestoniaGoRules, EmptyBoardOffersEveryCellAndPass) {
  auto s = New("players=2");
  EXPECT_EQ(s->LegalActions().size(), 170u);
  EXPECT_TRUE(Legal(*s, "pass"));
  EXPECT_TRUE(Legal(*s, "0,0"));
  EXPECT_TRUE(Legal(*s, "7,-7"));
  EXPECT_EQ(s->Phase(), "move");
  EXPECT_EQ(s->ToMove(), 0);
  Do(*s, "3,-2");
  EXPECT_EQ(At(*s, "3,-2"), 0);
  EXPECT_EQ(s->ToMove(), 1);
  EXPECT_FALSE(Legal(*s, "3,-2"));
  EXPECT_EQ(s->Apply("3,-2").code(), absl::StatusCode::kFailedPrecondition);
}

TEST(ChestoniaGoRules, BadInputIsRefusedAndChangesNothing) {
  auto s = New("players=3");
  const std::string before = s->Serialize();
  EXPECT_EQ(s->Apply("8,0").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s->Apply("0 0").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s->Apply("aim 0,0").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s->Apply("").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s->ApplySeatEvent(1, SeatEvent::kTimeout).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s->ApplySeatEvent(0, SeatEvent::kOfferDraw).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(s->ApplySeatEvent(3, SeatEvent::kResign).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s->Serialize(), before);
  auto v = Variant::Parse("players=4");
  EXPECT_EQ(ChestoniaGoGame::Instance().NewInitialState(*v).status().code(),
            absl::StatusCode::kInvalidArgument);
  v = Variant::Parse("colour=red");
  EXPECT_EQ(ChestoniaGoGame::Instance().NewInitialState(*v).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(ChestoniaGoRules, ParseRefusesAChainWithoutLiberty) {
  Stones stones = kWhiteInAtari;
  stones.push_back({"0,1", 'b'});
  auto state = ChestoniaGoGame::Instance().Parse(absl::StrCat("chestonia-go ", StonesField(stones)),
                                                 Variant());
  EXPECT_EQ(state.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ChestoniaGoRules, ParseRefusesARoundChanceThatIsNotDue) {
  auto v = Variant::Parse("players=2,darts=on");
  ASSERT_TRUE(v.ok());
  const Stones stones = {{"0,0", 'b'}, {"1,0", 'w'}};
  auto early = ChestoniaGoGame::Instance().Parse(
      absl::StrCat("chestonia-go ", StonesField(stones), " turn=b phase=round rounds=2"), *v);
  EXPECT_EQ(early.status().code(), absl::StatusCode::kInvalidArgument);
  // Due: both outcomes apply.
  std::unique_ptr<State> due = Load("players=2,darts=on", stones, "turn=b phase=round rounds=3");
  ASSERT_NE(due, nullptr);
  ASSERT_EQ(due->ToMove(), kChanceSeat);
  for (const ChanceOutcome& o : due->ChanceOutcomes()) {
    EXPECT_TRUE(due->Clone()->Apply(o.action).ok()) << o.action;
  }
}

TEST(ChestoniaGoRules, ChainWithoutLibertyIsCaptured) {
  auto s = Load("players=2", kWhiteInAtari, "turn=b phase=start");
  EXPECT_EQ(Pos(*s).Liberties(*ParseCell("0,0")), 1);
  Do(*s, "0,1");
  EXPECT_EQ(At(*s, "0,0"), -1);
  EXPECT_EQ(Pos(*s).StoneCount(1), 0);
  // The captured cell is now a liberty anyone may fill (white's stone there is self-capture).
  EXPECT_FALSE(Legal(*s, "0,0"));
  EXPECT_EQ(s->Apply("0,0").code(), absl::StatusCode::kFailedPrecondition);
}

TEST(ChestoniaGoRules, SelfCaptureIsRefused) {
  Stones stones = kWhiteInAtari;
  stones[0] = {"0,1", 'b'};  // a ring of six blue stones around an empty 0,0
  auto s = Load("players=2", stones, "turn=w phase=start");
  EXPECT_FALSE(Legal(*s, "0,0"));
  const absl::Status st = s->Apply("0,0");
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(st.message().find("self-capture"), std::string_view::npos) << st;
  EXPECT_TRUE(Legal(*s, "2,0"));
}

TEST(ChestoniaGoRules, FillingTheLastLibertyIsLegalWhenItCaptures) {
  // White 6,-7, 6,-6 and 7,-6 breathe only through the corner 7,-7, whose every neighbour is
  // white: blue's stone there has no liberty until the capture, and enemy chains go first.
  const Stones stones = {{"6,-7", 'w'}, {"6,-6", 'w'}, {"7,-6", 'w'}, {"5,-7", 'b'},
                         {"5,-6", 'b'}, {"5,-5", 'b'}, {"6,-5", 'b'}, {"7,-5", 'b'}};
  auto s = Load("players=2", stones, "turn=b phase=start");
  EXPECT_TRUE(Legal(*s, "7,-7"));
  Do(*s, "7,-7");
  for (const char* c : {"6,-7", "6,-6", "7,-6"}) EXPECT_EQ(At(*s, c), -1) << c;
  EXPECT_EQ(At(*s, "7,-7"), 0);
  EXPECT_EQ(Pos(*s).Liberties(*ParseCell("7,-7")), 3);  // breathing through what it took
}

TEST(ChestoniaGoRules, SharedLibertyCapturesBothChains) {
  // White 1,0 and -1,0 share their last liberty 0,0.
  Stones stones = {{"1,0", 'w'}, {"-1,0", 'w'}};
  for (const char* c :
       {"2,0", "2,-1", "1,-1", "0,1", "1,1", "0,-1", "-1,-1", "-2,0", "-2,1", "-1,1"}) {
    stones.push_back({c, 'b'});
  }
  auto s = Load("players=2", stones, "turn=b phase=start");
  EXPECT_EQ(Pos(*s).Liberties(*ParseCell("1,0")), 1);
  EXPECT_EQ(Pos(*s).Liberties(*ParseCell("-1,0")), 1);
  // Blue chains around them share liberties too: 1,-1 and 0,-1 touch 0,0 and each other.
  Do(*s, "0,0");
  EXPECT_EQ(At(*s, "1,0"), -1);
  EXPECT_EQ(At(*s, "-1,0"), -1);
  EXPECT_EQ(Pos(*s).StoneCount(1), 0);
}

TEST(ChestoniaGoRules, Snapback) {
  // White 6,-7 and 6,-6 have the corner 7,-7 and 7,-6 as liberties. Blue throws in at the
  // corner; white takes it at 7,-6 and is left with the single liberty 7,-7; blue retakes
  // three stones.
  Stones stones = {{"6,-7", 'w'}, {"6,-6", 'w'}};
  for (const char* c : {"5,-7", "5,-6", "5,-5", "6,-5", "7,-5"}) stones.push_back({c, 'b'});
  auto s = Load("players=2", stones, "turn=b phase=start");
  Do(*s, "7,-7");
  EXPECT_EQ(Pos(*s).Liberties(*ParseCell("7,-7")), 1);
  Do(*s, "7,-6");
  EXPECT_EQ(At(*s, "7,-7"), -1);
  EXPECT_EQ(Pos(*s).Liberties(*ParseCell("7,-6")), 1);
  EXPECT_TRUE(Legal(*s, "7,-7"));
  Do(*s, "7,-7");
  for (const char* c : {"6,-7", "6,-6", "7,-6"}) EXPECT_EQ(At(*s, c), -1) << c;
  EXPECT_EQ(At(*s, "7,-7"), 0);
}

// On this lattice two neighbouring cells share two neighbours (one on the rim), so a single
// stone that takes a single stone always joins a chain: a one-for-one ko needs the shared
// neighbours walled off. Frozen stones wall like the rim, so a cut leaves real kos.
Stones KoShape() {
  // Black (out, frozen) at 6,-6; blue 7,-7 in atari at 6,-7; white 7,-6 beside it; blue
  // 5,-7 and 5,-6 wait to take white's capturing stone.
  return {{"6,-6", 'k'}, {"7,-7", 'b'}, {"7,-6", 'w'}, {"5,-7", 'b'}, {"5,-6", 'b'}};
}

TEST(ChestoniaGoRules, KoRetakeIsRefusedBySuperko) {
  auto s = Load("players=3", KoShape(), "turn=w phase=start out=0/1/0");
  Do(*s, "6,-7");  // white takes blue's corner stone
  EXPECT_EQ(At(*s, "7,-7"), -1);
  EXPECT_EQ(Pos(*s).Liberties(*ParseCell("6,-7")), 1);
  // Blue's retake would capture the lone white stone and rebuild the board just seen.
  uint64_t after = 0;
  ASSERT_TRUE(Pos(*s).IsLegalIgnoringSuperko(*ParseCell("7,-7"), 0, &after));
  EXPECT_FALSE(Legal(*s, "7,-7"));
  const absl::Status st = s->Apply("7,-7");
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(st.message().find("superko"), std::string_view::npos) << st;
  // After a play elsewhere on each side the board differs and the retake is legal.
  Do(*s, "0,0");
  Do(*s, "1,0");
  EXPECT_TRUE(Legal(*s, "7,-7"));
  Do(*s, "7,-7");
  EXPECT_EQ(At(*s, "6,-7"), -1);
}

TEST(ChestoniaGoRules, FrozenStonesAreNeverCaptured) {
  Stones stones = {{"0,0", 'k'}};
  for (const char* c : {"1,0", "1,-1", "0,-1", "-1,0", "-1,1"}) stones.push_back({c, 'b'});
  auto s = Load("players=3", stones, "turn=b phase=start out=0/1/0");
  Do(*s, "0,1");
  EXPECT_EQ(At(*s, "0,0"), 1);
  EXPECT_TRUE(Pos(*s).Frozen(*ParseCell("0,0")));
}

TEST(ChestoniaGoRules, SuperkoLooksAtTheWholeHistory) {
  // A longer cycle: the board the capture would produce was seen several positions ago (the
  // history names it among others), not only one move back.
  const Stones before = {{"0,0", 'w'},  {"1,0", 'b'},  {"1,-1", 'b'},
                         {"0,-1", 'b'}, {"-1,0", 'b'}, {"-1,1", 'b'}};
  Stones target = before;
  target[0] = {"0,1", 'b'};  // the board after blue takes at 0,1
  auto t = Load("players=2", target, "turn=w phase=start");
  const uint64_t target_hash = Pos(*t).hash;
  auto cur = Load("players=2", before, "turn=b phase=start");
  const uint64_t now = Pos(*cur).hash;
  auto state = ChestoniaGoGame::Instance().Parse(
      absl::StrCat("chestonia-go ", StonesField(before), " turn=b phase=start history=1,",
                   absl::Hex(target_hash), ",2,3,", absl::Hex(now)),
      Variant());
  ASSERT_TRUE(state.ok()) << state.status();
  EXPECT_FALSE(Legal(**state, "0,1"));
  EXPECT_TRUE(Legal(*cur, "0,1"));  // without that history the same capture is legal
  // A history that does not end in the board is refused.
  auto bad = ChestoniaGoGame::Instance().Parse(
      absl::StrCat("chestonia-go ", StonesField(before), " turn=b phase=start history=1,2"),
      Variant());
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ChestoniaGoRules, AreaScoringAndKomi) {
  // A blue wall along q = 0 with white on the other side: every empty cell on the q > 0 side
  // borders blue alone, every one on q < 0 borders white alone... except that the wall cells
  // themselves touch both. Simplest check: one stone owns the whole empty board.
  auto s = Load("players=2", {{"0,0", 'b'}}, "turn=b phase=start");
  EXPECT_EQ(Pos(*s).Areas()[0], 169);
  EXPECT_EQ(Pos(*s).Areas()[1], 0);
  Do(*s, "pass");
  EXPECT_FALSE(s->IsTerminal());
  Do(*s, "pass");
  ASSERT_TRUE(s->IsTerminal());
  const Outcome o = s->GetOutcome();
  EXPECT_EQ(o.kind, Outcome::Kind::kWin);
  EXPECT_EQ(o.winners, std::vector<int>{0});
  EXPECT_EQ(o.reason, "count");
  EXPECT_EQ(Pos(*s).count_score[0], 338);
  EXPECT_EQ(Pos(*s).count_score[1], 7);  // 3.5 komi: white did not lead
}

TEST(ChestoniaGoRules, KomiDecidesAnEvenBoard) {
  // Five stones each in the middle, one empty region touching both: area = stones.
  auto s = Load("players=2",
                {{"0,0", 'b'},
                 {"1,0", 'b'},
                 {"2,0", 'b'},
                 {"3,0", 'b'},
                 {"4,0", 'b'},
                 {"0,1", 'w'},
                 {"1,1", 'w'},
                 {"2,1", 'w'},
                 {"3,1", 'w'},
                 {"4,1", 'w'}},
                "turn=b phase=start");
  Do(*s, "pass");
  Do(*s, "pass");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().winners, std::vector<int>{1});
  EXPECT_EQ(s->GetOutcome().ResultText(), "0-1");
}

TEST(ChestoniaGoRules, APlayBetweenPassesRestartsTheRun) {
  auto s = New("players=3");
  Do(*s, "pass");
  Do(*s, "pass");
  Do(*s, "0,0");
  Do(*s, "pass");
  Do(*s, "pass");
  EXPECT_FALSE(s->IsTerminal());
  EXPECT_EQ(Pos(*s).counts, 0);
  Do(*s, "pass");
  EXPECT_EQ(Pos(*s).counts, 1);  // three passes in succession: the cut
}

// Three players: blue (leads) 8 stones, black `black` stones, white `white` stones in the
// middle, all touching one empty region: areas are the stone counts.
Stones ThreeGroups(int black, int white) {
  Stones stones;
  for (int q = -4; q < 4; ++q) stones.push_back({absl::StrCat(q, ",0"), 'b'});
  for (int q = -4; q < -4 + black; ++q) stones.push_back({absl::StrCat(q, ",2"), 'k'});
  for (int q = -4; q < -4 + white; ++q) stones.push_back({absl::StrCat(q, ",-2"), 'w'});
  return stones;
}

TEST(ChestoniaGoRules, CutPutsTheSmallestOutAndPlayGoesOn) {
  // Scores: blue 16, black 2*3 + 7 = 13, white 2*4 + 7 = 15 half points. Black is cut.
  auto s = Load("players=3", ThreeGroups(3, 4), "turn=b phase=start");
  Do(*s, "pass");
  Do(*s, "pass");
  Do(*s, "pass");
  ASSERT_FALSE(s->IsTerminal());
  EXPECT_FALSE(Pos(*s).Active(1));
  EXPECT_EQ(Pos(*s).passes, 0);
  EXPECT_EQ(s->Board(0).frozen_seats, std::vector<int>{1});
  // Play on from the same position: blue is next (after white's pass), stones untouched.
  EXPECT_EQ(s->ToMove(), 0);
  EXPECT_EQ(At(*s, "-4,2"), 1);
  EXPECT_EQ(Pos(*s).StoneCount(1), 3);
  // The frozen black stones no longer count: the region touches blue and white, so areas are
  // blue 8, white 4 (+3.5).
  Do(*s, "pass");
  EXPECT_FALSE(s->IsTerminal());  // two seats in now: two passes needed
  Do(*s, "pass");
  ASSERT_TRUE(s->IsTerminal());
  const Outcome o = s->GetOutcome();
  EXPECT_EQ(o.winners, std::vector<int>{0});
  EXPECT_EQ(o.ranks, (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(Pos(*s).counts, 2);
}

TEST(ChestoniaGoRules, TwoLevelAtTheBottomBothGoOut) {
  auto s = Load("players=3", ThreeGroups(4, 4), "turn=b phase=start");
  Do(*s, "pass");
  Do(*s, "pass");
  Do(*s, "pass");
  ASSERT_TRUE(s->IsTerminal());
  const Outcome o = s->GetOutcome();
  EXPECT_EQ(o.kind, Outcome::Kind::kWin);
  EXPECT_EQ(o.winners, std::vector<int>{0});
  EXPECT_EQ(o.reason, "cut");
  EXPECT_EQ(o.ranks, (std::vector<int>{0, 1, 1}));
}

TEST(ChestoniaGoRules, TwoLevelAtTheTopPlayOnAndCanDraw) {
  // Blue 8 stones = 16; black and white 6 each = 19: blue is cut, and the two compensated
  // equally come out level at the second count: a draw between them.
  auto s = Load("players=3", ThreeGroups(6, 6), "turn=b phase=start");
  for (int i = 0; i < 3; ++i) Do(*s, "pass");
  ASSERT_FALSE(s->IsTerminal());
  EXPECT_FALSE(Pos(*s).Active(0));
  Do(*s, "pass");
  Do(*s, "pass");
  ASSERT_TRUE(s->IsTerminal());
  const Outcome o = s->GetOutcome();
  EXPECT_EQ(o.kind, Outcome::Kind::kDraw);
  EXPECT_EQ(o.ranks, (std::vector<int>{1, 0, 0}));
}

TEST(ChestoniaGoRules, FrozenStonesWallLikeTheRim) {
  // Black is out. A frozen black line across the board from rim to rim (r = 0) splits it; a
  // blue stone above and a white one below each own their side.
  Stones stones;
  for (int q = -7; q <= 7; ++q) stones.push_back({absl::StrCat(q, ",0"), 'k'});
  stones.push_back({"0,-3", 'b'});
  stones.push_back({"0,3", 'w'});
  auto s = Load("players=3", stones, "turn=b phase=start out=0/1/0");
  const std::array<int, kMaxSeats> area = Pos(*s).Areas();
  // 169 cells, 15 on the wall, 77 on each side.
  EXPECT_EQ(area[0], 77);
  EXPECT_EQ(area[1], 0);
  EXPECT_EQ(area[2], 77);
  // A region walled by frozen stones and the rim alone belongs to nobody.
  Stones empty_side = stones;
  empty_side.pop_back();
  auto t = Load("players=3", empty_side, "turn=b phase=start out=0/1/0");
  EXPECT_EQ(Pos(*t).Areas()[0], 77);
  EXPECT_EQ(Pos(*t).Areas()[2], 0);
  // The board view shades each side's territory.
  int blue = 0, white = 0;
  for (const BoardCell& c : s->Board(0).cells) {
    blue += c.territory == 0;
    white += c.territory == 2;
  }
  EXPECT_EQ(blue, 76);
  EXPECT_EQ(white, 76);
}

TEST(ChestoniaGoRules, ReverseSmallestScoreWins) {
  Stones stones;
  for (int q = -4; q < 4; ++q) stones.push_back({absl::StrCat(q, ",0"), 'b'});
  for (int q = -4; q < -1; ++q) stones.push_back({absl::StrCat(q, ",2"), 'w'});
  for (const char* variant : {"players=2", "players=2,reverse=on"}) {
    auto s = Load(variant, stones, "turn=b phase=start");
    Do(*s, "pass");
    Do(*s, "pass");
    ASSERT_TRUE(s->IsTerminal());
    // Blue 16, white 6 + 7 = 13.
    EXPECT_EQ(s->GetOutcome().winners,
              std::vector<int>{std::string_view(variant).find("reverse") != std::string_view::npos})
        << variant;
  }
  // Three players in reverse: the largest score is cut.
  auto s = Load("players=3,reverse=on", ThreeGroups(3, 5), "turn=b phase=start");
  for (int i = 0; i < 3; ++i) Do(*s, "pass");
  ASSERT_FALSE(s->IsTerminal());
  EXPECT_FALSE(Pos(*s).Active(2));  // white's 17 is the largest
  EXPECT_TRUE(Pos(*s).Active(0));
  EXPECT_TRUE(Pos(*s).Active(1));
}

TEST(ChestoniaGoRules, ResignationFreezesTheResignersStones) {
  auto s = New("players=3");
  Do(*s, "0,0");
  Do(*s, "1,0");
  Do(*s, "2,0");
  ASSERT_TRUE(s->ApplySeatEvent(1, SeatEvent::kResign).ok());
  EXPECT_FALSE(Pos(*s).Active(1));
  EXPECT_TRUE(Pos(*s).Frozen(*ParseCell("1,0")));
  EXPECT_EQ(s->ToMove(), 0);
  EXPECT_EQ(s->ApplySeatEvent(1, SeatEvent::kResign).code(), absl::StatusCode::kFailedPrecondition);
  // Two seats in: two passes make the final count. Blue 1 stone (the region touches both).
  Do(*s, "pass");
  Do(*s, "pass");
  ASSERT_TRUE(s->IsTerminal());
  const Outcome o = s->GetOutcome();
  EXPECT_EQ(o.winners, std::vector<int>{2});  // 1 + 3.5 beats 1
  EXPECT_EQ(o.ranks, (std::vector<int>{1, 2, 0}));
  // Two players: resigning ends the game.
  auto t = New("players=2");
  ASSERT_TRUE(t->ApplySeatEvent(0, SeatEvent::kResign).ok());
  EXPECT_EQ(t->GetOutcome().winners, std::vector<int>{1});
  EXPECT_EQ(t->GetOutcome().reason, "resignation");
}

TEST(ChestoniaGoRules, TimeoutForfeitsTheTurnAsAPass) {
  auto s = New("players=2");
  Do(*s, "0,0");
  ASSERT_TRUE(s->ApplySeatEvent(1, SeatEvent::kTimeout).ok());
  EXPECT_EQ(s->ToMove(), 0);
  EXPECT_EQ(Pos(*s).passes, 1);
  Do(*s, "pass");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().winners, std::vector<int>{0});
}

TEST(ChestoniaGoRules, MoveCapIsADraw) {
  auto s = New("players=2,movecap=3");
  Do(*s, "0,0");
  Do(*s, "pass");
  Do(*s, "1,0");
  ASSERT_TRUE(s->IsTerminal());
  EXPECT_EQ(s->GetOutcome().kind, Outcome::Kind::kDraw);
  EXPECT_EQ(s->GetOutcome().reason, "move-cap");
}

// --- Darts ------------------------------------------------------------------------------

TEST(ChestoniaGoRules, DartRoundComesAfterThreeToTenRounds) {
  auto s = New("players=2,darts=on");
  for (int round = 0; round < 3; ++round) {
    ASSERT_EQ(s->Phase(), "move");
    Do(*s, "pass");
    if (round < 2) Do(*s, absl::StrCat(round, ",0"));  // keep the game from ending
    if (round == 2) Do(*s, "1,1");
  }
  ASSERT_EQ(s->ToMove(), kChanceSeat);
  const auto outcomes = s->ChanceOutcomes();
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_NEAR(outcomes[0].probability, 1.0 / 8, 1e-12);
  Do(*s, "dart-round");
  EXPECT_EQ(s->Phase(), "dart-aim");
  EXPECT_EQ(s->LegalActions().size(), 169u);
  Do(*s, "aim 0,0");
  EXPECT_EQ(s->ChanceOutcomes().size(), 170u);
}

TEST(ChestoniaGoRules, DartKnocksOffAStoneAndPaysAFreeStone) {
  // Blue's dart lands on white's stone at 1,0 (ring 1, zone 2): it comes off and blue plays a
  // free stone, then its move.
  auto s = Load("players=3,darts=on", {{"1,0", 'w'}, {"3,3", 'k'}},
                "turn=b phase=land aim=0,0 dartround=1");
  Do(*s, "land 1,0");
  EXPECT_EQ(At(*s, "1,0"), -1);
  EXPECT_EQ(s->Phase(), "placement");
  EXPECT_TRUE(Legal(*s, "skip"));
  EXPECT_TRUE(Legal(*s, "place 1,0"));
  EXPECT_EQ(s->Apply("place 3,3").code(), absl::StatusCode::kFailedPrecondition);
  Do(*s, "place 5,-1");
  EXPECT_EQ(At(*s, "5,-1"), 0);
  EXPECT_EQ(s->Phase(), "move");
  EXPECT_EQ(s->ToMove(), 0);  // the free stone did not use the turn
}

TEST(ChestoniaGoRules, DartOnAFrozenStoneHitsNothing) {
  auto s =
      Load("players=3,darts=on", {{"0,0", 'k'}}, "turn=b phase=land aim=0,0 dartround=1 out=0/1/0");
  Do(*s, "land 0,0");
  EXPECT_EQ(At(*s, "0,0"), 1);
  EXPECT_EQ(s->Phase(), "placement");  // the bullseye still pays
  EXPECT_FALSE(Legal(*s, "place 0,0"));
}

TEST(ChestoniaGoRules, DartOutsideThePayingZonesGoesStraightToTheMove) {
  auto s = Load("players=2,darts=on", {{"5,0", 'b'}}, "turn=b phase=land aim=5,0 dartround=1");
  Do(*s, "land 5,0");  // ring 5: zone 4, the thrower's own stone comes off
  EXPECT_EQ(At(*s, "5,0"), -1);
  EXPECT_EQ(s->Phase(), "move");
}

TEST(ChestoniaGoRules, MissCostsAStoneOfTheThrowersChoice) {
  auto s = Load("players=2,darts=on", {{"5,0", 'b'}, {"-5,0", 'b'}, {"0,5", 'w'}},
                "turn=b phase=land aim=7,0 dartround=1");
  Do(*s, "land miss");
  EXPECT_EQ(s->Phase(), "penalty");
  EXPECT_EQ(s->LegalActions(), (std::vector<std::string>{"penalty -5,0", "penalty 5,0"}));
  EXPECT_EQ(s->Apply("penalty 0,5").code(), absl::StatusCode::kFailedPrecondition);
  Do(*s, "penalty 5,0");
  EXPECT_EQ(At(*s, "5,0"), -1);
  EXPECT_EQ(s->Phase(), "move");
  // Without a stone a miss costs nothing.
  auto t = Load("players=2,darts=on", {{"0,5", 'w'}}, "turn=b phase=land aim=7,0 dartround=1");
  Do(*t, "land miss");
  EXPECT_EQ(t->Phase(), "move");
}

TEST(ChestoniaGoRules, TimeoutInThePenaltyTakesTheStoneNearestTheEdge) {
  // Blue's edge is r = -7: the stone on r = -6 goes, not the one nearer the centre.
  auto s = Load("players=2,darts=on", {{"0,-1", 'b'}, {"3,-6", 'b'}, {"1,-6", 'b'}},
                "turn=b phase=penalty dartround=1");
  ASSERT_TRUE(s->ApplySeatEvent(0, SeatEvent::kTimeout).ok());
  EXPECT_EQ(At(*s, "1,-6"), -1);  // r = -6 and lower q: counted first from blue's right
  EXPECT_EQ(At(*s, "3,-6"), 0);
  EXPECT_EQ(At(*s, "0,-1"), 0);
  EXPECT_EQ(s->ToMove(), 1);
}

TEST(ChestoniaGoRules, RoundTripKeepsTheHistory) {
  auto s = Load("players=3", KoShape(), "turn=w phase=start out=0/1/0");
  Do(*s, "6,-7");
  auto parsed =
      ChestoniaGoGame::Instance().Parse(s->Serialize(), Variant::Parse("players=3").value());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ((*parsed)->Serialize(), s->Serialize());
  EXPECT_FALSE(Legal(**parsed, "7,-7"));  // the ko is still refused after a reload
}

}  // namespace
}  // namespace arena::engine::chestonia_go
