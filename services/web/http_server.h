// arena-web's HTTP/1.1 server on Boost.Beast: one I/O thread serves every connection
// asynchronously (thousands of open event streams cost sockets and queues, not threads).
//
//   POST /api/arena/<Method>, /api/game/<Method>  JSON calls (RpcBridge)
//   GET  /api/games/<id>/events                  Server-Sent Events (FeedHub); resumes with
//                                                Last-Event-ID or ?last_event_id=
//   GET  /healthz                                "ok"
//   GET  /<file>                                 the page (StaticFiles)
//
// Limits, each answered with its own status before any upstream work: a header block over
// max_header_bytes 431, a body over max_body_bytes 413, a POST body not declared JSON 415, a
// cross-origin POST (an Origin that is not this host) 403, more requests from one address
// than its token bucket allows 429 with Retry-After, more open streams from one address than
// max_streams_per_address 429, a request that is not read within read_timeout closed, other
// methods 405. Every response carries SecurityHeaders(); none carries a CORS header. The edge
// sets no cookies: a page keeps its bearer token in its own storage and sends it as
// `Authorization`, so no request is authorised by ambient credentials.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "boost/asio/io_context.hpp"
#include "boost/asio/ip/tcp.hpp"
#include "services/common/rate_limit.h"
#include "services/web/feed_hub.h"
#include "services/web/rpc_bridge.h"
#include "services/web/static_files.h"

namespace arena::web {

struct WebServerOptions {
  std::string host = "127.0.0.1";
  int port = 0;  // 0 picks a free port
  size_t max_header_bytes = 8 << 10;
  size_t max_body_bytes = 64 << 10;
  absl::Duration read_timeout = absl::Seconds(30);
  common::RateLimiter::Limit requests_per_address = {.burst = 200, .per_second = 50};
  int max_streams_per_address = 64;
  int max_connections = 20000;
  size_t max_queued_frames = 2048;  // a stream further behind is closed (the browser resumes)
};

class WebServer {
 public:
  WebServer(boost::asio::io_context& io, WebServerOptions options, const RpcBridge* bridge,
            const StaticFiles* files, FeedHub* hub);
  ~WebServer();

  // Binds and starts accepting; port() is then the bound port.
  absl::Status Start();
  // Stops accepting and closes every connection (on the I/O thread).
  void Stop();
  int port() const { return port_; }

  // What the limits saw (for logs and tests).
  size_t open_connections() const { return counts_->connections; }

 private:
  class Session;
  friend class Session;
  void Accept();

  boost::asio::io_context& io_;
  WebServerOptions options_;
  const RpcBridge* bridge_;
  const StaticFiles* files_;
  FeedHub* hub_;
  boost::asio::ip::tcp::acceptor acceptor_;
  common::RateLimiter limiter_;
  // Shared with the sessions, which may outlive the server by a handler or two.
  struct Counts {
    size_t connections = 0;
    std::map<std::string, int> streams_by_address;
  };
  std::shared_ptr<Counts> counts_ = std::make_shared<Counts>();
  int port_ = 0;
  bool stopped_ = false;
};

// The query parameter `name` of a request target ("/x?a=1&b=2"), undecoded; empty if absent.
std::string QueryParam(std::string_view target, std::string_view name);
// True when `id` may name a game: 1..64 of [A-Za-z0-9_-].
bool PlausibleGameId(std::string_view id);

}  // namespace arena::web
