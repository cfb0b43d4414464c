#include "services/web/http_server.h"

#include <charconv>
#include <deque>

#include "absl/strings/str_cat.h"
#include "boost/asio/write.hpp"
#include "boost/beast/core.hpp"
#include "boost/beast/http.hpp"
#include "common/log.h"
#include "services/common/metrics.h"
#include "services/web/edge_policy.h"
#include "services/web/engine_actions.h"

namespace arena::web {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

constexpr std::string_view kEventsSuffix = "/events";
constexpr std::string_view kGamesPrefix = "/api/games/";

std::string_view PathOf(std::string_view target) {
  size_t q = target.find('?');
  return q == std::string_view::npos ? target : target.substr(0, q);
}

// A Content-Type that declares JSON ("application/json", any case, parameters allowed).
bool IsJson(std::string_view type) {
  constexpr std::string_view kJson = "application/json";
  if (type.size() < kJson.size()) return false;
  for (size_t i = 0; i < kJson.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(type[i])) != kJson[i]) return false;
  }
  return type.size() == kJson.size() || type[kJson.size()] == ';' || type[kJson.size()] == ' ';
}

// An optional non-negative decimal; false when `text` is something else.
bool ParseEventId(std::string_view text, std::optional<int64_t>* out) {
  if (text.empty()) return true;
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < -1) return false;
  *out = v;
  return true;
}

}  // namespace

std::string QueryParam(std::string_view target, std::string_view name) {
  size_t q = target.find('?');
  if (q == std::string_view::npos) return "";
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    size_t amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    size_t eq = pair.find('=');
    if (pair.substr(0, eq) == name) {
      return eq == std::string_view::npos ? "" : std::string(pair.substr(eq + 1));
    }
    if (amp == std::string_view::npos) break;
    rest.remove_prefix(amp + 1);
  }
  return "";
}

bool PlausibleGameId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  }
  return true;
}

namespace {

// What /metrics shows of the edge (docs/operations.md).
struct WebMetrics {
  common::Gauge& connections = common::MetricsRegistry::Global()
                                   .Gauges("arena_web_connections_open",
                                           "HTTP connections open on arena-web, streams included.")
                                   .Get();
  common::Gauge& streams =
      common::MetricsRegistry::Global()
          .Gauges("arena_web_sse_streams_open", "Server-Sent Events streams open on arena-web.")
          .Get();
  common::Family<common::Counter>& responses = common::MetricsRegistry::Global().Counters(
      "arena_web_http_responses_total", "HTTP answers arena-web wrote, by status code.", {"code"});
};

WebMetrics& Metrics() {
  static WebMetrics* m = new WebMetrics();
  return *m;
}

}  // namespace

// One connection: requests and answers in turn, or, once it asks for events, one stream.
class WebServer::Session : public std::enable_shared_from_this<Session>, public SseSink {
 public:
  Session(WebServer* server, tcp::socket socket)
      : server_(server), counts_(server->counts_), stream_(std::move(socket)) {
    beast::error_code ec;
    auto ep = stream_.socket().remote_endpoint(ec);
    peer_ = ec ? "unknown" : ep.address().to_string();
    ++counts_->connections;
    Metrics().connections.Add(1);
  }
  ~Session() override {
    --counts_->connections;
    Metrics().connections.Add(-1);
    if (counted_stream_) Metrics().streams.Add(-1);
    if (counted_stream_ && --counts_->streams_by_address[peer_] <= 0) {
      counts_->streams_by_address.erase(peer_);
    }
  }

  void Start() { Read(); }

  // --- SseSink --------------------------------------------------------------------------
  void Send(const FramePtr& frame) override {
    if (closed_) return;
    if (queue_.size() >= server_->options_.max_queued_frames) {
      // Too far behind: drop the stream; the browser reconnects and resumes from its last id.
      Abort();
      return;
    }
    queue_.push_back(frame);
    if (!writing_) WriteNext();
  }
  void Finish() override {
    subscribed_ = false;
    finishing_ = true;
    if (!writing_ && queue_.empty()) Shutdown();
  }

 private:
  void Read() {
    parser_.emplace();
    parser_->header_limit(static_cast<uint32_t>(server_->options_.max_header_bytes));
    parser_->body_limit(server_->options_.max_body_bytes);
    stream_.expires_after(absl::ToChronoMilliseconds(server_->options_.read_timeout));
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }

