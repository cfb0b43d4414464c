// FairPlayGameFromRecord: what the fair-play check reads from a game-state record.
#include "services/arena/fair_play_runner.h"

#include "gmock/gmock.h"
#include "google/protobuf/util/time_util.h"
#include "gtest/gtest.h"

namespace arena::service {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kStart[] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

class RecordBuilder {
 public:
  explicit RecordBuilder(const std::string& fen = kStart) {
    record_.mutable_final_view()->set_engine_game("chess");
    record_.mutable_final_view()->set_position(std::string("chess1|") + fen + "||0,0,-|-");
  }
  RecordBuilder& Event(const std::string& type, int64_t at_ms, const std::string& action = "") {
    v1::GameEvent* e = record_.add_events();
    e->set_type(type);
    e->set_action(action);
    if (at_ms >= 0) {
      *e->mutable_at() = google::protobuf::util::TimeUtil::MillisecondsToTimestamp(at_ms);
    }
    return *this;
  }
  const v1::GameRecord& record() const { return record_; }

 private:
  v1::GameRecord record_;
};

TEST(FairPlayGameFromRecord, MovesBecomeUciWithThinkTimesFromTheLastSitDown) {
  RecordBuilder b;
  b.Event("created", 0)
      .Event("joined", 1000)
      .Event("joined", 4000)  // the clock starts for the first move when both are seated
      .Event("action", 6500, "e4")
      .Event("clock", 6600)
      .Event("action", 9000, "e7e5")
      .Event("action", 9000, "Nf3");  // at once: 0 ms, never negative
  auto game = FairPlayGameFromRecord(b.record(), 1600, 1450);
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_THAT(game->moves, ElementsAre("e2e4", "e7e5", "g1f3"));
  EXPECT_THAT(game->think_ms, ElementsAre(2500, 2500, 0));
  EXPECT_EQ(game->start_fen, "") << "the standard start is left to the check's default";
  EXPECT_EQ(game->ratings[0], 1600);
  EXPECT_EQ(game->ratings[1], 1450);
}

TEST(FairPlayGameFromRecord, AnotherStartIsKeptAndMissingTimesDropThemAll) {
  const std::string fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
  RecordBuilder b(fen);
  b.Event("action", 100, "e2e4").Event("action", -1, "Kd7");
  auto game = FairPlayGameFromRecord(b.record(), 1500, 1500);
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->start_fen, fen);
  EXPECT_THAT(game->moves, ElementsAre("e2e4", "e8d7"));
  EXPECT_TRUE(game->think_ms.empty()) << "no sit-down and a move without a time: no timings";
}

TEST(FairPlayGameFromRecord, RefusesOtherGamesBadPositionsAndIllegalMoves) {
  RecordBuilder other;
  v1::GameRecord r = other.record();
  r.mutable_final_view()->set_engine_game("chestonia-chess");
  EXPECT_EQ(FairPlayGameFromRecord(r, 1500, 1500).status().code(),
            absl::StatusCode::kInvalidArgument);

  r = other.record();
  r.mutable_final_view()->set_position("not a chess game");
  EXPECT_EQ(FairPlayGameFromRecord(r, 1500, 1500).status().code(),
            absl::StatusCode::kInvalidArgument);

  RecordBuilder illegal;
  illegal.Event("action", 10, "e2e4").Event("action", 20, "e2e4");
  auto refused = FairPlayGameFromRecord(illegal.record(), 1500, 1500);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("move 2 'e2e4'"));
}

}  // namespace
}  // namespace arena::service
