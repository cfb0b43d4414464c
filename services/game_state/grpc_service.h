// The gRPC adapter of arena-game-state: a thin CallbackService over GameStateCore.
//
// Credentials travel in metadata only: `x-arena-seat-credential` (a seat holder),
// `x-arena-host-credential` (the table's host), and the service headers checked by
// ServiceAuthenticator (`arena` acts for bot and model seats and may create fixed-leader,
// rated and league tables). Unary calls finish from the core's completion, i.e. after the
// group commit. WatchGame is a server-streaming reactor that writes the next queued message
// from OnWriteDone; it is a raw method (bytes in, bytes out) so that each event is serialised
// once for all its watchers rather than by gRPC once per stream. The wire format is unchanged.
//
// Replicas: a unary call about a game another replica owns (the core says so with the owner's
// address, OwnerAddressOf) is forwarded to that replica with the caller's own credentials and
// deadline, and its answer returned as is; a forwarded call is marked and never forwarded
// again. WatchGame is not forwarded: it ends UNAVAILABLE naming the owner's address (a redirect).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "arena/v1/game_state.grpc.pb.h"
#include "services/common/rate_limit.h"
#include "services/common/service_auth.h"
#include "services/game_state/game_service.h"

namespace arena::game_state {

inline constexpr char kSeatCredentialHeader[] = "x-arena-seat-credential";
inline constexpr char kHostCredentialHeader[] = "x-arena-host-credential";
// Set on a call one replica forwards to another: the receiver answers it, never forwards it.
inline constexpr char kForwardedHeader[] = "x-arena-forwarded";

// Starts a call on the owner's stub: `start(stub, client_context, done)` (the request and the
// response buffer are the forwarding call's own).
using StartForward = std::function<void(v1::GameStateService::Stub*, grpc::ClientContext*,
                                        std::function<void(grpc::Status)>)>;

// Quotas for callers without a service credential, by network address (docs/security.md).
struct EdgeLimits {
  common::RateLimiter::Limit tables_per_address{20, 10.0 / 60};  // 20, then 10 a minute
  int watch_streams_per_address = 64;                            // open at once
};

class GameStateGrpc final : public v1::GameStateService::WithRawCallbackMethod_WatchGame<
                                v1::GameStateService::CallbackService> {
 public:
  GameStateGrpc(GameStateCore* core, common::ServiceAuthenticator auth, EdgeLimits limits = {})
      : core_(core),
        auth_(std::move(auth)),
        limits_(limits),
        tables_per_address_(limits.tables_per_address) {}

  grpc::ServerUnaryReactor* CreateTable(grpc::CallbackServerContext* ctx,
                                        const v1::CreateTableRequest* req,
                                        v1::CreateTableResponse* resp) override;
  grpc::ServerUnaryReactor* JoinTable(grpc::CallbackServerContext* ctx,
                                      const v1::JoinTableRequest* req,
                                      v1::JoinTableResponse* resp) override;
  grpc::ServerUnaryReactor* SubmitAction(grpc::CallbackServerContext* ctx,
                                         const v1::SubmitActionRequest* req,
                                         v1::SubmitActionResponse* resp) override;
  grpc::ServerUnaryReactor* GetGame(grpc::CallbackServerContext* ctx, const v1::GetGameRequest* req,
                                    v1::GameView* resp) override;
  grpc::ServerUnaryReactor* ListGames(grpc::CallbackServerContext* ctx,
                                      const v1::ListGamesRequest* req,
                                      v1::ListGamesResponse* resp) override;
  // The request arrives as bytes (a WatchGameRequest); the stream carries GameEvent bytes.
  grpc::ServerWriteReactor<grpc::ByteBuffer>* WatchGame(grpc::CallbackServerContext* ctx,
                                                        const grpc::ByteBuffer* raw) override;
  grpc::ServerUnaryReactor* GetRecord(grpc::CallbackServerContext* ctx,
                                      const v1::GetRecordRequest* req,
                                      v1::GameRecord* resp) override;
  grpc::ServerUnaryReactor* UpdateSettings(grpc::CallbackServerContext* ctx,
                                           const v1::UpdateSettingsRequest* req,
                                           v1::GameView* resp) override;
  grpc::ServerUnaryReactor* DeleteGame(grpc::CallbackServerContext* ctx,
                                       const v1::DeleteGameRequest* req,
                                       v1::DeleteGameResponse* resp) override;
  grpc::ServerUnaryReactor* Pong(grpc::CallbackServerContext* ctx, const v1::PongRequest* req,
                                 v1::PongResponse* resp) override;
  grpc::ServerUnaryReactor* VoidGame(grpc::CallbackServerContext* ctx,
                                     const v1::VoidGameRequest* req, v1::GameView* resp) override;

 private:
  absl::StatusOr<Caller> CallerOf(const grpc::CallbackServerContext& ctx) const;

  // Finishes the call with `status`, or, when it names another replica as the game's owner
  // (and the call was not forwarded already), forwards it there and finishes with its answer.
  void FinishOrForward(grpc::CallbackServerContext* ctx, grpc::ServerUnaryReactor* reactor,
                       const absl::Status& status, const StartForward& start);
  v1::GameStateService::Stub* OwnerStub(const std::string& address);

  // Counts a watch stream against its address; false when the address has its maximum.
  bool AcquireWatch(const std::string& address);
  void ReleaseWatch(const std::string& address);

  GameStateCore* core_;
  common::ServiceAuthenticator auth_;
  EdgeLimits limits_;
  common::RateLimiter tables_per_address_;
  std::mutex watch_mu_;
  std::map<std::string, int> watch_streams_;  // address -> open streams (non-service callers)
  std::mutex stubs_mu_;
  std::map<std::string, std::unique_ptr<v1::GameStateService::Stub>> owner_stubs_;  // by address
};

}  // namespace arena::game_state