  void OnRead(beast::error_code ec) {
    if (ec == http::error::header_limit) return Fail(431, "the request's headers are too large");
    if (ec == http::error::body_limit) {
      return Fail(413, absl::StrCat("the request body is larger than ",
                                    server_->options_.max_body_bytes, " bytes"));
    }
    static const auto& http_errors = http::make_error_code(http::error::end_of_stream).category();
    if (ec && ec.category() == http_errors && ec != http::error::end_of_stream) {
      return Fail(400, "not an HTTP/1.1 request: " + ec.message());
    }
    if (ec) return Shutdown();  // closed, reset or timed out
    Handle(parser_->release());
  }

  void Handle(Request req) {
    keep_alive_ = req.keep_alive();
    if (!server_->limiter_.Take(peer_)) {
      absl::Duration wait = server_->limiter_.RetryAfter(peer_);
      Response res = JsonError(429, grpc::StatusCode::RESOURCE_EXHAUSTED,
                               "too many requests from this address");
      res.set(http::field::retry_after,
              std::to_string(
                  std::max<int64_t>(1, absl::ToInt64Seconds(absl::Ceil(wait, absl::Seconds(1))))));
      return Write(std::move(res));
    }
    const std::string_view target(req.target().data(), req.target().size());
    const std::string_view path = PathOf(target);
    if (req.method() == http::verb::post) return HandlePost(req, path);
    if (req.method() != http::verb::get) {
      Response res = JsonError(405, grpc::StatusCode::UNIMPLEMENTED,
                               "only GET and POST are served (no cross-origin requests)");
      res.set(http::field::allow, "GET, POST");
      return Write(std::move(res));
    }
    if (path == "/healthz") return Write(Text(200, "text/plain; charset=utf-8", "ok\n"));
    if (path == "/api/web/games") return Write(Text(200, "application/json", GamesJson()));
    if (path.starts_with(kGamesPrefix) && path.ends_with(kEventsSuffix)) {
      std::string_view id = path.substr(kGamesPrefix.size(),
                                        path.size() - kGamesPrefix.size() - kEventsSuffix.size());
      return StartStream(req, target, id);
    }
    if (path.starts_with("/api/")) {
      return Write(JsonError(404, grpc::StatusCode::NOT_FOUND,
                             "no such API path (calls are POST /api/arena/<Method> or "
                             "/api/game/<Method>)"));
    }
    const StaticFile* file = server_->files_->Find(path);
    if (!file) return Write(Text(404, "text/plain; charset=utf-8", "not found\n"));
    if (auto inm = req.find(http::field::if_none_match);
        inm != req.end() &&
        std::string_view(inm->value().data(), inm->value().size()) == file->etag) {
      Response res{http::status::not_modified, 11};
      res.set(http::field::etag, file->etag);
      res.set(http::field::cache_control, "no-cache");
      return Write(std::move(res));
    }
    Response res = Text(200, file->content_type, file->body);
    res.set(http::field::etag, file->etag);
    res.set(http::field::cache_control, "no-cache");
    Write(std::move(res));
  }

