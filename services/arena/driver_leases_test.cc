// Leases of driven tables among arena replicas, on a fresh PostgreSQL database: claims never
// overlap (also from threads claiming at once), a live lease is respected and an expired one
// taken with a new epoch, the loser learns it from its renewal and is fenced off, a released
// lease is free at once, a sole replica takes what a dead predecessor held, and a row under a
// fenced write is skipped, not waited for.
#include "services/arena/driver_leases.h"

#include <algorithm>
#include <map>
#include <set>
#include <thread>

#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/common/migrate.h"
#include "tests/support/test_database.h"

namespace arena::migrations {
const std::vector<arena::common::Migration>& ArenaMigrations();
}

namespace arena::service {
namespace {

class DriverLeasesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.ok());
    auto report = common::ApplyMigrations(db_.url(), "arena", migrations::ArenaMigrations());
    ASSERT_TRUE(report.ok()) << report.status();
    common::PgPool::Options options;
    options.size = 6;
    options.schema = "arena";
    auto pool = common::PgPool::Create(db_.url(), options);
    ASSERT_TRUE(pool.ok()) << pool.status();
    pool_ = *std::move(pool);
  }

  void AddTables(int n, const std::string& state = "active") {
    pqxx::connection c(db_.url());
    pqxx::work w(c);
    for (int i = 0; i < n; ++i) {
      w.exec_params(
          "INSERT INTO arena.driven_tables (game_id, engine_game, settings_json, policy_json, "
          "state) VALUES ($1, 'chess', '{}', '{}', $2)",
          "g" + std::to_string(next_++), state);
    }
    w.commit();
  }

  // A connection of its own, as another replica's would be.
  std::unique_ptr<pqxx::connection> Connect() {
    auto c = std::make_unique<pqxx::connection>(db_.url());
    pqxx::nontransaction n(*c);
    n.exec("SET search_path TO arena, public");
    return c;
  }

  DriverLeases Replica(const std::string& id, absl::Duration ttl = absl::Seconds(10),
                       bool sole = false) {
    return DriverLeases(*pool_, DriverLeaseOptions{id, sole, ttl});
  }

  testing::TestDatabase db_;
  std::unique_ptr<common::PgPool> pool_;
  int next_ = 0;
};

std::set<std::string> Games(const std::vector<HeldLease>& leases) {
  std::set<std::string> out;
  for (const auto& l : leases) out.insert(l.first);
  return out;
}

TEST_F(DriverLeasesTest, ReplicasClaimDisjointBatchesAndNeverAFinishedTable) {
  AddTables(10);
  AddTables(2, "finished");
  DriverLeases a = Replica("a"), b = Replica("b");
  auto first = a.ClaimOrphans(4, {});
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->size(), 4u);
  auto rest = b.ClaimOrphans(100, {});
  ASSERT_TRUE(rest.ok()) << rest.status();
  EXPECT_EQ(rest->size(), 6u);
  std::set<std::string> all = Games(*first);
  for (const auto& g : Games(*rest)) EXPECT_TRUE(all.insert(g).second) << g << " claimed twice";
  EXPECT_EQ(all.size(), 10u);
  for (const auto& l : *first) EXPECT_EQ(l.second, 1) << "a first claim is epoch 1";
  auto none = a.ClaimOrphans(100, *first);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty()) << "live leases are left to their holders";
}

TEST_F(DriverLeasesTest, AnExpiredLeaseIsTakenWithANewEpochAndTheLoserIsFencedOff) {
  AddTables(1);
  DriverLeases a = Replica("a", absl::Milliseconds(300)), b = Replica("b");
  auto ea = a.Claim("g0");
  ASSERT_TRUE(ea.ok() && ea->has_value());
  auto refused = b.Claim("g0");
  ASSERT_TRUE(refused.ok());
  EXPECT_FALSE(refused->has_value()) << "a's lease is live";
  // a renews in time: still held.
  auto lost = a.Renew({{"g0", **ea}});
  ASSERT_TRUE(lost.ok());
  EXPECT_TRUE(lost->empty());

  absl::SleepFor(absl::Milliseconds(400));  // a stops renewing: it hung, or died
  auto eb = b.Claim("g0");
  ASSERT_TRUE(eb.ok() && eb->has_value());
  EXPECT_EQ(**eb, **ea + 1);
  lost = a.Renew({{"g0", **ea}});
  ASSERT_TRUE(lost.ok());
  EXPECT_EQ(*lost, std::vector<std::string>{"g0"});

  auto c = Connect();
  {
    pqxx::work w(*c);
    absl::Status fenced = DriverLeases::Fence(w, "g0", "a", **ea);
    EXPECT_TRUE(absl::IsFailedPrecondition(fenced)) << fenced;
    EXPECT_TRUE(DriverLeases::Fence(w, "g0", "b", **eb).ok());
    EXPECT_TRUE(absl::IsFailedPrecondition(DriverLeases::Fence(w, "g0", "b", **ea)))
        << "the epoch, not only the name, is the token";
    EXPECT_TRUE(absl::IsFailedPrecondition(DriverLeases::Fence(w, "nope", "b", 1)));
  }
}

TEST_F(DriverLeasesTest, AReleasedLeaseIsFreeAtOnce) {
  AddTables(3);
  DriverLeases a = Replica("a"), b = Replica("b");
  auto held = a.ClaimOrphans(10, {});
  ASSERT_TRUE(held.ok());
  ASSERT_EQ(held->size(), 3u);
  ASSERT_TRUE(a.Release(*held).ok());
  auto taken = b.ClaimOrphans(10, {});
  ASSERT_TRUE(taken.ok());
  EXPECT_EQ(Games(*taken), Games(*held));
  for (const auto& l : *taken) EXPECT_EQ(l.second, 2);
}

