// The gRPC adapter of arena-llm-gateway: ModelGatewayService on the callback API. Every RPC
// first requires `arena`'s service credential. ChooseMove never blocks a gRPC thread: the
// reactor is finished from the HTTP loop's completion callback.
#pragma once

#include "arena/v1/gateway.grpc.pb.h"
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
  gateway::ModelGateway* gateway_;
  common::ServiceAuthenticator auth_;
};

}  // namespace arena::llm_gateway