  void HandlePost(const Request& req, std::string_view path) {
    if (auto origin = req.find(http::field::origin); origin != req.end()) {
      std::string_view o(origin->value().data(), origin->value().size());
      std::string_view host(req[http::field::host].data(), req[http::field::host].size());
      if (o != "http://" + std::string(host) && o != "https://" + std::string(host)) {
        return Write(JsonError(403, grpc::StatusCode::PERMISSION_DENIED,
                               "cross-origin requests are refused"));
      }
    }
    std::string_view rest = path;
    if (!rest.starts_with("/api/")) {
      return Write(JsonError(404, grpc::StatusCode::NOT_FOUND, "no such path"));
    }
    rest.remove_prefix(5);
    std::vector<std::pair<std::string, std::string>> metadata;
    for (const ForwardedHeader& h : kForwardedHeaders) {
      auto it = req.find(beast::string_view(h.http_name.data(), h.http_name.size()));
      if (it == req.end()) continue;
      std::string_view v(it->value().data(), it->value().size());
      if (!ValidMetadataValue(v)) {
        return Write(JsonError(400, grpc::StatusCode::INVALID_ARGUMENT,
                               std::string(h.http_name) + ": printable ASCII up to 1024 bytes"));
      }
      metadata.emplace_back(std::string(h.metadata), std::string(v));
    }
    if (!req.body().empty()) {
      std::string_view type(req[http::field::content_type].data(),
                            req[http::field::content_type].size());
      if (!IsJson(type)) {
        return Write(JsonError(415, grpc::StatusCode::INVALID_ARGUMENT,
                               "the body must be application/json"));
      }
    }
    auto reply = [self = shared_from_this()](JsonReply reply) {
      auto executor = self->stream_.get_executor();
      asio::post(executor, [self, reply = std::move(reply)]() mutable {
        self->Write(Text(reply.http_status, "application/json", std::move(reply.body)));
      });
    };
    if (rest == "web/DescribeActions" || rest == "web/ActionFor") {
      auto answer =
          rest == "web/ActionFor" ? ActionForJson(req.body()) : DescribeActionsJson(req.body());
      if (!answer.ok()) {
        auto code = static_cast<grpc::StatusCode>(answer.status().code());
        return Write(JsonError(HttpStatusFor(code), code, std::string(answer.status().message())));
      }
      return Write(Text(200, "application/json", *std::move(answer)));
    }
    if (rest == "web/ReplayBoards") {
      return server_->bridge_->ReplayBoards(req.body(), std::move(metadata), std::move(reply));
    }
    size_t slash = rest.find('/');
    const RpcRoute* route =
        slash == std::string_view::npos
            ? nullptr
            : server_->bridge_->Find(rest.substr(0, slash), rest.substr(slash + 1));
    if (!route) {
      return Write(JsonError(404, grpc::StatusCode::NOT_FOUND,
                             "no such method: " + std::string(rest.substr(0, 100))));
    }
    server_->bridge_->Call(*route, req.body(), std::move(metadata), std::move(reply));
  }

  void StartStream(const Request& req, std::string_view target, std::string_view id) {
    if (!PlausibleGameId(id)) {
      return Write(JsonError(400, grpc::StatusCode::INVALID_ARGUMENT, "not a game id"));
    }
    std::optional<int64_t> last;
    std::string from_query = QueryParam(target, "last_event_id");
    auto header = req.find("last-event-id");
    std::string_view last_text =
        header != req.end() ? std::string_view(header->value().data(), header->value().size())
                            : std::string_view(from_query);
    if (!ParseEventId(last_text, &last)) {
      return Write(JsonError(400, grpc::StatusCode::INVALID_ARGUMENT,
                             "Last-Event-ID must be an event sequence number"));
    }
    int& open = counts_->streams_by_address[peer_];
    if (open >= server_->options_.max_streams_per_address) {
      if (open == 0) counts_->streams_by_address.erase(peer_);
      return Write(JsonError(429, grpc::StatusCode::RESOURCE_EXHAUSTED,
                             "too many open streams from this address"));
    }
    ++open;
    counted_stream_ = true;
    Metrics().streams.Add(1);
    streaming_ = true;
    game_id_ = std::string(id);
    stream_.expires_never();
    std::string head =
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
        "Connection: close\r\nX-Accel-Buffering: no\r\n";
    for (const auto& [k, v] : SecurityHeaders()) absl::StrAppend(&head, k, ": ", v, "\r\n");
    absl::StrAppend(&head, "\r\nretry: 2000\n\n");
    Send(std::make_shared<const std::string>(std::move(head)));
    subscribed_ = true;
    server_->hub_->Subscribe(game_id_, last, shared_from_this());
    WatchForClose();
  }

  // A browser that goes away shows as a read error; anything it sends meanwhile is ignored.
  void WatchForClose() {
    stream_.async_read_some(asio::buffer(discard_),
                            [self = shared_from_this()](beast::error_code ec, size_t) {
                              if (ec) return self->Abort();
                              if (!self->closed_) self->WatchForClose();
                            });
  }

  void WriteNext() {
    writing_ = true;
    asio::async_write(stream_, asio::buffer(*queue_.front()),
                      [self = shared_from_this()](beast::error_code ec, size_t) {
                        self->writing_ = false;
                        if (ec) return self->Abort();
                        if (!self->queue_.empty()) self->queue_.pop_front();
                        if (self->closed_) return;
                        if (!self->queue_.empty()) return self->WriteNext();
                        if (self->finishing_) self->Shutdown();
                      });
  }

  static Response Text(unsigned status, std::string_view type, std::string body) {
    Response res{static_cast<http::status>(status), 11};
    res.set(http::field::content_type, beast::string_view(type.data(), type.size()));
    res.set(http::field::cache_control, "no-store");
    res.body() = std::move(body);
    return res;
  }
  static Response JsonError(unsigned status, grpc::StatusCode code, std::string_view message) {
    return Text(status, "application/json", ErrorJson(code, message));
  }

