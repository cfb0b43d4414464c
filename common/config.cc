#include "common/config.h"

#include <cstdio>
#include <cstdlib>

#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace arena::common {

std::string EnvNameForFlag(std::string_view flag_name) {
  std::string name(flag_name);
  absl::AsciiStrToUpper(&name);
  return "ARENA_" + name;
}

std::vector<std::string> InitConfig(int argc, char** argv, std::string_view usage) {
  absl::SetProgramUsageMessage(std::string(usage));
  // Environment values go first so that the same flag on the command line overrides them.
  std::vector<std::string> args;
  args.emplace_back(argc > 0 ? argv[0] : "arena");
  for (const auto& [absl_name, flag] : absl::GetAllFlags()) {
    std::string name(absl_name);
    std::string file(flag->Filename());
    if (file.find("absl/") != std::string::npos) continue;  // absl's own flags
    const char* value = std::getenv(EnvNameForFlag(name).c_str());
    if (value != nullptr) {
      std::string error;
      if (!flag->ParseFrom(value, &error)) {
        std::fprintf(stderr, "startup error: %s=%s is not a valid value for --%s: %s\n",
                     EnvNameForFlag(name).c_str(), value, name.c_str(), error.c_str());
        std::exit(2);
      }
    }
  }
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  std::vector<char*> raw;
  for (std::string& a : args) raw.push_back(a.data());
  raw.push_back(nullptr);
  std::vector<std::string> positional;
  for (char* p : absl::ParseCommandLine(static_cast<int>(args.size()), raw.data())) {
    positional.emplace_back(p);
  }
  return positional;
}

absl::Status ValidatePort(int port, std::string_view flag_name) {
  if (port < 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", std::string(flag_name), "=", port, " is not a TCP port (0..65535)"));
  }
  return absl::OkStatus();
}

}  // namespace arena::common
