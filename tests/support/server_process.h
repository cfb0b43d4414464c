// Test support: one of our server binaries running as a child process on a loopback port.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "grpcpp/grpcpp.h"
#include "tests/support/subprocess.h"

namespace arena::testing {

class ServerProcess {
 public:
  // Starts `binary` with --port=0 and a port file, plus `flags`; waits until it serves.
  // ok() is false (and the test has a failure recorded) when it did not come up.
  ServerProcess(const std::string& binary, std::vector<std::string> flags,
                std::map<std::string, std::string> env = {});

  bool ok() const { return port_ > 0; }
  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  std::shared_ptr<grpc::Channel> channel() const;
  Subprocess& process() { return *process_; }
  // SIGTERM, then the exit code (nullopt if it did not exit in time).
  std::optional<int> Stop(absl::Duration timeout = absl::Seconds(20));

 private:
  std::unique_ptr<Subprocess> process_;
  int port_ = 0;
};

// The directory with every service's secret, created once per test binary.
const std::string& TestSecretsDir();

// Attaches `service`'s credential (from TestSecretsDir) to a call, so the test calls as that
// service; a secret that cannot be read fails the test.
void AttachServiceCredential(grpc::ClientContext& ctx, const std::string& service);

}  // namespace arena::testing
