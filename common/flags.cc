#include "common/flags.h"

#include <cstdio>
#include <cstdlib>

#include "absl/flags/flag.h"
#include "common/config.h"

ABSL_FLAG(std::string, host, "127.0.0.1", "Address to listen on.");
ABSL_FLAG(int, port, 0, "TCP port to listen on; 0 picks a free one.");
ABSL_FLAG(std::string, port_file, "", "Write the bound port to this file once serving.");
ABSL_FLAG(std::string, log_level, "info", "Minimum log level: debug, info, warning, error.");
ABSL_FLAG(std::string, secrets_dir, ".arena/secrets",
          "Directory of per-deployment service secrets (<service>.secret).");
ABSL_FLAG(int, metrics_port, -1,
          "Serve Prometheus metrics over plain HTTP on this port of --host (GET /metrics); "
          "-1 none, 0 a free one.");
ABSL_FLAG(std::string, metrics_port_file, "",
          "Write the bound metrics port to this file once serving.");
ABSL_FLAG(int, drain_seconds, 10, "How long in-flight calls may take to finish at shutdown.");

namespace arena::common {

ServerOptions ServerOptionsFromFlags(const std::string& service) {
  InitServiceLogging(service, absl::GetFlag(FLAGS_log_level));
  ServerOptions options;
  options.service_name = service;
  options.host = absl::GetFlag(FLAGS_host);
  options.port = absl::GetFlag(FLAGS_port);
  options.port_file = absl::GetFlag(FLAGS_port_file);
  if (absl::Status s = ValidatePort(options.port, "port"); !s.ok()) {
    std::fprintf(stderr, "startup error: %s\n", std::string(s.message()).c_str());
    std::exit(2);
  }
  options.metrics_port = absl::GetFlag(FLAGS_metrics_port);
  options.metrics_port_file = absl::GetFlag(FLAGS_metrics_port_file);
  if (options.metrics_port != -1) {
    if (absl::Status s = ValidatePort(options.metrics_port, "metrics_port"); !s.ok()) {
      std::fprintf(stderr, "startup error: %s\n", std::string(s.message()).c_str());
      std::exit(2);
    }
  }
  int drain = absl::GetFlag(FLAGS_drain_seconds);
  if (drain < 0 || drain > 3600) {
    std::fprintf(stderr, "startup error: --drain_seconds=%d must be within 0..3600\n", drain);
    std::exit(2);
  }
  options.drain_timeout = absl::Seconds(drain);
  return options;
}

}  // namespace arena::common
