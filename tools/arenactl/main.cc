// arenactl: the command-line client for players, spectators and admins.
//
//   arenactl health      health and version of every server
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "arena/v1/common.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "services/common/config.h"
#include "services/common/grpc_util.h"

ABSL_FLAG(std::string, game_state_addr, "127.0.0.1:7101", "arena-game-state address.");
ABSL_FLAG(std::string, bot_addr, "127.0.0.1:7102", "arena-bot address.");
ABSL_FLAG(std::string, gateway_addr, "127.0.0.1:7103", "arena-llm-gateway address.");
ABSL_FLAG(std::string, arena_addr, "127.0.0.1:7100", "arena address.");
ABSL_FLAG(int, timeout_ms, 3000, "Deadline of each call.");

namespace {

using arena::common::SetDeadline;

struct Endpoint {
  std::string name;
  std::string address;
};

// Prints one row per server; returns the number that are not healthy.
int Health() {
  std::vector<Endpoint> endpoints = {
      {"arena", absl::GetFlag(FLAGS_arena_addr)},
      {"arena-game-state", absl::GetFlag(FLAGS_game_state_addr)},
      {"arena-bot", absl::GetFlag(FLAGS_bot_addr)},
      {"arena-llm-gateway", absl::GetFlag(FLAGS_gateway_addr)},
  };
  absl::Duration timeout = absl::Milliseconds(absl::GetFlag(FLAGS_timeout_ms));
  std::printf("%-18s %-22s %-12s %-10s %-10s %s\n", "SERVICE", "ADDRESS", "HEALTH", "VERSION",
              "COMMIT", "GAMES");
  int unhealthy = 0;
  for (const Endpoint& e : endpoints) {
    auto channel = arena::common::MakeChannel(e.address);
    grpc::health::v1::HealthCheckRequest req;
    grpc::health::v1::HealthCheckResponse resp;
    grpc::ClientContext hctx;
    SetDeadline(hctx, timeout);
    grpc::Status hs = grpc::health::v1::Health::NewStub(channel)->Check(&hctx, req, &resp);
    std::string health =
        hs.ok() ? grpc::health::v1::HealthCheckResponse::ServingStatus_Name(resp.status())
                : absl::StrCat("DOWN(", hs.error_code(), ")");
    arena::v1::ServerInfo info;
    grpc::ClientContext ictx;
    SetDeadline(ictx, timeout);
    grpc::Status is = arena::v1::InfoService::NewStub(channel)->GetServerInfo(
        &ictx, arena::v1::GetServerInfoRequest(), &info);
    std::string games;
    for (const auto& g : info.games()) games += (games.empty() ? "" : ",") + g;
    bool ok = hs.ok() && resp.status() == grpc::health::v1::HealthCheckResponse::SERVING &&
              is.ok() && info.service() == e.name;
    if (!ok) ++unhealthy;
    std::printf("%-18s %-22s %-12s %-10s %-10s %s\n", e.name.c_str(), e.address.c_str(),
                health.c_str(), is.ok() ? info.version().c_str() : "-",
                is.ok() ? info.git_commit().c_str() : "-", games.empty() ? "-" : games.c_str());
  }
  return unhealthy;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args = arena::common::InitConfig(
      argc, argv,
      "arenactl COMMAND [flags]\n\nCommands:\n  health   health and version of every server");
  if (args.size() < 2) {
    std::fprintf(stderr, "usage: arenactl COMMAND (try --help)\n");
    return 2;
  }
  const std::string& command = args[1];
  if (command == "health") return Health() == 0 ? 0 : 1;
  std::fprintf(stderr, "arenactl: unknown command '%s'\n", command.c_str());
  return 2;
}
