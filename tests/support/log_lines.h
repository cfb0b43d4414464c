// Test support: read a server's JSON-lines log and count the lines that match.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace arena::testing {

inline std::vector<nlohmann::json> ParseLogLines(const std::string& text) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    auto parsed = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_object()) lines.push_back(std::move(parsed));
  }
  return lines;
}

// Lines whose fields include every key/value of `match` (e.g. {{"msg","stopped"}}).
inline int CountLogLines(const std::string& text, const nlohmann::json& match) {
  int n = 0;
  for (const auto& line : ParseLogLines(text)) {
    bool all = true;
    for (const auto& [k, v] : match.items()) {
      if (!line.contains(k) || line[k] != v) all = false;
    }
    n += all ? 1 : 0;
  }
  return n;
}

}  // namespace arena::testing
