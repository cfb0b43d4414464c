// The gRPC adapter of arena-llm-gateway: ModelGatewayService on the callback API. Every RPC
// first requires `arena`'s service credential. ChooseMove never blocks a gRPC thread: the
// turn ends in the HTTP loop's completion callback. Finish serialises the reply and writes it
// to the connection inline (about a third of the loop thread's CPU per turn), so when more
// replies arrived together the callback hands it to the service's one finisher thread, which
// sends while the loop reads the next ones — on another core when one is free. A reply alone
// is finished at once on the loop (a hand-off would only add a thread wake-up).
#pragma once

#include <limits>

#include "arena/v1/gateway.grpc.pb.h"
#include "common/work_queue.h"
#include "gateway/model_gateway.h"
#include "services/common/service_auth.h"

namespace arena::llm_gateway {

class GatewayService final : public arena::v1::ModelGatewayService::CallbackService {
 public:
  GatewayService(gateway::ModelGateway* gateway, common::ServiceAuthenticator auth)
      : gateway_(gateway), auth_(std::move(auth)) {}

  grpc::ServerUnaryReactor* RegisterKey(grpc::CallbackServerContext* ctx,
                                        const arena::v1::RegisterKeyRequest* request,
                                        arena::v1::RegisterKeyResponse* response) override;
  grpc::ServerUnaryReactor* ReleaseKey(grpc::CallbackServerContext* ctx,
                                       const arena::v1::ReleaseKeyRequest* request,
                                       arena::v1::ReleaseKeyResponse* response) override;
  grpc::ServerUnaryReactor* ChooseMove(grpc::CallbackServerContext* ctx,
                                       const arena::v1::ModelTurnRequest* request,
                                       arena::v1::ModelTurnResponse* response) override;
  grpc::ServerUnaryReactor* ListModels(grpc::CallbackServerContext* ctx,
                                       const arena::v1::ListModelsRequest* request,
                                       arena::v1::ListModelsResponse* response) override;

 private:
  // Finishes `reactor` on the finisher thread when called on the HTTP loop's thread with
  // more replies waiting behind this one, else (a reply alone, or a refusal on the gRPC
  // thread) at once.
  void FinishLater(grpc::ServerUnaryReactor* reactor, grpc::Status status);

  gateway::ModelGateway* gateway_;
  common::ServiceAuthenticator auth_;
  common::WorkQueue finisher_{1, std::numeric_limits<size_t>::max(), "gw-finish"};
};

}  // namespace arena::llm_gateway
