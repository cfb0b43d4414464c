// ranked_queue_bench: how long players wait in the ranked matchmaking queue (issue 26) at a
// stated arrival rate, and what a pairing pass costs.
//
//   ranked_queue_bench [--database_url=postgresql://...] [--rate=0.5 | --rates=0.1,0.5,2]
//                      [--cities=1] [--players_per_queue=N] [--hours=2] [--seed=26] ...
//
// The queue, the pairing passes and the pairings are the real arena::ranked::RankedStore on a
// real PostgreSQL: a throwaway database made in the cluster of --database_url (or
// ARENA_DATABASE_URL, else ARENA_TEST_DATABASE_URL; its role must be allowed to CREATE
// DATABASE), migrated with arena's own migrations, and dropped at the end, one per rate. Only
// the clock is simulated: RankedStore takes `now` from its caller, so two hours of queueing
// run in about a minute, and every wait is measured in simulated seconds from what the store
// answered (paired_at - joined_at of each stored pairing).
//
// The model, per queue (city x time control):
//   - a population of --players_per_queue accounts (by default sized from the rate so that an
//     arrival nearly always finds an idle player: see AutoPopulation), ratings drawn once
//     from N(--rating_mean, --rating_sd);
//   - fresh arrivals are a Poisson process at --rate players per second: each one is a random
//     idle player of the population joining at that instant (none idle: the arrival is lost
//     and counted);
//   - a pairing pass (PairOnce) over every queue each simulated --tick_s, as arena's ranked
//     loop does every second (services/arena/ranked_play.h);
//   - a paired player's game lasts --game_minutes; then the pairing is ended as finished and
//     each player queues again with probability --return_prob, within --return_delay_s, so
//     the same two players often wait side by side again: rematches, and the daily cap of 6
//     money games per pair, happen as they would;
//   - a player still waiting after --patience_minutes leaves (Leave), as people give up.
// Simulated time starts at 08:00 UTC, so the default two hours stay in one UTC day. The
// queues do not interact (a player belongs to one), so more --cities only add samples.
//
// Printed per rate: joins, pairings, the median, p90, p99 and max time in queue of the paired
// players (simulated seconds), the share paired at their first window (±100, the first 10 s)
// and after it widened, who gave up, pairs that reached the cap, the queue lengths the passes
// saw, and the real time each PairOnce took (median, p99, max ms): the figure the simulated
// clock does not change.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <queue>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "common/config.h"
#include "common/log.h"
#include "pqxx/pqxx"
#include "services/arena/ranked/matchmaker.h"
#include "services/arena/ranked/ranked_store.h"
#include "services/arena/ranked/time_control.h"
#include "services/common/migrate.h"
#include "services/common/pg_pool.h"

namespace arena::migrations {
const std::vector<arena::common::Migration>& ArenaMigrations();
}

ABSL_FLAG(std::string, database_url, "",
          "PostgreSQL cluster whose role may create databases (or ARENA_DATABASE_URL; empty: "
          "ARENA_TEST_DATABASE_URL); a throwaway database is made and dropped in it per rate");
ABSL_FLAG(double, rate, 0.5, "fresh arrivals per second per queue (Poisson)");
ABSL_FLAG(std::string, rates, "",
          "several arrival rates, comma-separated (0.1,0.5,2): one run each; overrides --rate");
ABSL_FLAG(int, cities, 1, "cities; each has the three time controls' queues");
ABSL_FLAG(int, players_per_queue, 0,
          "accounts per queue, reused as they come and go (0: 4 x the players the rate keeps "
          "busy, rate x game length / (1 - return_prob), at least 100)");
