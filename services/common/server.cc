#include "services/common/server.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "arena/v1/common.grpc.pb.h"
#include "common/log.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "services/common/callback_heartbeat.h"
#include "services/common/grpc_metrics.h"
#include "services/common/metrics_endpoint.h"

#ifndef ARENA_VERSION
#define ARENA_VERSION "0.0.0"
#endif
#ifndef ARENA_GIT_COMMIT
#define ARENA_GIT_COMMIT "unknown"
#endif

namespace arena::common {
namespace {

class InfoServiceImpl final : public arena::v1::InfoService::CallbackService {
 public:
  InfoServiceImpl(std::string service, std::vector<std::string> games) {
    info_.set_service(std::move(service));
    info_.set_version(ArenaVersion());
    info_.set_git_commit(ArenaGitCommit());
    absl::Time now = absl::Now();
    info_.mutable_started_at()->set_seconds(absl::ToUnixSeconds(now));
    for (auto& g : games) info_.add_games(std::move(g));
  }

  grpc::ServerUnaryReactor* GetServerInfo(grpc::CallbackServerContext* context,
                                          const arena::v1::GetServerInfoRequest*,
                                          arena::v1::ServerInfo* reply) override {
    *reply = info_;
    auto* reactor = context->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }

 private:
  arena::v1::ServerInfo info_;
};

sigset_t ShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

void WritePortFile(const std::string& path, int port) {
  if (path.empty()) return;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << port << "\n";
  }
  std::rename(tmp.c_str(), path.c_str());
}

std::string ArenaVersion() {
  return ARENA_VERSION;
}
std::string ArenaGitCommit() {
  return ARENA_GIT_COMMIT;
}

void BlockShutdownSignals() {
  sigset_t set = ShutdownSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

void InitServiceLogging(const std::string& service, const std::string& level) {
  LogLevel l;
  if (!ParseLogLevel(level, &l)) {
    std::fprintf(stderr,
                 "startup error: --log_level=%s is not one of debug, info, warning, error\n",
                 level.c_str());
    std::exit(2);
  }
  InitLogging(service, l);
}

absl::Status MakeProcessUndumpable() {
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) return absl::InternalError("PR_SET_DUMPABLE failed");
  struct rlimit none = {0, 0};
  if (setrlimit(RLIMIT_CORE, &none) != 0) return absl::InternalError("RLIMIT_CORE failed");
  return absl::OkStatus();
}

absl::Status RunServer(const ServerOptions& options) {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();

  InfoServiceImpl info(options.service_name, options.games);
  grpc::ServerBuilder builder;
  int bound_port = 0;
  std::string address = absl::StrCat(options.host, ":", options.port);
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &bound_port);
  builder.RegisterService(&info);
  for (grpc::Service* s : options.services) builder.RegisterService(s);
  builder.SetMaxReceiveMessageSize(16 << 20);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(GrpcMetricsInterceptor());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (!server || bound_port == 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", address));
  }
  server->GetHealthCheckService()->SetServingStatus(true);
  // Without it a service called about once a second answers some calls 100 ms late.
  auto heartbeat = CallbackHeartbeat::Start(server->InProcessChannel(grpc::ChannelArguments()));
  std::unique_ptr<MetricsEndpoint> metrics;
  if (options.metrics_port >= 0) {
    auto started = MetricsEndpoint::Start(options.host, options.metrics_port);
    if (!started.ok()) {
      server->Shutdown();
      return started.status();
    }
    metrics = *std::move(started);
    WritePortFile(options.metrics_port_file, metrics->port());
    LogInfo("metrics", {{"address", absl::StrCat(options.host, ":", metrics->port())}});
  }
  if (options.on_serving) options.on_serving(bound_port);
  WritePortFile(options.port_file, bound_port);
  LogInfo("serving",
          {{"address", absl::StrCat(options.host, ":", bound_port)}, {"version", ArenaVersion()}});

  sigset_t set = ShutdownSignals();
  int sig = 0;
  sigwait(&set, &sig);
  LogInfo("shutting down", {{"signal", sig == SIGTERM ? "SIGTERM" : "SIGINT"}});
  server->GetHealthCheckService()->SetServingStatus(false);
  if (options.on_shutdown) options.on_shutdown();
  heartbeat.reset();  // its calls go to this server
  server->Shutdown(std::chrono::system_clock::now() +
                   absl::ToChronoMilliseconds(options.drain_timeout));
  server->Wait();
  metrics.reset();
  LogInfo("stopped");
  return absl::OkStatus();
}

}  // namespace arena::common
