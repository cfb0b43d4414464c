// The services a service calls (arena: game-state, arena-bot, the gateway), each with the
// caller's own service credential attached to every call and a deadline on every call.
#pragma once

#include <memory>
#include <string>

#include "absl/time/time.h"
#include "arena/v1/bot.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "arena/v1/gateway.grpc.pb.h"
#include "clients/game_state_client.h"
#include "common/grpc_util.h"
#include "grpcpp/client_context.h"
#include "services/common/service_auth.h"

namespace arena::clients {

struct ServiceAddresses {
  std::string game_state;
  std::string bot;
  std::string gateway;
};

class ServiceClients {
 public:
  ServiceClients(const ServiceAddresses& addresses, common::ServiceIdentity identity)
      : identity_(std::move(identity)),
        game_state_(v1::GameStateService::NewStub(common::MakeChannel(addresses.game_state))),
        bot_(v1::BotService::NewStub(common::MakeChannel(addresses.bot))),
        gateway_(v1::ModelGatewayService::NewStub(common::MakeChannel(addresses.gateway))) {}

  // Prepares `ctx` for a call made as arena: credential and deadline.
  void Prepare(grpc::ClientContext& ctx, absl::Duration timeout) const {
    identity_.Attach(ctx);
    common::SetDeadline(ctx, timeout);
  }
  // For streams that live as long as a game: the credential only.
  void Attach(grpc::ClientContext& ctx) const { identity_.Attach(ctx); }
  // Acting as this service (for the seats it drives).
  Credentials AsService() const { return Credentials{.service = &identity_}; }

  v1::GameStateService::Stub& game_state() { return *game_state_; }
  v1::BotService::Stub& bot() { return *bot_; }
  v1::ModelGatewayService::Stub& gateway() { return *gateway_; }

 private:
  common::ServiceIdentity identity_;
  std::unique_ptr<v1::GameStateService::Stub> game_state_;
  std::unique_ptr<v1::BotService::Stub> bot_;
  std::unique_ptr<v1::ModelGatewayService::Stub> gateway_;
};

}  // namespace arena::clients
