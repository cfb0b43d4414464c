// The edge's HTTP behaviour against a real WebServer on loopback, with an in-process arena
// behind it: security headers, every limit's status, what reaches arena.
#include "services/web/http_server.h"

#include <thread>

#include "absl/time/clock.h"
#include "boost/asio/connect.hpp"
#include "boost/asio/read.hpp"
#include "boost/asio/write.hpp"
#include "boost/beast/core.hpp"
#include "boost/beast/http.hpp"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "services/web/fake_upstream_test.h"

namespace arena::web {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class WebServerTest : public ::testing::Test {
 protected:
  void SetUp() override { Start(WebServerOptions{}); }
  void TearDown() override {
    StopServer();
    // Calls to the absent game-state fail at once; let their callbacks run before the
    // io_contexts go.
    absl::SleepFor(absl::Milliseconds(200));
  }

  // Each server runs on an io_context of its own: a stopped one still holds the old server's
  // aborted accept, which must never run against the next server.
  void Start(WebServerOptions options) {
    ios_.push_back(std::make_unique<asio::io_context>());
    asio::io_context& io = *ios_.back();
    files_ = StaticFiles::FromMap({{"/index.html", "<!doctype html><title>arena</title>"},
                                   {"/app.js", "export const x = 1;"}});
    bridge_ = std::make_unique<RpcBridge>(arena_.channel(), nullptr, absl::Seconds(5));
    // game-state is not running: streams are refused before they reach it, or wait.
    hub_ = std::make_unique<FeedHub>(
        io, grpc::CreateChannel("127.0.0.1:1", grpc::InsecureChannelCredentials()),
        FeedHubOptions{});
    server_ = std::make_unique<WebServer>(io, options, bridge_.get(), &files_, hub_.get());
    ASSERT_TRUE(server_->Start().ok());
    thread_ = std::thread([&io] { io.run(); });
  }
  void StopServer() {
    asio::io_context& io = *ios_.back();
    asio::post(io, [this, &io] {
      server_->Stop();
      hub_->Shutdown();
      io.stop();
    });
    thread_.join();
    server_.reset();
    hub_.reset();
  }

  // Sends `raw` and reads one response (or what comes before the server closes).
  http::response<http::string_body> Raw(const std::string& raw) {
    asio::io_context io;
    tcp::socket s(io);
    s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server_->port()));
    beast::error_code ec;
    // The edge may answer (413, 431) and stop reading before the whole request is written.
    asio::write(s, asio::buffer(raw), ec);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(s, buf, res, ec);
    return res;
  }
  http::response<http::string_body> Get(const std::string& target, const std::string& extra = "") {
    return Raw("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n" + extra +
               "Connection: close\r\n\r\n");
  }
  http::response<http::string_body> Post(const std::string& target, const std::string& body,
                                         const std::string& extra = "",
                                         const std::string& type = "application/json") {
    return Raw("POST " + target + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + type +
               "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + extra +
               "Connection: close\r\n\r\n" + body);
  }

  // Destroyed last: handlers still queued on a stopped io_context are dropped with it.
  std::vector<std::unique_ptr<asio::io_context>> ios_;
  testing::InProcessArena arena_;
  StaticFiles files_;
  std::unique_ptr<RpcBridge> bridge_;
  std::unique_ptr<FeedHub> hub_;
  std::unique_ptr<WebServer> server_;
  std::thread thread_;
};

void ExpectSecurityHeaders(const http::response<http::string_body>& res) {
  EXPECT_THAT(std::string(res["Content-Security-Policy"]), HasSubstr("script-src 'self'"));
  EXPECT_EQ(res["X-Content-Type-Options"], "nosniff");
  EXPECT_EQ(res["X-Frame-Options"], "DENY");
  EXPECT_EQ(res.count("Access-Control-Allow-Origin"), 0u);
  EXPECT_EQ(res.count(http::field::set_cookie), 0u);
}

TEST_F(WebServerTest, ServesThePageWithStrictHeadersAndValidators) {
  auto res = Get("/");
  EXPECT_EQ(res.result_int(), 200u);
  EXPECT_EQ(res.body(), "<!doctype html><title>arena</title>");
  EXPECT_EQ(res[http::field::content_type], "text/html; charset=utf-8");
  ExpectSecurityHeaders(res);
  std::string etag(res[http::field::etag]);
  auto again = Get("/", "If-None-Match: " + etag + "\r\n");
  EXPECT_EQ(again.result_int(), 304u);
  EXPECT_EQ(Get("/../etc/passwd").result_int(), 404u);
  EXPECT_EQ(Get("/healthz").body(), "ok\n");
}

