// TimerQueue: one thread that runs every game's timers (clock expiry, first-move abort,
// disconnect loss, keep-alives). No thread per game: deadlines sit in one ordered map and the
// thread sleeps until the earliest. Callbacks run on the timer thread and must be short
// (they lock one game and queue events; durable writes go to the group-commit writer).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace arena::game_state {

class TimerQueue {
 public:
  TimerQueue();
  ~TimerQueue();  // stops the thread; pending timers never run
  TimerQueue(const TimerQueue&) = delete;
  TimerQueue& operator=(const TimerQueue&) = delete;

  using TimerId = uint64_t;
  TimerId Schedule(absl::Time when, std::function<void()> fn);
  // True when the timer was pending and will not run.
  bool Cancel(TimerId id);
  void Stop();

 private:
  void Run();

  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  TimerId next_id_ = 1;
  std::map<std::pair<absl::Time, TimerId>, std::function<void()>> timers_;
  std::unordered_map<TimerId, absl::Time> when_;
  std::thread thread_;
};

}  // namespace arena::game_state
