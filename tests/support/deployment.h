// Every process of a deployment on a fresh PostgreSQL, each restartable on its own port:
// arena-game-state, arena-bot, arena-llm-gateway (against arena-mock-abacus) and arena, as
// the end-to-end tests run them; with `replicas` 2, two game-state ("game-state",
// "game-state-2") and two arena ("arena", "arena-2") processes share the database as
// replicas (docs/operations.md, "Scaling").
#pragma once

#include <signal.h>

#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "tests/support/arena_client.h"
#include "tests/support/server_process.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace arena::testing {

inline constexpr char kPlatformKey[] = "plat-SECRET-e2e-41c7d9";
inline constexpr char kOwnKey[] = "own-SECRET-e2e-93b1f0";

inline std::string WriteFile(const std::string& text) {
  std::string path = MakeTempDir("e2e-file") + "/f";
  std::ofstream(path) << text << "\n";
  return path;
}

// Every process of a deployment, each restartable on its own port.
class Deployment {
 public:
  // `arena_extra`, `game_state_extra`: flags added to arena's and game-state's (e.g. a faster
  // ranked loop, a longer first-move window).
  explicit Deployment(std::vector<std::string> arena_extra = {},
                      std::vector<std::string> game_state_extra = {}, int replicas = 1)
      : arena_extra_(std::move(arena_extra)),
        game_state_extra_(std::move(game_state_extra)),
        replicas_(replicas) {
    if (!db_.ok()) return;
    std::string dir = MakeTempDir("mock-abacus");
    mock_port_file_ = dir + "/port";
    mock_ = std::make_unique<Subprocess>(std::vector<std::string>{
        ARENA_MOCK_ABACUS_BIN, "--port=0", "--port_file=" + mock_port_file_,
        std::string("--keys=") + kPlatformKey + ":1000000000," + kOwnKey + ":1000000000",
        "--slow_ms=200"});
    mock_port_ = WaitForPortFile(mock_port_file_, absl::Seconds(30));
    if (mock_port_ <= 0) return;
    Start("game-state");
    if (replicas_ > 1) Start("game-state-2");
    Start("bot");
    Start("gateway");
    Start("arena");
    if (replicas_ > 1) Start("arena-2");
  }

  bool ok() const {
    if (!db_.ok() || mock_port_ <= 0) return false;
    for (const auto& [name, p] : servers_) {
      if (!p || !p->ok()) return false;
    }
    return servers_.size() == (replicas_ > 1 ? 6u : 4u);
  }

  std::vector<std::string> FlagsOf(const std::string& name) {
    auto port = [&](const std::string& n) {
      return ports_.count(n) ? "--port=" + std::to_string(ports_[n]) : std::string("--port=0");
    };
    const bool second = absl::EndsWith(name, "-2");
    if (absl::StartsWith(name, "game-state")) {
      std::vector<std::string> f = {port(name), "--database_url=" + db_.url(), "--keepalive_ms=200",
                                    "--restart_grace_ms=300", "--log_level=warning"};
      if (replicas_ > 1) {
        // Short leases, so a killed replica's games move within seconds.
        f.insert(f.end(), {"--sole_replica=false", "--replica_id=gs-" + name, "--lease_ttl_ms=1500",
                           "--lease_renew_ms=200"});
      }
      f.insert(f.end(), game_state_extra_.begin(), game_state_extra_.end());
      return f;
    }
    if (name == "bot") return {port(name), "--log_level=warning"};
    if (name == "gateway") {
      return {port(name),
              "--abacus_base_url=http://127.0.0.1:" + std::to_string(mock_port_) + "/v1",
              "--abacus_api_key_file=" + WriteFile(kPlatformKey),
              "--retry_base_ms=20",
              "--retry_max_ms=200",
              "--log_level=warning"};
    }
    std::vector<std::string> f = ArenaFlags(db_.url());
    f.push_back(port(name));
    if (replicas_ > 1) {
      // Each arena talks to its own game-state replica first and to the other when that one
      // is gone (gRPC's ipv4 resolver: pick the first address that answers).
      const std::string mine = second ? "game-state-2" : "game-state";
      const std::string other = second ? "game-state" : "game-state-2";
      f.push_back("--game_state_addr=ipv4:" + Address(mine) + "," + Address(other));
      f.insert(f.end(), {"--sole_replica=false", "--replica_id=" + name,
                         "--driver_lease_ttl_ms=1500", "--driver_lease_renew_ms=200"});
    } else {
      f.push_back("--game_state_addr=" + Address("game-state"));
    }
    f.push_back("--bot_addr=" + Address("bot"));
    f.push_back("--gateway_addr=" + Address("gateway"));
    f.push_back("--league_tick_ms=100");
    f.push_back("--bot_time_cap_ms=300");
    f.insert(f.end(), arena_extra_.begin(), arena_extra_.end());
    return f;
  }

  void Start(const std::string& name) {
    static const std::map<std::string, std::string> kBinary = {
        {"game-state", ARENA_GAME_STATE_BIN},
        {"game-state-2", ARENA_GAME_STATE_BIN},
        {"bot", ARENA_BOT_BIN},
        {"gateway", ARENA_GATEWAY_BIN},
        {"arena", ARENA_ARENA_BIN},
        {"arena-2", ARENA_ARENA_BIN}};
    auto p = std::make_unique<ServerProcess>(kBinary.at(name), FlagsOf(name));
    if (p->ok()) ports_[name] = p->port();
    servers_[name] = std::move(p);
  }

  // SIGKILL, then the same binary on the same port.
  void KillAndRestart(const std::string& name) {
    Kill(name);
    logs_ += servers_[name]->process().Stderr();
    Start(name);
  }
  // SIGKILL, and nothing started in its place (its log stays in AllLogs).
  void Kill(const std::string& name) {
    servers_[name]->process().Signal(SIGKILL);
    servers_[name]->process().Wait(absl::Seconds(10));
  }

  std::string Address(const std::string& name) {
    return "127.0.0.1:" + std::to_string(ports_[name]);
  }
  std::unique_ptr<v1::ArenaService::Stub> Arena(const std::string& name = "arena") {
    return v1::ArenaService::NewStub(servers_[name]->channel());
  }
  std::unique_ptr<v1::GameStateService::Stub> GameState(const std::string& name = "game-state") {
    return v1::GameStateService::NewStub(servers_[name]->channel());
  }
  std::string AllLogs() {
    std::string all = logs_ + mock_->Stderr();
    for (auto& [n, p] : servers_) all += p->process().Stderr();
    return all;
  }
  const TestDatabase& db() const { return db_; }
  ServerProcess& server(const std::string& name) { return *servers_[name]; }

 private:
  TestDatabase db_;
  std::string mock_port_file_;
  std::unique_ptr<Subprocess> mock_;
  int mock_port_ = 0;
  std::map<std::string, std::unique_ptr<ServerProcess>> servers_;
  std::map<std::string, int> ports_;
  std::string logs_;  // of processes that were killed
  std::vector<std::string> arena_extra_;
  std::vector<std::string> game_state_extra_;
  int replicas_ = 1;
};

}  // namespace arena::testing
