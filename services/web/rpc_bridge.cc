#include "services/web/rpc_bridge.h"

#include <chrono>

#include "arena/v1/arena.pb.h"
#include "arena/v1/game_state.pb.h"
#include "google/protobuf/dynamic_message.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/client_context.h"
#include "nlohmann/json.hpp"
#include "services/web/edge_policy.h"
#include "services/web/replay_boards.h"

namespace arena::web {
namespace {

namespace pb = google::protobuf;

constexpr std::string_view kArenaService = "arena.v1.ArenaService";
constexpr std::string_view kGameStateService = "arena.v1.GameStateService";

std::unique_ptr<pb::Message> NewMessage(const pb::Descriptor* d) {
  const pb::Message* proto = pb::MessageFactory::generated_factory()->GetPrototype(d);
  return std::unique_ptr<pb::Message>(proto->New());
}

// One call in flight: what gRPC writes into must outlive the call.
struct PendingCall {
  grpc::ClientContext context;
  std::unique_ptr<pb::Message> request;
  std::unique_ptr<pb::Message> response;
  std::function<void(JsonReply)> done;
};

}  // namespace

bool ServiceOnlyMethod(std::string_view full_service, std::string_view method) {
  if (full_service == kArenaService) {
    return method == "ReserveHold" || method == "PostHold" || method == "VoidHold";
  }
  if (full_service == kGameStateService) return method == "VoidGame" || method == "Pong";
  return true;
}

RpcBridge::~RpcBridge() {
  calls_.WaitUntilNone();
}

RpcBridge::RpcBridge(std::shared_ptr<grpc::ChannelInterface> arena,
                     std::shared_ptr<grpc::ChannelInterface> game_state, absl::Duration deadline)
    : deadline_(deadline) {
  if (arena) stubs_[0] = std::make_unique<Stub>(std::move(arena));
  if (game_state) stubs_[1] = std::make_unique<Stub>(std::move(game_state));
  // The generated code of both files is linked in (the messages below), so the generated pool
  // has their services.
  const pb::DescriptorPool* pool = pb::DescriptorPool::generated_pool();
  (void)v1::SignInRequest::descriptor();
  (void)v1::GetGameRequest::descriptor();
  const pb::ServiceDescriptor* services[2] = {
      pool->FindServiceByName(std::string(kArenaService)),
      pool->FindServiceByName(std::string(kGameStateService))};
  const char* prefixes[2] = {"arena/", "game/"};
  for (int u = 0; u < 2; ++u) {
    const pb::ServiceDescriptor* s = services[u];
    if (!s) continue;
    for (int i = 0; i < s->method_count(); ++i) {
      const pb::MethodDescriptor* m = s->method(i);
      if (m->client_streaming() || m->server_streaming()) continue;
      if (ServiceOnlyMethod(s->full_name(), m->name())) continue;
      RpcRoute r;
      r.path = "/" + s->full_name() + "/" + m->name();
      r.request = m->input_type();
      r.response = m->output_type();
      r.upstream = u;
      routes_.emplace(prefixes[u] + m->name(), std::move(r));
    }
  }
}

const RpcRoute* RpcBridge::Find(std::string_view service, std::string_view method) const {
  std::string key;
  key.reserve(service.size() + 1 + method.size());
  key.append(service).append("/").append(method);
  auto it = routes_.find(key);
  return it == routes_.end() ? nullptr : &it->second;
}

std::vector<std::string> RpcBridge::RoutedNames() const {
  std::vector<std::string> names;
  for (const auto& [name, route] : routes_) names.push_back(name);
  return names;
}

void RpcBridge::Call(const RpcRoute& route, std::string_view json,
                     std::vector<std::pair<std::string, std::string>> metadata,
                     std::function<void(JsonReply)> done) const {
  auto call = std::make_unique<PendingCall>();
  call->request = NewMessage(route.request);
  call->response = NewMessage(route.response);
  if (!json.empty()) {
    pb::util::JsonParseOptions opts;  // unknown fields are refused, not dropped
    auto parsed = pb::util::JsonStringToMessage(pb::StringPiece(json.data(), json.size()),
                                                call->request.get(), opts);
    if (!parsed.ok()) {
      done({400, ErrorJson(grpc::StatusCode::INVALID_ARGUMENT,
                           "the body is not a " + route.request->full_name() + " in JSON: " +
                               std::string(parsed.message().data(), parsed.message().size()))});
      return;
    }
  }
  Stub* stub = stubs_[route.upstream].get();
  if (!stub) {
    done({503, ErrorJson(grpc::StatusCode::UNAVAILABLE, "upstream not configured")});
    return;
  }
  for (auto& [key, value] : metadata) call->context.AddMetadata(key, value);
  call->context.set_deadline(std::chrono::system_clock::now() +
                             absl::ToChronoMilliseconds(deadline_));
  call->done = std::move(done);
  PendingCall* raw = call.release();
  calls_.Begin();
  stub->UnaryCall(&raw->context, route.path, grpc::StubOptions(), raw->request.get(),
                  raw->response.get(), [raw, calls = &calls_](grpc::Status status) {
                    std::unique_ptr<PendingCall> owned(raw);
                    JsonReply reply;
                    if (status.ok()) {
                      pb::util::JsonPrintOptions opts;
                      opts.preserve_proto_field_names = true;
                      opts.always_print_primitive_fields = true;
                      (void)pb::util::MessageToJsonString(*owned->response, &reply.body, opts);
                    } else {
                      reply.http_status = HttpStatusFor(status.error_code());
                      reply.body = ErrorJson(status.error_code(), status.error_message());
                    }
                    // The context (and its channel) goes before the bridge may: see in_flight.h.
                    auto done = std::move(owned->done);
                    owned.reset();
                    calls->End();
                    done(std::move(reply));
                  });
}

void RpcBridge::ReplayBoards(std::string_view json,
                             std::vector<std::pair<std::string, std::string>> metadata,
                             std::function<void(JsonReply)> done) const {
  const RpcRoute* route = Find("game", "GetRecord");
  auto parsed = nlohmann::json::parse(json.empty() ? std::string_view("{}") : json, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object() ||
      !parsed.value("game_id", nlohmann::json()).is_string() ||
      !parsed.value("perspective", nlohmann::json(0)).is_number_integer()) {
    done({400, ErrorJson(grpc::StatusCode::INVALID_ARGUMENT,
                         "the body must be {\"game_id\": string, \"perspective\": integer}")});
    return;
  }
  const int perspective = parsed.value("perspective", 0);
  if (perspective < 0 || perspective > 16) {
    done({400, ErrorJson(grpc::StatusCode::INVALID_ARGUMENT, "perspective: a seat, 0..16")});
    return;
  }
  nlohmann::json request = {{"game_id", parsed["game_id"]}};
  Call(*route, request.dump(), std::move(metadata),
       [perspective, done = std::move(done)](JsonReply reply) {
         if (reply.http_status != 200) return done(std::move(reply));
         v1::GameRecord record;
         pb::util::JsonParseOptions opts;
         if (!pb::util::JsonStringToMessage(reply.body, &record, opts).ok()) {
           return done({500, ErrorJson(grpc::StatusCode::INTERNAL, "unreadable record")});
         }
         auto boards = ReplayBoardsJson(record, perspective);
         if (!boards.ok()) {
           return done({HttpStatusFor(static_cast<grpc::StatusCode>(boards.status().code())),
                        ErrorJson(static_cast<grpc::StatusCode>(boards.status().code()),
                                  std::string(boards.status().message()))});
         }
         done({200, *std::move(boards)});
       });
}

}  // namespace arena::web
