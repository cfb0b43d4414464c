#include "clients/game_watch.h"

#include <utility>

#include "clients/game_state_client.h"
#include "common/grpc_util.h"

namespace arena::clients {

GameWatch::GameWatch(v1::GameStateService::Stub& entry, v1::WatchGameRequest request,
                     std::function<void(grpc::ClientContext&)> prepare)
    : entry_(entry), request_(std::move(request)), prepare_(std::move(prepare)) {}

GameWatch::~GameWatch() {
  if (reader_ == nullptr) return;
  ctx_->TryCancel();
  (void)reader_->Finish();
}

bool GameWatch::Open() {
  grpc::ClientContext* ctx;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (cancelled_) return false;
    ctx_ = std::make_unique<grpc::ClientContext>();
    if (prepare_) prepare_(*ctx_);
    ctx = ctx_.get();
  }
  // A Cancel() from here on reaches the call: gRPC cancels a context's call when it starts if
  // TryCancel came first.
  reader_ = (owner_ != nullptr ? *owner_ : entry_).WatchGame(ctx, request_);
  ++reopens_;
  return true;
}

bool GameWatch::Read(v1::GameEvent* event) {
  while (!done_) {
    if (reader_ == nullptr && !Open()) {
      status_ = grpc::Status(grpc::StatusCode::CANCELLED, "the watch was cancelled");
      done_ = true;
      break;
    }
    if (reader_->Read(event)) {
      reopens_ = 0;
      // Keepalives and pings carry the newest sequence, which a delayed stream has not shown
      // yet; a snapshot after a delay carries -1. Resume after the last event delivered.
      if (event->type() != "keepalive" && event->type() != "ping" && event->sequence() >= 0) {
        request_.set_from_sequence(event->sequence() + 1);
      }
      return true;
    }
    grpc::Status s = reader_->Finish();
    reader_.reset();
    bool cancelled;
    {
      std::lock_guard<std::mutex> lock(mu_);
      ctx_.reset();
      cancelled = cancelled_;
    }
    status_ = s;
    if (cancelled || s.ok() || reopens_ >= kMaxReopens) break;
    if (std::optional<std::string> to = RedirectedTo(s)) {
      if (*to == owner_address_) break;  // the owner named itself: nothing else to try
      owner_address_ = *to;
      owner_ = v1::GameStateService::NewStub(common::MakeChannel(owner_address_));
      continue;
    }
    if (owner_ != nullptr && s.error_code() == grpc::StatusCode::UNAVAILABLE) {
      // The owner went away: the entry replica knows who serves the game now.
      owner_.reset();
      owner_address_.clear();
      continue;
    }
    break;
  }
  done_ = true;
  return false;
}

void GameWatch::Cancel() {
  std::lock_guard<std::mutex> lock(mu_);
  cancelled_ = true;
  if (ctx_ != nullptr) ctx_->TryCancel();
}

}  // namespace arena::clients
