// DartLandingAction: landings follow the engine's published scatter from the aim; anything
// that is not a landing node is left to the inverse CDF.
#include "services/chance/dart_path.h"

#include <span>

#include "engine/hex/dart.h"
#include "engine/hex/geometry.h"
#include "gtest/gtest.h"

namespace arena::game_state {
namespace {

std::vector<engine::ChanceOutcome> LandingOutcomes(int radius) {
  const auto& grid = engine::hex::Grid::Get(radius);
  std::vector<engine::ChanceOutcome> out;
  for (int c = 0; c < grid.size(); ++c) {
    auto a = grid.At(c);
    out.push_back(
        {"land " + std::to_string(a.q) + "," + std::to_string(a.r), 1.0 / (grid.size() + 1)});
  }
  out.push_back({"land miss", 1.0 / (grid.size() + 1)});
  return out;
}

TEST(DartPathTest, LandingFollowsTheEngineScatter) {
  auto outcomes = LandingOutcomes(7);
  const auto& grid = engine::hex::Grid::Get(7);
  FairDraw draw(std::string(32, 'k'), {"a", "b", "c"});
  int misses = 0, centre = 0;
  for (uint64_t i = 0; i < 400; ++i) {
    DrawBytes b = draw.Draw("chance", i);
    auto action = DartLandingAction(outcomes, "aim 0,0", b);
    ASSERT_TRUE(action.has_value());
    auto landing = engine::hex::DartScatter::ForRadius(7).Throw(
        grid.Index({0, 0}), std::span<const uint8_t, 32>(b.data(), 32));
    if (landing.cell == engine::hex::kDartMiss) {
      EXPECT_EQ(*action, "land miss");
      ++misses;
    } else {
      auto a = grid.At(landing.cell);
      EXPECT_EQ(*action, "land " + std::to_string(a.q) + "," + std::to_string(a.r));
      centre += a.q == 0 && a.r == 0;
    }
  }
  EXPECT_LT(misses, 400);
  EXPECT_LT(centre, 40);  // bullseye ~2.6% from the centre
}

TEST(DartPathTest, OtherNodesAreNotLandings) {
  DrawBytes b{};
  EXPECT_FALSE(DartLandingAction({{"dart-round", 0.5}, {"no-dart-round", 0.5}}, "aim 0,0", b));
  EXPECT_FALSE(DartLandingAction(LandingOutcomes(7), "", b));
  EXPECT_FALSE(DartLandingAction(LandingOutcomes(7), "aim 9,9", b));  // off the board
}

}  // namespace
}  // namespace arena::game_state
