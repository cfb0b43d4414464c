#include <poll.h>

#include <algorithm>

#include "boost/asio/connect.hpp"
#include "boost/asio/ip/tcp.hpp"
#include "boost/beast/core.hpp"
#include "boost/beast/http.hpp"
#include "tests/support/web_deployment.h"

namespace arena::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {
std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}
}  // namespace

HttpReply HttpCall(int port, const std::string& method, const std::string& target,
                   const std::string& body, const std::map<std::string, std::string>& headers) {
  HttpReply out;
  asio::io_context io;
  beast::tcp_stream stream(io);
  beast::error_code ec;
  stream.expires_after(std::chrono::seconds(30));
  stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
  if (ec) return out;
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  if (!body.empty()) req.set(http::field::content_type, "application/json");
  for (const auto& [k, v] : headers) req.set(k, v);
  req.body() = body;
  req.prepare_payload();
  http::write(stream, req, ec);
  if (ec) return out;
  beast::flat_buffer buf;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 << 20);
  http::read(stream, buf, parser, ec);
  if (ec) return out;
  auto res = parser.release();
  out.status = res.result_int();
  for (const auto& f : res)
    out.headers[Lower(std::string(f.name_string()))] = std::string(f.value());
  out.body = res.body();
  return out;
}

// A plain socket with poll(): a Beast stream closes itself on a timeout, and a reader waits
// for frames with timeouts again and again.
struct SseReader::Impl {
  asio::io_context io;
  tcp::socket socket{io};
  std::string pending;  // bytes read but not yet split into frames
  bool ended = false;
  // Reads what is there within `timeout`: false on a timeout, `ended` set at the end.
  bool Read(absl::Duration timeout) {
    pollfd p{socket.native_handle(), POLLIN, 0};
    int ms = static_cast<int>(std::max<int64_t>(0, absl::ToInt64Milliseconds(timeout)));
    if (::poll(&p, 1, ms) <= 0) return false;
    char buf[8192];
    beast::error_code ec;
    size_t n = socket.read_some(asio::buffer(buf), ec);
    if (ec) ended = true;
    pending.append(buf, n);
    return true;
  }
};

SseReader::SseReader(int port, const std::string& target,
                     const std::map<std::string, std::string>& headers)
    : impl_(std::make_unique<Impl>()) {
  beast::error_code ec;
  impl_->socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), ec);
  if (ec) return;
  std::string req =
      "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n";
  for (const auto& [k, v] : headers) req += k + ": " + v + "\r\n";
  req += "\r\n";
  asio::write(impl_->socket, asio::buffer(req), ec);
  if (ec) return;
  // The head, up to the blank line.
  absl::Time deadline = absl::Now() + absl::Seconds(30);
  while (impl_->pending.find("\r\n\r\n") == std::string::npos) {
    if (impl_->ended || absl::Now() > deadline) return;
    impl_->Read(deadline - absl::Now());
  }
  size_t end = impl_->pending.find("\r\n\r\n");
  std::string head = impl_->pending.substr(0, end);
  impl_->pending.erase(0, end + 4);
  if (head.size() > 12) status_ = std::atoi(head.substr(9, 3).c_str());
}

SseReader::~SseReader() = default;

std::optional<SseReader::Frame> SseReader::Next(absl::Duration timeout) {
  absl::Time deadline = absl::Now() + timeout;
  while (true) {
    size_t end = impl_->pending.find("\n\n");
    if (end != std::string::npos) {
      std::string block = impl_->pending.substr(0, end);
      impl_->pending.erase(0, end + 2);
      Frame f;
      size_t start = 0;
      while (start <= block.size()) {
        size_t nl = block.find('\n', start);
        std::string line = block.substr(start, nl == std::string::npos ? nl : nl - start);
        if (!line.empty() && line[0] == ':') f.event = "comment";
        auto value = [&](const char* key) { return line.substr(std::string(key).size()); };
        if (line.rfind("event: ", 0) == 0) f.event = value("event: ");
        if (line.rfind("id: ", 0) == 0) f.id = value("id: ");
        if (line.rfind("data: ", 0) == 0) f.data += (f.data.empty() ? "" : "\n") + value("data: ");
        if (nl == std::string::npos) break;
        start = nl + 1;
      }
      if (f.event.empty() && !f.data.empty()) f.event = "message";
      if (f.event.empty()) continue;  // e.g. the "retry:" block
      return f;
    }
    if (impl_->ended) return std::nullopt;
    absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration() || !impl_->Read(left)) return std::nullopt;
  }
}

}  // namespace arena::testing
