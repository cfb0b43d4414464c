#include "gateway/http_loop.h"

#include <pthread.h>
#include <sodium.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/ascii.h"

namespace arena::gateway {

struct HttpLoop::Transfer {
  HttpCall call;
  Done done;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  HttpResult result;
  size_t max_reply_bytes = 0;
  char error[CURL_ERROR_SIZE] = {0};

  ~Transfer() {
    if (easy != nullptr) curl_easy_cleanup(easy);  // only at shutdown; else back to the pool
    for (curl_slist* h = headers; h != nullptr; h = h->next) {
      if (h->data != nullptr) sodium_memzero(h->data, std::strlen(h->data));
    }
    curl_slist_free_all(headers);
  }
};

namespace {

size_t OnBody(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<HttpLoop::Transfer*>(user);
  size_t bytes = size * n;
  if (t->result.body.size() + bytes > t->max_reply_bytes) return 0;  // aborts the transfer
  t->result.body.append(data, bytes);
  return bytes;
}

size_t OnHeader(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<HttpLoop::Transfer*>(user);
  size_t bytes = size * n;
  constexpr char kRetryAfter[] = "retry-after:";
  constexpr size_t kLen = sizeof(kRetryAfter) - 1;
  if (bytes > kLen && strncasecmp(data, kRetryAfter, kLen) == 0) {
    t->result.retry_after =
        std::string(absl::StripAsciiWhitespace(absl::string_view(data + kLen, bytes - kLen)));
  }
  return bytes;
}

constexpr char kBearerPrefix[] = "Authorization: Bearer ";
constexpr size_t kBearerPrefixLen = sizeof(kBearerPrefix) - 1;

// Appends "Authorization: Bearer <key>" without the key ever touching unlocked heap memory
// of ours: the line is assembled in `scratch` (locked, `scratch_size` bytes, wiped after use),
// or in a buffer locked for this call when the key does not fit. curl's own copy is wiped in
// ~Transfer.
curl_slist* AppendBearer(curl_slist* list, const SecretKey& key, char* scratch,
                         size_t scratch_size) {
  size_t len = kBearerPrefixLen + key.size();
  char* buf = scratch;
  if (buf == nullptr || len + 1 > scratch_size) {
    buf = static_cast<char*>(sodium_malloc(len + 1));
    if (buf == nullptr) return list;
  }
  std::memcpy(buf, kBearerPrefix, kBearerPrefixLen);
  std::memcpy(buf + kBearerPrefixLen, key.data(), key.size());
  buf[len] = '\0';
  curl_slist* out = curl_slist_append(list, buf);
  sodium_memzero(buf, len + 1);
  if (buf != scratch) sodium_free(buf);
  return out != nullptr ? out : list;
}

}  // namespace

HttpLoop::HttpLoop(Options options) : options_(std::move(options)) {
  // One locked buffer for every call's header line: sodium_malloc per call costs an mmap,
  // mprotect, mlock and their undoing, the largest part of a call's CPU on the loop thread.
  bearer_scratch_ = static_cast<char*>(sodium_malloc(kBearerScratchBytes));
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = wake_fd_;
  epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
  multi_ = curl_multi_init();
  curl_multi_setopt(multi_, CURLMOPT_MAXCONNECTS, static_cast<long>(options_.max_in_flight));
  curl_multi_setopt(multi_, CURLMOPT_SOCKETFUNCTION, &HttpLoop::OnSocket);
  curl_multi_setopt(multi_, CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(multi_, CURLMOPT_TIMERFUNCTION, &HttpLoop::OnTimer);
  curl_multi_setopt(multi_, CURLMOPT_TIMERDATA, this);
  for (const auto& pin : options_.resolve) resolve_ = curl_slist_append(resolve_, pin.c_str());
  std::mutex started_mu;
  std::condition_variable started_cv;
  bool started = false;
  thread_ = std::thread([&] {
    {
      std::lock_guard<std::mutex> lock(started_mu);
      thread_id_ = std::this_thread::get_id();
      started = true;
    }
    started_cv.notify_one();
    Run();
  });
  pthread_setname_np(thread_.native_handle(), "gw-http-loop");
  std::unique_lock<std::mutex> lock(started_mu);
  started_cv.wait(lock, [&] { return started; });
}

HttpLoop::~HttpLoop() {
  Stop();
  for (CURL* easy : idle_easies_) curl_easy_cleanup(easy);
  curl_multi_cleanup(multi_);
  close(wake_fd_);
  close(epoll_fd_);
  curl_slist_free_all(resolve_);
  if (bearer_scratch_ != nullptr) sodium_free(bearer_scratch_);
}

void HttpLoop::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  Wake();
  if (thread_.joinable()) thread_.join();
}

void HttpLoop::Wake() {
  uint64_t one = 1;
  // Only fails when the counter is already huge, i.e. a wakeup is pending anyway.
  [[maybe_unused]] ssize_t n = write(wake_fd_, &one, sizeof one);
}

void HttpLoop::Post(Task task) {
  bool was_empty;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) return;
    was_empty = posted_.empty();
    posted_.push_back(std::move(task));
  }
  // A non-empty queue already has its wakeup on the way (and the loop looks at the queue
  // under the lock before it polls), so a burst of posts costs one wakeup, not one each.
  if (was_empty) Wake();
}

