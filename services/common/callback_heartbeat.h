// Keeps gRPC's callback-API threads awake in a process whose calls are a second or more apart.
//
// gRPC 1.51 on Linux (epoll1, no background poller) runs every callback-API completion, server
// handlers and client callbacks alike, on one process-wide completion queue drained by a few
// "nexting" threads. Each waits for an event for at most 1 s, and a thread whose wait ends
// without one sleeps 100 ms before it waits again. When all of them time out together — a
// process whose calls come ~1 s apart, such as a gateway serving one game whose model answers
// in about a second — a request or a reply that arrives during that sleep waits up to 100 ms
// for a thread (measured: about 1 call in 3 at one call in flight against a 1 s upstream).
//
// The heartbeat makes a tiny unary call over an in-process channel to a private server every
// `period` (250 ms, well inside the 1 s wait), so one of those threads always has an event in
// time and never takes the sleep. It costs no thread of its own (the next call is scheduled
// with a gRPC alarm) and a few tens of microseconds of CPU per beat.
#pragma once

#include <memory>

#include "absl/time/time.h"

namespace arena::common {

class CallbackHeartbeat {
 public:
  static std::unique_ptr<CallbackHeartbeat> Start(absl::Duration period = absl::Milliseconds(250));
  virtual ~CallbackHeartbeat() = default;  // stops, and waits for the beat in flight
  virtual int64_t beats() const = 0;       // completed calls so far
};

}  // namespace arena::common
