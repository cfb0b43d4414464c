// gateway_load: keeps N ChooseMove calls in flight through one arena-llm-gateway process
// against arena-mock-abacus (both started here as child processes) and prints, per level:
// throughput (turns/s), the gateway's added latency p50/p99 (each call's latency at this
// client minus the upstream HTTP time the gateway measured for it), the gateway's CPU per turn
// and its peak thread count (from /proc/<pid>/status), to show threads do not grow with calls.
//
// Two passes, printed separately because they answer different questions:
//   saturation  the mock answers at once (mock-competent), so N calls in flight is a closed
//               loop that keeps the machine's cores busy; "added" there is mostly waiting for
//               CPU shared by this client, the gateway and the mock, not the gateway's delay.
//   upstream    the mock answers after --upstream_ms (mock-slow, a timer in the mock's epoll
//               loop), as a real model does; N workers each issue calls back to back, their
//               first calls spread evenly over one upstream delay so arrivals are steady
//               (~N / upstream_ms calls per second) rather than one burst of N.
// Only calls started after one warm-up period (the ramp) count.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "arena/v1/gateway.grpc.pb.h"
#include "common/grpc_util.h"
#include "engine/core/game.h"
#include "services/common/callback_heartbeat.h"
#include "services/common/service_auth.h"

ABSL_FLAG(std::vector<std::string>, concurrency, std::vector<std::string>({"1", "100", "1000"}),
          "calls kept in flight, one phase per level");
ABSL_FLAG(std::string, game, "", "engine id of the game played (empty: the engine's first game)");
ABSL_FLAG(int, upstream_ms, 1000,
          "how long the mock takes to answer in the upstream pass (0: skip that pass)");
ABSL_FLAG(double, seconds, 8, "measured length of each upstream phase, after its ramp");
ABSL_FLAG(bool, saturation, true, "also run the pass where the mock answers at once");
ABSL_FLAG(double, saturation_seconds, 3, "measured length of each saturation phase");
ABSL_FLAG(std::string, gateway_bin, ARENA_GATEWAY_BIN,
          "the arena-llm-gateway binary to measure (an older build, for an A/B comparison)");
ABSL_FLAG(std::string, samples_csv, "",
          "also write every counted call (pass, in_flight, start_ms, latency_ms, upstream_ms) "
          "to this file, to see when the slow ones happened");
ABSL_FLAG(std::string, mock_bin, ARENA_MOCK_ABACUS_BIN, "the arena-mock-abacus binary to run");

extern char** environ;

// The game the benchmark plays: --game, or the first game the engine lists.
static std::string BenchGameId() {
  const std::string flag = absl::GetFlag(FLAGS_game);
  return flag.empty() ? std::string(arena::engine::AllGames().front()->Id()) : flag;
}

