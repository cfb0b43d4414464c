#include "services/game_state/timer_queue.h"

namespace arena::game_state {

TimerQueue::TimerQueue() : thread_([this] { Run(); }) {}

TimerQueue::~TimerQueue() {
  Stop();
}

void TimerQueue::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

TimerQueue::TimerId TimerQueue::Schedule(absl::Time when, std::function<void()> fn) {
  TimerId id;
  bool earliest;
  {
    std::lock_guard<std::mutex> lock(mu_);
    id = next_id_++;
    timers_.emplace(std::make_pair(when, id), std::move(fn));
    when_[id] = when;
    earliest = timers_.begin()->first.second == id;
  }
  if (earliest) cv_.notify_all();
  return id;
}

bool TimerQueue::Cancel(TimerId id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = when_.find(id);
  if (it == when_.end()) return false;
  timers_.erase(std::make_pair(it->second, id));
  when_.erase(it);
  return true;
}

void TimerQueue::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    if (timers_.empty()) {
      cv_.wait(lock);
      continue;
    }
    absl::Time first = timers_.begin()->first.first;
    absl::Time now = absl::Now();
    if (first > now) {
      cv_.wait_for(lock, absl::ToChronoNanoseconds(first - now));
      continue;
    }
    auto node = timers_.extract(timers_.begin());
    when_.erase(node.key().second);
    lock.unlock();
    node.mapped()();
    lock.lock();
  }
}

}  // namespace arena::game_state
