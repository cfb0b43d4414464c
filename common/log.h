// JSON-lines logging: one object per line on stderr, with a timestamp, level, service name,
// message and fields. Thread-safe. Never pass a secret as a field: the logger cannot tell.
#pragma once

#include <string>
#include <string_view>

#include "nlohmann/json.hpp"

namespace arena::common {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

// Sets the service name stamped on every line and the minimum level written.
void InitLogging(std::string_view service, LogLevel min_level = LogLevel::kInfo);
bool ParseLogLevel(std::string_view text, LogLevel* level);

// Whether a line at `level` would be written: lets a hot path skip building its fields.
bool LogEnabled(LogLevel level);

void Log(LogLevel level, std::string_view message,
         nlohmann::json fields = nlohmann::json::object());
inline void LogInfo(std::string_view m, nlohmann::json f = nlohmann::json::object()) {
  Log(LogLevel::kInfo, m, std::move(f));
}
inline void LogWarning(std::string_view m, nlohmann::json f = nlohmann::json::object()) {
  Log(LogLevel::kWarning, m, std::move(f));
}
inline void LogError(std::string_view m, nlohmann::json f = nlohmann::json::object()) {
  Log(LogLevel::kError, m, std::move(f));
}
inline void LogDebug(std::string_view m, nlohmann::json f = nlohmann::json::object()) {
  Log(LogLevel::kDebug, m, std::move(f));
}

// Formats one log line (without the newline); exposed for tests.
std::string FormatLogLine(LogLevel level, std::string_view service, std::string_view message,
                          const nlohmann::json& fields, std::string_view timestamp);

}  // namespace arena::common