namespace {

using Clock = std::chrono::steady_clock;

pid_t Spawn(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

int WaitPort(const std::string& path) {
  for (int i = 0; i < 600; ++i) {
    std::ifstream in(path);
    int port = 0;
    if (in >> port && port > 0) return port;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return 0;
}

int Threads(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return -1;
}

// User plus system CPU time of a process so far, in microseconds.
double CpuMicros(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t paren = text.rfind(')');
  if (paren == std::string::npos) return 0;
  std::istringstream fields(text.substr(paren + 2));
  std::string skip;
  for (int i = 0; i < 11; ++i) fields >> skip;  // state .. cmajflt (fields 3..13)
  double utime = 0;
  double stime = 0;
  fields >> utime >> stime;
  return (utime + stime) * 1e6 / static_cast<double>(sysconf(_SC_CLK_TCK));
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one;
  in >> one;
  return one;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(p * (v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

struct Sample {
  double start_ms = 0;     // since the phase started
  double latency_ms = 0;   // at this client
  double upstream_ms = 0;  // the gateway's measured HTTP time, every attempt
};

// One worker keeps one call in flight: when a call ends it records it and starts the next,
// until the phase's deadline.
class Worker {
 public:
  Worker(arena::v1::ModelGatewayService::Stub* stub, const arena::common::ServiceIdentity* id,
         const arena::v1::ModelTurnRequest* request)
      : stub_(stub), id_(id), request_(request) {}

  // `on_idle` runs (on a gRPC thread) once the worker has stopped.
  void Run(Clock::time_point phase_start, Clock::time_point count_from, Clock::time_point deadline,
           std::function<void()> on_idle) {
    phase_start_ = phase_start;
    count_from_ = count_from;
    deadline_ = deadline;
    on_idle_ = std::move(on_idle);
    Next();
  }

  const std::vector<Sample>& samples() const { return samples_; }
  int failed() const { return failed_; }

 private:
  void Next() {
    // The finished call is destroyed at the next completion, never inside its own callback.
    done_call_ = std::move(call_);
    call_ = std::make_unique<Call>();
    arena::common::SetDeadline(call_->ctx, absl::Seconds(120));
    id_->Attach(call_->ctx);
    call_->start = Clock::now();
    stub_->async()->ChooseMove(&call_->ctx, request_, &call_->resp,
                               [this](grpc::Status s) { Done(s); });
  }

  void Done(const grpc::Status& status) {
    auto now = Clock::now();
    if (call_->start >= count_from_) {
      if (!status.ok() || !call_->resp.ok()) {
        ++failed_;
      } else {
        double up_us = 0;
        for (const auto& a : call_->resp.attempts()) up_us += a.upstream_latency_us();
        samples_.push_back(
            {std::chrono::duration<double, std::milli>(call_->start - phase_start_).count(),
             std::chrono::duration<double, std::milli>(now - call_->start).count(), up_us / 1e3});
      }
    }
    if (now < deadline_) return Next();
    on_idle_();
  }

  struct Call {
    grpc::ClientContext ctx;
    arena::v1::ModelTurnResponse resp;
    Clock::time_point start;
  };
  arena::v1::ModelGatewayService::Stub* stub_;
  const arena::common::ServiceIdentity* id_;
  const arena::v1::ModelTurnRequest* request_;
  Clock::time_point phase_start_;
  Clock::time_point count_from_;
  Clock::time_point deadline_;
  std::function<void()> on_idle_;
  std::unique_ptr<Call> call_;
  std::unique_ptr<Call> done_call_;
  std::vector<Sample> samples_;
  int failed_ = 0;
};

struct PhaseResult {
  int calls = 0;
  int failed = 0;
  double turns_per_second = 0;
  double added_p50 = 0;
  double added_p99 = 0;
  double upstream_p50 = 0;
  double latency_p99 = 0;
  double gateway_cpu_us_per_turn = 0;
  int max_threads = 0;
  std::vector<Sample> samples;
};

// `n` workers; their first calls are spread evenly over `ramp`, and calls started during the
// ramp are not counted. Runs `measure` after the ramp.
PhaseResult RunPhase(int n, absl::Duration ramp, absl::Duration measure, pid_t gw,
                     arena::v1::ModelGatewayService::Stub* stub,
                     const arena::common::ServiceIdentity* id,
                     const arena::v1::ModelTurnRequest& request) {
  PhaseResult out;
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < n; ++i) workers.push_back(std::make_unique<Worker>(stub, id, &request));
  std::mutex mu;
  std::condition_variable cv;
  int idle = 0;
  std::atomic<int> max_threads{Threads(gw)};
  std::atomic<bool> sampling{true};
  std::thread sampler([&] {
    while (sampling) {
      int t = Threads(gw);
      if (t > max_threads) max_threads = t;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  auto start = Clock::now();
  auto count_from = start + absl::ToChronoMicroseconds(ramp);
  auto deadline = count_from + absl::ToChronoMicroseconds(measure);
  double cpu_at_count = -1;
  for (int i = 0; i < n; ++i) {
    std::this_thread::sleep_until(start + absl::ToChronoMicroseconds(ramp * i / n));
    workers[i]->Run(start, count_from, deadline, [&] {
      std::lock_guard<std::mutex> lock(mu);
      ++idle;
      cv.notify_one();
    });
  }
  std::this_thread::sleep_until(count_from);
  cpu_at_count = CpuMicros(gw);
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return idle == n; });
  }
  double cpu_used = CpuMicros(gw) - cpu_at_count;
  sampling = false;
  sampler.join();
  std::vector<double> added;
  std::vector<double> upstream;
  std::vector<double> latency;
  for (const auto& w : workers) {
    out.failed += w->failed();
    for (const Sample& s : w->samples()) {
      added.push_back(s.latency_ms - s.upstream_ms);
      upstream.push_back(s.upstream_ms);
      latency.push_back(s.latency_ms);
      out.samples.push_back(s);
    }
  }
  out.calls = static_cast<int>(added.size()) + out.failed;
  // In steady state calls start as fast as they end.
  out.turns_per_second = out.calls / absl::ToDoubleSeconds(measure);
  out.added_p50 = Percentile(added, 0.5);
  out.added_p99 = Percentile(added, 0.99);
  out.upstream_p50 = Percentile(upstream, 0.5);
  out.latency_p99 = Percentile(latency, 0.99);
  out.gateway_cpu_us_per_turn = out.calls > 0 ? cpu_used / out.calls : 0;
  out.max_threads = max_threads;
  return out;
}

void WriteSamples(std::FILE* csv, const char* pass, int n, const PhaseResult& r) {
  if (csv == nullptr) return;
  for (const Sample& s : r.samples) {
    std::fprintf(csv, "%s,%d,%.3f,%.3f,%.3f\n", pass, n, s.start_ms, s.latency_ms, s.upstream_ms);
  }
  std::fflush(csv);
}

void PrintHeader(const char* title) {
  std::printf("\n%s\n", title);
  std::printf("%-9s %7s %9s %12s %12s %11s %11s %10s %7s %6s %5s\n", "in_flight", "calls",
              "turns/s", "added_p50ms", "added_p99ms", "upstrm_p50", "e2e_p99ms", "gw_cpu_us",
              "threads", "failed", "load");
}

void PrintRow(int n, const PhaseResult& r, const std::string& load) {
  std::printf("%-9d %7d %9.0f %12.3f %12.3f %11.3f %11.3f %10.0f %7d %6d %5s\n", n, r.calls,
              r.turns_per_second, r.added_p50, r.added_p99, r.upstream_p50, r.latency_p99,
              r.gateway_cpu_us_per_turn, r.max_threads, r.failed, load.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  rlimit lim;
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
  const int upstream_ms = absl::GetFlag(FLAGS_upstream_ms);
  char dir_template[] = "/tmp/gateway-load-XXXXXX";
  std::string dir = mkdtemp(dir_template);
  std::string secrets = dir + "/secrets";
  if (!arena::common::EnsureServiceSecrets(secrets).ok()) return 1;
  const std::string key = "bench-key-0123456789";
  std::ofstream(dir + "/abacus.key") << key << "\n";

  pid_t mock = Spawn({absl::GetFlag(FLAGS_mock_bin), "--port=0",
                      "--port_file=" + dir + "/mock.port", "--keys=" + key + ":1000000000000",
                      "--log_requests=false", "--slow_ms=" + std::to_string(upstream_ms)},
                     dir + "/mock.log");
  int mock_port = WaitPort(dir + "/mock.port");
  pid_t gw =
      Spawn({absl::GetFlag(FLAGS_gateway_bin), "--port=0", "--port_file=" + dir + "/gw.port",
             "--secrets_dir=" + secrets, "--log_level=warning",
             "--abacus_base_url=http://127.0.0.1:" + std::to_string(mock_port) + "/v1",
             "--abacus_api_key_file=" + dir + "/abacus.key", "--upstream_max_in_flight=2000"},
            dir + "/gateway.log");
  int gw_port = WaitPort(dir + "/gw.port");
  if (mock_port == 0 || gw_port == 0) {
    std::fprintf(stderr, "servers did not start; logs in %s\n", dir.c_str());
    return 1;
  }
  // This client's callbacks run on gRPC's callback threads too (see callback_heartbeat.h).
  auto heartbeat = arena::common::CallbackHeartbeat::StartPrivate();
  auto identity = arena::common::ServiceIdentity::Load(secrets, "arena");
  auto channel = arena::common::MakeChannel("127.0.0.1:" + std::to_string(gw_port));
  auto stub = arena::v1::ModelGatewayService::NewStub(channel);

  const arena::engine::Game* chess = arena::engine::FindGame(BenchGameId());
  if (chess == nullptr) {
    std::fprintf(stderr, "chess is not registered in this build\n");
    return 1;
  }
  arena::v1::ModelTurnRequest request;
  request.set_game_id("bench");
  request.set_seat(0);
  request.set_engine_game(BenchGameId());
  request.set_position((*chess->NewInitialState(arena::engine::Variant()))->Serialize());
  request.set_show_legal_moves(true);
  request.set_model_id("mock-competent");
  request.set_cost_cap_microcredits(1'000'000);

  std::printf("gateway pid %d, idle threads %d, %ld cores, load average %s\n", gw, Threads(gw),
              sysconf(_SC_NPROCESSORS_ONLN), LoadAverage().c_str());
  // Warm-up: connections, model list.
  for (int i = 0; i < 3; ++i) {
    grpc::ClientContext ctx;
    arena::common::SetDeadline(ctx, absl::Seconds(30));
    identity->Attach(ctx);
    arena::v1::ModelTurnResponse resp;
    stub->ChooseMove(&ctx, request, &resp);
  }
  std::FILE* csv = nullptr;
  if (std::string path = absl::GetFlag(FLAGS_samples_csv); !path.empty()) {
    csv = std::fopen(path.c_str(), "w");
    if (csv != nullptr) std::fprintf(csv, "pass,in_flight,start_ms,latency_ms,upstream_ms\n");
  }
  std::vector<int> levels;
  for (const std::string& level : absl::GetFlag(FLAGS_concurrency))
    levels.push_back(std::stoi(level));

  if (absl::GetFlag(FLAGS_saturation)) {
    PrintHeader(
        "saturation: the mock answers at once (mock-competent); a closed loop that keeps the "
        "cores busy, so 'added' is mostly waiting for CPU shared by client, gateway and mock");
    for (int n : levels) {
      PhaseResult r = RunPhase(n, absl::Milliseconds(200),
                               absl::Seconds(absl::GetFlag(FLAGS_saturation_seconds)), gw,
                               stub.get(), &*identity, request);
      PrintRow(n, r, LoadAverage());
      WriteSamples(csv, "saturation", n, r);
    }
  }
  if (upstream_ms > 0) {
    request.set_model_id("mock-slow");
    PrintHeader(("upstream: the mock answers after " + std::to_string(upstream_ms) +
                 " ms (mock-slow), as a real model does; first calls spread over one delay")
                    .c_str());
    for (int n : levels) {
      PhaseResult r =
          RunPhase(n, absl::Milliseconds(upstream_ms), absl::Seconds(absl::GetFlag(FLAGS_seconds)),
                   gw, stub.get(), &*identity, request);
      PrintRow(n, r, LoadAverage());
      WriteSamples(csv, "upstream", n, r);
    }
  }
  if (csv != nullptr) std::fclose(csv);
  std::printf(
      "\nadded = latency at this client - upstream HTTP time the gateway measured (curl's total "
      "time, all attempts);\ne2e_p99 = the client's own latency p99; gw_cpu_us = the gateway "
      "process's CPU time (user+sys) per counted turn;\nthreads = the gateway's peak thread "
      "count during the phase; load = 1-minute load average after the phase\n");
  kill(gw, SIGTERM);
  kill(mock, SIGTERM);
  waitpid(gw, nullptr, 0);
  waitpid(mock, nullptr, 0);
  // The run's service secrets and key file go with it (a failed start keeps them, with the
  // logs, for a look).
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
  return 0;
}
