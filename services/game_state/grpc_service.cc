#include "services/game_state/grpc_service.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "absl/strings/str_cat.h"

#include "common/grpc_util.h"
#include "common/log.h"
#include "services/common/service_auth.h"
#include "services/common/text_check.h"

namespace arena::game_state {
namespace {

std::string Metadata(const grpc::CallbackServerContext& ctx, const char* key) {
  const auto& md = ctx.client_metadata();
  auto it = md.find(key);
  if (it == md.end()) return "";
  return std::string(it->second.data(), it->second.size());
}

template <typename Resp>
grpc::ServerUnaryReactor* Reply(grpc::CallbackServerContext* ctx, Resp* out,
                                const absl::StatusOr<Resp>& result) {
  auto* reactor = ctx->DefaultReactor();
  if (result.ok()) *out = *result;
  reactor->Finish(common::ToGrpc(result.status()));
  return reactor;
}

// `Stub::async` is both a class and a member function: name the class explicitly.
using AsyncStub = class v1::GameStateService::Stub::async;
template <typename Req, typename Resp>
using AsyncMethod = void (AsyncStub::*)(grpc::ClientContext*, const Req*, Resp*,
                                        std::function<void(grpc::Status)>);

// The same call, on another replica's stub.
template <typename Req, typename Resp>
StartForward ForwardOf(AsyncMethod<Req, Resp> method, const Req* req, Resp* out) {
  return [method, req, out](v1::GameStateService::Stub* stub, grpc::ClientContext* client,
                            std::function<void(grpc::Status)> done) {
    (stub->async()->*method)(client, req, out, std::move(done));
  };
}

// One WatchGame stream. The core pushes events from its threads; the reactor keeps them in a
// queue and has at most one write in flight, starting the next from OnWriteDone. It writes the
// message's shared wire form (serialised once for every watcher), so the stream is raw bytes.
class WatchReactor final : public grpc::ServerWriteReactor<grpc::ByteBuffer>, public EventSink {
 public:
  WatchReactor(GameStateCore* core, std::string game_id)
      : core_(core), game_id_(std::move(game_id)) {}

  // Runs once when the stream is done (frees the caller's stream quota).
  void OnRelease(std::function<void()> release) { release_ = std::move(release); }

  void Start(absl::StatusOr<uint64_t> handle) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!handle.ok()) {
      FinishLocked(common::ToGrpc(handle.status()));
      return;
    }
    handle_ = *handle;
    registered_ = true;
  }

  void Push(SharedMessage event) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (finishing_) return;
    if (queue_.size() > 10000) {  // a reader this far behind is dropped; it may resume
      FinishLocked(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                                "watcher too slow; resume from a sequence"));
      return;
    }
    queue_.push_back(std::move(event));
    if (!writing_) WriteNextLocked();
  }

  void Close(absl::Status status) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (finishing_ || close_pending_) return;
    close_pending_ = true;
    close_status_ = common::ToGrpc(status);
    if (!writing_) FinishLocked(close_status_);
  }

  void OnWriteDone(bool ok) override {
    std::lock_guard<std::mutex> lock(mu_);
    writing_ = false;
    current_.Clear();
    if (!ok) {
      FinishLocked(grpc::Status(grpc::StatusCode::CANCELLED, "stream broken"));
      return;
    }
    if (!queue_.empty()) {
      WriteNextLocked();
    } else if (close_pending_) {
      FinishLocked(close_status_);
    }
  }

  void OnCancel() override {
    std::lock_guard<std::mutex> lock(mu_);
    FinishLocked(grpc::Status::CANCELLED);
  }

  void OnDone() override {
    bool registered;
    uint64_t handle;
    {
      std::lock_guard<std::mutex> lock(mu_);
      registered = registered_;
      handle = handle_;
    }
    if (registered) core_->Unwatch(game_id_, handle);
    if (release_) release_();
    delete this;
  }

 private:
  void WriteNextLocked() {
    if (finishing_) return;
    const std::string& wire = queue_.front()->Wire();
    grpc::Slice slice(wire.data(), wire.size());
    current_ = grpc::ByteBuffer(&slice, 1);
    queue_.pop_front();
    writing_ = true;
    StartWrite(&current_);
  }
  void FinishLocked(grpc::Status status) {
    if (finishing_) return;
    if (writing_) {  // finish once the write in flight completes
      close_pending_ = true;
      close_status_ = status;
      queue_.clear();
      return;
    }
    finishing_ = true;
    queue_.clear();
    Finish(status);
  }

  GameStateCore* core_;
  std::string game_id_;
  std::mutex mu_;
  std::deque<SharedMessage> queue_;
  grpc::ByteBuffer current_;  // the write in flight
  bool writing_ = false;
  bool finishing_ = false;
  bool close_pending_ = false;
  grpc::Status close_status_;
  bool registered_ = false;
  uint64_t handle_ = 0;
  std::function<void()> release_;
};

}  // namespace

