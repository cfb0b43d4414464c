#include "services/common/callback_heartbeat.h"

#include <atomic>
#include <condition_variable>
#include <mutex>

#include "arena/v1/common.grpc.pb.h"
#include "grpcpp/alarm.h"
#include "grpcpp/grpcpp.h"

namespace arena::common {
namespace {

// The private server's one method: an empty answer.
class BeatService final : public arena::v1::InfoService::CallbackService {
 public:
  grpc::ServerUnaryReactor* GetServerInfo(grpc::CallbackServerContext* context,
                                          const arena::v1::GetServerInfoRequest*,
                                          arena::v1::ServerInfo*) override {
    auto* reactor = context->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }
};

class Heartbeat final : public CallbackHeartbeat {
 public:
  // `server` (may be null) is the private server `channel` reaches; it is shut down last.
  Heartbeat(std::shared_ptr<grpc::Channel> channel, absl::Duration period,
            std::unique_ptr<BeatService> service, std::unique_ptr<grpc::Server> server)
      : period_(period), service_(std::move(service)), server_(std::move(server)) {
    stub_ = arena::v1::InfoService::NewStub(std::move(channel));
    Beat();
  }

  ~Heartbeat() override {
    {
      // Under the lock, so it cannot interleave with Rearm's Set.
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
      // A pending alarm fires at once (on gRPC's executor) with ok=false.
      if (alarm_ != nullptr) alarm_->Cancel();
    }
    {
      std::unique_lock<std::mutex> lock(mu_);
      idle_cv_.wait(lock, [this] { return !busy_; });
    }
    if (server_ != nullptr) server_->Shutdown();
  }

  int64_t beats() const override { return beats_.load(); }

 private:
  // The call is started without the lock held: gRPC may run its callback (Rearm) on the
  // calling thread. An alarm's callback always runs on gRPC's executor, so Rearm sets the
  // alarm under the lock. Each beat gets a new Alarm: Set on the old one would replace the
  // function its executor thread may still be running (the alarm's own state lives until
  // its callback returns, so dropping the old object is safe).
  void Beat() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (Stopped()) return;
      ctx_ = std::make_unique<grpc::ClientContext>();
      ctx_->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
    }
    stub_->async()->GetServerInfo(ctx_.get(), &request_, &reply_,
                                  [this](grpc::Status) { Rearm(); });
  }

  // On a gRPC thread, when a beat has completed.
  void Rearm() {
    ++beats_;
    std::lock_guard<std::mutex> lock(mu_);
    if (Stopped()) return;
    alarm_ = std::make_unique<grpc::Alarm>();
    alarm_->Set(std::chrono::system_clock::now() + absl::ToChronoMilliseconds(period_),
                [this](bool) { Beat(); });
  }

  // With mu_ held: true (and the destructor told) once stopping.
  bool Stopped() {
    if (!stopping_) return false;
    busy_ = false;
    idle_cv_.notify_all();
    return true;
  }

  absl::Duration period_;
  std::unique_ptr<BeatService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<arena::v1::InfoService::Stub> stub_;
  std::mutex mu_;
  std::condition_variable idle_cv_;
  bool stopping_ = false;
  bool busy_ = true;  // a call or an alarm is outstanding
  std::unique_ptr<grpc::ClientContext> ctx_;
  arena::v1::GetServerInfoRequest request_;
  arena::v1::ServerInfo reply_;
  std::unique_ptr<grpc::Alarm> alarm_;
  std::atomic<int64_t> beats_{0};
};

}  // namespace

std::unique_ptr<CallbackHeartbeat> CallbackHeartbeat::Start(std::shared_ptr<grpc::Channel> channel,
                                                            absl::Duration period) {
  return std::make_unique<Heartbeat>(std::move(channel), period, nullptr, nullptr);
}

std::unique_ptr<CallbackHeartbeat> CallbackHeartbeat::StartPrivate(absl::Duration period) {
  auto service = std::make_unique<BeatService>();
  grpc::ServerBuilder builder;  // no listening port: reachable in-process only
  builder.RegisterService(service.get());
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  auto channel = server->InProcessChannel(grpc::ChannelArguments());
  return std::make_unique<Heartbeat>(std::move(channel), period, std::move(service),
                                     std::move(server));
}

}  // namespace arena::common