ABSL_FLAG(double, hours, 2, "simulated time");
ABSL_FLAG(double, tick_s, 1, "simulated seconds between pairing passes (arena's tick is 1 s)");
ABSL_FLAG(double, rating_mean, 1500, "mean of the players' ratings");
ABSL_FLAG(double, rating_sd, 350, "standard deviation of the players' ratings");
ABSL_FLAG(double, game_minutes, 10, "simulated length of a ranked game");
ABSL_FLAG(double, return_prob, 0.5, "chance a player queues again after a game");
ABSL_FLAG(double, return_delay_s, 30, "a returning player joins within this many seconds");
ABSL_FLAG(double, patience_minutes, 10,
          "a player waiting this long leaves the queue (0: nobody leaves)");
ABSL_FLAG(int, seed, 26, "random seed (ratings, arrivals, returns)");

namespace {

namespace common = arena::common;
namespace migrations = arena::migrations;
namespace ranked = arena::ranked;
using arena::ranked::kTimeControls;
using arena::ranked::RankedStore;
using arena::ranked::RatingWindow;
using arena::ranked::StoredPairing;
using arena::ranked::TimeControl;
using Clock = std::chrono::steady_clock;

// The cluster URL with its database name replaced (as tests/support/test_database.cc does; that
// library brings gtest along, so the few lines are repeated here).
std::string WithDatabase(const std::string& url, const std::string& dbname) {
  size_t scheme = url.find("://");
  size_t slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  size_t query = url.find('?');
  if (slash == std::string::npos) {
    return query == std::string::npos ? url + "/" + dbname
                                      : url.substr(0, query) + "/" + dbname + url.substr(query);
  }
  std::string tail = query == std::string::npos ? "" : url.substr(query);
  return url.substr(0, slash + 1) + dbname + tail;
}

// A database of its own in the cluster, dropped when this goes out of scope, like the tests'
// TestDatabase: the run never touches a database somebody uses, and leaves nothing behind.
class ThrowawayDatabase {
 public:
  static absl::StatusOr<std::unique_ptr<ThrowawayDatabase>> Create(const std::string& admin_url) {
    std::random_device rd;
    auto db = std::unique_ptr<ThrowawayDatabase>(new ThrowawayDatabase());
    db->admin_url_ = admin_url;
    db->name_ = absl::StrCat("ranked_queue_bench_", getpid(), "_", rd() % 1000000);
    try {
      pqxx::connection c(admin_url);
      pqxx::nontransaction n(c);
      n.exec("CREATE DATABASE " + db->name_);
    } catch (const std::exception& e) {
      return absl::UnavailableError(absl::StrCat("cannot create a database: ", e.what()));
    }
    db->url_ = WithDatabase(admin_url, db->name_);
    return db;
  }
  ~ThrowawayDatabase() {
    if (url_.empty()) return;  // never created
    try {
      pqxx::connection c(admin_url_);
      pqxx::nontransaction n(c);
      n.exec("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ranked_queue_bench: could not drop database %s: %s\n", name_.c_str(),
                   e.what());
    }
  }
  const std::string& url() const { return url_; }

 private:
  ThrowawayDatabase() = default;
  std::string admin_url_, name_, url_;
};

struct Params {
  double rate = 0;  // fresh arrivals per second per queue
  int cities = 0;
  int players_per_queue = 0;
  double seconds = 0;
  double tick_s = 1;
  double rating_mean = 0, rating_sd = 0;
  double game_s = 0;
  double return_prob = 0, return_delay_s = 0;
  double patience_s = 0;  // 0: forever
  int seed = 0;
};

// What one run measured.
struct Figures {
  double rate = 0;
  int queues = 0, players = 0;
  int64_t fresh_joins = 0, return_joins = 0, lost_arrivals = 0;
  int64_t pairings = 0, rematches = 0, capped_pairs = 0;
  int64_t gave_up = 0, still_waiting = 0;
  std::vector<double> waits;            // simulated seconds, one per paired player
  std::map<int, int64_t> windows;       // a paired player's own window when paired -> count
  std::vector<double> gaps;             // rating gap of each pairing
  std::vector<double> pass_ms;          // real time of each PairOnce
  std::vector<double> pairing_pass_ms;  // ... of those that made at least one pairing
  int64_t queue_len_sum = 0, max_queue_len = 0, passes = 0;
  double wall_s = 0;
};

// Nearest rank: the smallest value with at least `p` of the sample at or below it.
double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t rank = static_cast<size_t>(std::ceil(p * v.size()));
  return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

std::string CityId(int c) {
  return absl::StrCat("city-", c + 1);
}

class Simulation {
 public:
  Simulation(const Params& params, RankedStore& store) : p_(params), store_(store) {}

