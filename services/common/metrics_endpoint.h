// The plain-HTTP port Prometheus scrapes: `GET /metrics` answers the registry's text exposition,
// `GET /healthz` answers "ok", anything else 404 (405 for another method). One thread answers
// one connection at a time and closes it after the answer, which is all a scraper needs; a
// client whose request head has not arrived within two seconds is dropped, and a request head over
// 8 KiB is refused (431), so a stuck or hostile client cannot hold the port for long.
//
// It serves on the server's own host (`--host`, loopback by default), on `--metrics_port`.
// The metrics carry no secret and no player's data: counts, latencies and sums by method, game
// or outcome.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "services/common/metrics.h"

namespace arena::common {

class MetricsEndpoint {
 public:
  // Listens on host:port (0 picks a free port) and serves until the object is destroyed.
  static absl::StatusOr<std::unique_ptr<MetricsEndpoint>> Start(
      const std::string& host, int port, MetricsRegistry& registry = MetricsRegistry::Global());
  ~MetricsEndpoint();
  MetricsEndpoint(const MetricsEndpoint&) = delete;
  MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

  int port() const { return port_; }

 private:
  MetricsEndpoint(int listen_fd, int wake_fd, int port, MetricsRegistry& registry);
  void Loop();
  void Answer(int fd);

  const int listen_fd_;
  const int wake_fd_;  // an eventfd written to stop the loop
  const int port_;
  MetricsRegistry& registry_;
  std::thread thread_;
};

}  // namespace arena::common
