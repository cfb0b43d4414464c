// TimerQueue: order, cancellation, and timers scheduled from inside a callback.
#include "services/game_state/timer_queue.h"

#include <atomic>
#include <mutex>
#include <vector>

#include "gtest/gtest.h"

namespace arena::game_state {
namespace {

TEST(TimerQueueTest, RunsInDeadlineOrderAndHonoursCancel) {
  TimerQueue q;
  std::mutex mu;
  std::vector<int> order;
  std::atomic<int> done{0};
  absl::Time now = absl::Now();
  auto add = [&](int ms, int tag) {
    return q.Schedule(now + absl::Milliseconds(ms), [&, tag] {
      std::lock_guard<std::mutex> lock(mu);
      order.push_back(tag);
      done++;
    });
  };
  add(60, 3);
  add(20, 1);
  auto cancelled = add(40, 99);
  add(40, 2);
  EXPECT_TRUE(q.Cancel(cancelled));
  EXPECT_FALSE(q.Cancel(cancelled));
  absl::Time limit = absl::Now() + absl::Seconds(5);
  while (done < 3 && absl::Now() < limit) absl::SleepFor(absl::Milliseconds(5));
  absl::SleepFor(absl::Milliseconds(50));
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

TEST(TimerQueueTest, CallbackMayScheduleAnother) {
  TimerQueue q;
  std::atomic<int> fired{0};
  q.Schedule(absl::Now(), [&] {
    fired++;
    q.Schedule(absl::Now() + absl::Milliseconds(5), [&] { fired++; });
  });
  absl::Time limit = absl::Now() + absl::Seconds(5);
  while (fired < 2 && absl::Now() < limit) absl::SleepFor(absl::Milliseconds(5));
  EXPECT_EQ(fired, 2);
}

}  // namespace
}  // namespace arena::game_state
