#include "common/work_queue.h"

#include <pthread.h>

namespace arena::common {

WorkQueue::WorkQueue(int threads, size_t max_queued, const std::string& name)
    : max_queued_(max_queued) {
  for (int i = 0; i < threads; ++i) {
    threads_.emplace_back([this] { Loop(); });
    if (!name.empty()) pthread_setname_np(threads_.back().native_handle(), name.c_str());
  }
}

WorkQueue::~WorkQueue() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

bool WorkQueue::Submit(std::function<void()> work) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (queue_.size() >= max_queued_) return false;
    queue_.push_back(std::move(work));
  }
  cv_.notify_one();
  return true;
}

void WorkQueue::Loop() {
  while (true) {
    std::function<void()> work;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and everything queued is done
      work = std::move(queue_.front());
      queue_.pop_front();
    }
    work();
  }
}

}  // namespace arena::common
