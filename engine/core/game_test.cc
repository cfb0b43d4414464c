#include "engine/core/game.h"

#include "gtest/gtest.h"

namespace arena::engine {
namespace {

TEST(VariantTest, ParsesAndCanonicalises) {
  auto v = Variant::Parse(" players=3, Board=Plain ,darts=on");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->ToString(), "board=plain,darts=on,players=3");
  EXPECT_EQ(*v->GetInt("players", 2), 3);
  EXPECT_TRUE(*v->GetBool("darts", false));
  EXPECT_EQ(*v->GetInt("missing", 7), 7);
  EXPECT_EQ(v->Get("board", "x"), "plain");
}

TEST(VariantTest, RefusesMalformedText) {
  EXPECT_EQ(Variant::Parse("players").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Variant::Parse("players=").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Variant::Parse("a=1,a=2").status().code(), absl::StatusCode::kInvalidArgument);
  auto v = Variant::Parse("players=three,darts=maybe");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->GetInt("players", 2).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(v->GetBool("darts", false).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(VariantTest, CheckKeysNamesTheUnknownKey) {
  auto v = Variant::Parse("players=2,colour=red");
  ASSERT_TRUE(v.ok());
  absl::Status s = v->CheckKeys({"players", "board"});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("colour"), std::string::npos);
  EXPECT_TRUE(v->CheckKeys({"players", "colour"}).ok());
}

TEST(OutcomeTest, ResultText) {
  Outcome o;
  EXPECT_EQ(o.ResultText(), "ongoing");
  o.kind = Outcome::Kind::kWin;
  o.winners = {1};
  o.ranks = {1, 0};
  EXPECT_EQ(o.ResultText(), "0-1");
  o.winners = {0};
  o.ranks = {0, 1};
  EXPECT_EQ(o.ResultText(), "1-0");
  o.kind = Outcome::Kind::kDraw;
  EXPECT_EQ(o.ResultText(), "1/2-1/2");
  o.ranks = {0, 1, 2};
  EXPECT_EQ(o.ResultText(), "draw");
  o.kind = Outcome::Kind::kWin;
  o.winners = {2};
  EXPECT_EQ(o.ResultText(), "win:2");
}

}  // namespace
}  // namespace arena::engine
