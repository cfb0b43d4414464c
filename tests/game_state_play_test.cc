// Whole games through the real arena-game-state over gRPC: standard chess and three-player
// Chestonia chess with darts, every draw verified from the revealed seed; a kill -9 mid-game
// loses no acknowledged action.
#include <signal.h>

#include "engine/core/game.h"
#include "services/chance/fair_rng.h"
#include "tests/game_state_support.h"
#include "tools/arenactl/verify.h"

namespace arena::testing {
namespace {

bool Has(const char* game) {
  return engine::FindGame(game) != nullptr;
}

TEST(GameStatePlayTest, FullChessGameOverGrpcVerifies) {
  if (!Has("chess")) GTEST_SKIP() << "chess engine not on this branch yet";
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  auto t = h.NewTable("chess", 2, {}, {}, /*move_cap=*/300);
  std::mt19937 rng(7);
  int played = h.PlayRandom(t, 400, rng);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_FINISHED);
  EXPECT_GT(played, 0);
  EXPECT_EQ(v.action_number(), played);
  EXPECT_FALSE(v.outcome().reason().empty());
  // The seed is revealed and matches the commitment published at the start.
  std::string seed;
  ASSERT_TRUE(game_state::FromHex(v.revealed_seed(), &seed));
  EXPECT_EQ(game_state::FairDraw::Commitment(seed), v.seed_commitment());

  v1::GameRecord rec;
  ASSERT_TRUE(h.Record(t.id, &rec).ok());
  int actions = 0;
  for (const auto& e : rec.events()) actions += e.type() == "action";
  EXPECT_EQ(actions, played);
  auto report = arenactl::VerifyRecord(rec);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << report->problems.front();
  EXPECT_EQ(report->draws_checked, 1);  // the leader
  EXPECT_EQ(report->actions_replayed, played);
  // Every acknowledged action is in the log.
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.events WHERE type = 'action' AND game_id = '" +
                        t.id + "'"),
            played);

  // Chess exports PGN with the result.
  EXPECT_NE(rec.pgn().find("[Result \""), std::string::npos) << rec.pgn();
  EXPECT_NE(rec.pgn().find("1. "), std::string::npos) << rec.pgn();

  // A tampered record fails verification.
  v1::GameRecord bad = rec;
  for (auto& e : *bad.mutable_events()) {
    if (e.type() == "leader") {
      auto p = nlohmann::json::parse(e.detail_json());
      p["leader"] = 1 - p["leader"].get<int>();
      e.set_detail_json(p.dump());
    }
  }
  auto bad_report = arenactl::VerifyRecord(bad);
  ASSERT_TRUE(bad_report.ok());
  EXPECT_FALSE(bad_report->ok());
}

TEST(GameStatePlayTest, ThreePlayerChestoniaWithDartsVerifies) {
  if (!Has("chestonia-chess")) GTEST_SKIP() << "chestonia-chess engine not on this branch yet";
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  auto t = h.NewTable("chestonia-chess", 3, {},
                      {{"players", "3"}, {"board", "circles"}, {"darts", "on"}},
                      /*move_cap=*/120);
  std::mt19937 rng(11);
  int played = h.PlayRandom(t, 2000, rng);
  v1::GameView v;
  ASSERT_TRUE(h.Get(t.id, &v).ok());
  EXPECT_EQ(v.status(), v1::GAME_STATUS_FINISHED) << "after " << played << " actions";
  v1::GameRecord rec;
  ASSERT_TRUE(h.Record(t.id, &rec).ok());
  int chance = 0, aims = 0, scattered = 0;
  for (const auto& e : rec.events()) {
    chance += e.type() == "chance";
    aims += e.type() == "action" && e.action().rfind("aim ", 0) == 0;
    scattered += e.type() == "chance" && e.detail_json().find("\"hex-dart\"") != std::string::npos;
  }
  std::string sample;
  for (int i = 0; i + 1 < rec.events_size() && sample.empty(); ++i) {
    if (rec.events(i).action().rfind("aim ", 0) == 0) {
      sample = rec.events(i).action() + " -> " + rec.events(i + 1).action() + " " +
               rec.events(i + 1).detail_json();
    }
  }
  EXPECT_EQ(scattered, aims) << sample;  // every landing went through the engine's dart scatter
  EXPECT_GT(chance, 10);                 // dart-round draws every full round, and landings
  EXPECT_GT(aims, 0);
  EXPECT_EQ(rec.seat_seeds_size(), 3);
  EXPECT_EQ(rec.seat_seeds(2), "seed-of-seat-2");
  auto report = arenactl::VerifyRecord(rec);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok()) << report->problems.front();
  EXPECT_EQ(report->draws_checked, chance + 1);

  // A changed landing fails verification.
  v1::GameRecord bad = rec;
  for (auto& e : *bad.mutable_events()) {
    if (e.type() == "chance" && e.action().rfind("land ", 0) == 0) {
      e.set_action(e.action() == "land miss" ? "land 0,0" : "land miss");
      break;
    }
  }
  auto bad_report = arenactl::VerifyRecord(bad);
  ASSERT_TRUE(bad_report.ok());
  EXPECT_FALSE(bad_report->ok());
}

TEST(GameStatePlayTest, KillNineLosesNoAcknowledgedAction) {
  if (!Has("chess")) GTEST_SKIP() << "chess engine not on this branch yet";
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  v1::ClockSettings clock;
  clock.set_initial_ms(600000);
  clock.set_increment_ms(0);
  auto t = h.NewTable("chess", 2, clock);
  std::mt19937 rng(3);
  int played = h.PlayRandom(t, 12, rng);
  ASSERT_EQ(played, 12);
  v1::GameView before;
  ASSERT_TRUE(h.Get(t.id, &before).ok());
  h.server().process().Signal(SIGKILL);
  h.server().process().Wait(absl::Seconds(10));
  h.Start();
  ASSERT_TRUE(h.ok());
  v1::GameView after;
  ASSERT_TRUE(h.Get(t.id, &after).ok());
  EXPECT_EQ(after.action_number(), 12);
  EXPECT_EQ(after.position(), before.position());
  EXPECT_EQ(after.status(), v1::GAME_STATUS_ACTIVE);
  EXPECT_EQ(after.leader(), before.leader());
  // Clocks survive: the mover's time is what it was (plus the grace period), not reset.
  for (int s = 0; s < 2; ++s) {
    EXPECT_LE(after.seats(s).clock_remaining_ms(), 600000);
    EXPECT_GT(after.seats(s).clock_remaining_ms(), 500000);
  }
  // Credentials survive (only their hashes were stored) and play continues.
  played = h.PlayRandom(t, 6, rng);
  EXPECT_EQ(played, 6);
  ASSERT_TRUE(h.Get(t.id, &after).ok());
  EXPECT_EQ(after.action_number(), 18);
}

}  // namespace
}  // namespace arena::testing
