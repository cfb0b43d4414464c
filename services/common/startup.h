// Small helpers for a server's main(): fail at startup with one clear line and exit code 2.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/log.h"

namespace arena::common {

[[noreturn]] inline void DieAtStartup(const absl::Status& status) {
  LogError("startup failed", {{"error", std::string(status.message())},
                              {"code", absl::StatusCodeToString(status.code())}});
  std::fprintf(stderr, "startup error: %s\n", std::string(status.message()).c_str());
  std::exit(2);
}

template <typename T>
T ValueOrDie(absl::StatusOr<T> value) {
  if (!value.ok()) DieAtStartup(value.status());
  return *std::move(value);
}

inline void CheckOrDie(const absl::Status& status) {
  if (!status.ok()) DieAtStartup(status);
}

}  // namespace arena::common
