#include "engine/chess/chess_game.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace arena::engine::chess {
namespace {

std::unique_ptr<State> FromText(std::string_view text) {
  auto state = ChessGame::Instance().Parse(text, {});
  EXPECT_TRUE(state.ok()) << state.status() << " " << text;
  return state.ok() ? std::move(*state) : nullptr;
}

std::unique_ptr<State> Play(std::string_view start, const std::vector<std::string>& moves) {
  std::unique_ptr<State> state =
      start.empty() ? std::move(*ChessGame::Instance().NewInitialState({})) : FromText(start);
  for (const std::string& m : moves) {
    absl::Status s = state->Apply(m);
    EXPECT_TRUE(s.ok()) << s << " " << m;
  }
  return state;
}

void ExpectRoundTrip(const State& state) {
  auto back = ChessGame::Instance().Parse(state.Serialize(), {});
  ASSERT_TRUE(back.ok()) << back.status() << " " << state.Serialize();
  EXPECT_EQ((*back)->Serialize(), state.Serialize());
  EXPECT_EQ((*back)->Hash(), state.Hash());
  EXPECT_EQ((*back)->GetOutcome().reason, state.GetOutcome().reason);
  EXPECT_EQ((*back)->GetOutcome().ResultText(), state.GetOutcome().ResultText());
}

void ExpectOutcome(const State& state, const char* result, const char* reason) {
  Outcome o = state.GetOutcome();
  EXPECT_EQ(o.ResultText(), result);
  EXPECT_EQ(o.reason, reason);
  EXPECT_EQ(state.ToMove(), kTerminalSeat);
  EXPECT_EQ(state.Phase(), "finished");
  EXPECT_TRUE(state.LegalActions().empty());
  EXPECT_EQ(state.Clone()->Apply("e2e4").code(), absl::StatusCode::kFailedPrecondition);
  ExpectRoundTrip(state);
}

TEST(ChessGameTest, Basics) {
  const Game& game = ChessGame::Instance();
  EXPECT_EQ(game.Id(), "chess");
  EXPECT_TRUE(game.VariantKeys().empty());
  auto v = Variant::Parse("autoqueen=on");
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(game.NewInitialState(*v).ok());
  EXPECT_FALSE(game.Parse(std::string(kStartFen), *v).ok());
  auto state = game.NewInitialState({});
  ASSERT_TRUE(state.ok());
  EXPECT_EQ((*state)->ToMove(), 0);
  EXPECT_EQ((*state)->Phase(), "move");
  std::vector<std::string> legal = (*state)->LegalActions();
  ASSERT_EQ(legal.size(), 20u);
  EXPECT_TRUE(std::is_sorted(legal.begin(), legal.end()));
  EXPECT_EQ((*state)->PositionText(), kStartFen);
}

TEST(ChessGameTest, ApplyAcceptsUciAndSanAndLeavesStateOnError) {
  auto state = Play("", {"e2e4", "e5", "Nf3", "b8c6"});
  EXPECT_EQ(state->ActionCount(), 4);
  const std::string before = state->Serialize();
  EXPECT_EQ(state->Apply("garbage").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(state->Apply("e2e4").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(state->Apply("Ke3").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(state->Serialize(), before);
  // Serialization stores canonical UCI whatever text was applied.
  EXPECT_NE(before.find("|e2e4 e7e5 g1f3 b8c6|"), std::string::npos) << before;
  ExpectRoundTrip(*state);
}

TEST(ChessGameTest, Checkmate) {
  auto state = Play("", {"f2f3", "e7e5", "g2g4", "d8h4"});
  ExpectOutcome(*state, "0-1", "checkmate");
  EXPECT_EQ(state->GetOutcome().winners, std::vector<int>{1});
}

TEST(ChessGameTest, Stalemate) {
  auto state = Play("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", {"c1c7"});
  ExpectOutcome(*state, "1/2-1/2", "stalemate");
}

TEST(ChessGameTest, InsufficientMaterialAfterCapture) {
  auto state = Play("k7/8/8/8/8/8/1r6/KN6 w - - 0 1", {"a1b2"});
  ExpectOutcome(*state, "1/2-1/2", "insufficient-material");
  auto bishops = Play("k7/8/8/8/8/8/1r6/KB3b2 w - - 0 1", {"a1b2"});
  ExpectOutcome(*bishops, "1/2-1/2", "insufficient-material");
  // Opposite-coloured bishops can still mate: play goes on.
  auto opposite = Play("k7/8/8/8/8/8/1r6/KB2b3 w - - 0 1", {"a1b2"});
  EXPECT_FALSE(opposite->IsTerminal());
}

TEST(ChessGameTest, ThreefoldRepetitionEndsTheGameByItself) {
  auto state = Play("", {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"});
  EXPECT_FALSE(state->IsTerminal());  // the start position has occurred twice
  ASSERT_TRUE(state->Apply("f6g8").ok());
  ExpectOutcome(*state, "1/2-1/2", "threefold-repetition");
}

TEST(ChessGameTest, RepetitionNeedsSameCastlingRights) {
  // The rooks leave and return: the rights are gone, so the start position does not repeat.
  auto state = Play("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                    {"h1h2", "h8h7", "h2h1", "h7h8", "h1h2", "h8h7", "h2h1", "h7h8"});
  EXPECT_FALSE(state->IsTerminal());
  // ...but the positions after the first return do repeat: rooks on h2/h7 with white to
  // move occurred after plies 2 and 6 and now a third time.
  ASSERT_TRUE(state->Apply("h1h2").ok());
  EXPECT_FALSE(state->IsTerminal());
  ASSERT_TRUE(state->Apply("h8h7").ok());
  ExpectOutcome(*state, "1/2-1/2", "threefold-repetition");
}

TEST(ChessGameTest, RepetitionIgnoresUselessEpSquare) {
  // 1...d5 sets d6? No: white's e5 pawn makes d6 capturable, but the king on a5 is pinned on
  // the rank by the h5 rook, so the ep right is void and the position equals the later ones.
  auto state = Play("7k/3p4/8/K3P2r/8/8/8/8 b - - 0 1",
                    {"d7d5", "a5a4", "h8g8", "a4a5", "g8h8", "a5a4", "h8g8", "a4a5", "g8h8"});
  ExpectOutcome(*state, "1/2-1/2", "threefold-repetition");
}

TEST(ChessGameTest, FiftyMoveRuleEndsTheGameByItself) {
  auto state = Play("k7/8/8/8/8/8/8/KR6 w - - 98 80", {"b1b2"});
  EXPECT_FALSE(state->IsTerminal());
  ASSERT_TRUE(state->Apply("a8a7").ok());
  ExpectOutcome(*state, "1/2-1/2", "fifty-move");
  // Mate on the hundredth ply is still mate.
  auto mate = Play("k7/8/1K6/8/8/8/8/7R w - - 99 80", {"h1h8"});
  ExpectOutcome(*mate, "1-0", "checkmate");
}

TEST(ChessGameTest, Resignation) {
  auto state = Play("", {"e2e4"});
  EXPECT_EQ(state->ApplySeatEvent(2, SeatEvent::kResign).code(),
            absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(state->ApplySeatEvent(0, SeatEvent::kResign).ok());
  ExpectOutcome(*state, "0-1", "resignation");
  EXPECT_EQ(state->ApplySeatEvent(1, SeatEvent::kResign).code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(ChessGameTest, DrawOffersLifecycle) {
  auto state = Play("", {});
  // Nothing to answer yet.
  EXPECT_EQ(state->ApplySeatEvent(1, SeatEvent::kAcceptDraw).code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(state->ApplySeatEvent(0, SeatEvent::kOfferDraw).ok());
  // One offer open at a time, and one cannot answer one's own.
  EXPECT_FALSE(state->ApplySeatEvent(0, SeatEvent::kOfferDraw).ok());
  EXPECT_FALSE(state->ApplySeatEvent(1, SeatEvent::kOfferDraw).ok());
  EXPECT_FALSE(state->ApplySeatEvent(0, SeatEvent::kAcceptDraw).ok());
  ExpectRoundTrip(*state);
  // The offerer's own move keeps the offer standing; the opponent's move declines it.
  ASSERT_TRUE(state->Apply("e2e4").ok());
  auto* chess = static_cast<ChessState*>(state.get());
  EXPECT_EQ(chess->open_offer(), 0);
  ASSERT_TRUE(state->Apply("e7e5").ok());
  EXPECT_EQ(chess->open_offer(), -1);
  // Explicit decline.
  ASSERT_TRUE(state->ApplySeatEvent(0, SeatEvent::kOfferDraw).ok());
  ASSERT_TRUE(state->ApplySeatEvent(1, SeatEvent::kDeclineDraw).ok());
  EXPECT_EQ(chess->open_offer(), -1);
  // Third offer is the last one.
  ASSERT_TRUE(state->ApplySeatEvent(0, SeatEvent::kOfferDraw).ok());
  ASSERT_TRUE(state->ApplySeatEvent(1, SeatEvent::kDeclineDraw).ok());
  EXPECT_EQ(chess->draw_offers(0), 3);
  EXPECT_EQ(state->ApplySeatEvent(0, SeatEvent::kOfferDraw).code(),
            absl::StatusCode::kFailedPrecondition);
  ExpectRoundTrip(*state);
  // The other player still has all three; accepting ends the game.
  ASSERT_TRUE(state->ApplySeatEvent(1, SeatEvent::kOfferDraw).ok());
  ASSERT_TRUE(state->ApplySeatEvent(0, SeatEvent::kAcceptDraw).ok());
  ExpectOutcome(*state, "1/2-1/2", "agreed-draw");
  EXPECT_EQ(chess->open_offer(), -1);
}

TEST(ChessGameTest, TimeoutLosesUnlessOpponentCannotMate) {
  auto state = Play("", {"e2e4"});
  ASSERT_TRUE(state->ApplySeatEvent(1, SeatEvent::kTimeout).ok());
  ExpectOutcome(*state, "1-0", "timeout");
  // White has only a knight: black's flag fall is a draw.
  auto knight = Play("k7/pp6/8/8/8/8/8/KN6 b - - 0 1", {});
  ASSERT_TRUE(knight->ApplySeatEvent(1, SeatEvent::kTimeout).ok());
  ExpectOutcome(*knight, "1/2-1/2", "timeout-insufficient-material");
  // Black, with pawns, still wins on white's flag fall.
  auto pawns = Play("k7/pp6/8/8/8/8/8/KN6 w - - 0 1", {});
  ASSERT_TRUE(pawns->ApplySeatEvent(0, SeatEvent::kTimeout).ok());
  ExpectOutcome(*pawns, "0-1", "timeout");
  // Two knights could mate (with help): a loss, not a draw.
  auto two = Play("k7/pp6/8/8/8/8/8/KNN5 b - - 0 1", {});
  ASSERT_TRUE(two->ApplySeatEvent(1, SeatEvent::kTimeout).ok());
  ExpectOutcome(*two, "1-0", "timeout");
}

TEST(ChessGameTest, ParseAcceptsBareFenAndRejectsBadSerializations) {
  EXPECT_NE(FromText("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), nullptr);
  const Game& game = ChessGame::Instance();
  const std::string fen(kStartFen);
  for (const std::string& bad : {
           std::string("chess1|") + fen,
           "chess1|" + fen + "|e2e5|0,0,-|-",
           "chess1|" + fen + "|e2e4|4,0,-|-",
           "chess1|" + fen + "|e2e4|0,0,w|-",
           "chess1|" + fen + "|e2e4|1,0,x|-",
           "chess1|" + fen + "|e2e4|0,0,-|resign:x",
           "chess1|" + fen + "|e2e4|0,0,-|agreed",
           "chess1|" + fen + "|f2f3 e7e5 g2g4 d8h4 a2a3|0,0,-|-",
           "chess1|" + fen + "|f2f3 e7e5 g2g4 d8h4|0,0,-|resign:w",
           std::string("chess1|8/8/8/8/8/8/8/8 w - - 0 1||0,0,-|-"),
       }) {
    EXPECT_FALSE(game.Parse(bad, {}).ok()) << bad;
  }
}

TEST(ChessGameTest, RenderFromEitherSide) {
  auto state = Play("", {"e2e4"});
  RenderOptions white;
  const std::string w = state->Render(white);
  EXPECT_EQ(w.substr(0, 16), "r n b q k b n r\n");
  EXPECT_NE(w.find(". . . . P . . .\n"), std::string::npos) << w;
  RenderOptions black;
  black.perspective = 1;
  black.coordinates = true;
  const std::string b = state->Render(black);
  EXPECT_EQ(b.substr(0, 18), "1 R N B K Q B N R\n");
  EXPECT_NE(b.find("  h g f e d c b a\n"), std::string::npos) << b;
}

TEST(ChessGameTest, PerftOverrideMatchesTheFacadeWalk) {
  auto state = FromText("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  EXPECT_EQ(state->Perft(2), state->State::Perft(2));
  EXPECT_EQ(state->PerftDivide(2), state->State::PerftDivide(2));
  EXPECT_EQ(state->Perft(3), 97862u);
}

TEST(ChessGameTest, PgnExport) {
  auto state = Play("", {"f2f3", "e7e5", "g2g4", "d8h4"});
  auto* chess = static_cast<ChessState*>(state.get());
  std::string pgn = chess->ToPgn({{"White", "a"}}, {179, 178, 177, 176});
  for (char& c : pgn) {
    if (c == '\n') c = ' ';
  }
  EXPECT_NE(pgn.find("[Result \"0-1\"]"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("2. g4 { [%clk 0:02:57] } Qh4# { [%clk 0:02:56] } 0-1"), std::string::npos)
      << pgn;
}

}  // namespace
}  // namespace arena::engine::chess
