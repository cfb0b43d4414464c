// game_state_load: how many durable moves per second arena-game-state acknowledges, against
// what the same PostgreSQL does with one-row inserts at the same client count (pgbench).
//
//   game_state_load --address=127.0.0.1:7101 --database_url=postgresql://... --games=200
//                   --seconds=20 [--pgbench=/usr/lib/postgresql/15/bin/pgbench]
//
// Each game is a client thread that creates a chess table, joins both seats, and submits
// random legal moves (chosen with a local engine copy), starting a new game when one ends.
// Three phases, each --seconds long:
//
//  1. closed loop (saturation): every game submits its next move the moment the last one is
//     acknowledged. This measures the most durable moves/s the server sustains; its latency is
//     only concurrency / throughput (Little's law) and says nothing about the server's speed.
//  2. open loop (--pace_ms > 0): every game submits a move every --pace_ms, so --games games
//     offer games * 1000 / pace_ms moves/s whatever the server does. Latency is measured from
//     each move's intended send time, not from when it was sent, so a slow reply that delays
//     the game's next move is charged to that move too (no coordinated omission). This is the
//     latency figure, meaningful only together with the offered load it prints.
//  3. pgbench runs a one-row INSERT script with --games clients against the same PostgreSQL;
//     the ratio closed-loop moves/s ÷ pgbench tps is printed.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "clients/game_state_client.h"
#include "common/grpc_util.h"
#include "engine/core/game.h"
#include "services/common/service_auth.h"

ABSL_FLAG(std::string, secrets_dir, ".arena/secrets",
          "where arena.secret is: seats are joined as arena joins them for people");
ABSL_FLAG(std::string, address, "127.0.0.1:7101",
          "arena-game-state address; several replicas as a comma-separated list, each game "
          "then played on one of them in turn (the replica that made it owns it)");
ABSL_FLAG(std::string, database_url, "", "the same PostgreSQL, for pgbench (empty: skip)");
ABSL_FLAG(std::string, game, "", "engine id of the game played (empty: the engine's first game)");
ABSL_FLAG(int, games, 200, "concurrent games (and pgbench clients)");
ABSL_FLAG(int, seconds, 20, "duration of each phase");
ABSL_FLAG(int, pace_ms, 100,
          "open-loop phase: each game moves every pace_ms, measured from the intended send "
          "time (0: skip the phase)");
ABSL_FLAG(int, channels, 8, "gRPC channels shared by the game threads");
ABSL_FLAG(std::string, pgbench, "/usr/lib/postgresql/15/bin/pgbench", "pgbench binary");

// The game the benchmark plays: --game, or the first game the engine lists.
static std::string BenchGameId() {
  const std::string flag = absl::GetFlag(FLAGS_game);
  return flag.empty() ? std::string(arena::engine::AllGames().front()->Id()) : flag;
}

// The arena service's credential: game-state joins seats for arena only.
static const arena::common::ServiceIdentity& ArenaIdentity() {
  static const arena::common::ServiceIdentity* id = [] {
    auto loaded = arena::common::ServiceIdentity::Load(absl::GetFlag(FLAGS_secrets_dir), "arena");
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s\n", std::string(loaded.status().message()).c_str());
      std::exit(2);
    }
    return new arena::common::ServiceIdentity(*std::move(loaded));
  }();
  return *id;
}

