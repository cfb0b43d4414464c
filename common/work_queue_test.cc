#include "common/work_queue.h"

#include <atomic>
#include <future>
#include <vector>

#include "gtest/gtest.h"

namespace arena::common {
namespace {

TEST(WorkQueueTest, OneThreadRunsWorkInOrderOfSubmission) {
  std::vector<int> seen;
  {
    WorkQueue q(1);
    for (int i = 0; i < 100; ++i) ASSERT_TRUE(q.Submit([&seen, i] { seen.push_back(i); }));
  }  // the destructor runs what is queued
  ASSERT_EQ(seen.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(seen[i], i);
}

TEST(WorkQueueTest, RefusesWorkBeyondItsBound) {
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  std::promise<void> started;
  std::atomic<int> ran{0};
  {
    WorkQueue q(1, 2);
    ASSERT_TRUE(q.Submit([&] {
      started.set_value();
      gate.wait();
      ++ran;
    }));
    started.get_future().wait();  // the worker holds the first item; the queue is empty
    EXPECT_TRUE(q.Submit([&] { ++ran; }));
    EXPECT_TRUE(q.Submit([&] { ++ran; }));
    EXPECT_FALSE(q.Submit([&] { ++ran; }));  // two queued already
    release.set_value();
  }
  EXPECT_EQ(ran.load(), 3);
}

}  // namespace
}  // namespace arena::common
