// A host's mid-game darts change (variant_change.h) on Chestonia games.
#include "services/game_state/variant_change.h"

#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "engine/core/game.h"
#include "gtest/gtest.h"

namespace arena::game_state {
namespace {

// Plays `state` on, taking a dart round whenever the chance offers one, until `stop` holds.
template <typename Stop>
bool PlayUntil(engine::State& state, Stop stop) {
  for (int i = 0; i < 400 && !state.IsTerminal(); ++i) {
    if (stop(state)) return true;
    std::string action;
    if (state.ToMove() == engine::kChanceSeat) {
      action = state.ChanceOutcomes().front().action;  // dart-round first, else a landing
    } else {
      action = state.BoundedLegalActions(1).front();
    }
    if (!state.Apply(action).ok()) return false;
  }
  return false;
}

// Darts turned off while a dart round is under way (the seat to move has thrown and owes its
// move): the round ends there, and the next seat owes a move, not a dart it can no longer
// throw. Before, the round went on under darts=off and the next seat's turn began with an aim
// that no text of the game could hold.
TEST(VariantChangeTest, DartsOffMidDartRoundEndsTheRound) {
  for (const char* id : {"chestonia-chess", "chestonia-checkers"}) {
    SCOPED_TRACE(id);
    const engine::Game* game = engine::FindGame(id);
    ASSERT_NE(game, nullptr);
    auto on = engine::Variant::Parse("players=2,darts=on");
    auto off = engine::Variant::Parse("players=2,darts=off");
    ASSERT_TRUE(on.ok() && off.ok());
    auto state = game->NewInitialState(*on);
    ASSERT_TRUE(state.ok());
    ASSERT_TRUE(PlayUntil(**state, [](const engine::State& s) {
      return s.Phase() == "move" && absl::StrContains(s.Serialize(), "dartround=1");
    }));
    auto changed = ChangeVariantMidGame(*game, **state, *on, *off);
    ASSERT_TRUE(changed.ok()) << changed.status();
    std::unique_ptr<engine::State> next = std::move(*changed);
    EXPECT_EQ(next->ToMove(), (*state)->ToMove());
    EXPECT_TRUE(absl::StrContains(next->Serialize(), " dartround=0 ")) << next->Serialize();
    ASSERT_TRUE(next->Apply(next->BoundedLegalActions(1).front()).ok());
    if (next->IsTerminal()) continue;
    EXPECT_EQ(next->Phase(), "move");
    auto reread = game->Parse(next->Serialize(), *off);
    ASSERT_TRUE(reread.ok()) << reread.status() << "\n" << next->Serialize();
    EXPECT_EQ((*reread)->Serialize(), next->Serialize());
  }
}

// The change lands when the turn under way passes, and the next turn may already owe dart
// business under the old variant: a round chance at a round boundary, or the next seat's aim
// in a dart round. With darts off neither is owed: the round chance reads as the start of the
// next seat's turn and the aim as that seat's move. Before, both refused the change, and
// game-state dropped the host's "darts off" with an error in its log.
TEST(VariantChangeTest, DartsOffLandsOnARoundChanceOrAnAim) {
  for (const char* id : {"chestonia-chess", "chestonia-checkers", "chestonia-go"}) {
    for (const char* owed : {"round", "aim"}) {
      SCOPED_TRACE(std::string(id) + " at " + owed);
      const engine::Game* game = engine::FindGame(id);
      ASSERT_NE(game, nullptr);
      auto on = engine::Variant::Parse("players=2,darts=on");
      auto off = engine::Variant::Parse("players=2,darts=off");
      ASSERT_TRUE(on.ok() && off.ok());
      auto state = game->NewInitialState(*on);
      ASSERT_TRUE(state.ok());
      const std::string phase = std::string(" phase=") + owed + " ";
      ASSERT_TRUE(PlayUntil(**state, [&](const engine::State& s) {
        return absl::StrContains(s.Serialize(), phase);
      }));
      auto changed = ChangeVariantMidGame(*game, **state, *on, *off);
      ASSERT_TRUE(changed.ok()) << changed.status();
      std::unique_ptr<engine::State> next = std::move(*changed);
      EXPECT_EQ(next->Phase(), "move");
      EXPECT_GE(next->ToMove(), 0);
      if (std::string(owed) == "aim") {
        EXPECT_EQ(next->ToMove(), (*state)->ToMove());
      }
      auto reread = game->Parse(next->Serialize(), *off);
      ASSERT_TRUE(reread.ok()) << reread.status();
      EXPECT_EQ((*reread)->Serialize(), next->Serialize());
    }
  }
}

}  // namespace
}  // namespace arena::game_state
