#include "gateway/http_loop.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace arena::gateway {
namespace {

// A loopback HTTP/1.1 server for the loop's tests, a thread per connection (keep-alive): it
// answers every request with the request itself (head and body) as its body, so a test can see
// exactly what the client sent. "/slow" answers after 200 ms; "/hang" never answers; "/pair"
// waits until two "/pair" requests have arrived and answers both 20 ms later.
class EchoServer {
 public:
  EchoServer() {
    listen_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    listen(listen_fd_, 1024);
    socklen_t len = sizeof addr;
    getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { Accept(); });
  }

  ~EchoServer() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    pair_cv_.notify_all();
    shutdown(listen_fd_, SHUT_RDWR);
    acceptor_.join();
    close(listen_fd_);
    std::vector<std::thread> threads;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (int fd : fds_) shutdown(fd, SHUT_RDWR);
      threads.swap(threads_);
    }
    for (auto& t : threads) t.join();
    for (int fd : fds_) close(fd);
  }

  std::string url(const std::string& path) const {
    return absl::StrCat("http://127.0.0.1:", port_, path);
  }
  int connections() const { return connections_.load(); }
  int pairs_arrived() {
    std::lock_guard<std::mutex> lock(mu_);
    return pairs_;
  }

 private:
  void Accept() {
    while (!stopping_) {
      int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) return;
      ++connections_;
      std::lock_guard<std::mutex> lock(mu_);
      fds_.push_back(fd);
      threads_.emplace_back([this, fd] { Serve(fd); });
    }
  }

  void Serve(int fd) {
    std::string in;
    char buf[4096];
    while (true) {
      size_t head_end;
      while ((head_end = in.find("\r\n\r\n")) == std::string::npos) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0) return;
        in.append(buf, static_cast<size_t>(n));
      }
      std::string head = in.substr(0, head_end);
      size_t length = 0;
      std::string lower = absl::AsciiStrToLower(head);
      if (size_t at = lower.find("\r\ncontent-length:"); at != std::string::npos) {
        size_t end = lower.find("\r\n", at + 2);
        absl::SimpleAtoi(
            absl::StripAsciiWhitespace(lower.substr(
                at + 17, end == std::string::npos ? std::string::npos : end - at - 17)),
            &length);
      }
      while (in.size() < head_end + 4 + length) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0) return;
        in.append(buf, static_cast<size_t>(n));
      }
      std::string request = in.substr(0, head_end + 4 + length);
      in.erase(0, head_end + 4 + length);
      if (head.find(" /hang ") != std::string::npos) {
        while (read(fd, buf, sizeof buf) > 0) {
        }
        return;
      }
      if (head.find(" /pair ") != std::string::npos) {
        std::unique_lock<std::mutex> lock(mu_);
        ++pairs_;
        pair_cv_.notify_all();
        pair_cv_.wait(lock, [this] { return pairs_ >= 2 || stopping_; });
        lock.unlock();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      if (head.find(" /slow ") != std::string::npos) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
      std::string reply = absl::StrCat("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n",
                                       "Content-Length: ", request.size(), "\r\n\r\n", request);
      for (size_t off = 0; off < reply.size();) {
        ssize_t n = write(fd, reply.data() + off, reply.size() - off);
        if (n <= 0) return;
        off += static_cast<size_t>(n);
      }
    }
  }

  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> connections_{0};
  std::thread acceptor_;
  std::mutex mu_;
  std::condition_variable pair_cv_;
  int pairs_ = 0;
  std::vector<int> fds_;
  std::vector<std::thread> threads_;
};

HttpResult Call(HttpLoop& loop, HttpCall call) {
  std::promise<HttpResult> done;
  auto got = done.get_future();
  loop.Start(std::move(call), [&done](HttpResult r) { done.set_value(std::move(r)); });
  return got.get();
}

HttpCall Get(const std::string& url, std::shared_ptr<const SecretKey> key = nullptr) {
  HttpCall c;
  c.post = false;
  c.url = url;
  c.bearer = std::move(key);
  c.timeout_ms = 5000;
  return c;
}

class HttpLoopTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(InitSodium()); }
};