TEST_F(WebServerTest, ApiCallsReachArenaWithOnlyThePersonsCredentials) {
  auto res = Post("/api/arena/WhoAmI", "{}",
                  "Authorization: Bearer abc\r\nX-Arena-Service: arena\r\n"
                  "X-Arena-Credential: 0000\r\nX-Arena-Seat-Credential: seat-7\r\n");
  ASSERT_EQ(res.result_int(), 200u) << res.body();
  auto j = nlohmann::json::parse(res.body());
  EXPECT_EQ(j["name"], "Bearer abc");
  EXPECT_EQ(j["account_id"], "seat-7");
  EXPECT_EQ(j["role"], "") << "service metadata must never pass the edge";
  EXPECT_EQ(res[http::field::content_type], "application/json");
  ExpectSecurityHeaders(res);

  auto refused = Post("/api/arena/Block", "{\"name\":\"eve\"}");
  EXPECT_EQ(refused.result_int(), 403u);
  EXPECT_EQ(nlohmann::json::parse(refused.body())["code"], "PERMISSION_DENIED");
}

TEST_F(WebServerTest, EachLimitHasItsOwnStatus) {
  EXPECT_EQ(Post("/api/arena/ReserveHold", "{}").result_int(), 404u) << "service-only";
  EXPECT_EQ(Post("/api/arena/NoSuch", "{}").result_int(), 404u);
  EXPECT_EQ(Post("/api/arena/WhoAmI", "{\"x\":1}").result_int(), 400u);
  EXPECT_EQ(
      Post("/api/arena/WhoAmI", "name=x", "", "application/x-www-form-urlencoded").result_int(),
      415u);
  EXPECT_EQ(Post("/api/arena/WhoAmI", "{}", "Origin: http://evil.example\r\n").result_int(), 403u);
  EXPECT_EQ(Post("/api/arena/WhoAmI", "{}", "Origin: http://localhost\r\n").result_int(), 200u);
  EXPECT_EQ(Post("/api/arena/WhoAmI", "{}", "Authorization: a\x01z\r\n").result_int(), 400u);
  auto big = Post("/api/arena/SignIn", "{\"name\":\"" + std::string(70 << 10, 'a') + "\"}");
  EXPECT_EQ(big.result_int(), 413u);
  auto huge_header = Get("/", "X-Pad: " + std::string(9 << 10, 'p') + "\r\n");
  EXPECT_EQ(huge_header.result_int(), 431u);
  auto options =
      Raw("OPTIONS /api/arena/WhoAmI HTTP/1.1\r\nHost: localhost\r\n"
          "Origin: http://evil.example\r\nAccess-Control-Request-Method: POST\r\n"
          "Connection: close\r\n\r\n");
  EXPECT_EQ(options.result_int(), 405u);
  ExpectSecurityHeaders(options);
  EXPECT_EQ(Get("/api/games/not%20an%20id/events").result_int(), 400u);
  EXPECT_EQ(Get("/api/games/g1/events", "Last-Event-ID: soon\r\n").result_int(), 400u);
  EXPECT_EQ(Raw("GARBAGE\r\n\r\n").result_int(), 400u);
}

TEST_F(WebServerTest, AnAddressOverItsBucketIsToldWhenToRetry) {
  StopServer();
  WebServerOptions options;
  options.requests_per_address = {.burst = 3, .per_second = 0.1};
  Start(options);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(Get("/healthz").result_int(), 200u);
  auto refused = Get("/healthz");
  EXPECT_EQ(refused.result_int(), 429u);
  EXPECT_GE(std::stoi(std::string(refused[http::field::retry_after])), 1);
}

TEST_F(WebServerTest, StreamsPerAddressAreCapped) {
  StopServer();
  WebServerOptions options;
  options.max_streams_per_address = 1;
  Start(options);
  // The first stream stays open (it waits for a game-state that is not there).
  asio::io_context io;
  tcp::socket first(io);
  first.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server_->port()));
  asio::write(
      first,
      asio::buffer(std::string("GET /api/games/g1/events HTTP/1.1\r\nHost: localhost\r\n\r\n")));
  std::string head;
  asio::read(first, asio::dynamic_buffer(head), asio::transfer_at_least(16));
  EXPECT_THAT(head, StartsWith("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream"));
  EXPECT_EQ(Get("/api/games/g1/events").result_int(), 429u);
  first.close();
}

TEST(QueryParam, FindsExactNames) {
  EXPECT_EQ(QueryParam("/x?a=1&last_event_id=7", "last_event_id"), "7");
  EXPECT_EQ(QueryParam("/x?xlast_event_id=7", "last_event_id"), "");
  EXPECT_EQ(QueryParam("/x", "a"), "");
  EXPECT_TRUE(PlausibleGameId("g_3f2a-1"));
  EXPECT_FALSE(PlausibleGameId("a/b"));
  EXPECT_FALSE(PlausibleGameId(std::string(65, 'a')));
}

}  // namespace
}  // namespace arena::web
