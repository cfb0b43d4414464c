// Flags every server binary shares. Each may also be set by its ARENA_* variable
// (see config.h): ARENA_HOST, ARENA_PORT, ARENA_PORT_FILE, ARENA_LOG_LEVEL, ARENA_SECRETS_DIR,
// ARENA_METRICS_PORT.
#pragma once

#include <string>

#include "absl/flags/declare.h"
#include "absl/status/statusor.h"
#include "services/common/server.h"

ABSL_DECLARE_FLAG(std::string, host);
ABSL_DECLARE_FLAG(int, port);
ABSL_DECLARE_FLAG(std::string, port_file);
ABSL_DECLARE_FLAG(std::string, log_level);
ABSL_DECLARE_FLAG(std::string, secrets_dir);
ABSL_DECLARE_FLAG(int, metrics_port);
ABSL_DECLARE_FLAG(std::string, metrics_port_file);
ABSL_DECLARE_FLAG(int, drain_seconds);

namespace arena::common {

// Reads the shared flags, initialises logging for `service` and validates them; exits 2 with
// a clear message on a bad value. Returns ServerOptions with the listening fields filled in.
ServerOptions ServerOptionsFromFlags(const std::string& service);

}  // namespace arena::common
