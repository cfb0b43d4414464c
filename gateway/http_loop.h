// An asynchronous HTTP client on libcurl's multi interface: one event-loop thread drives every
// transfer with curl_multi_poll, so a thousand calls in flight cost one thread, not a thousand.
//
// Name resolution: the loop never asks curl to resolve a name at call time (curl's threaded
// resolver would start a thread per lookup). The owner resolves the upstream host once at
// start-up and pins it with CURLOPT_RESOLVE entries ("host:port:address"); IP literals need no
// pin. Changing the upstream address therefore needs a restart.
//
// Limits per call: CURLOPT_TIMEOUT_MS for the whole exchange, and CURLOPT_LOW_SPEED_LIMIT=1
// byte/s over CURLOPT_LOW_SPEED_TIME seconds for "no bytes for N seconds". A concurrency cap
// bounds the transfers in flight to the upstream; calls beyond it wait in a FIFO queue.
// The Authorization header is built in locked memory and wiped (curl's copy too) after the
// transfer. CURLOPT_VERBOSE is never set.
#pragma once

#include <curl/curl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <queue>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "absl/time/time.h"
#include "gateway/secret.h"

namespace arena::gateway {

struct HttpCall {
  bool post = true;  // POST with `body` (application/json), else GET
  std::string url;
  std::string body;
  std::shared_ptr<const SecretKey> bearer;  // sent as "Authorization: Bearer <key>"
  int64_t timeout_ms = 60000;               // whole call
  int64_t stall_seconds = 20;               // no bytes for this long
};

struct HttpResult {
  int status = 0;  // HTTP status; 0 when no HTTP answer arrived
  std::string body;
  std::string retry_after;
  std::string error;          // transport failure text (curl's; never holds the key)
  bool timed_out = false;     // one of the two time limits ended the call
  bool request_sent = false;  // request bytes left this process (outcome unknown on timeout)
  int64_t latency_us = 0;     // curl's total time for the exchange
};

class HttpLoop {
 public:
  struct Options {
    int max_in_flight = 64;            // per upstream (the loop serves one upstream)
    std::vector<std::string> resolve;  // CURLOPT_RESOLVE pins
    int64_t connect_timeout_ms = 10000;
    size_t max_reply_bytes = 4 << 20;
    // When set, every call fails at once with this transport error instead of being sent
    // (the upstream host could not be resolved at start-up; curl must not resolve it itself).
    std::string unusable_reason;
  };
  using Done = std::function<void(HttpResult)>;
  using Task = std::function<void()>;

  explicit HttpLoop(Options options);
  ~HttpLoop();  // Stop()s
  // Stops and joins the loop thread; transfers and timers still pending are dropped without
  // calling back. Call it before destroying anything the callbacks refer to. Idempotent.
  void Stop();
  HttpLoop(const HttpLoop&) = delete;
  HttpLoop& operator=(const HttpLoop&) = delete;

  // All three may be called from any thread; callbacks always run on the loop thread.
  void Post(Task task);
  void After(absl::Duration delay, Task task);
  void Start(HttpCall call, Done done);

  bool OnLoopThread() const { return std::this_thread::get_id() == thread_id_; }
  int64_t calls_started() const { return calls_started_.load(); }

  struct Transfer;  // one call in flight (public for curl's C callbacks)

 private:
  struct Timer {
    std::chrono::steady_clock::time_point due;
    uint64_t seq;
    Task task;
    bool operator>(const Timer& o) const { return due != o.due ? due > o.due : seq > o.seq; }
  };

  void Run();
  void Launch(std::unique_ptr<Transfer> transfer);
  void Complete(CURL* easy, CURLcode code);

  // Room for "Authorization: Bearer " and the longest key SecretKey accepts (1,024 bytes).
  static constexpr size_t kBearerScratchBytes = 1088;

  Options options_;
  CURLM* multi_ = nullptr;
  char* bearer_scratch_ = nullptr;  // locked (sodium_malloc); loop thread only
  curl_slist* resolve_ = nullptr;

  std::mutex mu_;
  std::vector<Task> posted_;
  bool stop_ = false;

  // Loop-thread state.
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  uint64_t timer_seq_ = 0;
  std::deque<std::unique_ptr<Transfer>> queued_;
  int in_flight_ = 0;
  std::unordered_set<Transfer*> live_;
  std::atomic<int64_t> calls_started_{0};

  std::thread::id thread_id_;
  std::thread thread_;
};

}  // namespace arena::gateway
