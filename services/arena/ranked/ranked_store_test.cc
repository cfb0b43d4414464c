// The durable ranked queue on a fresh PostgreSQL database: Join and Leave and their refusals,
// durability across a new pool (a restart), pairing passes that skip a queue another replica
// holds, the daily cap across a UTC midnight, and 200 simulated players queueing in two cities
// and three time controls while two threads (two replicas) pair the queues at once.
#include "services/arena/ranked/ranked_store.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <tuple>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/common/migrate.h"
#include "tests/support/test_database.h"

namespace arena::migrations {
const std::vector<arena::common::Migration>& ArenaMigrations();
}

namespace arena::ranked {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

const absl::TimeZone kUtc = absl::UTCTimeZone();
const absl::Time kNoon = absl::FromCivil(absl::CivilSecond(2026, 12, 4, 12, 0, 0), kUtc);
constexpr int64_t kCredit = 1'000'000;

class RankedStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.ok());
    auto report = common::ApplyMigrations(db_.url(), "arena", migrations::ArenaMigrations());
    ASSERT_TRUE(report.ok()) << report.status();
    Reconnect();
    ASSERT_TRUE(store_->PutCity({"tallinn", "Tallinn", 5 * kCredit, 500, true}).ok());
    ASSERT_TRUE(store_->PutCity({"tartu", "Tartu", 2 * kCredit, 250, true}).ok());
  }

  // A new pool and store on the same database: what an arena restart sees.
  void Reconnect() {
    store_.reset();
    pool_.reset();
    common::PgPool::Options options;
    options.size = 8;
    auto pool = common::PgPool::Create(db_.url(), options);
    ASSERT_TRUE(pool.ok()) << pool.status();
    pool_ = *std::move(pool);
    store_ = std::make_unique<RankedStore>(*pool_);
  }

  void Accounts(const std::vector<std::string>& ids, const std::string& role = "player") {
    pqxx::connection c(db_.url());
    pqxx::work w(c);
    for (const std::string& id : ids) {
      w.exec_params("INSERT INTO arena.accounts (account_id, name, role) VALUES ($1, $1, $2)", id,
                    role);
    }
    w.commit();
  }

  std::vector<std::string> WaitingIds(const std::string& city, TimeControl tc) {
    auto waiting = store_->Waiting(city, tc);
    EXPECT_TRUE(waiting.ok()) << waiting.status();
    std::vector<std::string> ids;
    if (waiting.ok()) {
      for (const QueueEntry& e : *waiting) ids.push_back(e.player_id);
    }
    return ids;
  }

  int64_t Count(const std::string& sql) {
    pqxx::connection c(db_.url());
    pqxx::work w(c);
    return w.exec1(sql)[0].as<int64_t>();
  }

  arena::testing::TestDatabase db_;
  std::unique_ptr<common::PgPool> pool_;
  std::unique_ptr<RankedStore> store_;
};

TEST_F(RankedStoreTest, JoinIsIdempotentAndKeepsTheFirstJoinTime) {
  Accounts({"u_ann"});
  // A Glicko-2 rating has every digit of a double; it is stored and read back exactly.
  const double rating = 1520.1234567890123;
  auto first = store_->Join("u_ann", "tallinn", TimeControl::k3Plus2, rating, kNoon);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(first->newly_queued);
  EXPECT_EQ(first->joined_at, kNoon);
  auto again =
      store_->Join("u_ann", "tallinn", TimeControl::k3Plus2, 1600, kNoon + absl::Seconds(30));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_FALSE(again->newly_queued);
  EXPECT_EQ(again->joined_at, kNoon);
  auto entry = store_->EntryOf("u_ann");
  ASSERT_TRUE(entry.ok() && entry->has_value());
  EXPECT_EQ((*entry)->joined_at, kNoon);
  EXPECT_EQ((*entry)->rating, rating);
  EXPECT_EQ((*entry)->time_control, TimeControl::k3Plus2);
  EXPECT_EQ(CurrentWindow(**entry, kNoon + absl::Seconds(30)), 175);
  EXPECT_THAT(WaitingIds("tallinn", TimeControl::k3Plus2), ::testing::ElementsAre("u_ann"));
}