bool GameStateGrpc::AcquireWatch(const std::string& address) {
  std::lock_guard<std::mutex> lock(watch_mu_);
  int& n = watch_streams_[address];
  if (n >= limits_.watch_streams_per_address) return false;
  ++n;
  return true;
}

void GameStateGrpc::ReleaseWatch(const std::string& address) {
  std::lock_guard<std::mutex> lock(watch_mu_);
  auto it = watch_streams_.find(address);
  if (it == watch_streams_.end()) return;
  if (--it->second <= 0) watch_streams_.erase(it);
}

v1::GameStateService::Stub* GameStateGrpc::OwnerStub(const std::string& address) {
  std::lock_guard<std::mutex> lock(stubs_mu_);
  std::unique_ptr<v1::GameStateService::Stub>& stub = owner_stubs_[address];
  if (!stub) stub = v1::GameStateService::NewStub(common::MakeChannel(address));
  return stub.get();
}

void GameStateGrpc::FinishOrForward(grpc::CallbackServerContext* ctx,
                                    grpc::ServerUnaryReactor* reactor, const absl::Status& status,
                                    const StartForward& start) {
  std::optional<std::string> owner = OwnerAddressOf(status);
  // A forwarded call is answered here, whatever this replica knows: no forwarding loops.
  if (!owner || !Metadata(*ctx, kForwardedHeader).empty()) {
    reactor->Finish(common::ToGrpc(status));
    return;
  }
  // The caller's own credentials and deadline go along; the owner checks them as if called
  // directly. The context lives until the answer comes.
  auto* client = new grpc::ClientContext();
  for (const char* key : {common::kServiceNameHeader, common::kServiceCredentialHeader,
                          kSeatCredentialHeader, kHostCredentialHeader}) {
    std::string value = Metadata(*ctx, key);
    if (!value.empty()) client->AddMetadata(key, value);
  }
  client->AddMetadata(kForwardedHeader, "1");
  auto deadline = ctx->deadline();
  auto cap = std::chrono::system_clock::now() + std::chrono::seconds(30);
  client->set_deadline(deadline < cap ? deadline : cap);
  start(OwnerStub(*owner), client, [reactor, client](grpc::Status s) {
    // The context (it holds the owner's channel) goes first: once Finish lets the server shut
    // down, this replica's stubs may go, and the last reference to a channel must not be
    // dropped on a gRPC callback thread (services/common/in_flight.h).
    delete client;
    reactor->Finish(s);
  });
}

absl::StatusOr<Caller> GameStateGrpc::CallerOf(const grpc::CallbackServerContext& ctx) const {
  auto service = auth_.Identify(ctx);
  if (!service.ok()) return service.status();
  Caller caller;
  if (service->authenticated) {
    if (service->service == "arena") {
      caller.arena = true;
    } else {
      caller.other_service = service->service;
    }
  }
  caller.seat_credential = Metadata(ctx, kSeatCredentialHeader);
  caller.host_credential = Metadata(ctx, kHostCredentialHeader);
  return caller;
}

