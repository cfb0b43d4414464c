// arena-web: the HTTP/JSON and Server-Sent Events edge in front of arena and game-state, and
// the page (docs/web.md). It holds no state of its own and no credential: every call is made
// with the caller's own bearer token or seat credential, and arena and game-state decide.
#include <signal.h>
#include <sys/resource.h>

#include <fstream>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "boost/asio/io_context.hpp"
#include "boost/asio/post.hpp"
#include "common/config.h"
#include "common/flags.h"
#include "common/grpc_util.h"
#include "common/log.h"
#include "services/common/metrics_endpoint.h"
#include "services/common/server.h"
#include "services/common/startup.h"
#include "services/web/feed_hub.h"
#include "services/web/http_server.h"
#include "services/web/rpc_bridge.h"
#include "services/web/static_files.h"

ABSL_FLAG(std::string, arena_addr, "127.0.0.1:50054", "arena's gRPC address.");
ABSL_FLAG(std::string, game_state_addr, "127.0.0.1:50051", "arena-game-state's gRPC address.");
ABSL_FLAG(std::string, static_dir, "services/web/page", "The page's files (read once at start).");
ABSL_FLAG(int, max_header_bytes, 8 << 10, "Largest request header block (431 past it).");
ABSL_FLAG(int, max_body_bytes, 64 << 10, "Largest request body (413 past it).");
ABSL_FLAG(double, requests_burst, 200, "Requests one address may make at once.");
ABSL_FLAG(double, requests_per_second, 50, "Requests one address regains a second.");
ABSL_FLAG(int, streams_per_address, 64, "Event streams one address may hold open.");
ABSL_FLAG(int, max_connections, 20000, "Connections open at once (more are closed at accept).");
ABSL_FLAG(int, read_timeout_ms, 30000, "A request not read in this time closes its connection.");
ABSL_FLAG(int, sse_keepalive_ms, 15000, "A keep-alive comment on every stream this often.");
ABSL_FLAG(int, rpc_deadline_ms, 10000, "Deadline of every call to arena and game-state.");
ABSL_FLAG(int, max_queued_frames, 2048, "Frames a slow stream may have queued before it is cut.");

int main(int argc, char** argv) {
  using namespace arena;
  using namespace arena::common;
  BlockShutdownSignals();
  InitConfig(argc, argv, "arena-web: the HTTP/JSON and Server-Sent Events edge, and the page");
  ServerOptions server_options = ServerOptionsFromFlags("arena-web");
  // Every open stream is a socket: take all the descriptors the system allows.
  if (rlimit nofile; getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
    nofile.rlim_cur = nofile.rlim_max;
    (void)setrlimit(RLIMIT_NOFILE, &nofile);
  }

  auto positive = [](int v, const char* name) {
    if (v <= 0) DieAtStartup(absl::InvalidArgumentError(absl::StrCat("--", name, " must be > 0")));
    return v;
  };
  web::WebServerOptions options;
  options.host = server_options.host;
  options.port = server_options.port;
  options.max_header_bytes = positive(absl::GetFlag(FLAGS_max_header_bytes), "max_header_bytes");
  options.max_body_bytes = positive(absl::GetFlag(FLAGS_max_body_bytes), "max_body_bytes");
  options.requests_per_address = {absl::GetFlag(FLAGS_requests_burst),
                                  absl::GetFlag(FLAGS_requests_per_second)};
  if (options.requests_per_address.burst < 1 || options.requests_per_address.per_second <= 0) {
    DieAtStartup(
        absl::InvalidArgumentError("--requests_burst must be >= 1 and --requests_per_second > 0"));
  }
  options.max_streams_per_address =
      positive(absl::GetFlag(FLAGS_streams_per_address), "streams_per_address");
  options.max_connections = positive(absl::GetFlag(FLAGS_max_connections), "max_connections");
  options.read_timeout =
      absl::Milliseconds(positive(absl::GetFlag(FLAGS_read_timeout_ms), "read_timeout_ms"));
  options.max_queued_frames =
      static_cast<size_t>(positive(absl::GetFlag(FLAGS_max_queued_frames), "max_queued_frames"));
  const absl::Duration deadline =
      absl::Milliseconds(positive(absl::GetFlag(FLAGS_rpc_deadline_ms), "rpc_deadline_ms"));

  web::StaticFiles files = ValueOrDie(web::StaticFiles::Load(absl::GetFlag(FLAGS_static_dir)));
  auto arena_channel = MakeChannel(absl::GetFlag(FLAGS_arena_addr));
  auto game_state_channel = MakeChannel(absl::GetFlag(FLAGS_game_state_addr));
  web::RpcBridge bridge(arena_channel, game_state_channel, deadline);

  boost::asio::io_context io(1);
  web::FeedHubOptions hub_options;
  hub_options.keepalive =
      absl::Milliseconds(positive(absl::GetFlag(FLAGS_sse_keepalive_ms), "sse_keepalive_ms"));
  hub_options.rpc_deadline = deadline;
  {
    web::FeedHub hub(io, game_state_channel, hub_options);
    web::WebServer server(io, options, &bridge, &files, &hub);
    CheckOrDie(server.Start());
    WritePortFile(server_options.port_file, server.port());
    // Prometheus' port (services/common/metrics_endpoint.h), apart from the browsers' one.
    std::unique_ptr<MetricsEndpoint> metrics;
    if (server_options.metrics_port >= 0) {
      metrics =
          ValueOrDie(MetricsEndpoint::Start(server_options.host, server_options.metrics_port));
      WritePortFile(server_options.metrics_port_file, metrics->port());
    }
    LogInfo("serving", {{"address", absl::StrCat(options.host, ":", server.port())},
                        {"url", absl::StrCat("http://", options.host, ":", server.port(), "/")},
                        {"static_files", files.size()},
                        {"version", ArenaVersion()}});

    // The signals are blocked in every thread; this one takes them and stops the I/O loop.
    std::thread waiter([&] {
      sigset_t set;
      sigemptyset(&set);
      sigaddset(&set, SIGTERM);
      sigaddset(&set, SIGINT);
      int sig = 0;
      sigwait(&set, &sig);
      LogInfo("shutting down", {{"signal", sig == SIGTERM ? "SIGTERM" : "SIGINT"}});
      boost::asio::post(io, [&] {
        server.Stop();
        hub.Shutdown();
        io.stop();
      });
    });
    io.run();
    waiter.join();
  }
  // Let cancelled upstream calls finish their callbacks before the loop they post to goes.
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  LogInfo("stopped");
  return 0;
}
