// gateway_load: drives N concurrent in-flight ChooseMove calls through one arena-llm-gateway
// process against arena-mock-abacus, both started here as child processes, and prints:
//   throughput (turns/s), the gateway's added latency p50/p99 (each call's latency at this
//   client minus the upstream HTTP time the gateway measured for it), and the gateway's thread
//   count (from /proc/<pid>/status) at each concurrency level, to show it does not grow with
//   the number of calls.
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
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "arena/v1/gateway.grpc.pb.h"
#include "engine/core/game.h"
#include "services/common/grpc_util.h"
#include "services/common/service_auth.h"

ABSL_FLAG(std::vector<std::string>, concurrency, std::vector<std::string>({"10", "100", "1000"}),
          "concurrent in-flight calls per phase");
ABSL_FLAG(int, rounds, 3, "bursts per phase");
ABSL_FLAG(std::string, model, "mock-competent", "model id at the mock");

extern char** environ;

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

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i = static_cast<size_t>(p * (v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  rlimit lim;
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
  char dir_template[] = "/tmp/gateway-load-XXXXXX";
  std::string dir = mkdtemp(dir_template);
  std::string secrets = dir + "/secrets";
  if (!arena::common::EnsureServiceSecrets(secrets).ok()) return 1;
  const std::string key = "bench-key-0123456789";
  std::ofstream(dir + "/abacus.key") << key << "\n";

  pid_t mock = Spawn({ARENA_MOCK_ABACUS_BIN, "--port=0", "--port_file=" + dir + "/mock.port",
                      "--keys=" + key + ":1000000000000", "--log_requests=false"},
                     dir + "/mock.log");
  int mock_port = WaitPort(dir + "/mock.port");
  pid_t gw =
      Spawn({ARENA_GATEWAY_BIN, "--port=0", "--port_file=" + dir + "/gw.port",
             "--secrets_dir=" + secrets, "--log_level=warning",
             "--abacus_base_url=http://127.0.0.1:" + std::to_string(mock_port) + "/v1",
             "--abacus_api_key_file=" + dir + "/abacus.key", "--upstream_max_in_flight=2000"},
            dir + "/gateway.log");
  int gw_port = WaitPort(dir + "/gw.port");
  if (mock_port == 0 || gw_port == 0) {
    std::fprintf(stderr, "servers did not start; logs in %s\n", dir.c_str());
    return 1;
  }
  auto identity = arena::common::ServiceIdentity::Load(secrets, "arena");
  auto channel = arena::common::MakeChannel("127.0.0.1:" + std::to_string(gw_port));
  auto stub = arena::v1::ModelGatewayService::NewStub(channel);

  const arena::engine::Game* chess = arena::engine::FindGame("chess");
  if (chess == nullptr) {
    std::fprintf(stderr, "chess is not registered in this build\n");
    return 1;
  }
  arena::v1::ModelTurnRequest request;
  request.set_game_id("bench");
  request.set_seat(0);
  request.set_game(arena::v1::GAME_KIND_CHESS);
  request.set_position((*chess->NewInitialState(arena::engine::Variant()))->Serialize());
  request.set_show_legal_moves(true);
  request.set_model_id(absl::GetFlag(FLAGS_model));
  request.set_cost_cap_microcredits(1'000'000);

  std::printf("gateway pid %d, idle threads %d\n", gw, Threads(gw));
  // Warm-up: connections, model list.
  for (int i = 0; i < 3; ++i) {
    grpc::ClientContext ctx;
    arena::common::SetDeadline(ctx, absl::Seconds(30));
    identity->Attach(ctx);
    arena::v1::ModelTurnResponse resp;
    stub->ChooseMove(&ctx, request, &resp);
  }

  std::printf("%-12s %10s %10s %12s %12s %12s %8s %8s\n", "in_flight", "calls", "turns/s",
              "added_p50_ms", "added_p99_ms", "upstrm_p50", "threads", "failed");
  for (const std::string& level : absl::GetFlag(FLAGS_concurrency)) {
    int n = std::stoi(level);
    std::vector<double> added;
    std::vector<double> upstream;
    int failed = 0;
    int max_threads = Threads(gw);
    std::atomic<bool> sampling{true};
    std::thread sampler([&] {
      while (sampling) {
        max_threads = std::max(max_threads, Threads(gw));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
    });
    auto phase_start = Clock::now();
    for (int round = 0; round < absl::GetFlag(FLAGS_rounds); ++round) {
      struct Call {
        grpc::ClientContext ctx;
        arena::v1::ModelTurnResponse resp;
        Clock::time_point start;
        double latency_us = 0;
        bool ok = false;
      };
      std::vector<std::unique_ptr<Call>> calls(n);
      std::mutex mu;
      std::condition_variable cv;
      int done = 0;
      for (int i = 0; i < n; ++i) {
        calls[i] = std::make_unique<Call>();
        Call* c = calls[i].get();
        arena::common::SetDeadline(c->ctx, absl::Seconds(120));
        identity->Attach(c->ctx);
        c->start = Clock::now();
        stub->async()->ChooseMove(&c->ctx, &request, &c->resp, [&, c](grpc::Status s) {
          c->latency_us =
              std::chrono::duration<double, std::micro>(Clock::now() - c->start).count();
          c->ok = s.ok() && c->resp.ok();
          std::lock_guard<std::mutex> lock(mu);
          ++done;
          cv.notify_one();
        });
      }
      std::unique_lock<std::mutex> lock(mu);
      cv.wait(lock, [&] { return done == n; });
      for (auto& c : calls) {
        if (!c->ok) {
          ++failed;
          continue;
        }
        double up = 0;
        for (const auto& a : c->resp.attempts()) up += static_cast<double>(a.upstream_latency_us());
        upstream.push_back(up / 1000.0);
        added.push_back((c->latency_us - up) / 1000.0);
      }
    }
    double seconds = std::chrono::duration<double>(Clock::now() - phase_start).count();
    sampling = false;
    sampler.join();
    int total = n * absl::GetFlag(FLAGS_rounds);
    std::printf("%-12d %10d %10.0f %12.3f %12.3f %12.3f %8d %8d\n", n, total, total / seconds,
                Percentile(added, 0.5), Percentile(added, 0.99), Percentile(upstream, 0.5),
                max_threads, failed);
    std::fflush(stdout);
  }
  kill(gw, SIGTERM);
  kill(mock, SIGTERM);
  waitpid(gw, nullptr, 0);
  waitpid(mock, nullptr, 0);
  return 0;
}