  absl::StatusOr<Figures> Run(common::PgPool& pool) {
    const auto wall_start = Clock::now();
    absl::Status setup = Setup(pool);
    if (!setup.ok()) return setup;
    std::exponential_distribution<double> gap(p_.rate);
    for (size_t q = 0; q < queues_.size(); ++q) Push(gap(rng_), kArrival, q);
    const int64_t ticks = static_cast<int64_t>(p_.seconds / p_.tick_s);
    for (int64_t tick = 1; tick <= ticks; ++tick) {
      const double now = tick * p_.tick_s;
      // Everything that happened since the last pass, in time order, then the passes: the
      // arrivals of this second are in the queue when the pass runs, as in arena.
      while (!events_.empty() && events_.top().at <= now) {
        Event e = events_.top();
        events_.pop();
        absl::Status s = Handle(e, gap);
        if (!s.ok()) return s;
      }
      for (size_t q = 0; q < queues_.size(); ++q) {
        absl::Status s = Pass(q, now);
        if (!s.ok()) return s;
      }
    }
    for (const Player& pl : players_) f_.still_waiting += pl.state == kWaiting;
    for (const auto& [pair, count] : met_) {
      f_.capped_pairs += count >= ranked::kMaxMoneyGamesPerPairPerDay;
    }
    f_.rate = p_.rate;
    f_.queues = static_cast<int>(queues_.size());
    f_.players = static_cast<int>(players_.size());
    f_.wall_s = std::chrono::duration<double>(Clock::now() - wall_start).count();
    return std::move(f_);
  }

 private:
  enum State { kIdle, kWaiting, kPlaying, kReturning };
  enum Kind { kArrival, kRejoin, kGameEnd, kPatience };
  struct Queue {
    std::string city;
    TimeControl tc;
    std::vector<int> members;  // indices into players_
  };
  struct Player {
    std::string id;
    int queue = 0;
    double rating = 0;
    State state = kIdle;
    int64_t joins = 0;  // which wait a kPatience event belongs to
  };
  struct Event {
    double at;
    int64_t seq;  // ties in time keep the order they were scheduled in: reproducible runs
    Kind kind;
    // kArrival: a = the queue. kRejoin: a = the player. kGameEnd: a = the pairing id, b and c
    // its players. kPatience: a = the player, b = which of their waits (Player::joins).
    int64_t a, b, c;
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  absl::Time At(double t) const { return start_ + absl::Milliseconds(std::llround(t * 1000)); }

  void Push(double at, Kind kind, int64_t a, int64_t b = 0, int64_t c = 0) {
    events_.push({at, seq_++, kind, a, b, c});
  }

  // Cities, accounts (the tests' own INSERT: the queue only needs the account row and its
  // role), and each player's rating, drawn once: a player's rating does not move within a run.
  absl::Status Setup(common::PgPool& pool) {
    for (int c = 0; c < p_.cities; ++c) {
      absl::Status s =
          store_.PutCity({CityId(c), absl::StrCat("City ", c + 1), 5'000'000, 500, true});
      if (!s.ok()) return s;
      for (TimeControl tc : kTimeControls) queues_.push_back({CityId(c), tc, {}});
    }
    std::normal_distribution<double> rating(p_.rating_mean, p_.rating_sd);
    for (size_t q = 0; q < queues_.size(); ++q) {
      for (int i = 0; i < p_.players_per_queue; ++i) {
        queues_[q].members.push_back(static_cast<int>(players_.size()));
        players_.push_back({absl::StrCat("u_rq", q, "_", i), static_cast<int>(q), rating(rng_)});
        index_[players_.back().id] = queues_[q].members.back();
      }
    }
    return pool.Transact([&](pqxx::transaction_base& txn) {
      for (const Player& pl : players_) {
        txn.exec_params("INSERT INTO arena.accounts (account_id, name, role) VALUES ($1, $1, $2)",
                        pl.id, "player");
      }
      return absl::OkStatus();
    });
  }