grpc::ServerUnaryReactor* GameStateGrpc::CreateTable(grpc::CallbackServerContext* ctx,
                                                     const v1::CreateTableRequest* req,
                                                     v1::CreateTableResponse* resp) {
  auto caller = CallerOf(*ctx);
  if (!caller.ok()) return Reply<v1::CreateTableResponse>(ctx, resp, caller.status());
  if (!caller->arena && caller->other_service.empty()) {
    absl::Status quota = tables_per_address_.Check(common::PeerAddress(*ctx),
                                                   "too many tables created from this address");
    if (!quota.ok()) return Reply<v1::CreateTableResponse>(ctx, resp, quota);
  }
  if (absl::Status text = common::CheckMessageText(*req); !text.ok())
    return Reply<v1::CreateTableResponse>(ctx, resp, text);
  auto* reactor = ctx->DefaultReactor();  // a new game is this replica's: never forwarded
  core_->CreateTable(*caller, *req, [reactor, resp](absl::StatusOr<v1::CreateTableResponse> r) {
    if (r.ok()) *resp = *std::move(r);
    reactor->Finish(common::ToGrpc(r.status()));
  });
  return reactor;
}

grpc::ServerUnaryReactor* GameStateGrpc::JoinTable(grpc::CallbackServerContext* ctx,
                                                   const v1::JoinTableRequest* req,
                                                   v1::JoinTableResponse* resp) {
  auto caller = CallerOf(*ctx);
  if (!caller.ok()) return Reply<v1::JoinTableResponse>(ctx, resp, caller.status());
  if (absl::Status text = common::CheckMessageText(*req); !text.ok())
    return Reply<v1::JoinTableResponse>(ctx, resp, text);
  auto* reactor = ctx->DefaultReactor();
  core_->JoinTable(
      *caller, *req, [this, ctx, reactor, req, resp](absl::StatusOr<v1::JoinTableResponse> result) {
        if (result.ok()) *resp = *std::move(result);
        FinishOrForward(ctx, reactor, result.status(), ForwardOf(&AsyncStub::JoinTable, req, resp));
      });
  return reactor;
}

grpc::ServerUnaryReactor* GameStateGrpc::SubmitAction(grpc::CallbackServerContext* ctx,
                                                      const v1::SubmitActionRequest* req,
                                                      v1::SubmitActionResponse* resp) {
  auto caller = CallerOf(*ctx);
  if (!caller.ok()) return Reply<v1::SubmitActionResponse>(ctx, resp, caller.status());
  if (absl::Status text = common::CheckMessageText(*req); !text.ok())
    return Reply<v1::SubmitActionResponse>(ctx, resp, text);
  auto* reactor = ctx->DefaultReactor();
  core_->SubmitAction(
      *caller, *req,
      [this, ctx, reactor, req, resp](absl::StatusOr<v1::SubmitActionResponse> result) {
        if (result.ok()) *resp = *std::move(result);
        FinishOrForward(ctx, reactor, result.status(),
                        ForwardOf(&AsyncStub::SubmitAction, req, resp));
      });
  return reactor;
}

grpc::ServerUnaryReactor* GameStateGrpc::GetGame(grpc::CallbackServerContext* ctx,
                                                 const v1::GetGameRequest* req,
                                                 v1::GameView* resp) {
  auto caller = CallerOf(*ctx);
  if (!caller.ok()) return Reply<v1::GameView>(ctx, resp, caller.status());
  if (absl::Status text = common::CheckMessageText(*req); !text.ok())
    return Reply<v1::GameView>(ctx, resp, text);
  auto* reactor = ctx->DefaultReactor();
  absl::StatusOr<v1::GameView> result = core_->GetGame(*caller, *req);
  if (result.ok()) *resp = *std::move(result);
  FinishOrForward(ctx, reactor, result.status(), ForwardOf(&AsyncStub::GetGame, req, resp));
  return reactor;
}