// Easy handles are reset and reused between calls: nothing of one call (its key, its body,
// its method) may reach the next one on the same handle and connection.
TEST_F(HttpLoopTest, ReusedHandlesCarryNothingOver) {
  EchoServer server;
  HttpLoop::Options options;
  options.max_in_flight = 1;  // one handle, one connection: every call reuses both
  HttpLoop loop(options);
  auto key_a = SecretKey::Make("sk-first-key-aaaa");
  auto key_b = SecretKey::Make("sk-second-key-bbbb");
  ASSERT_TRUE(key_a.ok() && key_b.ok());

  HttpCall post;
  post.url = server.url("/v1/chat/completions");
  post.body = "{\"secret-body\":1}";
  post.bearer = *key_a;
  HttpResult r = Call(loop, post);
  ASSERT_EQ(r.status, 200) << r.error;
  EXPECT_NE(r.body.find("POST /v1/chat/completions "), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("Authorization: Bearer sk-first-key-aaaa\r\n"), std::string::npos);
  EXPECT_NE(r.body.find("Content-Type: application/json"), std::string::npos);
  EXPECT_NE(r.body.find("{\"secret-body\":1}"), std::string::npos);

  r = Call(loop, Get(server.url("/v1/models")));
  ASSERT_EQ(r.status, 200) << r.error;
  EXPECT_NE(r.body.find("GET /v1/models "), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("Authorization"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("sk-first"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("Content-Type"), std::string::npos) << r.body;
  EXPECT_EQ(r.body.find("secret-body"), std::string::npos) << r.body;

  r = Call(loop, Get(server.url("/v1/models"), *key_b));
  ASSERT_EQ(r.status, 200) << r.error;
  EXPECT_NE(r.body.find("Authorization: Bearer sk-second-key-bbbb\r\n"), std::string::npos);
  EXPECT_EQ(r.body.find("sk-first"), std::string::npos) << r.body;
  // Exactly one Authorization line.
  EXPECT_EQ(r.body.find("Authorization", r.body.find("Authorization") + 1), std::string::npos);
  EXPECT_EQ(server.connections(), 1);  // the connection was kept too
}

// Many calls in flight at once on the one loop thread, each driven by its own socket's events.
TEST_F(HttpLoopTest, ManyCallsInFlightAllComplete) {
  EchoServer server;
  HttpLoop::Options options;
  options.max_in_flight = 300;
  HttpLoop loop(options);
  constexpr int kCalls = 300;
  std::mutex mu;
  std::vector<int> statuses;
  std::promise<void> all;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kCalls; ++i) {
    loop.Start(Get(server.url("/slow")), [&](HttpResult r) {
      std::lock_guard<std::mutex> lock(mu);
      statuses.push_back(r.status);
      if (statuses.size() == kCalls) all.set_value();
    });
  }
  all.get_future().wait();
  auto took = std::chrono::steady_clock::now() - start;
  for (int s : statuses) EXPECT_EQ(s, 200);
  // 200 ms each, all at once: far less than a second in total, not 300 * 200 ms.
  EXPECT_LT(took, std::chrono::seconds(5));
  EXPECT_EQ(loop.calls_started(), kCalls);
}

// The time limit runs on curl's timer (no socket event ever comes from a silent server).
TEST_F(HttpLoopTest, SilentServerTimesOut) {
  EchoServer server;
  HttpLoop loop(HttpLoop::Options{});
  HttpCall c = Get(server.url("/hang"));
  c.timeout_ms = 300;
  auto start = std::chrono::steady_clock::now();
  HttpResult r = Call(loop, c);
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(r.timed_out) << r.error;
  EXPECT_TRUE(r.request_sent);
  EXPECT_GE(took, std::chrono::milliseconds(290));
  EXPECT_LT(took, std::chrono::seconds(3));
  // The handle that timed out is reused and works.
  r = Call(loop, Get(server.url("/v1/models")));
  EXPECT_EQ(r.status, 200) << r.error;
}

TEST_F(HttpLoopTest, RefusedConnectionIsATransportError) {
  int port;
  {
    EchoServer server;  // a port that was open and is now closed
    port = std::stoi(server.url("").substr(std::string("http://127.0.0.1:").size()));
  }
  HttpLoop loop(HttpLoop::Options{});
  HttpResult r = Call(loop, Get(absl::StrCat("http://127.0.0.1:", port, "/v1/models")));
  EXPECT_EQ(r.status, 0);
  EXPECT_FALSE(r.error.empty());
  EXPECT_FALSE(r.timed_out);
}

// Replies that arrive together finish in one pass of the loop, and the callback of each but
// the last is told more are waiting (the gateway hands those Finish calls to its finisher).
TEST_F(HttpLoopTest, TellsACallbackWhenMoreRepliesWait) {
  EchoServer server;
  HttpLoop loop(HttpLoop::Options{});
  std::mutex mu;
  std::vector<bool> more;
  std::promise<void> both;
  for (int i = 0; i < 2; ++i) {
    loop.Start(Get(server.url("/pair")), [&](HttpResult r) {
      EXPECT_EQ(r.status, 200) << r.error;
      std::lock_guard<std::mutex> lock(mu);
      more.push_back(loop.MoreCompletionsWaiting());
      if (more.size() == 2) both.set_value();
    });
  }
  while (server.pairs_arrived() < 2) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  // Keep the loop busy while both replies are written, so one wake-up sees both.
  loop.Post([] { std::this_thread::sleep_for(std::chrono::milliseconds(150)); });
  both.get_future().wait();
  EXPECT_EQ(more, (std::vector<bool>{true, false}));
  // Outside a completion callback nothing is waiting.
  std::promise<bool> outside;
  loop.Post([&] { outside.set_value(loop.MoreCompletionsWaiting()); });
  EXPECT_FALSE(outside.get_future().get());
}

TEST_F(HttpLoopTest, TimersRunInOrderOnTheLoop) {
  HttpLoop loop(HttpLoop::Options{});
  std::mutex mu;
  std::vector<int> order;
  std::promise<void> done;
  auto start = std::chrono::steady_clock::now();
  loop.After(absl::Milliseconds(60), [&] {
    EXPECT_TRUE(loop.OnLoopThread());
    std::lock_guard<std::mutex> lock(mu);
    order.push_back(2);
    done.set_value();
  });
  loop.After(absl::Milliseconds(20), [&] {
    std::lock_guard<std::mutex> lock(mu);
    order.push_back(1);
  });
  done.get_future().wait();
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(60));
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
}

}  // namespace
}  // namespace arena::gateway
