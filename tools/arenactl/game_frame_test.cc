#include "tools/arenactl/game_frame.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arena::arenactl {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A two-seat game on a per-move clock: cross (a person) against a model, seat 1 to move.
v1::GameView TwoSeats() {
  v1::GameView v;
  v.set_game_id("g1");
  v.set_engine_game("hex-tictactoe");
  v.set_status(v1::GAME_STATUS_ACTIVE);
  v.mutable_settings()->mutable_clock()->set_per_move_ms(30000);
  v.set_phase("move");
  v.set_to_move(1);
  v.mutable_board()->add_seats()->set_name("cross");
  v.mutable_board()->add_seats()->set_name("nought");
  v1::SeatView* a = v.add_seats();
  a->set_seat(0);
  a->set_engine_seat(0);
  a->set_filled(true);
  a->mutable_spec()->set_kind(v1::SEAT_KIND_HUMAN);
  a->mutable_spec()->set_display_name("alice");
  a->set_clock_remaining_ms(30000);
  v1::SeatView* b = v.add_seats();
  b->set_seat(1);
  b->set_engine_seat(1);
  b->set_filled(true);
  b->mutable_spec()->set_kind(v1::SEAT_KIND_MODEL);
  b->mutable_spec()->set_model_id("mock-competent");
  b->mutable_spec()->set_display_name("model:mock-competent");
  b->set_clock_remaining_ms(12000);
  return v;
}

v1::GameEvent Action(int64_t seq, int seat, int64_t number, const std::string& text,
                     const std::string& annotation = "") {
  v1::GameEvent e;
  e.set_sequence(seq);
  e.set_type("action");
  e.set_seat(seat);
  e.set_action_number(number);
  e.set_action(text);
  e.set_annotation(annotation);
  e.set_detail_json(R"({"kind":1})");
  return e;
}

TEST(GameFrameTest, SeatsShowTheGamesNamesPlayersKindsAndClocks) {
  v1::GameView v = TwoSeats();
  const absl::Time now = absl::FromUnixMillis(1'000'000);
  v.set_turn_deadline_unix_ms(1'000'000 + 7'400);  // 7.4 s left for the mover
  FrameOptions o;
  o.viewer_seat = 0;
  o.now = now;
  const std::string seats = SeatLines(v, o);
  EXPECT_THAT(seats, HasSubstr("  cross    alice (person)  <- you  0:30"));
  EXPECT_THAT(seats, HasSubstr("> nought   model:mock-competent (model mock-competent)  0:08"));
  v.mutable_settings()->mutable_clock()->set_per_move_ms(0);
  EXPECT_EQ(ClockText(v, 0, now), "");  // no clock at this table
}

TEST(GameFrameTest, MoveListCarriesReasoningAttemptsAndChance) {
  v1::GameView v = TwoSeats();
  MoveList moves;
  moves.Add(Action(3, 0, 0, "0,0"), v);
  moves.Add(Action(4, 1, 1, "1,0", "It develops my position."), v);
  v1::GameEvent chance;
  chance.set_sequence(5);
  chance.set_type("chance");
  chance.set_seat(-1);
  chance.set_action("land 2,-1");
  moves.Add(chance, v);
  moves.Add(Action(4, 1, 1, "1,0"), v);  // a replayed event is taken once
  moves.SetModelTurn(1, ModelTurn{{"illegal", "ok"}});
  const std::vector<std::string> lines = moves.Lines();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "   1. cross    0,0");
  EXPECT_EQ(lines[1],
            "   2. nought   1,0  [2 attempts: illegal, ok]\n        reasoning: It develops my "
            "position.");
  EXPECT_EQ(lines[2], "      chance:  land 2,-1");
  EXPECT_EQ(moves.Lines(1).size(), 1u);
  EXPECT_EQ(moves.last_sequence(), 5);
  EXPECT_THAT(lines[0], Not(HasSubstr("seat -")));
}

TEST(GameFrameTest, ResultInWordsNamesTheWinner) {
  v1::GameView v = TwoSeats();
  v.set_status(v1::GAME_STATUS_FINISHED);
  v.mutable_outcome()->add_winners(1);
  v.mutable_outcome()->set_reason("line");
  EXPECT_EQ(ResultInWords(v), "nought (model:mock-competent) wins: line");
  v.mutable_outcome()->clear_winners();
  v.mutable_outcome()->set_reason("board-full");
  EXPECT_EQ(ResultInWords(v), "draw: board-full");
  v.set_status(v1::GAME_STATUS_VOIDED);
  v.mutable_outcome()->set_reason("provider down");
  EXPECT_EQ(ResultInWords(v), "voided, nobody won: provider down");
  MoveList none;
  const std::string frame = Frame(v, none, FrameOptions{});
  EXPECT_THAT(frame, HasSubstr("result: voided, nobody won"));
  EXPECT_THAT(frame, Not(HasSubstr("\033")));
  EXPECT_THAT(frame, Not(HasSubstr("to act")));
}

TEST(GameFrameTest, FrameSaysWhatIsOwedAndWhose) {
  v1::GameView v = TwoSeats();
  FrameOptions o;
  o.viewer_seat = 1;
  EXPECT_THAT(Frame(v, MoveList(), o), HasSubstr("to act: nought (move) - your turn"));
  v.set_status(v1::GAME_STATUS_WAITING);
  v.mutable_seats(0)->set_filled(false);
  v.mutable_seats(0)->mutable_spec()->set_kind(v1::SEAT_KIND_GUEST);
  const std::string waiting = Frame(v, MoveList(), o);
  EXPECT_THAT(waiting, HasSubstr("(open seat)"));
  EXPECT_THAT(waiting, HasSubstr("waiting for every seat"));
}

}  // namespace
}  // namespace arena::arenactl