namespace {

using namespace arena;

struct Stats {
  std::mutex mu;
  std::vector<double> latencies_ms;
  std::atomic<int64_t> moves{0};
  std::atomic<int64_t> games{0};
  std::atomic<int64_t> errors{0};
};

bool Call(const grpc::Status& s, Stats& stats) {
  if (!s.ok()) {
    if (stats.errors++ < 5) std::fprintf(stderr, "error: %s\n", s.error_message().c_str());
    return false;
  }
  return true;
}

// Plays games until `end`. pace == 0: closed loop, latency from the send. pace > 0: open loop,
// move k of the schedule is due at first_due + k * pace, and its latency runs from then.
void PlayGames(std::shared_ptr<grpc::Channel> channel, absl::Time end, uint32_t seed,
               absl::Duration pace, absl::Time first_due, Stats& stats) {
  auto stub = v1::GameStateService::NewStub(channel);
  const engine::Game* chess = engine::FindGame(BenchGameId());
  std::mt19937 rng(seed);
  std::vector<double> local;
  absl::Time due = first_due;
  while (absl::Now() < end) {
    v1::CreateTableRequest creq;
    creq.mutable_settings()->set_engine_game(BenchGameId());
    creq.mutable_settings()->set_level(v1::TABLE_LEVEL_ADVANCED);
    creq.mutable_settings()->set_is_public(true);
    creq.mutable_settings()->set_move_cap(200);
    creq.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
    creq.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
    v1::CreateTableResponse cresp;
    grpc::ClientContext cctx;
    common::SetDeadline(cctx, absl::Seconds(30));
    // As arena, which makes every table in the product: anonymous callers are rate limited
    // per address (20, then 10 a minute), which would end the run at the 21st game.
    ArenaIdentity().Attach(cctx);
    if (!Call(stub->CreateTable(&cctx, creq, &cresp), stats)) return;
    std::string creds[2];
    for (int i = 0; i < 2; ++i) {
      v1::JoinTableRequest j;
      j.set_game_id(cresp.game_id());
      j.set_seat(i);
      v1::JoinTableResponse jr;
      grpc::ClientContext jctx;
      common::SetDeadline(jctx, absl::Seconds(30));
      ArenaIdentity().Attach(jctx);  // only arena joins seats
      if (!Call(stub->JoinTable(&jctx, j, &jr), stats)) return;
      creds[i] = jr.seat_credential();
    }
    v1::GetGameRequest g;
    g.set_game_id(cresp.game_id());
    v1::GameView view;
    grpc::ClientContext gctx;
    common::SetDeadline(gctx, absl::Seconds(30));
    if (!Call(stub->GetGame(&gctx, g, &view), stats)) return;
    int leader = view.leader();
    auto state = *chess->NewInitialState(engine::Variant());
    int64_t number = 0;
    // Setting up a table is not a move: a new game's schedule starts no earlier than now.
    if (pace > absl::ZeroDuration()) due = std::max(due, absl::Now());
    while (absl::Now() < end && !state->IsTerminal() && number < 200) {
      std::vector<std::string> legal = state->LegalActions();
      const std::string& m = legal[rng() % legal.size()];
      int seat = (leader + state->ToMove()) % 2;
      const v1::SubmitActionRequest req = clients::SeatAction(cresp.game_id(), seat, m, number);
      v1::SubmitActionResponse resp;
      absl::Time t0 = absl::Now();
      if (pace > absl::ZeroDuration()) {
        if (due > t0) absl::SleepFor(due - t0);
        if (due >= end) break;
        t0 = due;  // a late send is charged to this move, not hidden
        due += pace;
      }
      grpc::Status s = clients::GameStateClient::SubmitOn(
          *stub, req, clients::Credentials{.seat = creds[seat]}, absl::Seconds(30), &resp);
      double ms = absl::ToDoubleMilliseconds(absl::Now() - t0);
      if (!Call(s, stats)) return;
      local.push_back(ms);
      stats.moves++;
      (void)state->Apply(m);
      ++number;
    }
    stats.games++;
  }
  std::lock_guard<std::mutex> lock(stats.mu);
  stats.latencies_ms.insert(stats.latencies_ms.end(), local.begin(), local.end());
}

double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  size_t k = std::min(v.size() - 1, static_cast<size_t>(p * v.size()));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

double RunPgbench(const std::string& url, int clients, int seconds) {
  std::string setup = absl::StrCat(
      "psql -q -X '", url,
      "' -c 'CREATE TABLE IF NOT EXISTS public.pgbench_moves (id bigserial PRIMARY KEY, ",
      "game_id text, seq bigint, payload jsonb, at timestamptz DEFAULT now())' >/dev/null");
  if (std::system(setup.c_str()) != 0) return -1;
  std::string script = "/tmp/game_state_load_pgbench.sql";
  std::ofstream(script) << "INSERT INTO public.pgbench_moves (game_id, seq, payload) VALUES "
                           "(md5(random()::text), 1, '{\"kind\": 1, \"clocks\": [1000, 2000]}');\n";
  std::string out = "/tmp/game_state_load_pgbench.out";
  std::string cmd = absl::StrCat(absl::GetFlag(FLAGS_pgbench), " -n -c ", clients, " -j 2 -T ",
                                 seconds, " -f ", script, " '", url, "' > ", out, " 2>&1");
  if (std::system(cmd.c_str()) != 0) return -1;
  std::ifstream in(out);
  std::string line;
  double tps = -1;
  while (std::getline(in, line)) {
    if (line.rfind("tps = ", 0) == 0) tps = std::atof(line.c_str() + 6);  // the last one wins
  }
  return tps;
}

struct PhaseResult {
  double seconds = 0;
  int64_t moves = 0;
  int64_t games = 0;
  int64_t errors = 0;
  double p50 = 0, p99 = 0, max = 0;
};

PhaseResult RunPhase(const std::vector<std::shared_ptr<grpc::Channel>>& channels, int n,
                     int seconds, absl::Duration pace) {
  Stats stats;
  absl::Time start = absl::Now();
  absl::Time end = start + absl::Seconds(seconds);
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) {
    // Open loop: the games' schedules are spread evenly over one pace, not all due at once.
    absl::Time first_due = start + absl::Seconds(1) + pace * i / n;
    threads.emplace_back(PlayGames, channels[i % channels.size()], end, 1000 + i, pace, first_due,
                         std::ref(stats));
  }
  for (auto& t : threads) t.join();
  PhaseResult r;
  r.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  r.moves = stats.moves;
  r.games = stats.games;
  r.errors = stats.errors;
  std::vector<double> lat = stats.latencies_ms;
  r.p50 = Percentile(lat, 0.50);
  r.p99 = Percentile(lat, 0.99);
  r.max = lat.empty() ? 0 : *std::max_element(lat.begin(), lat.end());
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  // The driver shares the cores with the server: spare them abseil's lock-cycle check on
  // every gRPC mutex (see services/game_state/main.cc).
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  if (engine::FindGame(BenchGameId()) == nullptr) {
    std::fprintf(stderr, "this build has no chess engine\n");
    return 2;
  }
  int n = absl::GetFlag(FLAGS_games);
  int seconds = absl::GetFlag(FLAGS_seconds);
  int pace_ms = absl::GetFlag(FLAGS_pace_ms);
  // Channel j goes to replica j % replicas; game i uses channel i % channels, so each game
  // stays on one replica, the one that created (and owns) it.
  const std::vector<std::string> addresses =
      absl::StrSplit(absl::GetFlag(FLAGS_address), ',', absl::SkipEmpty());
  if (addresses.empty()) {
    std::fprintf(stderr, "--address is empty\n");
    return 2;
  }
  const int replicas = static_cast<int>(addresses.size());
  const int per_replica = std::max(1, (absl::GetFlag(FLAGS_channels) + replicas - 1) / replicas);
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  for (int i = 0; i < per_replica * replicas; ++i) {
    grpc::ChannelArguments args;
    args.SetInt("grpc.channel_id", i);  // distinct channels, distinct connections
    channels.push_back(grpc::CreateCustomChannel(addresses[i % replicas],
                                                 grpc::InsecureChannelCredentials(), args));
  }
  std::printf("game-state replicas: %d (%s)\n", replicas, absl::GetFlag(FLAGS_address).c_str());
  int64_t errors = 0;
  PhaseResult closed = RunPhase(channels, n, seconds, absl::ZeroDuration());
  errors += closed.errors;
  double mps = closed.moves / closed.seconds;
  std::printf(
      "closed loop (saturation): %d games, %.1f s, %lld durable moves, %lld games finished, "
      "%lld errors\n",
      n, closed.seconds, static_cast<long long>(closed.moves), static_cast<long long>(closed.games),
      static_cast<long long>(closed.errors));
  std::printf(
      "  durable moves/s: %.0f   SubmitAction latency p50 %.2f ms  p99 %.2f ms "
      "(= games / throughput; not a latency figure)\n",
      mps, closed.p50, closed.p99);
  if (pace_ms > 0) {
    PhaseResult open = RunPhase(channels, n, seconds, absl::Milliseconds(pace_ms));
    errors += open.errors;
    std::printf(
        "open loop: %d games, one move per game every %d ms = %.0f moves/s offered, %.0f "
        "achieved, %lld errors\n",
        n, pace_ms, n * 1000.0 / pace_ms, open.moves / open.seconds,
        static_cast<long long>(open.errors));
    std::printf(
        "  SubmitAction latency from the intended send time: p50 %.2f ms  p99 %.2f ms  max "
        "%.2f ms\n",
        open.p50, open.p99, open.max);
  }
  std::string url = absl::GetFlag(FLAGS_database_url);
  if (!url.empty()) {
    double tps = RunPgbench(url, n, seconds);
    if (tps <= 0) {
      std::printf("pgbench failed (see /tmp/game_state_load_pgbench.out)\n");
      return 1;
    }
    std::printf(
        "pgbench one-row insert, %d clients: %.0f tps   ratio closed-loop moves/s / tps = %.2f\n",
        n, tps, mps / tps);
  }
  return errors > 0 ? 1 : 0;
}
