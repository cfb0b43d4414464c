// The JSON face of arena's and game-state's unary RPCs: `POST /api/arena/<Method>` and
// `POST /api/game/<Method>` take the request message in protobuf's JSON mapping and answer
// the response message the same way (field names as in the .proto files; 64-bit integers as
// strings). The routes come from the services' descriptors, so an RPC added to either
// service is reachable without an edit here, except the ones only a service may call
// (ledger holds, voiding, pongs), which are never routed. The bearer token and the seat and
// host credentials ride along as metadata; arena and game-state decide, as for any gRPC call.
//
// Calls use gRPC's callback API (no thread waits on one); `done` runs on a gRPC thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "google/protobuf/descriptor.h"
#include "grpcpp/channel.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/impl/codegen/proto_utils.h"  // SerializationTraits for protobuf messages
#include "services/common/in_flight.h"

namespace arena::web {

// One routed RPC.
struct RpcRoute {
  std::string path;  // "/arena.v1.ArenaService/SignIn"
  const google::protobuf::Descriptor* request = nullptr;
  const google::protobuf::Descriptor* response = nullptr;
  int upstream = 0;  // 0 arena, 1 game-state
};

// An answer ready for HTTP: the status and a JSON body (the response, or ErrorJson).
struct JsonReply {
  unsigned http_status = 200;
  std::string body;
};

class RpcBridge {
 public:
  // Channels to arena and game-state (either may be null in tests of routing alone).
  RpcBridge(std::shared_ptr<grpc::ChannelInterface> arena,
            std::shared_ptr<grpc::ChannelInterface> game_state, absl::Duration deadline);
  // Waits for the calls in flight (each ends by its deadline).
  ~RpcBridge();

  // The route for `/api/<service>/<method>` ("arena" or "game"); nullptr when there is none
  // (an unknown or service-only method, a streaming one).
  const RpcRoute* Find(std::string_view service, std::string_view method) const;

  // Every routed path, "arena/SignIn", ... (sorted), for the API's index and the tests.
  std::vector<std::string> RoutedNames() const;

  // Parses `json` as the route's request. An empty body is the empty message. On a body that
  // does not parse, `done` gets 400 INVALID_ARGUMENT naming what the parser refused, and
  // nothing is sent upstream.
  void Call(const RpcRoute& route, std::string_view json,
            std::vector<std::pair<std::string, std::string>> metadata,
            std::function<void(JsonReply)> done) const;

  // `POST /api/web/ReplayBoards` {"game_id", "perspective"}: game-state's GetRecord, made with
  // the caller's credentials, replayed into every position's board view (replay_boards.h).
  void ReplayBoards(std::string_view json,
                    std::vector<std::pair<std::string, std::string>> metadata,
                    std::function<void(JsonReply)> done) const;

 private:
  using Stub = grpc::TemplatedGenericStub<google::protobuf::Message, google::protobuf::Message>;
  std::unique_ptr<Stub> stubs_[2];
  absl::Duration deadline_;
  mutable common::InFlightCalls calls_;
  std::map<std::string, RpcRoute, std::less<>> routes_;  // "arena/SignIn"
};

// The methods no person may call, never routed whatever the services answer.
bool ServiceOnlyMethod(std::string_view full_service, std::string_view method);

}  // namespace arena::web