  absl::Status Join(int who, double t, bool fresh) {
    Player& pl = players_[who];
    const Queue& q = queues_[pl.queue];
    auto join = store_.Join(pl.id, q.city, q.tc, pl.rating, At(t));
    if (!join.ok()) return join.status();
    if (!join->newly_queued) return absl::InternalError(absl::StrCat(pl.id, " was queued twice"));
    pl.state = kWaiting;
    ++pl.joins;
    ++(fresh ? f_.fresh_joins : f_.return_joins);
    if (p_.patience_s > 0) Push(t + p_.patience_s, kPatience, who, pl.joins);
    return absl::OkStatus();
  }

  absl::Status Handle(const Event& e, std::exponential_distribution<double>& gap) {
    switch (e.kind) {
      case kArrival: {
        // Rejection sampling over the population: the idle are most of it at these rates.
        const Queue& q = queues_[e.a];
        int who = -1;
        for (int attempt = 0; attempt < 64 && who < 0; ++attempt) {
          int candidate = q.members[rng_() % q.members.size()];
          if (players_[candidate].state == kIdle) who = candidate;
        }
        if (who < 0) {
          for (int m : q.members) {
            if (players_[m].state == kIdle) who = m;
          }
        }
        Push(e.at + gap(rng_), kArrival, e.a);
        if (who < 0) {
          ++f_.lost_arrivals;
          return absl::OkStatus();
        }
        return Join(who, e.at, true);
      }
      case kRejoin:
        return Join(static_cast<int>(e.a), e.at, false);
      case kGameEnd: {
        absl::Status s = store_.EndPairing(e.a, ranked::PairingEnd::kFinished);
        if (!s.ok()) return s;
        std::uniform_real_distribution<double> chance(0, 1);
        for (int64_t who : {e.b, e.c}) {
          if (chance(rng_) < p_.return_prob) {
            players_[who].state = kReturning;
            Push(e.at + chance(rng_) * p_.return_delay_s, kRejoin, who);
          } else {
            players_[who].state = kIdle;
          }
        }
        return absl::OkStatus();
      }
      case kPatience: {
        Player& pl = players_[e.a];
        if (pl.state != kWaiting || pl.joins != e.b) return absl::OkStatus();
        auto left = store_.Leave(pl.id);
        if (!left.ok()) return left.status();
        if (!*left) return absl::InternalError(absl::StrCat(pl.id, " was not in the queue"));
        pl.state = kIdle;
        ++f_.gave_up;
        return absl::OkStatus();
      }
    }
    return absl::OkStatus();
  }

