#include "services/bot/bot_pool.h"

#include <algorithm>

namespace arena::bot_service {

BotPool::BotPool(int workers) {
  workers = std::max(1, workers);
  for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { WorkerLoop(); });
  watchdog_ = std::thread([this] { WatchdogLoop(); });
}

BotPool::~BotPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    shutting_down_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& t : threads_) t.join();
  watch_cv_.notify_all();
  watchdog_.join();
}

void BotPool::Submit(bots::BotRequest request, absl::Time arrived, absl::Time stop_at,
                     std::function<void(BotJobResult)> done) {
  SubmitWork(arrived, stop_at,
             [request = std::move(request), arrived, done = std::move(done)](
                 const std::atomic<bool>* stop, absl::Duration queued) mutable {
               request.stop = stop;
               BotJobResult result{bots::ChooseBotMove(request), queued, absl::ZeroDuration()};
               result.elapsed = absl::Now() - arrived;
               done(std::move(result));
             });
}

void BotPool::SubmitWork(absl::Time arrived, absl::Time stop_at, Work work) {
  Job job{arrived, stop_at, std::move(work), std::make_shared<std::atomic<bool>>(false)};
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(job));
  }
  work_cv_.notify_one();
}

void BotPool::WorkerLoop() {
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [&] { return shutting_down_ || !queue_.empty(); });
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      if (job.stop_at != absl::InfiniteFuture()) {
        if (job.stop_at <= absl::Now()) job.stop->store(true);
        running_.emplace_back(job.stop_at, job.stop);
      }
    }
    watch_cv_.notify_all();
    job.work(job.stop.get(), absl::Now() - job.arrived);
    {
      std::lock_guard<std::mutex> lock(mu_);
      running_.erase(std::remove_if(running_.begin(), running_.end(),
                                    [&](const auto& r) { return r.second == job.stop; }),
                     running_.end());
    }
  }
}

void BotPool::WatchdogLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (shutting_down_ && running_.empty() && queue_.empty()) return;
    absl::Time next = absl::InfiniteFuture();
    const absl::Time now = absl::Now();
    for (auto& [at, flag] : running_) {
      if (at <= now) {
        flag->store(true, std::memory_order_relaxed);
      } else {
        next = std::min(next, at);
      }
    }
    if (next == absl::InfiniteFuture()) {
      watch_cv_.wait_for(lock, std::chrono::milliseconds(200));
    } else {
      watch_cv_.wait_for(lock, absl::ToChronoMicroseconds(next - now));
    }
  }
}

}  // namespace arena::bot_service