void HttpLoop::After(absl::Duration delay, Task task) {
  auto due = std::chrono::steady_clock::now() + absl::ToChronoMicroseconds(delay);
  auto add = [this, due, task = std::move(task)]() mutable {
    timers_.push(Timer{due, timer_seq_++, std::move(task)});
  };
  if (OnLoopThread()) {
    add();
  } else {
    Post(std::move(add));
  }
}

void HttpLoop::Start(HttpCall call, Done done) {
  auto transfer = std::make_unique<Transfer>();
  transfer->call = std::move(call);
  transfer->done = std::move(done);
  transfer->max_reply_bytes = options_.max_reply_bytes;
  if (OnLoopThread()) {
    queued_.push_back(std::move(transfer));
  } else {
    // std::function needs a copyable callable; a task dropped at shutdown frees the transfer.
    auto holder = std::make_shared<std::unique_ptr<Transfer>>(std::move(transfer));
    Post([this, holder] { queued_.push_back(std::move(*holder)); });
  }
}

void HttpLoop::Launch(std::unique_ptr<Transfer> t) {
  if (!options_.unusable_reason.empty()) {
    ++calls_started_;
    HttpResult r;
    r.error = options_.unusable_reason;
    Done done = std::move(t->done);
    t.reset();
    done(std::move(r));
    return;
  }
  CURL* easy = AcquireEasy();
  t->easy = easy;
  const HttpCall& c = t->call;
  curl_easy_setopt(easy, CURLOPT_URL, c.url.c_str());
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 1L);
  curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(c.timeout_ms));
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout_ms));
  curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME, static_cast<long>(c.stall_seconds));
  if (resolve_ != nullptr) curl_easy_setopt(easy, CURLOPT_RESOLVE, resolve_);
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, t->error);
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, t.get());
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, t.get());
  curl_easy_setopt(easy, CURLOPT_PRIVATE, t.get());
  t->headers = curl_slist_append(t->headers, "Accept: application/json");
  if (c.post) {
    t->headers = curl_slist_append(t->headers, "Content-Type: application/json");
    curl_easy_setopt(easy, CURLOPT_POST, 1L);
    curl_easy_setopt(easy, CURLOPT_POSTFIELDS, c.body.data());
    curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(c.body.size()));
  } else {
    curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
  }
  // No "Expect: 100-continue" round trip for larger bodies.
  t->headers = curl_slist_append(t->headers, "Expect:");
  if (c.bearer != nullptr) {
    t->headers = AppendBearer(t->headers, *c.bearer, bearer_scratch_, kBearerScratchBytes);
  }
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, t->headers);
  ++in_flight_;
  ++calls_started_;
  live_.insert(t.get());
  t.release();  // owned through CURLOPT_PRIVATE until Complete
  curl_multi_add_handle(multi_, easy);
}

void HttpLoop::Complete(CURL* easy, CURLcode code) {
  Transfer* raw = nullptr;
  curl_easy_getinfo(easy, CURLINFO_PRIVATE, reinterpret_cast<char**>(&raw));
  std::unique_ptr<Transfer> t(raw);
  live_.erase(raw);
  curl_multi_remove_handle(multi_, easy);
  --in_flight_;
  HttpResult& r = t->result;
  long status = 0;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  long request_size = 0;
  curl_easy_getinfo(easy, CURLINFO_REQUEST_SIZE, &request_size);
  curl_off_t total_us = 0;
  curl_easy_getinfo(easy, CURLINFO_TOTAL_TIME_T, &total_us);
  r.latency_us = static_cast<int64_t>(total_us);
  r.request_sent = request_size > 0;
  if (code == CURLE_OK) {
    r.status = static_cast<int>(status);
  } else {
    r.status = 0;
    r.timed_out = code == CURLE_OPERATION_TIMEDOUT;
    r.error = t->error[0] != '\0' ? std::string(t->error) : curl_easy_strerror(code);
    r.body.clear();
  }
  Done done = std::move(t->done);
  HttpResult result = std::move(t->result);
  t->easy = nullptr;
  ReleaseEasy(easy);  // forgets the header list before ~Transfer wipes and frees it
  t.reset();          // wipes the header copy of the key before the callback runs
  done(std::move(result));
}

CURL* HttpLoop::AcquireEasy() {
  if (idle_easies_.empty()) return curl_easy_init();
  CURL* easy = idle_easies_.back();
  idle_easies_.pop_back();
  return easy;
}

void HttpLoop::ReleaseEasy(CURL* easy) {
  // Every option back to its default: no URL, body, header list (so no Authorization line)
  // or callback pointer of this transfer survives into the next one.
  curl_easy_reset(easy);
  if (idle_easies_.size() < kMaxIdleEasies) {
    idle_easies_.push_back(easy);
  } else {
    curl_easy_cleanup(easy);
  }
}

