// A fixed set of threads running queued work in order of submission, with a bound on the
// queue. The thread count never depends on the amount of work.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace arena::common {

class WorkQueue {
 public:
  // `name` (at most 15 characters) names the threads, as top and gdb show them.
  WorkQueue(int threads, size_t max_queued = std::numeric_limits<size_t>::max(),
            const std::string& name = "");
  ~WorkQueue();  // runs what is queued, then joins
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // False when the queue is full (the caller answers RESOURCE_EXHAUSTED).
  bool Submit(std::function<void()> work);

 private:
  void Loop();
  const size_t max_queued_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace arena::common
