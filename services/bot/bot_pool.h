// BotPool: runs bot searches on a fixed set of worker threads (one per core by default),
// first come first served beyond that, and stops each search at its stop time.
//
// A job carries the request, the time it arrived and the time it must answer by (the
// request's time cap and the caller's deadline, whichever is earlier). A single watchdog
// thread sets a running job's stop flag when that time comes; the search polls the flag and
// returns its best move so far, so an answer always comes back (never abandoned). Jobs whose
// time has passed while queued still run their first iteration and answer at once. The pool
// knows nothing of gRPC: `done` is called on the worker thread with the answer.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "bots/core/bot.h"

namespace arena::bot_service {

struct BotJobResult {
  absl::StatusOr<bots::BotAnswer> answer;
  absl::Duration queued;
  absl::Duration elapsed;  // arrival to answer
};

class BotPool {
 public:
  explicit BotPool(int workers);
  ~BotPool();  // finishes the queued jobs, then joins
  BotPool(const BotPool&) = delete;
  BotPool& operator=(const BotPool&) = delete;

  // `stop_at`: when the search must stop (absl::InfiniteFuture() for none).
  void Submit(bots::BotRequest request, absl::Time arrived, absl::Time stop_at,
              std::function<void(BotJobResult)> done);
  // Any other search work on the same workers and watchdog: `work` runs on a worker thread
  // with the job's stop flag and the time it waited in the queue.
  using Work = std::function<void(const std::atomic<bool>* stop, absl::Duration queued)>;
  void SubmitWork(absl::Time arrived, absl::Time stop_at, Work work);
  int workers() const { return int(threads_.size()); }

 private:
  struct Job {
    absl::Time arrived;
    absl::Time stop_at;
    Work work;
    std::shared_ptr<std::atomic<bool>> stop;
  };
  void WorkerLoop();
  void WatchdogLoop();

  std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable watch_cv_;
  std::deque<Job> queue_;
  // Running jobs' stop times and flags, for the watchdog.
  std::vector<std::pair<absl::Time, std::shared_ptr<std::atomic<bool>>>> running_;
  bool shutting_down_ = false;
  std::vector<std::thread> threads_;
  std::thread watchdog_;
};

}  // namespace arena::bot_service
