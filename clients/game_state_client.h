// Calling arena-game-state as any of its clients does — a seat driver acting for AI seats
// with the arena service's credential, a person or a tool holding a seat or host credential,
// a test — with one definition of how a call identifies itself and how a seat's action is
// written on the wire (its ActionKind follows from the engine text).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "absl/time/time.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "grpcpp/channel.h"
#include "grpcpp/client_context.h"
#include "services/common/service_auth.h"

namespace arena::clients {

// Where to watch a game instead: a replica answers a WatchGame for a game another replica owns
// with UNAVAILABLE "game G is served by replica R at HOST:PORT" (docs/game-state.md,
// "Ownership and replicas"); this is HOST:PORT. Nothing for any other status.
std::optional<std::string> RedirectedTo(const grpc::Status& status);

// How a call identifies itself; any combination may be set.
struct Credentials {
  const common::ServiceIdentity* service = nullptr;  // a service's own credential
  std::string seat = {};                             // x-arena-seat-credential
  std::string host = {};                             // x-arena-host-credential
  void Attach(grpc::ClientContext& ctx) const;
};

// The request for one seat action in the engine's canonical text ("e2e4", "aim 0,0",
// "place Q 2,-7", "skip", "pass", ...), kind derived from the text.
v1::SubmitActionRequest SeatAction(const std::string& game_id, int seat, const std::string& text,
                                   int64_t expected_action_number,
                                   const std::string& annotation = "");

class GameStateClient {
 public:
  explicit GameStateClient(std::shared_ptr<grpc::Channel> channel,
                           absl::Duration timeout = absl::Seconds(10));

  grpc::Status Create(const v1::CreateTableRequest& req, const Credentials& as,
                      v1::CreateTableResponse* resp);
  grpc::Status Join(const v1::JoinTableRequest& req, const Credentials& as,
                    v1::JoinTableResponse* resp);
  grpc::Status Get(const v1::GetGameRequest& req, const Credentials& as, v1::GameView* view);
  grpc::Status Submit(const v1::SubmitActionRequest& req, const Credentials& as,
                      v1::SubmitActionResponse* resp);

  v1::GameStateService::Stub& stub() { return *stub_; }

  // The same call on a stub the caller already holds (services keep one stub per peer).
  static grpc::Status SubmitOn(v1::GameStateService::Stub& stub, const v1::SubmitActionRequest& req,
                               const Credentials& as, absl::Duration timeout,
                               v1::SubmitActionResponse* resp);

 private:
  void Prepare(grpc::ClientContext& ctx, const Credentials& as) const;

  std::unique_ptr<v1::GameStateService::Stub> stub_;
  absl::Duration timeout_;
};

}  // namespace arena::clients
