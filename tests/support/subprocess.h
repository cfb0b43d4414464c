// Test support: run a real binary as a child process, with its stderr captured to a file,
// and stop it with a signal. Integration tests drive the servers exactly as users run them.
#pragma once

#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"

namespace arena::testing {

class Subprocess {
 public:
  // Starts `argv[0]` with `argv`, the current environment plus `env` (a value of "" unsets).
  Subprocess(std::vector<std::string> argv, std::map<std::string, std::string> env = {});
  ~Subprocess();  // kills the child (SIGKILL) if it is still running
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  pid_t pid() const { return pid_; }
  void Signal(int sig);
  // Waits for exit; returns the exit code, 128+signal when killed, nullopt on timeout.
  std::optional<int> Wait(absl::Duration timeout);
  bool Running();
  std::string Stderr() const;  // everything written to stderr so far
  const std::string& stderr_path() const { return stderr_path_; }

 private:
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  std::string stderr_path_;
};

// A fresh temporary directory (removed by nobody: tests run in throw-away machines and /tmp).
std::string MakeTempDir(const std::string& prefix);

// Waits until `path` holds a port number; returns 0 on timeout.
int WaitForPortFile(const std::string& path, absl::Duration timeout);

}  // namespace arena::testing
