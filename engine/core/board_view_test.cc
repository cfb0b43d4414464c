#include "engine/core/board_view.h"

#include "gtest/gtest.h"

namespace arena::engine {
namespace {

BoardView SmallSquare() {
  BoardView v;
  v.game = "test";
  v.shape = "square";
  v.seats = {{"white", "#fff"}, {"black", "#000"}};
  for (int y = 0; y < 2; ++y) {
    for (int x = 0; x < 2; ++x) {
      v.cells.push_back({std::string(1, char('a' + x)) + std::to_string(2 - y), double(x),
                         double(y), (x + y) % 2});
    }
  }
  v.pieces = {{"a2", 1, "king", "K", false}, {"b1", 0, "rook", "R", true}};
  v.frozen_seats = {0};
  v.to_move = 1;
  v.phase = "move";
  v.last_action_cells = {"a1", "b1"};
  v.dart_aim = "a1";
  v.dart_landing = "miss";
  return v;
}

TEST(BoardView, JsonRoundTrips) {
  const BoardView v = SmallSquare();
  absl::StatusOr<BoardView> back = BoardView::FromJson(v.ToJson());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->ToJson(), v.ToJson());
  EXPECT_EQ(back->pieces[1].frozen, true);
  EXPECT_EQ(back->cells[3].id, "b1");
}

TEST(BoardView, FromJsonRefusesGarbage) {
  EXPECT_FALSE(BoardView::FromJson("not json").ok());
  EXPECT_FALSE(BoardView::FromJson("[1,2]").ok());
  EXPECT_FALSE(BoardView::FromJson("{\"game\": 3}").ok());
}

TEST(BoardView, DrawsSquareRowsTopFirstWithFrozenInLowerCase) {
  const std::string text = DrawBoardText(SmallSquare(), /*coordinates=*/true);
  EXPECT_EQ(text,
            "bK ..    a2 .. b2\n"
            ".. wr    a1 .. b1\n"
            "last: a1 -> b1\n"
            "dart: aimed a1, landed miss\n"
            "frozen: white\n");
}

TEST(BoardView, DrawsHexRowsStaggered) {
  BoardView v;
  v.shape = "hex";
  v.seats = {{"blue", "#00f"}};
  // Three cells: two on the top row, one below between them (pointy-topped layout).
  const double w = 1.7320508075688772;
  v.cells = {{"0,-1", 0, -1.5, 0}, {"1,-1", w, -1.5, 0}, {"0,0", w / 2, 0, 0}};
  v.pieces = {{"0,0", 0, "pawn", "P", false}};
  EXPECT_EQ(DrawBoardText(v, false), "..  ..\n  bP\n");
}

}  // namespace
}  // namespace arena::engine
