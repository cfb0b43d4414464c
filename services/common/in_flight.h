// Client calls whose callbacks have yet to return, so that their owner can wait for the last
// one before it drops its stub.
//
// gRPC 1.51 on Linux runs every callback on a few threads that poll one process-wide
// completion queue, referenced by every channel and server that has used it. When the last of
// them goes on one of those threads (a ClientContext holds its channel), the queue is shut down
// and freed under the thread, which then polls freed memory. So a callback releases its
// ClientContext before it calls End(), and the owner calls WaitUntilNone() before its stubs
// go: the last reference to a channel is then dropped on the owner's thread.
#pragma once

#include "absl/synchronization/mutex.h"

namespace arena::common {

class InFlightCalls {
 public:
  void Begin() {
    absl::MutexLock lock(&mu_);
    ++calls_;
  }
  // The caller's last touch of the owner: once it returns, the owner may be gone.
  void End() {
    absl::MutexLock lock(&mu_);
    --calls_;
  }
  void WaitUntilNone() {
    absl::MutexLock lock(&mu_);
    mu_.Await(absl::Condition(
        +[](int* calls) { return *calls == 0; }, &calls_));
  }

 private:
  absl::Mutex mu_;
  int calls_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace arena::common
