// Request counts and latencies per gRPC method, for every server (RunServer installs it):
//
//   arena_grpc_server_started_total{method}            calls that reached the server
//   arena_grpc_server_handled_total{method,code}       calls finished, by status code name
//   arena_grpc_server_handling_seconds{method}         from the call's arrival to its status
//
// `method` is the full gRPC name ("/arena.v1.BotService/ChooseMove"). A server interceptor sees
// every call, whatever API the service uses (callback, sync, streaming); for a stream the time is
// the stream's whole life. Names a client makes up cannot grow memory without bound: a family
// folds what passes its children's limit into "other" (metrics.h).
#pragma once

#include <memory>

#include "grpcpp/support/server_interceptor.h"
#include "services/common/metrics.h"

namespace arena::common {

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> GrpcMetricsInterceptor(
    MetricsRegistry& registry = MetricsRegistry::Global());

}  // namespace arena::common