  absl::Status Pass(size_t q, double t) {
    const absl::Time now = At(t);
    int64_t waiting = 0;
    for (int m : queues_[q].members) waiting += players_[m].state == kWaiting;
    f_.queue_len_sum += waiting;
    f_.max_queue_len = std::max(f_.max_queue_len, waiting);
    ++f_.passes;
    const auto t0 = Clock::now();
    auto pass = store_.PairOnce(queues_[q].city, queues_[q].tc, now);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (!pass.ok()) return pass.status();
    if (pass->skipped) return absl::InternalError("a pass was skipped with no other replica");
    f_.pass_ms.push_back(ms);
    if (!pass->pairings.empty()) f_.pairing_pass_ms.push_back(ms);
    for (const StoredPairing& sp : pass->pairings) {
      ++f_.pairings;
      int64_t ends[2];
      int n = 0;
      for (const ranked::QueueEntry* e : {&sp.pairing.first, &sp.pairing.second}) {
        const absl::Duration waited = sp.paired_at - e->joined_at;
        f_.waits.push_back(absl::ToDoubleSeconds(waited));
        ++f_.windows[RatingWindow(waited)];
        auto it = index_.find(e->player_id);
        if (it == index_.end()) {
          return absl::InternalError(absl::StrCat("pairing of unknown player ", e->player_id));
        }
        players_[it->second].state = kPlaying;
        ends[n++] = it->second;
      }
      f_.gaps.push_back(std::abs(sp.pairing.first.rating - sp.pairing.second.rating));
      // Every pairing here is a money game (none is aborted), so a pair's count in a UTC day
      // is what the store's cap counts; more than the cap would be a bug in the store.
      const std::string a = sp.pairing.first.player_id, b = sp.pairing.second.player_id;
      const int met = ++met_[absl::StrCat(absl::ToUnixSeconds(ranked::UtcDayStart(now)), " ",
                                          a < b ? a : b, " ", a < b ? b : a)];
      if (met > 1) ++f_.rematches;
      if (met > ranked::kMaxMoneyGamesPerPairPerDay) {
        return absl::InternalError(
            absl::StrCat(a, " and ", b, " were paired ", met, " times in one UTC day"));
      }
      Push(t + p_.game_s, kGameEnd, sp.pairing_id, ends[0], ends[1]);
    }
    return absl::OkStatus();
  }

