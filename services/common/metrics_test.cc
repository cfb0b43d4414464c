// The metrics registry's exposition text, the /metrics port over a real socket, and the gRPC
// interceptor on a real server over loopback.
#include "services/common/metrics.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "arena/v1/common.grpc.pb.h"
#include "gmock/gmock.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "services/common/grpc_metrics.h"
#include "services/common/metrics_endpoint.h"

namespace arena::common {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(MetricsRegistryTest, CountersGaugesAndHistogramsInTheTextFormat) {
  MetricsRegistry r;
  auto& turns = r.Counters("arena_ai_turns_total", "AI turns.", {"kind", "outcome"});
  turns.With({"model", "ok"}).Add();
  turns.With({"model", "ok"}).Add(2);
  turns.With({"bot", "ok"}).Add();
  r.Gauges("arena_queue_length", "Queued.").Get().Set(7);
  auto& h = r.Histograms("arena_wait_seconds", "Waits.", {}, {0.1, 1});
  h.Get().Observe(0.0625);
  h.Get().Observe(0.5);
  h.Get().Observe(3);
  r.GaugeFunction("arena_games_live", "Games in memory.", [] { return 12.0; });

  const std::string text = r.Expose();
  EXPECT_THAT(text, HasSubstr("# HELP arena_ai_turns_total AI turns.\n"
                              "# TYPE arena_ai_turns_total counter\n"
                              "arena_ai_turns_total{kind=\"bot\",outcome=\"ok\"} 1\n"
                              "arena_ai_turns_total{kind=\"model\",outcome=\"ok\"} 3\n"));
  EXPECT_THAT(text, HasSubstr("# TYPE arena_queue_length gauge\narena_queue_length 7\n"));
  EXPECT_THAT(text, HasSubstr("arena_wait_seconds_bucket{le=\"0.1\"} 1\n"
                              "arena_wait_seconds_bucket{le=\"1\"} 2\n"
                              "arena_wait_seconds_bucket{le=\"+Inf\"} 3\n"
                              "arena_wait_seconds_sum 3.5625\n"
                              "arena_wait_seconds_count 3\n"));
  EXPECT_THAT(text, HasSubstr("# TYPE arena_games_live gauge\narena_games_live 12\n"));
  // Families come out sorted by name, each once.
  EXPECT_LT(text.find("arena_ai_turns_total"), text.find("arena_games_live"));
  EXPECT_EQ(text.find("# TYPE arena_queue_length"), text.rfind("# TYPE arena_queue_length"));
}

TEST(MetricsRegistryTest, AskingAgainGivesTheSameFamily) {
  MetricsRegistry r;
  r.Counters("arena_x_total", "first help", {"a"}).With({"1"}).Add();
  r.Counters("arena_x_total", "other help", {"b"}).With({"1"}).Add();
  EXPECT_THAT(r.Expose(), HasSubstr("# HELP arena_x_total first help\n"));
  EXPECT_THAT(r.Expose(), HasSubstr("arena_x_total{a=\"1\"} 2\n"));
}

TEST(MetricsRegistryTest, LabelValuesAreEscaped) {
  MetricsRegistry r;
  r.Counters("arena_y_total", "help with a \\ and\na newline", {"v"})
      .With({"quote \" slash \\ line\nend"})
      .Add();
  const std::string text = r.Expose();
  EXPECT_THAT(text, HasSubstr("# HELP arena_y_total help with a \\\\ and\\na newline\n"));
  EXPECT_THAT(text, HasSubstr("arena_y_total{v=\"quote \\\" slash \\\\ line\\nend\"} 1\n"));
}

TEST(MetricsRegistryTest, LabelValuesPastTheLimitFoldIntoOther) {
  MetricsRegistry r;
  auto& f = r.Counters("arena_z_total", "z", {"method"});
  for (size_t i = 0; i < MetricsRegistry::kMaxChildren + 50; ++i) {
    f.With({"/made.up/" + std::to_string(i)}).Add();
  }
  const std::string text = r.Expose();
  EXPECT_THAT(text, HasSubstr("arena_z_total{method=\"other\"} 50\n"));
  size_t lines = 0;
  for (char c : text) lines += c == '\n';
  EXPECT_EQ(lines, 2 + MetricsRegistry::kMaxChildren + 1);  // help, type, children, other
}

TEST(MetricsRegistryTest, AnUnsetGaugeFunctionWritesNoSample) {
  MetricsRegistry r;
  r.GaugeFunction("arena_games_live", "Games.", [] { return 3.0; });
  r.GaugeFunction("arena_games_live", "Games.", nullptr);  // its owner is gone
  EXPECT_THAT(r.Expose(), Not(HasSubstr("arena_games_live 3")));
}

// One HTTP/1.1 exchange with the endpoint; the whole answer (it closes the connection).
std::string Http(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return "connect failed";
  }
  (void)!::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) out.append(buf, size_t(n));
  ::close(fd);
  return out;
}

