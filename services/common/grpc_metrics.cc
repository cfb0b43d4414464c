#include "services/common/grpc_metrics.h"

#include <chrono>
#include <string>

#include "absl/status/status.h"

namespace arena::common {
namespace {

// gRPC's codes are absl's, by number and by name.
std::string CodeName(grpc::StatusCode code) {
  std::string name = absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
  return name.empty() ? "UNKNOWN" : name;
}

struct Families {
  Family<Counter>* started;
  Family<Counter>* handled;
  Family<Histogram>* seconds;
};

// One per call: counts it when its initial metadata arrives and times it until its status goes.
class MetricsInterceptor final : public grpc::experimental::Interceptor {
 public:
  MetricsInterceptor(const Families& f, std::string method) : f_(f), method_(std::move(method)) {}

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    using grpc::experimental::InterceptionHookPoints;
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      f_.started->With({method_}).Add();
    }
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      const grpc::Status status = methods->GetSendStatus();
      f_.handled->With({method_, CodeName(status.error_code())}).Add();
      f_.seconds->With({method_}).Observe(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
    }
    methods->Proceed();
  }

 private:
  const Families f_;
  const std::string method_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

class MetricsInterceptorFactory final
    : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit MetricsInterceptorFactory(MetricsRegistry& registry)
      : f_{&registry.Counters("arena_grpc_server_started_total",
                              "gRPC calls that reached the server, by method.", {"method"}),
           &registry.Counters("arena_grpc_server_handled_total",
                              "gRPC calls finished, by method and status code.",
                              {"method", "code"}),
           &registry.Histograms("arena_grpc_server_handling_seconds",
                                "Seconds from a gRPC call's arrival to its status, by method.",
                                {"method"})} {}

  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    return new MetricsInterceptor(f_, info->method() != nullptr ? info->method() : "");
  }

 private:
  const Families f_;
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> GrpcMetricsInterceptor(
    MetricsRegistry& registry) {
  return std::make_unique<MetricsInterceptorFactory>(registry);
}

}  // namespace arena::common
