// arena-mock-abacus: a faithful local stand-in for Abacus.AI RouteLLM's OpenAI-compatible
// endpoints, with scripted behaviour per model id (see mock_models.cc). Used by the tests, the
// gateway load bench and the offline demo (scripts/up without a real key).
//
// One thread, non-blocking sockets and epoll; HTTP/1.1 with keep-alive; delayed answers wait
// on a timer heap, so thousands of connections cost nothing but file descriptors.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <queue>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/config.h"
#include "common/flags.h"
#include "common/log.h"
#include "services/common/server.h"
#include "services/mock_abacus/mock_api.h"

ABSL_FLAG(std::string, keys, "", "API keys and their balances in micro-USD: key1:1000000,key2:0");
ABSL_FLAG(std::string, keys_file, "",
          "File holding --keys' value (so no key is on the command line, where every local user "
          "can read it); lines are joined with ','.");
ABSL_FLAG(int, slow_ms, 3000, "how long the mock-slow model waits before answering");
ABSL_FLAG(int, out_of_credits_status, 400, "HTTP status of the out-of-credits answer (400|429)");
ABSL_FLAG(bool, log_requests, true, "log one line per request");

namespace {

using Clock = std::chrono::steady_clock;

const char* Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    default:
      return "Status";
  }
}

struct Conn {
  int fd = -1;
  uint64_t gen = 0;
  std::string in;
  std::string out;
  size_t out_off = 0;
  bool busy = false;  // a delayed answer is pending
  bool close_after = false;
};

struct Pending {
  Clock::time_point due;
  int fd;
  uint64_t gen;
  std::string bytes;
  bool close_after;
  bool operator>(const Pending& o) const { return due > o.due; }
};

class MockServer {
 public:
  MockServer(arena::mock_abacus::MockAbacus api, bool log_requests)
      : api_(std::move(api)), log_(log_requests) {}

