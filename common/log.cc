#include "common/log.h"

#include <unistd.h>

#include <atomic>
#include <mutex>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace arena::common {
namespace {

std::mutex g_mu;
std::string g_service = "arena";  // guarded by g_mu
std::atomic<int> g_min_level{static_cast<int>(LogLevel::kInfo)};

std::string_view LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kError:
      return "error";
  }
  return "info";
}

}  // namespace

void InitLogging(std::string_view service, LogLevel min_level) {
  std::lock_guard<std::mutex> lock(g_mu);
  g_service = std::string(service);
  g_min_level = static_cast<int>(min_level);
}

bool ParseLogLevel(std::string_view text, LogLevel* level) {
  for (LogLevel l : {LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarning, LogLevel::kError}) {
    if (text == LevelName(l)) {
      *level = l;
      return true;
    }
  }
  return false;
}

std::string FormatLogLine(LogLevel level, std::string_view service, std::string_view message,
                          const nlohmann::json& fields, std::string_view timestamp) {
  nlohmann::json line = nlohmann::json::object();
  line["ts"] = timestamp;
  line["level"] = LevelName(level);
  line["service"] = service;
  line["msg"] = message;
  if (fields.is_object()) {
    for (const auto& [key, value] : fields.items()) {
      if (!line.contains(key)) line[key] = value;
    }
  }
  // Replace invalid UTF-8 instead of throwing: a log line must never take a server down.
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool LogEnabled(LogLevel level) {
  return static_cast<int>(level) >= g_min_level.load(std::memory_order_relaxed);
}

void Log(LogLevel level, std::string_view message, nlohmann::json fields) {
  if (static_cast<int>(level) < g_min_level.load(std::memory_order_relaxed)) return;
  std::string ts = absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::Now(), absl::UTCTimeZone());
  std::lock_guard<std::mutex> lock(g_mu);
  std::string line = FormatLogLine(level, g_service, message, fields, ts);
  line.push_back('\n');
  // One write per line so lines from several processes sharing a file do not interleave.
  ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

}  // namespace arena::common
