// Process configuration: absl flags, each of which may also come from an ARENA_* environment
// variable (flag `database_url` <- ARENA_DATABASE_URL). A flag given on the command line wins
// over the environment. A bad value in either is a clear startup error naming the flag.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace arena::common {

// The environment variable that feeds a flag: "ARENA_" + upper-case name.
std::string EnvNameForFlag(std::string_view flag_name);

// Parses flags for `service` (usage text), after folding in ARENA_* variables for every flag
// defined in this program. On a bad flag or value prints the reason to stderr and exits 2.
// Returns the positional arguments (argv[0] first).
std::vector<std::string> InitConfig(int argc, char** argv, std::string_view usage);

// A TCP port flag: 0 (pick any free one) to 65535.
absl::Status ValidatePort(int port, std::string_view flag_name);

}  // namespace arena::common