  // A refusal before the request was read to its end (too large, malformed): the answer goes
  // out, then the connection lingers (below) so the client reads it.
  void Fail(unsigned status, std::string_view message) {
    keep_alive_ = false;
    linger_ = true;
    Write(JsonError(
        status,
        status == 400 ? grpc::StatusCode::INVALID_ARGUMENT : grpc::StatusCode::RESOURCE_EXHAUSTED,
        message));
  }

  void Write(Response res) {
    Metrics().responses.With({std::to_string(res.result_int())}).Add();
    for (const auto& [k, v] : SecurityHeaders()) res.set(k, v);
    res.keep_alive(keep_alive_ && !server_->stopped_);
    res.prepare_payload();
    auto sp = std::make_shared<Response>(std::move(res));
    stream_.expires_after(absl::ToChronoMilliseconds(server_->options_.read_timeout));
    http::async_write(stream_, *sp, [self = shared_from_this(), sp](beast::error_code ec, size_t) {
      if (!ec && self->linger_) return self->Linger();
      if (ec || !sp->keep_alive()) return self->Shutdown();
      self->Read();
    });
  }

  // Closing a socket with unread input makes the kernel reset the connection, and a reset can
  // wipe the answer out of the client's buffer before it is read. So after a refusal the edge
  // stops sending, reads and drops what the client still sends (at most kLingerBytes, for at
  // most kLinger), and only then closes.
  static constexpr size_t kLingerBytes = 1 << 20;
  static constexpr std::chrono::seconds kLinger{2};
  void Linger() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    if (ec) return Shutdown();
    stream_.expires_after(kLinger);
    Drain();
  }
  void Drain() {
    buffer_.consume(buffer_.size());
    stream_.async_read_some(buffer_.prepare(64 << 10),
                            [self = shared_from_this()](beast::error_code ec, size_t n) {
                              self->lingered_ += n;
                              if (ec || self->lingered_ >= kLingerBytes) return self->Shutdown();
                              self->Drain();
                            });
  }

  void Abort() {
    if (closed_) return;
    closed_ = true;
    queue_.clear();
    if (subscribed_) {
      subscribed_ = false;
      server_->hub_->Unsubscribe(game_id_, this);
    }
    beast::error_code ec;
    stream_.socket().close(ec);
  }

  void Shutdown() {
    if (closed_) return;
    closed_ = true;
    if (subscribed_) {
      subscribed_ = false;
      server_->hub_->Unsubscribe(game_id_, this);
    }
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.socket().close(ec);
  }

  WebServer* server_;
  std::shared_ptr<Counts> counts_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::string peer_;
  bool keep_alive_ = false;
  // Streaming.
  bool streaming_ = false, subscribed_ = false, writing_ = false, finishing_ = false;
  bool closed_ = false, counted_stream_ = false;
  bool linger_ = false;
  size_t lingered_ = 0;
  std::string game_id_;
  std::deque<FramePtr> queue_;
  char discard_[512];
};

WebServer::WebServer(asio::io_context& io, WebServerOptions options, const RpcBridge* bridge,
                     const StaticFiles* files, FeedHub* hub)
    : io_(io),
      options_(options),
      bridge_(bridge),
      files_(files),
      hub_(hub),
      acceptor_(io),
      limiter_(options.requests_per_address) {}

WebServer::~WebServer() = default;

absl::Status WebServer::Start() {
  beast::error_code ec;
  auto address = asio::ip::make_address(options_.host, ec);
  if (ec) return absl::InvalidArgumentError("--host: not an IP address: " + options_.host);
  tcp::endpoint endpoint(address, static_cast<unsigned short>(options_.port));
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat("listening on ", options_.host, ":", options_.port, ": ", ec.message()));
  }
  port_ = acceptor_.local_endpoint().port();
  Accept();
  return absl::OkStatus();
}

void WebServer::Accept() {
  acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec) {
      if (!stopped_ && ec != asio::error::operation_aborted) Accept();
      return;
    }
    if (counts_->connections >= static_cast<size_t>(options_.max_connections)) {
      beast::error_code ignored;
      socket.close(ignored);
    } else {
      std::make_shared<Session>(this, std::move(socket))->Start();
    }
    if (!stopped_) Accept();
  });
}

void WebServer::Stop() {
  stopped_ = true;
  beast::error_code ec;
  acceptor_.close(ec);
}

}  // namespace arena::web
