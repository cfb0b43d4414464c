// The gRPC server bootstrap every Chestonia Arena binary shares: listening address, health
// checking (grpc.health.v1), reflection, the InfoService, request metrics per method and the
// /metrics port (grpc_metrics.h, metrics_endpoint.h), and a clean shutdown on SIGTERM or SIGINT
// that stops accepting calls, drains the ones in flight and returns 0.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"

namespace arena::common {

struct ServerOptions {
  std::string service_name;  // "arena-game-state", ...
  std::string host = "127.0.0.1";
  int port = 0;           // 0 picks a free port
  std::string port_file;  // when set, the bound port is written here once serving
  // Prometheus' plain-HTTP port on `host` (metrics_endpoint.h): -1 none, 0 a free one. Every
  // gRPC call is counted and timed per method whether or not the port is served.
  int metrics_port = -1;
  std::string metrics_port_file;  // when set, the bound metrics port is written here
  absl::Duration drain_timeout = absl::Seconds(10);
  std::vector<grpc::Service*> services;
  std::vector<std::string> games;  // reported by InfoService
  // Called after the signal, before the server stops (e.g. to stop background loops).
  std::function<void()> on_shutdown;
  // Called with the bound port once the server listens, before the port file is written.
  std::function<void(int port)> on_serving;
};

// Blocks SIGTERM and SIGINT in the calling thread and every thread it starts later. Call it
// first in main(), before any thread exists, so the signals reach only the waiter.
void BlockShutdownSignals();

// Serves until SIGTERM/SIGINT. Returns OK after a clean drain.
absl::Status RunServer(const ServerOptions& options);

// Writes `port` to `path` (nothing when `path` is empty) through a rename, so a reader never
// sees a half-written file.
void WritePortFile(const std::string& path, int port);

// The version string compiled into every binary.
std::string ArenaVersion();
std::string ArenaGitCommit();

// Parses a --log_level flag value and initialises logging for `service`; exits 2 on a bad one.
void InitServiceLogging(const std::string& service, const std::string& level);

// Disables core dumps and ptrace attach for this process (secrets live in its memory).
absl::Status MakeProcessUndumpable();

}  // namespace arena::common