  const Params p_;
  RankedStore& store_;
  // 08:00 UTC: the default two hours (and up to 16) stay within one UTC day of the daily cap.
  const absl::Time start_ =
      absl::FromCivil(absl::CivilSecond(2026, 12, 4, 8, 0, 0), absl::UTCTimeZone());
  std::mt19937_64 rng_{static_cast<uint64_t>(p_.seed)};
  std::vector<Queue> queues_;
  std::vector<Player> players_;
  std::map<std::string, int> index_;  // account id -> players_ index
  std::map<std::string, int> met_;    // UTC day and pair -> pairings
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  int64_t seq_ = 0;
  Figures f_;
};

absl::StatusOr<Figures> RunAtRate(const std::string& admin_url, const Params& params) {
  auto db = ThrowawayDatabase::Create(admin_url);
  if (!db.ok()) return db.status();
  auto report = common::ApplyMigrations((*db)->url(), "arena", migrations::ArenaMigrations());
  if (!report.ok()) return report.status();
  // One connection does all the work (the simulation is sequential, like one replica's loop);
  // a second is spare.
  common::PgPool::Options options;
  options.size = 2;
  auto pool = common::PgPool::Create((*db)->url(), options);
  if (!pool.ok()) return pool.status();
  RankedStore store(**pool);
  Simulation sim(params, store);
  return sim.Run(**pool);
}

void Print(Figures& f, const Params& p) {
  const double queue_seconds = f.queues * p.seconds;
  const int64_t paired = static_cast<int64_t>(f.waits.size());
  int64_t at_first =
      f.windows.count(ranked::kInitialWindow) ? f.windows[ranked::kInitialWindow] : 0;
  auto share = [&](int64_t n) { return paired == 0 ? 0.0 : 100.0 * n / paired; };
  std::printf(
      "\n== arrival rate %.3g players/s per queue (Poisson), %d queues, %d players "
      "(%d per queue)\n",
      f.rate, f.queues, f.players, p.players_per_queue);
  std::printf(
      "joins            %lld: %lld arrivals + %lld returns after a game = %.3g/s per "
      "queue; %lld arrivals found nobody idle\n",
      static_cast<long long>(f.fresh_joins + f.return_joins), static_cast<long long>(f.fresh_joins),
      static_cast<long long>(f.return_joins), (f.fresh_joins + f.return_joins) / queue_seconds,
      static_cast<long long>(f.lost_arrivals));
  std::printf(
      "pairings         %lld (%lld players paired; %lld rematches, %lld pairs reached "
      "the daily cap of %d)\n",
      static_cast<long long>(f.pairings), static_cast<long long>(paired),
      static_cast<long long>(f.rematches), static_cast<long long>(f.capped_pairs),
      ranked::kMaxMoneyGamesPerPairPerDay);
  const double max_wait = f.waits.empty() ? 0 : *std::max_element(f.waits.begin(), f.waits.end());
  std::printf(
      "time in queue    median %.1f s, p90 %.1f s, p99 %.1f s, max %.1f s (simulated; "
      "paired players)\n",
      Percentile(f.waits, 0.5), Percentile(f.waits, 0.9), Percentile(f.waits, 0.99), max_wait);
  std::printf(
      "window           %.1f %% paired at the first ±%d, %.1f %% after it widened (%.1f "
      "%% at the widest ±%d)\n",
      share(at_first), ranked::kInitialWindow, share(paired - at_first),
      share(f.windows.count(ranked::kMaxWindow) ? f.windows[ranked::kMaxWindow] : 0),
      ranked::kMaxWindow);
  std::printf("rating gap       median %.0f, p90 %.0f\n", Percentile(f.gaps, 0.5),
              Percentile(f.gaps, 0.9));
  std::printf(
      "gave up          %lld left unpaired after %.0f min (%.1f %% of joins); %lld "
      "still waiting at the end\n",
      static_cast<long long>(f.gave_up), p.patience_s / 60,
      f.fresh_joins + f.return_joins == 0 ? 0.0
                                          : 100.0 * f.gave_up / (f.fresh_joins + f.return_joins),
      static_cast<long long>(f.still_waiting));
  std::printf("queue length     mean %.1f, max %lld waiting at a pass\n",
              f.passes == 0 ? 0.0 : static_cast<double>(f.queue_len_sum) / f.passes,
              static_cast<long long>(f.max_queue_len));
  const double max_pass =
      f.pass_ms.empty() ? 0 : *std::max_element(f.pass_ms.begin(), f.pass_ms.end());
  std::printf(
      "PairOnce (real)  %zu passes: median %.2f ms, p99 %.2f ms, max %.1f ms; the %zu "
      "that paired: median %.2f ms, p99 %.2f ms\n",
      f.pass_ms.size(), Percentile(f.pass_ms, 0.5), Percentile(f.pass_ms, 0.99), max_pass,
      f.pairing_pass_ms.size(), Percentile(f.pairing_pass_ms, 0.5),
      Percentile(f.pairing_pass_ms, 0.99));
  std::printf("wall             %.1f s for %.1f simulated hours\n", f.wall_s, p.seconds / 3600);
}

// Enough players that an arrival nearly always finds someone idle, so the stated rate is the
// rate that arrives, yet few enough that the same players meet again and again. In a steady
// state each fresh arrival brings 1 / (1 - return_prob) joins, each busy for about a game.
int AutoPopulation(const Params& p) {
  const double busy = p.rate * p.game_s / std::max(0.1, 1 - p.return_prob);
  return std::max(100, static_cast<int>(std::ceil(4 * busy)));
}

absl::StatusOr<std::vector<double>> Rates() {
  const std::string list = absl::GetFlag(FLAGS_rates);
  std::vector<double> rates;
  if (list.empty()) {
    rates.push_back(absl::GetFlag(FLAGS_rate));
    if (!(rates[0] > 0)) return absl::InvalidArgumentError("--rate must be > 0");
    return rates;
  }
  for (absl::string_view part : absl::StrSplit(list, ',', absl::SkipWhitespace())) {
    double r = 0;
    if (!absl::SimpleAtod(part, &r) || !(r > 0) || !std::isfinite(r)) {
      return absl::InvalidArgumentError(absl::StrCat("--rates: '", part, "' is not a rate > 0"));
    }
    rates.push_back(r);
  }
  if (rates.empty()) return absl::InvalidArgumentError("--rates: no rate given");
  return rates;
}

}  // namespace

int main(int argc, char** argv) {
  arena::common::InitConfig(argc, argv,
                            "ranked_queue_bench: time in the ranked queue, simulated clock, real "
                            "PostgreSQL");
  // The migrations log a line each; the figures are the output.
  arena::common::InitLogging("ranked_queue_bench", arena::common::LogLevel::kWarning);
  std::string url = absl::GetFlag(FLAGS_database_url);
  if (url.empty()) {
    const char* env = std::getenv("ARENA_TEST_DATABASE_URL");
    if (env != nullptr) url = env;
  }
  if (url.empty()) {
    std::fprintf(stderr,
                 "ranked_queue_bench: give --database_url (or ARENA_DATABASE_URL or "
                 "ARENA_TEST_DATABASE_URL): a cluster where it may create a database\n");
    return 2;
  }
  auto rates = Rates();
  if (!rates.ok()) {
    std::fprintf(stderr, "ranked_queue_bench: %s\n", std::string(rates.status().message()).c_str());
    return 2;
  }
  Params p;
  p.cities = absl::GetFlag(FLAGS_cities);
  p.players_per_queue = absl::GetFlag(FLAGS_players_per_queue);
  p.seconds = absl::GetFlag(FLAGS_hours) * 3600;
  p.tick_s = absl::GetFlag(FLAGS_tick_s);
  p.rating_mean = absl::GetFlag(FLAGS_rating_mean);
  p.rating_sd = absl::GetFlag(FLAGS_rating_sd);
  p.game_s = absl::GetFlag(FLAGS_game_minutes) * 60;
  p.return_prob = absl::GetFlag(FLAGS_return_prob);
  p.return_delay_s = absl::GetFlag(FLAGS_return_delay_s);
  p.patience_s = absl::GetFlag(FLAGS_patience_minutes) * 60;
  p.seed = absl::GetFlag(FLAGS_seed);
  if (p.cities < 1 || (p.players_per_queue != 0 && p.players_per_queue < 2) || !(p.seconds > 0) ||
      !(p.tick_s > 0) || !(p.game_s > 0) || p.return_prob < 0 || p.return_prob > 1 ||
      p.return_delay_s < 0 || p.patience_s < 0 || p.rating_sd < 0) {
    std::fprintf(stderr, "ranked_queue_bench: a flag is out of range (see --help)\n");
    return 2;
  }
  std::printf(
      "ranked_queue_bench: %d %s x 3 time controls, %.1f h simulated from 08:00 UTC, a "
      "pass every %.3g s\n",
      p.cities, p.cities == 1 ? "city" : "cities", p.seconds / 3600, p.tick_s);
  std::printf(
      "ratings N(%.0f, %.0f); games %.3g min, then %.0f %% queue again within %.0f s; "
      "patience %.3g min; seed %d\n",
      p.rating_mean, p.rating_sd, p.game_s / 60, 100 * p.return_prob, p.return_delay_s,
      p.patience_s / 60, p.seed);
  std::string load;
  std::getline(std::ifstream("/proc/loadavg"), load);
  std::printf("machine: %u cores, load %s\n", std::thread::hardware_concurrency(),
              load.substr(0, load.find(' ', load.find(' ', load.find(' ') + 1) + 1)).c_str());
  std::fflush(stdout);
  for (double rate : *rates) {
    p.rate = rate;
    if (absl::GetFlag(FLAGS_players_per_queue) == 0) p.players_per_queue = AutoPopulation(p);
    auto figures = RunAtRate(url, p);
    if (!figures.ok()) {
      std::fprintf(stderr, "ranked_queue_bench: %s\n",
                   std::string(figures.status().message()).c_str());
      return 1;
    }
    Print(*figures, p);
    std::fflush(stdout);
  }
  return 0;
}
