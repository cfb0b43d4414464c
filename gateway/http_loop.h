// An asynchronous HTTP client on libcurl's multi interface: one event-loop thread drives every
// transfer, so a thousand calls in flight cost one thread, not a thousand.
//
// The loop waits in its own epoll set and drives curl with curl_multi_socket_action: curl
// registers each transfer's socket (CURLMOPT_SOCKETFUNCTION) and its next deadline
// (CURLMOPT_TIMERFUNCTION), and an event is handed to the transfers on that socket only. The
// work per event therefore does not grow with the number of calls in flight
// (curl_multi_perform and curl_multi_poll walk every transfer and every socket each time,
// which at 1,000 in flight was most of the gateway's CPU). Finished transfers' easy handles
// are reset (curl_easy_reset: every option, the header list included, back to its default)
// and reused; connections live in the multi handle's cache either way.
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
  // Loop thread, inside a completion callback: more finished transfers of the same wake-up
  // are waiting for their callbacks (replies that arrived together).
  bool MoreCompletionsWaiting() const { return completions_left_ > 0; }
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
  void Wake();
  void Launch(std::unique_ptr<Transfer> transfer);
  void Complete(CURL* easy, CURLcode code);
  // Hands an event on `fd` (or CURL_SOCKET_TIMEOUT: curl's deadline passed) to curl.
  void DriveCurl(int fd, int events);
  // Completes every transfer curl reports finished.
  void Drain();
  CURL* AcquireEasy();
  void ReleaseEasy(CURL* easy);
  static int OnSocket(CURL* easy, curl_socket_t s, int what, void* userp, void* socketp);
  static int OnTimer(CURLM* multi, long timeout_ms, void* userp);

  // Room for "Authorization: Bearer " and the longest key SecretKey accepts (1,024 bytes).
  static constexpr size_t kBearerScratchBytes = 1088;

  // Reset easy handles kept for reuse beyond this many are cleaned up.
  static constexpr size_t kMaxIdleEasies = 256;

  Options options_;
  CURLM* multi_ = nullptr;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;                // eventfd: Post and Stop wake the loop through it
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
  std::vector<CURL*> idle_easies_;  // reset, ready for the next transfer
  int completions_left_ = 0;        // while Drain runs a callback: messages still queued
  // curl's next deadline (CURLMOPT_TIMERFUNCTION); none when unset.
  bool curl_timer_set_ = false;
  std::chrono::steady_clock::time_point curl_due_;
  std::atomic<int64_t> calls_started_{0};

  std::thread::id thread_id_;
  std::thread thread_;
};

}  // namespace arena::gateway