TEST(MetricsEndpointTest, ServesTheRegistryAndRefusesTheRest) {
  MetricsRegistry r;
  r.Counters("arena_served_total", "s").Get().Add(5);
  auto endpoint = MetricsEndpoint::Start("127.0.0.1", 0, r);
  ASSERT_TRUE(endpoint.ok()) << endpoint.status();
  const int port = (*endpoint)->port();
  ASSERT_GT(port, 0);

  const std::string ok = Http(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_THAT(ok, HasSubstr("HTTP/1.1 200 OK\r\n"));
  EXPECT_THAT(ok, HasSubstr("Content-Type: text/plain; version=0.0.4"));
  EXPECT_THAT(ok, HasSubstr("\r\n\r\n# HELP arena_served_total s\n"));
  EXPECT_THAT(ok, HasSubstr("arena_served_total 5\n"));
  r.Counters("arena_served_total", "s").Get().Add();
  EXPECT_THAT(Http(port, "GET /metrics?x=1 HTTP/1.0\r\n\r\n"), HasSubstr("arena_served_total 6\n"));

  EXPECT_THAT(Http(port, "GET /healthz HTTP/1.1\r\n\r\n"), HasSubstr("\r\n\r\nok\n"));
  EXPECT_THAT(Http(port, "GET /other HTTP/1.1\r\n\r\n"), HasSubstr("HTTP/1.1 404 "));
  EXPECT_THAT(Http(port, "POST /metrics HTTP/1.1\r\n\r\n"), HasSubstr("HTTP/1.1 405 "));
  EXPECT_THAT(Http(port, "nonsense\r\n\r\n"), HasSubstr("HTTP/1.1 400 "));
  EXPECT_THAT(Http(port, "GET /metrics HTTP/1.1\r\nX: " + std::string(9000, 'a') + "\r\n\r\n"),
              HasSubstr("HTTP/1.1 431 "));
  const std::string head = Http(port, "HEAD /metrics HTTP/1.1\r\n\r\n");
  EXPECT_THAT(head, HasSubstr("HTTP/1.1 200 OK\r\n"));
  EXPECT_THAT(head, Not(HasSubstr("arena_served_total")));
}

TEST(MetricsEndpointTest, ASilentClientDoesNotHoldThePort) {
  MetricsRegistry r;
  auto endpoint = MetricsEndpoint::Start("127.0.0.1", 0, r);
  ASSERT_TRUE(endpoint.ok()) << endpoint.status();
  const int port = (*endpoint)->port();
  const int silent = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(silent, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(Http(port, "GET /healthz HTTP/1.1\r\n\r\n"), HasSubstr("ok\n"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  ::close(silent);
}

class Info final : public arena::v1::InfoService::CallbackService {
 public:
  grpc::ServerUnaryReactor* GetServerInfo(grpc::CallbackServerContext* context,
                                          const arena::v1::GetServerInfoRequest* request,
                                          arena::v1::ServerInfo* reply) override {
    auto* reactor = context->DefaultReactor();
    reply->set_service("info");
    // A request naming a service is refused, so both outcomes can be counted.
    reactor->Finish(request->ByteSizeLong() == 0
                        ? grpc::Status::OK
                        : grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "no"));
    return reactor;
  }
};

TEST(GrpcMetricsTest, EveryCallIsCountedByMethodAndCodeAndTimed) {
  MetricsRegistry r;
  Info service;
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> creators;
  creators.push_back(GrpcMetricsInterceptor(r));
  builder.experimental().SetInterceptorCreators(std::move(creators));
  auto server = builder.BuildAndStart();
  ASSERT_NE(port, 0);
  auto stub = arena::v1::InfoService::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  for (int i = 0; i < 3; ++i) {
    grpc::ClientContext ctx;
    arena::v1::GetServerInfoRequest req;
    arena::v1::ServerInfo reply;
    EXPECT_TRUE(stub->GetServerInfo(&ctx, req, &reply).ok());
  }
  {
    grpc::ClientContext ctx;
    arena::v1::GetServerInfoRequest req;
    // Any field set makes the request non-empty; the unknown-field set is enough.
    req.GetReflection()->MutableUnknownFields(&req)->AddVarint(99, 1);
    arena::v1::ServerInfo reply;
    EXPECT_EQ(stub->GetServerInfo(&ctx, req, &reply).error_code(),
              grpc::StatusCode::INVALID_ARGUMENT);
  }
  server->Shutdown();
  const std::string text = r.Expose();
  const std::string m = "method=\"/arena.v1.InfoService/GetServerInfo\"";
  EXPECT_THAT(text, HasSubstr("arena_grpc_server_started_total{" + m + "} 4\n"));
  EXPECT_THAT(text, HasSubstr("arena_grpc_server_handled_total{" + m + ",code=\"OK\"} 3\n"));
  EXPECT_THAT(
      text, HasSubstr("arena_grpc_server_handled_total{" + m + ",code=\"INVALID_ARGUMENT\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("arena_grpc_server_handling_seconds_count{" + m + "} 4\n"));
  EXPECT_THAT(text,
              HasSubstr("arena_grpc_server_handling_seconds_bucket{" + m + ",le=\"+Inf\"} 4\n"));
}

}  // namespace
}  // namespace arena::common