TEST_F(DriverLeasesTest, ASoleReplicaTakesWhatAKilledPredecessorHeld) {
  AddTables(2);
  DriverLeases dead = Replica("arena-old");
  ASSERT_TRUE(dead.ClaimOrphans(10, {}).ok());
  DriverLeases shared = Replica("other");
  auto nothing = shared.ClaimOrphans(10, {});
  ASSERT_TRUE(nothing.ok());
  EXPECT_TRUE(nothing->empty());
  DriverLeases sole = Replica("arena-new", absl::Seconds(10), /*sole=*/true);
  auto all = sole.ClaimOrphans(10, {});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 2u);
  // ...but not again what it holds itself.
  auto again = sole.ClaimOrphans(10, *all);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->empty());
}

TEST_F(DriverLeasesTest, ARowUnderAFencedWriteIsSkippedNotWaitedFor) {
  AddTables(2);
  DriverLeases a = Replica("a", absl::Milliseconds(200)), b = Replica("b");
  auto held = a.ClaimOrphans(10, {});
  ASSERT_TRUE(held.ok());
  ASSERT_EQ(held->size(), 2u);
  absl::SleepFor(absl::Milliseconds(300));  // both expired

  auto c = Connect();
  pqxx::work w(*c);
  const auto& [game, epoch] = (*held)[0];
  ASSERT_TRUE(DriverLeases::Fence(w, game, "a", epoch).ok());  // a's write in flight
  auto taken = b.ClaimOrphans(10, {});
  ASSERT_TRUE(taken.ok()) << taken.status();
  ASSERT_EQ(taken->size(), 1u) << "the fenced row is skipped";
  EXPECT_EQ((*taken)[0].first, (*held)[1].first);
  w.commit();
  taken = b.ClaimOrphans(10, *taken);
  ASSERT_TRUE(taken.ok());
  ASSERT_EQ(taken->size(), 1u);
  EXPECT_EQ((*taken)[0].first, game);
}

TEST_F(DriverLeasesTest, ReplicasAliveShareTheTablesAndAStoppedOneLeavesItsShare) {
  AddTables(12);
  DriverLeases a = Replica("a"), b = Replica("b"), c = Replica("c");
  for (DriverLeases* r : {&a, &b, &c}) ASSERT_TRUE(r->Heartbeat().ok());
  std::map<std::string, std::vector<HeldLease>> held;
  for (auto [name, r] : {std::pair{"a", &a}, {"b", &b}, {"c", &c}}) {
    auto got = r->ClaimOrphans(100, {});
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(got->size(), 4u) << name << " claims a third of 12";
    held[name] = *got;
  }
  // A new table: its maker drives it while under its share (ceil(13 / 3) = 5) ...
  AddTables(1);
  auto mine = a.Claim("g12", /*within_share=*/true);
  ASSERT_TRUE(mine.ok() && mine->has_value());
  // ... but not past it; another replica's pass takes the next one.
  AddTables(1);
  auto full = a.Claim("g13", /*within_share=*/true);
  ASSERT_TRUE(full.ok());
  EXPECT_FALSE(full->has_value()) << "a is at its share";
  auto other = b.ClaimOrphans(100, held["b"]);
  ASSERT_TRUE(other.ok());
  ASSERT_EQ(other->size(), 1u);
  EXPECT_EQ((*other)[0].first, "g13");
  // c stops: its tables are free and the two left split them (ceil(14 / 2) = 7 each).
  ASSERT_TRUE(c.Release(held["c"]).ok());
  auto to_a = a.ClaimOrphans(100, {});
  ASSERT_TRUE(to_a.ok());
  EXPECT_EQ(to_a->size(), 2u) << "a holds 5 of its 7";
  auto to_b = b.ClaimOrphans(100, {});
  ASSERT_TRUE(to_b.ok());
  EXPECT_EQ(to_b->size(), 2u) << "b holds 5 of its 7";
}

TEST_F(DriverLeasesTest, ManyReplicasClaimingAtOnceTakeEveryTableExactlyOnce) {
  AddTables(120);
  constexpr int kReplicas = 4;
  std::vector<std::vector<HeldLease>> got(kReplicas);
  std::vector<std::thread> threads;
  for (int r = 0; r < kReplicas; ++r) {
    threads.emplace_back([&, r] {
      DriverLeases mine = Replica("r" + std::to_string(r));
      for (int pass = 0; pass < 60; ++pass) {
        auto claimed = mine.ClaimOrphans(3, got[r]);
        if (!claimed.ok()) continue;
        got[r].insert(got[r].end(), claimed->begin(), claimed->end());
      }
    });
  }
  for (auto& t : threads) t.join();
  std::set<std::string> all;
  size_t total = 0;
  for (const auto& g : got) {
    total += g.size();
    for (const auto& l : g) all.insert(l.first);
  }
  EXPECT_EQ(all.size(), 120u);
  EXPECT_EQ(total, 120u) << "a table was claimed by two replicas";
  pqxx::connection c(db_.url());
  pqxx::work w(c);
  EXPECT_EQ(
      w.exec("SELECT count(*) FROM arena.driven_tables WHERE driver_epoch <> 1")[0][0].as<int>(),
      0);
}

}  // namespace
}  // namespace arena::service
