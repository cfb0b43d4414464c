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
// The heartbeat makes a tiny unary call (InfoService.GetServerInfo) over an in-process channel
// every `period` (250 ms, well inside the 1 s wait), so one of those threads always has an
// event in time and never takes the sleep. It costs no thread of its own (the next call is
// scheduled with a gRPC alarm) and a few tens of microseconds of CPU per beat.
#pragma once

#include <memory>

#include "absl/time/time.h"
#include "grpcpp/channel.h"

namespace arena::common {

class CallbackHeartbeat {
 public:
  // Beats over `channel`, which must reach an InfoService (a server's InProcessChannel:
  // RunServer uses its own server, so no server or thread is added).
  static std::unique_ptr<CallbackHeartbeat> Start(std::shared_ptr<grpc::Channel> channel,
                                                  absl::Duration period = absl::Milliseconds(250));
  // For a process without a server of its own (a callback-API client): beats to a private
  // in-process server.
  static std::unique_ptr<CallbackHeartbeat> StartPrivate(
      absl::Duration period = absl::Milliseconds(250));
  virtual ~CallbackHeartbeat() = default;  // stops, and waits for the beat in flight
  virtual int64_t beats() const = 0;       // completed calls so far
};

}  // namespace arena::common