int HttpLoop::OnSocket(CURL*, curl_socket_t s, int what, void* userp, void*) {
  auto* loop = static_cast<HttpLoop*>(userp);
  if (what == CURL_POLL_REMOVE) {
    // Fails harmlessly when curl has closed the socket already (close leaves the set).
    epoll_ctl(loop->epoll_fd_, EPOLL_CTL_DEL, s, nullptr);
    return 0;
  }
  epoll_event ev{};
  ev.events = ((what & CURL_POLL_IN) ? EPOLLIN : 0u) | ((what & CURL_POLL_OUT) ? EPOLLOUT : 0u);
  ev.data.fd = s;
  if (epoll_ctl(loop->epoll_fd_, EPOLL_CTL_MOD, s, &ev) != 0 && errno == ENOENT) {
    epoll_ctl(loop->epoll_fd_, EPOLL_CTL_ADD, s, &ev);
  }
  return 0;
}

int HttpLoop::OnTimer(CURLM*, long timeout_ms, void* userp) {
  auto* loop = static_cast<HttpLoop*>(userp);
  if (timeout_ms < 0) {
    loop->curl_timer_set_ = false;
  } else {
    loop->curl_timer_set_ = true;
    loop->curl_due_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  }
  return 0;
}

void HttpLoop::DriveCurl(int fd, int events) {
  int running = 0;
  curl_multi_socket_action(multi_, fd, events, &running);
}

void HttpLoop::Drain() {
  int left = 0;
  while (CURLMsg* msg = curl_multi_info_read(multi_, &left)) {
    completions_left_ = left;
    if (msg->msg == CURLMSG_DONE) Complete(msg->easy_handle, msg->data.result);
  }
  completions_left_ = 0;
}

void HttpLoop::Run() {
  std::vector<Task> tasks;
  constexpr int kMaxEvents = 256;
  epoll_event events[kMaxEvents];
  auto run_curl_timers = [&] {
    if (curl_timer_set_ && curl_due_ <= std::chrono::steady_clock::now()) {
      DriveCurl(CURL_SOCKET_TIMEOUT, 0);
      // curl calls the timer function only when its earliest deadline changed; when ours
      // (whole milliseconds) came due a little before curl's own, nothing expired and no call
      // comes, so ask for the deadline rather than lose it.
      long ms = -1;
      curl_multi_timeout(multi_, &ms);
      OnTimer(multi_, ms, this);
      Drain();
    }
  };
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stop_) break;
      tasks.swap(posted_);
    }
    for (auto& task : tasks) task();
    tasks.clear();

    auto now = std::chrono::steady_clock::now();
    while (!timers_.empty() && timers_.top().due <= now) {
      Task task = std::move(const_cast<Timer&>(timers_.top()).task);
      timers_.pop();
      task();
    }
    while (!queued_.empty() && in_flight_ < options_.max_in_flight) {
      auto t = std::move(queued_.front());
      queued_.pop_front();
      Launch(std::move(t));
    }
    // New transfers ask for an immediate timeout: start them now rather than after a wait.
    run_curl_timers();

    auto wait_until = now + std::chrono::seconds(1);
    if (curl_timer_set_ && curl_due_ < wait_until) wait_until = curl_due_;
    if (!timers_.empty() && timers_.top().due < wait_until) wait_until = timers_.top().due;
    now = std::chrono::steady_clock::now();
    long wait_ms = 0;
    if (wait_until > now) {
      // Rounded up: waking before a deadline would only spin.
      wait_ms =
          static_cast<long>(std::chrono::ceil<std::chrono::milliseconds>(wait_until - now).count());
    }
    if (!queued_.empty() && in_flight_ < options_.max_in_flight) wait_ms = 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!posted_.empty() || stop_) wait_ms = 0;
    }
    int n = epoll_wait(epoll_fd_, events, kMaxEvents, static_cast<int>(wait_ms));
    for (int i = 0; i < n; ++i) {
      int fd = events[i].data.fd;
      if (fd == wake_fd_) {
        uint64_t count;
        [[maybe_unused]] ssize_t r = read(wake_fd_, &count, sizeof count);
        continue;
      }
      uint32_t e = events[i].events;
      int mask = 0;
      if (e & (EPOLLIN | EPOLLHUP | EPOLLRDHUP)) mask |= CURL_CSELECT_IN;
      if (e & EPOLLOUT) mask |= CURL_CSELECT_OUT;
      if (e & EPOLLERR) mask |= CURL_CSELECT_ERR;
      DriveCurl(fd, mask);
    }
    Drain();
    run_curl_timers();
  }
  // Shutting down: drop what is left (the server has drained its calls by now).
  while (!queued_.empty()) queued_.pop_front();
  while (!timers_.empty()) timers_.pop();
  for (Transfer* t : live_) {
    curl_multi_remove_handle(multi_, t->easy);
    delete t;
  }
  live_.clear();
}

}  // namespace arena::gateway