grpc::ServerUnaryReactor* GameStateGrpc::ListGames(grpc::CallbackServerContext* ctx,
                                                   const v1::ListGamesRequest* req,
                                                   v1::ListGamesResponse* resp) {
  auto caller = CallerOf(*ctx);
  if (!caller.ok()) return Reply<v1::ListGamesResponse>(ctx, resp, caller.status());
  if (absl::Status text = common::CheckMessageText(*req); !text.ok())
    return Reply<v1::ListGamesResponse>(ctx, resp, text);
  absl::StatusOr<v1::ListGamesResponse> local = core_->ListGames(*req);
  if (!local.ok() || !Metadata(*ctx, kForwardedHeader).empty()) return Reply(ctx, resp, local);
  // Several replicas: each lists the games in its memory, so the listing gathers the others'
  // (asked as forwarded calls, which answer from their own memory only). A replica that does
  // not answer within two seconds is left out of this listing rather than failing it.
  absl::StatusOr<std::vector<std::string>> peers = core_->PeerAddresses();
  if (!peers.ok() || peers->empty()) {
    if (!peers.ok()) {
      common::LogWarning("listing this replica's games only",
                         {{"error", std::string(peers.status().message())}});
    }
    return Reply(ctx, resp, local);
  }
  const int limit = req->limit() == 0 ? 100 : std::min(req->limit(), 1000);
  struct Gather {
    std::mutex mu;
    size_t pending = 0;
    v1::ListGamesResponse merged;
  };
  auto gather = std::make_shared<Gather>();
  gather->merged = *std::move(local);
  gather->pending = peers->size();
  auto* reactor = ctx->DefaultReactor();
  std::vector<std::pair<std::string, std::string>> metadata;
  for (const char* key : {common::kServiceNameHeader, common::kServiceCredentialHeader}) {
    std::string value = Metadata(*ctx, key);
    if (!value.empty()) metadata.emplace_back(key, value);
  }
  for (const std::string& address : *peers) {
    struct PeerCall {
      grpc::ClientContext ctx;
      v1::ListGamesResponse resp;
    };
    auto* call = new PeerCall();
    for (const auto& [key, value] : metadata) call->ctx.AddMetadata(key, value);
    call->ctx.AddMetadata(kForwardedHeader, "1");
    call->ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
    OwnerStub(address)->async()->ListGames(
        &call->ctx, req, &call->resp, [gather, call, reactor, resp, limit](grpc::Status s) {
          v1::ListGamesResponse got = std::move(call->resp);
          delete call;  // the context (and its channel reference) first, as in FinishOrForward
          std::lock_guard<std::mutex> lock(gather->mu);
          if (s.ok()) {
            for (v1::GameView& g : *got.mutable_games()) *gather->merged.add_games() = std::move(g);
          }
          if (--gather->pending > 0) return;
          auto* games = gather->merged.mutable_games();
          std::sort(games->begin(), games->end(), [](const v1::GameView& a, const v1::GameView& b) {
            return a.game_id() < b.game_id();
          });
          if (games->size() > limit) games->DeleteSubrange(limit, games->size() - limit);
          *resp = std::move(gather->merged);
          reactor->Finish(grpc::Status::OK);
        });
  }
  return reactor;
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* GameStateGrpc::WatchGame(
    grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* raw) {
  v1::WatchGameRequest req;
  grpc::Slice bytes;
  if (!raw->DumpToSingleSlice(&bytes).ok() ||
      !req.ParseFromArray(bytes.begin(), static_cast<int>(bytes.size()))) {
    auto* reactor = new WatchReactor(core_, "");
    reactor->Start(absl::InvalidArgumentError("malformed WatchGameRequest"));
    return reactor;
  }
  auto* reactor = new WatchReactor(core_, req.game_id());
  auto caller = CallerOf(*ctx);
  if (!caller.ok()) {
    reactor->Start(caller.status());
    return reactor;
  }
  if (absl::Status text = common::CheckMessageText(req); !text.ok()) {
    reactor->Start(text);
    return reactor;
  }
  if (!caller->arena && caller->other_service.empty()) {
    std::string address = common::PeerAddress(*ctx);
    if (!AcquireWatch(address)) {
      reactor->Start(absl::ResourceExhaustedError(absl::StrCat(
          "at most ", limits_.watch_streams_per_address, " watch streams per address")));
      return reactor;
    }
    reactor->OnRelease([this, address] { ReleaseWatch(address); });
  }
  reactor->Start(core_->Watch(*caller, req, reactor));
  return reactor;
}

grpc::ServerUnaryReactor* GameStateGrpc::GetRecord(grpc::CallbackServerContext* ctx,
                                                   const v1::GetRecordRequest* req,
                                                   v1::GameRecord* resp) {
  auto caller = CallerOf(*ctx);
  if (!caller.ok()) return Reply<v1::GameRecord>(ctx, resp, caller.status());
  if (absl::Status text = common::CheckMessageText(*req); !text.ok())
    return Reply<v1::GameRecord>(ctx, resp, text);
  auto* reactor = ctx->DefaultReactor();
  absl::StatusOr<v1::GameRecord> result = core_->GetRecord(*caller, *req);
  if (result.ok()) *resp = *std::move(result);
  FinishOrForward(ctx, reactor, result.status(), ForwardOf(&AsyncStub::GetRecord, req, resp));
  return reactor;
}

grpc::ServerUnaryReactor* GameStateGrpc::UpdateSettings(grpc::CallbackServerContext* ctx,
                                                        const v1::UpdateSettingsRequest* req,
                                                        v1::GameView* resp) {
  auto caller = CallerOf(*ctx);
  if (!caller.ok()) return Reply<v1::GameView>(ctx, resp, caller.status());
  if (absl::Status text = common::CheckMessageText(*req); !text.ok())
    return Reply<v1::GameView>(ctx, resp, text);
  auto* reactor = ctx->DefaultReactor();
  core_->UpdateSettings(*caller, *req,
                        [this, ctx, reactor, req, resp](absl::StatusOr<v1::GameView> result) {
                          if (result.ok()) *resp = *std::move(result);
                          FinishOrForward(ctx, reactor, result.status(),
                                          ForwardOf(&AsyncStub::UpdateSettings, req, resp));
                        });
  return reactor;
}

grpc::ServerUnaryReactor* GameStateGrpc::DeleteGame(grpc::CallbackServerContext* ctx,
                                                    const v1::DeleteGameRequest* req,
                                                    v1::DeleteGameResponse* resp) {
  auto caller = CallerOf(*ctx);
  if (!caller.ok()) return Reply<v1::DeleteGameResponse>(ctx, resp, caller.status());
  if (absl::Status text = common::CheckMessageText(*req); !text.ok())
    return Reply<v1::DeleteGameResponse>(ctx, resp, text);
  auto* reactor = ctx->DefaultReactor();
  core_->DeleteGame(*caller, *req,
                    [this, ctx, reactor, req, resp](absl::StatusOr<v1::DeleteGameResponse> result) {
                      if (result.ok()) *resp = *std::move(result);
                      FinishOrForward(ctx, reactor, result.status(),
                                      ForwardOf(&AsyncStub::DeleteGame, req, resp));
                    });
  return reactor;
}

grpc::ServerUnaryReactor* GameStateGrpc::Pong(grpc::CallbackServerContext* ctx,
                                              const v1::PongRequest* req, v1::PongResponse* resp) {
  auto caller = CallerOf(*ctx);
  if (!caller.ok()) return Reply<v1::PongResponse>(ctx, resp, caller.status());
  if (absl::Status text = common::CheckMessageText(*req); !text.ok())
    return Reply<v1::PongResponse>(ctx, resp, text);
  auto* reactor = ctx->DefaultReactor();
  FinishOrForward(ctx, reactor, core_->Pong(*caller, *req), ForwardOf(&AsyncStub::Pong, req, resp));
  return reactor;
}

grpc::ServerUnaryReactor* GameStateGrpc::VoidGame(grpc::CallbackServerContext* ctx,
                                                  const v1::VoidGameRequest* req,
                                                  v1::GameView* resp) {
  auto caller = CallerOf(*ctx);
  if (!caller.ok()) return Reply<v1::GameView>(ctx, resp, caller.status());
  if (absl::Status text = common::CheckMessageText(*req); !text.ok())
    return Reply<v1::GameView>(ctx, resp, text);
  auto* reactor = ctx->DefaultReactor();
  core_->VoidGame(
      *caller, *req, [this, ctx, reactor, req, resp](absl::StatusOr<v1::GameView> result) {
        if (result.ok()) *resp = *std::move(result);
        FinishOrForward(ctx, reactor, result.status(), ForwardOf(&AsyncStub::VoidGame, req, resp));
      });
  return reactor;
}

}  // namespace arena::game_state