TEST_F(RankedStoreTest, JoinRefusesWhatCanNeverOrNotYetWork) {
  Accounts({"u_ann"});
  Accounts({"guest-000000000001"}, "guest");
  ASSERT_TRUE(store_->PutCity({"narva", "Narva", kCredit, 0, false}).ok());
  auto code = [&](const std::string& player, const std::string& city, TimeControl tc,
                  double rating) {
    return store_->Join(player, city, tc, rating, kNoon).status().code();
  };
  EXPECT_EQ(code("u_ann", "paris", TimeControl::k5Plus0, 1500), absl::StatusCode::kNotFound);
  EXPECT_EQ(code("u_ann", "narva", TimeControl::k5Plus0, 1500),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(code("u_nobody", "tallinn", TimeControl::k5Plus0, 1500), absl::StatusCode::kNotFound);
  EXPECT_EQ(code("guest-000000000001", "tallinn", TimeControl::k5Plus0, 1500),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(code("u_ann", "tallinn", TimeControl::k5Plus0, std::nan("")),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code("u_ann", "tallinn", TimeControl::k5Plus0, HUGE_VAL),
            absl::StatusCode::kInvalidArgument);

  // Waiting in one queue, another queue (time control or city) is refused and changes nothing.
  ASSERT_TRUE(store_->Join("u_ann", "tallinn", TimeControl::k5Plus0, 1500, kNoon).ok());
  auto other = store_->Join("u_ann", "tallinn", TimeControl::k10Plus0, 1500, kNoon);
  EXPECT_EQ(other.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(other.status().message(), HasSubstr("already waiting in tallinn 5+0"));
  EXPECT_EQ(code("u_ann", "tartu", TimeControl::k5Plus0, 1500),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(WaitingIds("tallinn", TimeControl::k5Plus0), ::testing::ElementsAre("u_ann"));
  EXPECT_THAT(WaitingIds("tallinn", TimeControl::k10Plus0), IsEmpty());
  EXPECT_THAT(WaitingIds("tartu", TimeControl::k5Plus0), IsEmpty());
}

TEST_F(RankedStoreTest, LeaveIsInstantAndIdempotent) {
  Accounts({"u_ann"});
  auto left = store_->Leave("u_ann");
  ASSERT_TRUE(left.ok()) << left.status();
  EXPECT_FALSE(*left);  // never queued: fine
  EXPECT_FALSE(*store_->Leave("u_nobody"));
  ASSERT_TRUE(store_->Join("u_ann", "tartu", TimeControl::k10Plus0, 1500, kNoon).ok());
  EXPECT_TRUE(*store_->Leave("u_ann"));
  EXPECT_FALSE(*store_->Leave("u_ann"));
  EXPECT_THAT(WaitingIds("tartu", TimeControl::k10Plus0), IsEmpty());
  EXPECT_FALSE(store_->EntryOf("u_ann")->has_value());
  // Joining after leaving is a new wait, from the new time, and any queue may be chosen.
  auto rejoin =
      store_->Join("u_ann", "tallinn", TimeControl::k3Plus2, 1500, kNoon + absl::Minutes(1));
  ASSERT_TRUE(rejoin.ok());
  EXPECT_TRUE(rejoin->newly_queued);
  EXPECT_EQ(rejoin->joined_at, kNoon + absl::Minutes(1));
}

TEST_F(RankedStoreTest, ARestartLosesNobodysPlaceAndPairingMovesEntriesToPairings) {
  Accounts({"u_a", "u_b", "u_c"});
  ASSERT_TRUE(store_->Join("u_b", "tallinn", TimeControl::k5Plus0, 1580, kNoon).ok());
  ASSERT_TRUE(
      store_->Join("u_a", "tallinn", TimeControl::k5Plus0, 1500, kNoon + absl::Seconds(1)).ok());
  ASSERT_TRUE(
      store_->Join("u_c", "tallinn", TimeControl::k5Plus0, 1900, kNoon + absl::Seconds(2)).ok());
  Reconnect();
  EXPECT_THAT(WaitingIds("tallinn", TimeControl::k5Plus0),
              ::testing::ElementsAre("u_b", "u_a", "u_c"));

  auto pass = store_->PairOnce("tallinn", TimeControl::k5Plus0, kNoon + absl::Seconds(5));
  ASSERT_TRUE(pass.ok()) << pass.status();
  EXPECT_FALSE(pass->skipped);
  ASSERT_THAT(pass->pairings, SizeIs(1));
  const StoredPairing& p = pass->pairings[0];
  EXPECT_EQ(p.pairing.first.player_id, "u_b");  // waited longest
  EXPECT_EQ(p.pairing.second.player_id, "u_a");
  EXPECT_EQ(p.pairing.window, 100);
  EXPECT_EQ(p.stake, 5 * kCredit);
  EXPECT_EQ(p.fee_bps, 500);
  EXPECT_THAT(WaitingIds("tallinn", TimeControl::k5Plus0), ::testing::ElementsAre("u_c"));

  Reconnect();
  pqxx::connection c(db_.url());
  pqxx::work w(c);
  auto row = w.exec_params1(
      "SELECT player_a, player_b, rating_a, rating_b, state, stake, rating_window, "
      "(extract(epoch FROM joined_a) * 1000000)::bigint FROM arena.ranked_pairings "
      "WHERE pairing_id = $1",
      p.pairing_id);
  EXPECT_EQ(row[0].as<std::string>(), "u_a");  // stored in id order
  EXPECT_EQ(row[1].as<std::string>(), "u_b");
  EXPECT_EQ(row[2].as<double>(), 1500);
  EXPECT_EQ(row[3].as<double>(), 1580);
  EXPECT_EQ(row[4].as<std::string>(), "paired");
  EXPECT_EQ(row[5].as<int64_t>(), 5 * kCredit);
  EXPECT_EQ(row[6].as<int>(), 100);
  EXPECT_EQ(row[7].as<int64_t>(), absl::ToUnixMicros(kNoon + absl::Seconds(1)));
}

TEST_F(RankedStoreTest, APlayerInAnOpenPairingCannotQueueUntilItEnds) {
  Accounts({"u_a", "u_b"});
  ASSERT_TRUE(store_->Join("u_a", "tartu", TimeControl::k3Plus2, 1500, kNoon).ok());
  ASSERT_TRUE(store_->Join("u_b", "tartu", TimeControl::k3Plus2, 1500, kNoon).ok());
  auto pass = store_->PairOnce("tartu", TimeControl::k3Plus2, kNoon);
  ASSERT_TRUE(pass.ok());
  ASSERT_THAT(pass->pairings, SizeIs(1));
  const int64_t id = pass->pairings[0].pairing_id;

  auto join = store_->Join("u_a", "tallinn", TimeControl::k5Plus0, 1500, kNoon);
  EXPECT_EQ(join.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(join.status().message(), HasSubstr("already in a ranked game"));
  EXPECT_THAT(WaitingIds("tallinn", TimeControl::k5Plus0), IsEmpty());  // rolled back
  EXPECT_FALSE(*store_->Leave("u_a"));  // already paired: nothing to leave

  EXPECT_EQ(store_->EndPairing(id + 100, PairingEnd::kFinished).code(),
            absl::StatusCode::kNotFound);
  ASSERT_TRUE(store_->EndPairing(id, PairingEnd::kFinished).ok());
  EXPECT_TRUE(store_->EndPairing(id, PairingEnd::kFinished).ok());  // idempotent
  EXPECT_EQ(store_->EndPairing(id, PairingEnd::kAborted).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(store_->Join("u_a", "tallinn", TimeControl::k5Plus0, 1500, kNoon).ok());
}

TEST_F(RankedStoreTest, APassSkipsAQueueAnotherReplicaIsPairing) {
  Accounts({"u_a", "u_b"});
  ASSERT_TRUE(store_->Join("u_a", "tallinn", TimeControl::k10Plus0, 1500, kNoon).ok());
  ASSERT_TRUE(store_->Join("u_b", "tallinn", TimeControl::k10Plus0, 1500, kNoon).ok());
  {
    // Another replica's pass: it holds the queue's lock until its transaction ends.
    pqxx::connection c(db_.url());
    pqxx::work other(c);
    other.exec("SELECT pg_advisory_xact_lock(1380011595, hashtext('tallinn 10+0'))");
    auto pass = store_->PairOnce("tallinn", TimeControl::k10Plus0, kNoon);
    ASSERT_TRUE(pass.ok()) << pass.status();
    EXPECT_TRUE(pass->skipped);
    EXPECT_THAT(pass->pairings, IsEmpty());
    // Other queues are not held up.
    auto elsewhere = store_->PairOnce("tallinn", TimeControl::k5Plus0, kNoon);
    ASSERT_TRUE(elsewhere.ok());
    EXPECT_FALSE(elsewhere->skipped);
  }
  auto pass = store_->PairOnce("tallinn", TimeControl::k10Plus0, kNoon);
  ASSERT_TRUE(pass.ok());
  EXPECT_FALSE(pass->skipped);
  EXPECT_THAT(pass->pairings, SizeIs(1));
}

TEST_F(RankedStoreTest, CitiesAreValidatedAndAClosedCityPairsNobody) {
  EXPECT_EQ(store_->PutCity({"Paris", "Paris", kCredit, 0, true}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->PutCity({"paris", "", kCredit, 0, true}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->PutCity({"paris", "Paris", 0, 0, true}).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->PutCity({"paris", "Paris", kCredit, 10001, true}).code(),
            absl::StatusCode::kInvalidArgument);
  Accounts({"u_a", "u_b"});
  ASSERT_TRUE(store_->Join("u_a", "tartu", TimeControl::k5Plus0, 1500, kNoon).ok());
  ASSERT_TRUE(store_->Join("u_b", "tartu", TimeControl::k5Plus0, 1500, kNoon).ok());
  ASSERT_TRUE(store_->PutCity({"tartu", "Tartu", 3 * kCredit, 100, false}).ok());
  auto pass = store_->PairOnce("tartu", TimeControl::k5Plus0, kNoon);
  ASSERT_TRUE(pass.ok());
  EXPECT_THAT(pass->pairings, IsEmpty());
  EXPECT_EQ(store_->PairOnce("paris", TimeControl::k5Plus0, kNoon).status().code(),
            absl::StatusCode::kNotFound);
  ASSERT_TRUE(store_->PutCity({"tartu", "Tartu", 3 * kCredit, 100, true}).ok());
  pass = store_->PairOnce("tartu", TimeControl::k5Plus0, kNoon);
  ASSERT_TRUE(pass.ok());
  ASSERT_THAT(pass->pairings, SizeIs(1));
  EXPECT_EQ(pass->pairings[0].stake, 3 * kCredit);  // the city's terms when paired
  auto cities = store_->Cities();
  ASSERT_TRUE(cities.ok());
  ASSERT_THAT(*cities, SizeIs(2));
  EXPECT_EQ((*cities)[1].city_id, "tartu");
  EXPECT_EQ((*cities)[1].stake, 3 * kCredit);
  EXPECT_EQ((*cities)[1].fee_bps, 100);
}

// Six money games a UTC day, aborted games not counted, and a new day starts the count again.
TEST_F(RankedStoreTest, TwoPlayersMeetAtMostSixTimesForMoneyEachUtcDay) {
  Accounts({"u_a", "u_b"});
  const absl::Time late = absl::FromCivil(absl::CivilSecond(2026, 12, 4, 23, 50, 0), kUtc);
  auto play = [&](absl::Time t, std::optional<PairingEnd> end) -> bool {
    EXPECT_TRUE(store_->Join("u_a", "tallinn", TimeControl::k3Plus2, 1500, t).ok());
    EXPECT_TRUE(store_->Join("u_b", "tallinn", TimeControl::k3Plus2, 1510, t).ok());
    auto pass = store_->PairOnce("tallinn", TimeControl::k3Plus2, t + absl::Seconds(1));
    EXPECT_TRUE(pass.ok()) << pass.status();
    if (!pass.ok() || pass->pairings.empty()) return false;
    if (end) {
      EXPECT_TRUE(store_->EndPairing(pass->pairings[0].pairing_id, *end).ok());
    }
    return true;
  };
  for (int game = 0; game < 6; ++game) {
    const absl::Time t = late + absl::Seconds(10 * game);
    ASSERT_TRUE(play(t, game == 2 ? PairingEnd::kAborted : PairingEnd::kFinished)) << game;
  }
  EXPECT_EQ(*store_->MoneyGamesToday("u_b", "u_a", late), 5);  // the aborted one does not count
  ASSERT_TRUE(play(late + absl::Seconds(60), PairingEnd::kFinished));
  EXPECT_EQ(*store_->MoneyGamesToday("u_a", "u_b", late), 6);
  EXPECT_FALSE(play(late + absl::Seconds(70), std::nullopt));  // the seventh: not today
  auto pass = store_->PairOnce("tallinn", TimeControl::k3Plus2, late + absl::Minutes(9));
  ASSERT_TRUE(pass.ok());
  EXPECT_THAT(pass->pairings, IsEmpty());  // 23:59, both still waiting, still not
  EXPECT_THAT(WaitingIds("tallinn", TimeControl::k3Plus2), SizeIs(2));
  const absl::Time next_day = absl::FromCivil(absl::CivilSecond(2026, 12, 5, 0, 0, 1), kUtc);
  pass = store_->PairOnce("tallinn", TimeControl::k3Plus2, next_day);
  ASSERT_TRUE(pass.ok());
  EXPECT_THAT(pass->pairings, SizeIs(1));
  EXPECT_EQ(*store_->MoneyGamesToday("u_a", "u_b", next_day), 1);
  EXPECT_EQ(*store_->MoneyGamesToday("u_a", "u_b", late), 6);
}

// 200 players in two cities and three time controls join, re-join, leave and play (their
// pairings end 15 simulated seconds after they are made, a tenth of them aborted) for 60
// rounds of 5 simulated seconds, while two threads standing in for two arena replicas run
// pairing passes over every queue at once. Ratings are spread over 1500 points and an idle
// player joins in one round of eight, so queues are thin and windows have to widen. Two
// players ("twins", rated far above everyone else in one queue) can only ever meet each
// other, and rejoin as soon as their game ends.
TEST_F(RankedStoreTest, TwoHundredPlayersTwoReplicas) {
  struct Home {
    std::string city;
    TimeControl tc;
  };
  const std::vector<Home> queues = {
      {"tallinn", TimeControl::k3Plus2},  {"tallinn", TimeControl::k5Plus0},
      {"tallinn", TimeControl::k10Plus0}, {"tartu", TimeControl::k3Plus2},
      {"tartu", TimeControl::k5Plus0},    {"tartu", TimeControl::k10Plus0}};
  constexpr int kPlayers = 200;
  constexpr int kRounds = 60;
  const absl::Duration kRound = absl::Seconds(5);
  const absl::Duration kGameLength = absl::Seconds(15);
  std::mt19937 rng(26);
  std::vector<std::string> ids;
  std::map<std::string, Home> home;
  std::map<std::string, double> rating;
  for (int i = 0; i < kPlayers; ++i) {
    char id[16];
    std::snprintf(id, sizeof id, "u_p%03d", i);
    ids.push_back(id);
    home[id] = queues[i % queues.size()];
    rating[id] = 800 + static_cast<double>(rng() % 1500);  // thin queues: windows must widen
  }
  const std::string twin_a = ids[198], twin_b = ids[199];
  home[twin_a] = home[twin_b] = {"tallinn", TimeControl::k5Plus0};
  rating[twin_a] = 2600;
  rating[twin_b] = 2601;
  Accounts(ids);

  // The simulated clock, shared by the "replicas" (each reads it when its pass starts).
  std::atomic<int64_t> now_us{absl::ToUnixMicros(kNoon)};
  auto now = [&] { return absl::FromUnixMicros(now_us.load()); };
  std::atomic<bool> stop{false};
  std::atomic<int> passes_done[2] = {0, 0};
  std::atomic<int> skipped{0};
  std::atomic<int> pass_errors{0};
  std::mutex reported_mu;
  std::set<int64_t> reported;  // pairing ids the passes returned
  auto replica = [&](int which) {
    while (!stop.load()) {
      for (size_t k = 0; k < queues.size(); ++k) {
        const Home& q = queues[which == 0 ? k : queues.size() - 1 - k];
        auto pass = store_->PairOnce(q.city, q.tc, now());
        if (!pass.ok()) {
          ADD_FAILURE() << pass.status();
          ++pass_errors;
          continue;
        }
        if (pass->skipped) ++skipped;
        std::lock_guard<std::mutex> lock(reported_mu);
        for (const StoredPairing& p : pass->pairings) {
          EXPECT_TRUE(reported.insert(p.pairing_id).second) << "pairing reported twice";
        }
      }
      ++passes_done[which];
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  std::thread replica_0(replica, 0), replica_1(replica, 1);

  int64_t new_entries = 0, left_entries = 0, refused_rejoins = 0;
  pqxx::connection c(db_.url());
  for (int round = 0; round < kRounds; ++round) {
    now_us += absl::ToInt64Microseconds(kRound);
    // Games end kGameLength after their pairing.
    std::vector<std::pair<int64_t, bool>> ending;  // id, twins
    {
      pqxx::work w(c);
      for (const auto& row : w.exec_params(
               "SELECT pairing_id, player_a = $2 OR player_b = $2 FROM arena.ranked_pairings "
               "WHERE state = 'paired' AND paired_at <= 'epoch'::timestamptz + "
               "$1 * interval '1 microsecond' ORDER BY pairing_id",
               absl::ToUnixMicros(now() - kGameLength), twin_a)) {
        ending.push_back({row[0].as<int64_t>(), row[1].as<bool>()});
      }
    }
    for (const auto& [id, twins] : ending) {
      const bool abort = !twins && rng() % 10 == 0;
      ASSERT_TRUE(
          store_->EndPairing(id, abort ? PairingEnd::kAborted : PairingEnd::kFinished).ok());
    }
    // Who is waiting and who is playing, in one snapshot.
    std::set<std::string> queued, playing;
    {
      pqxx::work w(c);
      for (const auto& row : w.exec(
               "SELECT player_id, true FROM arena.ranked_queue UNION ALL "
               "SELECT player_a, false FROM arena.ranked_pairings WHERE state = 'paired' UNION ALL "
               "SELECT player_b, false FROM arena.ranked_pairings WHERE state = 'paired'")) {
        (row[1].as<bool>() ? queued : playing).insert(row[0].as<std::string>());
      }
    }
    for (const std::string& id : ids) {
      const bool twin = id == twin_a || id == twin_b;
      const Home& h = home[id];
      if (playing.count(id)) continue;
      if (!queued.count(id)) {
        if (!twin && rng() % 8 != 0) continue;
        auto join = store_->Join(id, h.city, h.tc, rating[id], now());
        ASSERT_TRUE(join.ok()) << id << ": " << join.status();
        EXPECT_TRUE(join->newly_queued) << id;
        ++new_entries;
        continue;
      }
      if (twin) continue;
      const unsigned dice = rng() % 100;
      if (dice < 5) {
        auto left = store_->Leave(id);  // false when a replica paired them meanwhile
        ASSERT_TRUE(left.ok()) << left.status();
        left_entries += *left;
      } else if (dice < 20) {
        // Joining again while waiting: the same entry, unless a replica paired them meanwhile.
        auto join = store_->Join(id, h.city, h.tc, rating[id], now());
        if (join.ok()) {
          EXPECT_FALSE(join->newly_queued) << id << " was queued twice";
        } else {
          EXPECT_EQ(join.status().code(), absl::StatusCode::kFailedPrecondition) << join.status();
          ++refused_rejoins;
        }
      }
    }
    // Let each replica finish a pass that began after this round's changes.
    const int target_0 = passes_done[0].load() + 2, target_1 = passes_done[1].load() + 2;
    while (passes_done[0].load() < target_0 || passes_done[1].load() < target_1) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  stop = true;
  replica_0.join();
  replica_1.join();
  ASSERT_EQ(pass_errors.load(), 0);

  // A last pass when everyone's window is at its widest: whoever is still waiting then has
  // nobody they could be paired with.
  const absl::Time last = now() + absl::Minutes(10);
  for (const Home& q : queues) {
    auto pass = store_->PairOnce(q.city, q.tc, last);
    ASSERT_TRUE(pass.ok()) << pass.status();
    for (const StoredPairing& p : pass->pairings) reported.insert(p.pairing_id);
  }

  // Every pairing, as stored.
  struct Row {
    int64_t id;
    std::string city, tc, a, b, state;
    double rating_a, rating_b;
    absl::Time joined_a, joined_b, paired_at;
    int window;
    int64_t stake, recorded_us, ended_us;
  };
  std::vector<Row> rows;
  {
    pqxx::work w(c);
    for (const auto& r :
         w.exec("SELECT pairing_id, city_id, time_control, player_a, player_b, state, rating_a, "
                "rating_b, (extract(epoch FROM joined_a) * 1000000)::bigint, "
                "(extract(epoch FROM joined_b) * 1000000)::bigint, "
                "(extract(epoch FROM paired_at) * 1000000)::bigint, rating_window, stake, "
                "(extract(epoch FROM recorded_at) * 1000000)::bigint, "
                "coalesce((extract(epoch FROM ended_at) * 1000000)::bigint, -1) "
                "FROM arena.ranked_pairings ORDER BY pairing_id")) {
      rows.push_back(
          {r[0].as<int64_t>(), r[1].as<std::string>(), r[2].as<std::string>(),
           r[3].as<std::string>(), r[4].as<std::string>(), r[5].as<std::string>(),
           r[6].as<double>(), r[7].as<double>(), absl::FromUnixMicros(r[8].as<int64_t>()),
           absl::FromUnixMicros(r[9].as<int64_t>()), absl::FromUnixMicros(r[10].as<int64_t>()),
           r[11].as<int>(), r[12].as<int64_t>(), r[13].as<int64_t>(), r[14].as<int64_t>()});
    }
  }
  ASSERT_GT(rows.size(), 200u);
  EXPECT_EQ(reported.size(), rows.size()) << "a pass reported a pairing that is not stored";

  std::map<std::string, std::vector<const Row*>> by_player;
  std::map<std::tuple<std::string, std::string, absl::CivilDay>, int> money_games;
  std::vector<absl::Duration> waits;
  std::map<int, int> by_window;  // pairings made at each window
  for (const Row& r : rows) {
    ++by_window[r.window];
    // Same city and time control: each player only ever joined their home queue.
    for (const std::string& p : {r.a, r.b}) {
      EXPECT_EQ(home[p].city, r.city) << r.id;
      EXPECT_EQ(TimeControlName(home[p].tc), r.tc) << r.id;
      by_player[p].push_back(&r);
    }
    EXPECT_EQ(r.stake, r.city == "tallinn" ? 5 * kCredit : 2 * kCredit);
    // The window at the moment the pairing was made, recomputed here.
    const int window =
        std::min(RatingWindow(r.paired_at - r.joined_a), RatingWindow(r.paired_at - r.joined_b));
    EXPECT_EQ(r.window, window) << r.id;
    EXPECT_LE(std::abs(r.rating_a - r.rating_b), window) << r.id;
    EXPECT_EQ(r.rating_a, rating[r.a]);
    EXPECT_EQ(r.rating_b, rating[r.b]);
    if (r.state != "aborted") ++money_games[{r.a, r.b, absl::ToCivilDay(r.paired_at, kUtc)}];
    waits.push_back(r.paired_at - r.joined_a);
    waits.push_back(r.paired_at - r.joined_b);
  }
  int pairs_at_cap = 0;
  for (const auto& [pair_day, count] : money_games) {
    EXPECT_LE(count, kMaxMoneyGamesPerPairPerDay)
        << std::get<0>(pair_day) << " and " << std::get<1>(pair_day);
    pairs_at_cap += count == kMaxMoneyGamesPerPairPerDay;
  }
  // The simulation reaches the widened windows, not only the first one.
  EXPECT_GT(rows.size(), static_cast<size_t>(by_window[kInitialWindow]));
  // The twins met exactly six times and are waiting for each other still.
  EXPECT_EQ((money_games[{twin_a, twin_b, absl::ToCivilDay(kNoon, kUtc)}]), 6);
  EXPECT_THAT(WaitingIds("tallinn", TimeControl::k5Plus0),
              ::testing::IsSupersetOf({twin_a, twin_b}));

  // Nobody is in two games at once: each player's pairings, in the order they were written,
  // each ended before the next was made (by the database's clock), and at most the last open.
  for (auto& [player, list] : by_player) {
    std::sort(list.begin(), list.end(),
              [](const Row* x, const Row* y) { return x->recorded_us < y->recorded_us; });
    for (size_t k = 0; k + 1 < list.size(); ++k) {
      ASSERT_NE(list[k]->ended_us, -1) << player << " in two open pairings";
      EXPECT_LT(list[k]->ended_us, list[k + 1]->recorded_us) << player;
    }
  }

  // Nobody is lost: every entry that joined either left, was paired, or is still waiting.
  const int64_t still_waiting = Count("SELECT count(*) FROM arena.ranked_queue");
  EXPECT_EQ(new_entries, left_entries + 2 * static_cast<int64_t>(rows.size()) + still_waiting);

  // And whoever still waits has nobody acceptable beside them, even at the widest window.
  for (const Home& q : queues) {
    auto waiting = store_->Waiting(q.city, q.tc);
    ASSERT_TRUE(waiting.ok());
    for (const QueueEntry& x : *waiting) {
      for (const QueueEntry& y : *waiting) {
        if (x.player_id >= y.player_id) continue;
        EXPECT_FALSE(
            Acceptable(x, y, last, *store_->MoneyGamesToday(x.player_id, y.player_id, last)))
            << x.player_id << " and " << y.player_id << " were left waiting";
      }
    }
  }

  std::sort(waits.begin(), waits.end());
  std::string windows;
  for (const auto& [window, count] : by_window) {
    windows += " ±" + std::to_string(window) + ":" + std::to_string(count);
  }
  std::printf("pairings by window:%s; pairs that met 6 times in the day: %d\n", windows.c_str(),
              pairs_at_cap);
  std::printf(
      "ranked simulation: %zu pairings (%d passes skipped: the queue was held by the other "
      "replica), %lld entries joined, %lld left, %lld re-joins refused while paired, %lld still "
      "waiting; simulated wait median %s, p99 %s\n",
      rows.size(), skipped.load(), static_cast<long long>(new_entries),
      static_cast<long long>(left_entries), static_cast<long long>(refused_rejoins),
      static_cast<long long>(still_waiting), absl::FormatDuration(waits[waits.size() / 2]).c_str(),
      absl::FormatDuration(waits[waits.size() * 99 / 100]).c_str());
}

}  // namespace
}  // namespace arena::ranked
