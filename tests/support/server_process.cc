#include "tests/support/server_process.h"

#include <signal.h>

#include "absl/time/clock.h"
#include "common/grpc_util.h"
#include "gtest/gtest.h"
#include "services/common/service_auth.h"

namespace arena::testing {

ServerProcess::ServerProcess(const std::string& binary, std::vector<std::string> flags,
                             std::map<std::string, std::string> env) {
  std::string port_file = MakeTempDir("arena-port") + "/port";
  std::vector<std::string> argv = {binary, "--port=0", "--port_file=" + port_file,
                                   "--secrets_dir=" + TestSecretsDir()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  process_ = std::make_unique<Subprocess>(argv, env);
  // ASan builds start slowly on a busy machine.
  absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (absl::Now() < deadline) {
    port_ = WaitForPortFile(port_file, absl::Milliseconds(200));
    if (port_ > 0 || !process_->Running()) break;
  }
  if (port_ == 0) {
    ADD_FAILURE() << binary << " did not start serving:\n" << process_->Stderr();
  }
}

std::shared_ptr<grpc::Channel> ServerProcess::channel() const {
  return common::MakeChannel(address());
}

std::optional<int> ServerProcess::Stop(absl::Duration timeout) {
  process_->Signal(SIGTERM);
  return process_->Wait(timeout);
}

const std::string& TestSecretsDir() {
  static const std::string* dir = [] {
    auto* d = new std::string(MakeTempDir("arena-secrets") + "/secrets");
    absl::Status s = common::EnsureServiceSecrets(*d);
    if (!s.ok()) ADD_FAILURE() << s;
    return d;
  }();
  return *dir;
}

void AttachServiceCredential(grpc::ClientContext& ctx, const std::string& service) {
  auto id = common::ServiceIdentity::Load(TestSecretsDir(), service);
  if (!id.ok()) {
    ADD_FAILURE() << id.status();
    return;
  }
  id->Attach(ctx);
}

}  // namespace arena::testing
