// Test support for arena-web: every server of a deployment (PostgreSQL, the mock Abacus,
// game-state, arena-bot, the gateway, arena) and arena-web in front of them, plus a small
// blocking HTTP client and a Server-Sent Events reader for the tests of the edge.
#pragma once

#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "tests/support/arena_client.h"
#include "tests/support/server_process.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace arena::testing {

inline constexpr char kWebPlatformKey[] = "plat-SECRET-web-5a1e";

class WebDeployment {
 public:
  // `web_flags` are added to arena-web's command line.
  explicit WebDeployment(std::vector<std::string> web_flags = {}) {
    if (!db_.ok()) return;
    std::string dir = MakeTempDir("web-mock-abacus");
    mock_ = std::make_unique<Subprocess>(std::vector<std::string>{
        ARENA_MOCK_ABACUS_BIN, "--port=0", "--port_file=" + dir + "/port",
        std::string("--keys=") + kWebPlatformKey + ":1000000000", "--slow_ms=100"});
    int mock_port = WaitForPortFile(dir + "/port", absl::Seconds(30));
    if (mock_port <= 0) return;
    std::string key_file = dir + "/key";
    std::ofstream(key_file) << kWebPlatformKey << "\n";
    metrics_dir_ = MakeTempDir("metrics-ports");
    game_state_ = std::make_unique<ServerProcess>(
        ARENA_GAME_STATE_BIN,
        WithMetrics("arena-game-state",
                    {"--database_url=" + db_.url(), "--keepalive_ms=500", "--log_level=warning",
                     "--anonymous_table_burst=100000", "--watch_streams_per_address=100000"}));
    bot_ = std::make_unique<ServerProcess>(ARENA_BOT_BIN,
                                           WithMetrics("arena-bot", {"--log_level=warning"}));
    gateway_ = std::make_unique<ServerProcess>(
        ARENA_GATEWAY_BIN,
        WithMetrics("arena-llm-gateway",
                    {"--abacus_base_url=http://127.0.0.1:" + std::to_string(mock_port) + "/v1",
                     "--abacus_api_key_file=" + key_file, "--retry_base_ms=20",
                     "--retry_max_ms=200", "--log_level=warning"}));
    if (!game_state_->ok() || !bot_->ok() || !gateway_->ok()) return;
    std::vector<std::string> af = ArenaFlags(db_.url());
    af.push_back("--game_state_addr=" + game_state_->address());
    af.push_back("--bot_addr=" + bot_->address());
    af.push_back("--gateway_addr=" + gateway_->address());
    af.push_back("--bot_time_cap_ms=300");
    arena_ = std::make_unique<ServerProcess>(ARENA_ARENA_BIN, WithMetrics("arena", af));
    if (!arena_->ok()) return;
    StartWeb(std::move(web_flags));
  }

  void StartWeb(std::vector<std::string> extra) {
    std::string dir = MakeTempDir("arena-web");
    std::vector<std::string> argv = {ARENA_WEB_BIN,
                                     "--port=0",
                                     "--port_file=" + dir + "/port",
                                     "--arena_addr=" + arena_->address(),
                                     "--game_state_addr=" + game_state_->address(),
                                     std::string("--static_dir=") + ARENA_WEB_PAGE_DIR,
                                     "--log_level=warning",
                                     "--requests_burst=1000000",
                                     "--requests_per_second=100000",
                                     "--streams_per_address=100000",
                                     "--sse_keepalive_ms=400"};
    for (auto& f : extra) argv.push_back(std::move(f));
    web_ = std::make_unique<Subprocess>(WithMetrics("arena-web", std::move(argv)));
    web_port_ = WaitForPortFile(dir + "/port", absl::Seconds(30));
  }

  // Every server serves Prometheus metrics on a port of its own (docs/operations.md); the port
  // of "arena", "arena-game-state", "arena-bot", "arena-llm-gateway" or "arena-web", 0 if none.
  int MetricsPort(const std::string& server) const {
    return WaitForPortFile(metrics_dir_ + "/" + server, absl::Seconds(10));
  }

  bool ok() const { return arena_ && arena_->ok() && web_port_ > 0; }
  int web_port() const { return web_port_; }
  std::string web_url() const { return "http://127.0.0.1:" + std::to_string(web_port_); }
  Subprocess& web() { return *web_; }
  std::unique_ptr<v1::ArenaService::Stub> Arena() {
    return v1::ArenaService::NewStub(arena_->channel());
  }
  std::unique_ptr<v1::GameStateService::Stub> GameState() {
    return v1::GameStateService::NewStub(game_state_->channel());
  }
  std::string Logs() {
    std::string all;
    for (auto* p : {game_state_.get(), bot_.get(), gateway_.get(), arena_.get()}) {
      if (p) all += p->process().Stderr();
    }
    if (web_) all += web_->Stderr();
    return all;
  }

 private:
  std::vector<std::string> WithMetrics(const std::string& server, std::vector<std::string> flags) {
    flags.push_back("--metrics_port=0");
    flags.push_back("--metrics_port_file=" + metrics_dir_ + "/" + server);
    return flags;
  }

  TestDatabase db_;
  std::string metrics_dir_;
  std::unique_ptr<Subprocess> mock_;
  std::unique_ptr<ServerProcess> game_state_, bot_, gateway_, arena_;
  std::unique_ptr<Subprocess> web_;
  int web_port_ = 0;
};

struct HttpReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

// One request on a fresh connection; status 0 when the server could not be reached.
HttpReply HttpCall(int port, const std::string& method, const std::string& target,
                   const std::string& body = "",
                   const std::map<std::string, std::string>& headers = {});

// A Server-Sent Events stream read frame by frame.
class SseReader {
 public:
  struct Frame {
    std::string event, id, data;  // event "comment" for a ":" line
  };
  SseReader(int port, const std::string& target,
            const std::map<std::string, std::string>& headers = {});
  ~SseReader();
  int status() const { return status_; }
  // The next frame (keep-alive comments included), or nullopt when none came in `timeout` or
  // the stream ended.
  std::optional<Frame> Next(absl::Duration timeout);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int status_ = 0;
};

}  // namespace arena::testing
