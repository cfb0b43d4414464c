#include "services/arena/adjudication.h"

#include "gtest/gtest.h"

namespace arena::service {
namespace {

v1::Outcome Capped() {
  v1::Outcome o;
  o.set_status(v1::GAME_STATUS_FINISHED);
  o.set_reason("move-cap");
  o.set_result_text("1/2-1/2");
  o.add_ranks(0);
  o.add_ranks(0);
  return o;
}

TEST(AdjudicationTest, DecisiveMarginIsAWinForTheSideAhead) {
  v1::Outcome white = AdjudicateMoveCap(Capped(), 650);
  EXPECT_TRUE(white.adjudicated());
  EXPECT_EQ(white.adjudication_cp(), 650);
  ASSERT_EQ(white.winners_size(), 1);
  EXPECT_EQ(white.winners(0), 0);
  EXPECT_EQ(white.ranks(0), 0);
  EXPECT_EQ(white.ranks(1), 1);
  EXPECT_EQ(white.result_text(), "1-0");
  EXPECT_EQ(white.reason(), "move-cap");

  v1::Outcome black = AdjudicateMoveCap(Capped(), -kAdjudicationMarginCp);
  ASSERT_EQ(black.winners_size(), 1);
  EXPECT_EQ(black.winners(0), 1);
  EXPECT_EQ(black.ranks(0), 1);
  EXPECT_EQ(black.ranks(1), 0);
  EXPECT_EQ(black.result_text(), "0-1");
}

TEST(AdjudicationTest, CloserThanTheMarginIsADrawMarkedAdjudicated) {
  v1::Outcome o = AdjudicateMoveCap(Capped(), kAdjudicationMarginCp - 1);
  EXPECT_TRUE(o.adjudicated());
  EXPECT_EQ(o.adjudication_cp(), kAdjudicationMarginCp - 1);
  EXPECT_EQ(o.winners_size(), 0);
  EXPECT_EQ(o.ranks(0), 0);
  EXPECT_EQ(o.ranks(1), 0);
  EXPECT_EQ(o.result_text(), "1/2-1/2");
}

TEST(AdjudicationTest, OnlyTwoSeatGamesStoppedByTheCap) {
  EXPECT_TRUE(NeedsAdjudication(Capped(), 2));
  EXPECT_FALSE(NeedsAdjudication(Capped(), 3));
  v1::Outcome mate = Capped();
  mate.set_reason("checkmate");
  EXPECT_FALSE(NeedsAdjudication(mate, 2));
  EXPECT_FALSE(NeedsAdjudication(AdjudicateMoveCap(Capped(), 0), 2));  // once only
}

}  // namespace
}  // namespace arena::service
