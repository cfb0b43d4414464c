// A host's mid-game darts change (variant_change.h) on Chestonia games.
#include "services/game_state/variant_change.h"

#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "engine/core/game.h"
#include "gtest/gtest.h"

namespace arena::game_state {
namespace {

const engine::Variant& DartsOn() {
  static const engine::Variant v = *engine::Variant::Parse("players=2,darts=on");
  return v;
}
const engine::Variant& DartsOff() {
  static const engine::Variant v = *engine::Variant::Parse("players=2,darts=off");
  return v;
}

// A two-seat game of `id` with darts on, played (a dart round taken whenever the chance offers
// one) until `stop` holds; null if it never does.
template <typename Stop>
std::unique_ptr<engine::State> PlayedUntil(const char* id, Stop stop) {
  const engine::Game* game = engine::FindGame(id);
  if (game == nullptr) return nullptr;
  auto state = game->NewInitialState(DartsOn());
  if (!state.ok()) return nullptr;
  std::unique_ptr<engine::State> s = std::move(*state);
  for (int i = 0; i < 400 && !s->IsTerminal(); ++i) {
    if (stop(*s)) return s;
    std::string action;
    if (s->ToMove() == engine::kChanceSeat) {
      action = s->ChanceOutcomes().front().action;  // dart-round first, else a landing
    } else {
      action = s->BoundedLegalActions(1).front();
    }
    if (!s->Apply(action).ok()) return nullptr;
  }
  return nullptr;
}

// `next` reads back under darts off to itself.
void ExpectRereads(const char* id, const engine::State& next) {
  auto reread = engine::FindGame(id)->Parse(next.Serialize(), DartsOff());
  ASSERT_TRUE(reread.ok()) << reread.status() << "\n" << next.Serialize();
  EXPECT_EQ((*reread)->Serialize(), next.Serialize());
}

// Darts turned off while a dart round is under way (the seat to move has thrown and owes its
// move): the round ends there, and the next seat owes a move, not a dart it can no longer
// throw. Before, the round went on under darts=off and the next seat's turn began with an aim
// that no text of the game could hold.
TEST(VariantChangeTest, DartsOffMidDartRoundEndsTheRound) {
  for (const char* id : {"chestonia-chess", "chestonia-checkers"}) {
    SCOPED_TRACE(id);
    std::unique_ptr<engine::State> state = PlayedUntil(id, [](const engine::State& s) {
      return s.Phase() == "move" && absl::StrContains(s.Serialize(), "dartround=1");
    });
    ASSERT_NE(state, nullptr);
    auto changed = ChangeVariantMidGame(*engine::FindGame(id), *state, DartsOn(), DartsOff());
    ASSERT_TRUE(changed.ok()) << changed.status();
    std::unique_ptr<engine::State> next = std::move(*changed);
    EXPECT_EQ(next->ToMove(), state->ToMove());
    EXPECT_TRUE(absl::StrContains(next->Serialize(), " dartround=0 ")) << next->Serialize();
    ASSERT_TRUE(next->Apply(next->BoundedLegalActions(1).front()).ok());
    if (next->IsTerminal()) continue;
    EXPECT_EQ(next->Phase(), "move");
    ExpectRereads(id, *next);
  }
}

// The change lands when the turn under way passes, and the next turn may already owe dart
// business under the old variant: a round chance at a round boundary, or the next seat's aim
// in a dart round. With darts off neither is owed: the round chance reads as the start of the
// next seat's turn and the aim as that seat's move. Before, both refused the change, and
// game-state dropped the host's "darts off" with an error in its log.
TEST(VariantChangeTest, DartsOffLandsOnARoundChanceOrAnAim) {
  for (const char* id : {"chestonia-chess", "chestonia-checkers", "chestonia-go"}) {
    for (const std::string owed : {"round", "aim"}) {
      SCOPED_TRACE(std::string(id) + " at " + owed);
      std::unique_ptr<engine::State> state = PlayedUntil(id, [&](const engine::State& s) {
        return absl::StrContains(s.Serialize(), " phase=" + owed + " ");
      });
      ASSERT_NE(state, nullptr);
      auto changed = ChangeVariantMidGame(*engine::FindGame(id), *state, DartsOn(), DartsOff());
      ASSERT_TRUE(changed.ok()) << changed.status();
      EXPECT_EQ((*changed)->Phase(), "move");
      EXPECT_GE((*changed)->ToMove(), 0);
      if (owed == "aim") {
        EXPECT_EQ((*changed)->ToMove(), state->ToMove());
      }
      ExpectRereads(id, **changed);
    }
  }
}

}  // namespace
}  // namespace arena::game_state