  bool Listen(const std::string& host, int port, int* bound) {
    listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    if (inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) return false;
    if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return false;
    if (listen(listen_fd_, 4096) != 0) return false;
    socklen_t len = sizeof addr;
    getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    *bound = ntohs(addr.sin_port);
    epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = listen_fd_;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &ev);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    signal_fd_ = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    ev.data.fd = signal_fd_;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, signal_fd_, &ev);
    return true;
  }

  void Run() {
    std::vector<epoll_event> events(1024);
    while (true) {
      int timeout = -1;
      if (!pending_.empty()) {
        auto ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(pending_.top().due - Clock::now())
                .count();
        timeout = ms < 0 ? 0 : static_cast<int>(ms) + 1;
      }
      int n = epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()), timeout);
      for (int i = 0; i < n; ++i) {
        int fd = events[i].data.fd;
        if (fd == signal_fd_) {
          arena::common::LogInfo("shutting down", {{"signal", "SIGTERM"}});
          return;
        }
        if (fd == listen_fd_) {
          Accept();
          continue;
        }
        auto it = conns_.find(fd);
        if (it == conns_.end()) continue;
        if (events[i].events & (EPOLLERR | EPOLLHUP)) {
          Close(fd);
          continue;
        }
        if (events[i].events & EPOLLIN) {
          if (!Read(it->second)) continue;
        }
        if (events[i].events & EPOLLOUT) Flush(it->second);
      }
      auto now = Clock::now();
      while (!pending_.empty() && pending_.top().due <= now) {
        Pending p = pending_.top();
        pending_.pop();
        auto it = conns_.find(p.fd);
        if (it == conns_.end() || it->second.gen != p.gen) continue;
        it->second.busy = false;
        Send(it->second, std::move(p.bytes), p.close_after);
      }
    }
  }

 private:
  void Accept() {
    while (true) {
      int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) return;
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      Conn& c = conns_[fd];
      c = Conn();
      c.fd = fd;
      c.gen = ++gen_;
      epoll_event ev{};
      ev.events = EPOLLIN | EPOLLRDHUP;
      ev.data.fd = fd;
      epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev);
    }
  }

  void Close(int fd) {
    epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
    close(fd);
    conns_.erase(fd);
  }

  // Returns false when the connection was closed.
  bool Read(Conn& c) {
    char buf[16384];
    while (true) {
      ssize_t n = read(c.fd, buf, sizeof buf);
      if (n > 0) {
        c.in.append(buf, static_cast<size_t>(n));
        if (c.in.size() > (8u << 20)) {
          Close(c.fd);
          return false;
        }
        continue;
      }
      if (n == 0) {
        Close(c.fd);
        return false;
      }
      if (errno == EAGAIN || errno == EWOULDBLOCK) break;
      Close(c.fd);
      return false;
    }
    return Process(c);
  }

  bool Process(Conn& c) {
    while (!c.busy && c.out.empty()) {
      size_t head_end = c.in.find("\r\n\r\n");
      if (head_end == std::string::npos) return true;
      std::string head = c.in.substr(0, head_end);
      size_t line_end = head.find("\r\n");
      std::string request_line = head.substr(0, line_end);
      std::string method, path, version;
      {
        size_t a = request_line.find(' ');
        size_t b = request_line.rfind(' ');
        if (a == std::string::npos || b == a) {
          Close(c.fd);
          return false;
        }
        method = request_line.substr(0, a);
        path = request_line.substr(a + 1, b - a - 1);
        version = request_line.substr(b + 1);
      }
      size_t content_length = 0;
      std::string authorization;
      bool close_after = version == "HTTP/1.0";
      size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
      while (pos < head.size()) {
        size_t e = head.find("\r\n", pos);
        if (e == std::string::npos) e = head.size();
        std::string line = head.substr(pos, e - pos);
        pos = e + 2;
        size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string name = absl::AsciiStrToLower(line.substr(0, colon));
        std::string value(absl::StripAsciiWhitespace(line.substr(colon + 1)));
        if (name == "content-length") {
          if (!absl::SimpleAtoi(value, &content_length)) {
            Close(c.fd);
            return false;
          }
        } else if (name == "authorization") {
          authorization = value;
        } else if (name == "connection") {
          std::string v = absl::AsciiStrToLower(value);
          if (v == "close") close_after = true;
          if (v == "keep-alive") close_after = false;
        }
      }
      if (c.in.size() < head_end + 4 + content_length) return true;
      std::string body = c.in.substr(head_end + 4, content_length);
      c.in.erase(0, head_end + 4 + content_length);
      size_t q = path.find('?');
      if (q != std::string::npos) path.resize(q);

      auto r = api_.Handle(method, path, authorization, body);
      if (log_) {
        arena::common::LogInfo("request", {{"method", method},
                                           {"path", path},
                                           {"model", r.model},
                                           {"key_index", r.key_index},
                                           {"status", r.status},
                                           {"delay_ms", r.delay_ms}});
      }
      std::string bytes = absl::StrCat(
          "HTTP/1.1 ", r.status, " ", Reason(r.status),
          "\r\nContent-Type: application/json\r\nContent-Length: ", r.body.size(), "\r\n");
      for (const auto& [k, v] : r.headers) absl::StrAppend(&bytes, k, ": ", v, "\r\n");
      if (close_after) bytes += "Connection: close\r\n";
      bytes += "\r\n";
      bytes += r.body;
      if (r.delay_ms > 0) {
        c.busy = true;
        pending_.push(Pending{Clock::now() + std::chrono::milliseconds(r.delay_ms), c.fd, c.gen,
                              std::move(bytes), close_after});
        return true;
      }
      if (!Send(c, std::move(bytes), close_after)) return false;
    }
    return true;
  }

  bool Send(Conn& c, std::string bytes, bool close_after) {
    c.out += bytes;
    c.close_after = c.close_after || close_after;
    return Flush(c);
  }

  bool Flush(Conn& c) {
    while (c.out_off < c.out.size()) {
      ssize_t n = write(c.fd, c.out.data() + c.out_off, c.out.size() - c.out_off);
      if (n > 0) {
        c.out_off += static_cast<size_t>(n);
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        epoll_event ev{};
        ev.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP;
        ev.data.fd = c.fd;
        epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c.fd, &ev);
        return true;
      }
      Close(c.fd);
      return false;
    }
    c.out.clear();
    c.out_off = 0;
    if (c.close_after) {
      Close(c.fd);
      return false;
    }
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP;
    ev.data.fd = c.fd;
    epoll_ctl(epoll_fd_, EPOLL_CTL_MOD, c.fd, &ev);
    // Pipelined requests already buffered.
    if (!c.in.empty()) return Process(c);
    return true;
  }

  arena::mock_abacus::MockAbacus api_;
  bool log_;
  int listen_fd_ = -1;
  int epoll_fd_ = -1;
  int signal_fd_ = -1;
  uint64_t gen_ = 0;
  std::map<int, Conn> conns_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> pending_;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace arena::common;
  BlockShutdownSignals();
  signal(SIGPIPE, SIG_IGN);
  rlimit lim;
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
  InitConfig(argc, argv, "arena-mock-abacus: a local stand-in for Abacus.AI RouteLLM");
  InitServiceLogging("arena-mock-abacus", absl::GetFlag(FLAGS_log_level));
  if (auto s = ValidatePort(absl::GetFlag(FLAGS_port), "port"); !s.ok()) {
    std::fprintf(stderr, "startup error: %s\n", std::string(s.message()).c_str());
    return 2;
  }
  arena::mock_abacus::MockAbacus::Options options;
  options.slow_ms = absl::GetFlag(FLAGS_slow_ms);
  options.out_of_credits_status = absl::GetFlag(FLAGS_out_of_credits_status);
  if (options.out_of_credits_status != 400 && options.out_of_credits_status != 429) {
    std::fprintf(stderr, "startup error: --out_of_credits_status must be 400 or 429\n");
    return 2;
  }
  std::string keys = absl::GetFlag(FLAGS_keys);
  if (const std::string file = absl::GetFlag(FLAGS_keys_file); !file.empty()) {
    std::ifstream in(file);
    if (!in) {
      std::fprintf(stderr, "startup error: --keys_file cannot be read\n");
      return 2;
    }
    std::string line;
    while (std::getline(in, line)) {
      line = std::string(absl::StripAsciiWhitespace(line));
      if (line.empty()) continue;
      if (!keys.empty()) keys += ",";
      keys += line;
    }
  }
  auto api = arena::mock_abacus::MockAbacus::Make(keys, options);
  if (!api.ok()) {
    std::fprintf(stderr, "startup error: %s\n", std::string(api.status().message()).c_str());
    return 2;
  }
  MockServer server(*std::move(api), absl::GetFlag(FLAGS_log_requests));
  int bound = 0;
  if (!server.Listen(absl::GetFlag(FLAGS_host), absl::GetFlag(FLAGS_port), &bound)) {
    std::fprintf(stderr, "startup error: cannot listen on %s:%d: %s\n",
                 absl::GetFlag(FLAGS_host).c_str(), absl::GetFlag(FLAGS_port),
                 std::strerror(errno));
    return 2;
  }
  if (std::string path = absl::GetFlag(FLAGS_port_file); !path.empty()) {
    std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp);
      out << bound << "\n";
    }
    std::rename(tmp.c_str(), path.c_str());
  }
  LogInfo("serving", {{"port", bound}});
  server.Run();
  LogInfo("stopped");
  return 0;
}
