// A WatchGame stream that reaches the game wherever it lives. With several game-state replicas
// a watch opened on one that does not own the game ends at once with a redirect naming the
// owner (RedirectedTo); GameWatch reopens it there, from the event after the last one it
// delivered, so the reader sees one unbroken stream. If the owner it was sent to goes away, it
// asks the replica it started from again (which redirects to the new owner or serves the game
// itself). Used by arenactl's watch, play and demo; arena's seat driver and the web edge's
// FeedHub follow redirects inside their own reconnect loops.
//
// Read() runs on one thread; Cancel() may be called from any other.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "arena/v1/game_state.grpc.pb.h"
#include "grpcpp/client_context.h"
#include "grpcpp/support/sync_stream.h"

namespace arena::clients {

class GameWatch {
 public:
  // At most this many streams opened one after another without an event in between (each
  // redirect, each return to the entry replica): replicas that keep naming each other, or an
  // owner that keeps going away, end the watch with their last status instead of a loop.
  static constexpr int kMaxReopens = 4;

  // `entry` is the replica to ask first (kept by the caller, outliving this object); `prepare`,
  // when set, is applied to every stream's context (credentials; no deadline for a live stream).
  GameWatch(v1::GameStateService::Stub& entry, v1::WatchGameRequest request,
            std::function<void(grpc::ClientContext&)> prepare = {});
  ~GameWatch();
  GameWatch(const GameWatch&) = delete;
  GameWatch& operator=(const GameWatch&) = delete;

  // The next event; false once the watch is over (Finish() says how).
  bool Read(v1::GameEvent* event);
  // Ends the watch: a Read() under way returns false soon, and none opens another stream.
  void Cancel();
  // Why the watch ended: OK when the game's stream closed at its end, CANCELLED after
  // Cancel(), else the last stream's error (a redirect only when kMaxReopens ran out).
  grpc::Status Finish() const { return status_; }
  // The replica address the stream was redirected to, "" while it is on the entry replica.
  const std::string& owner() const { return owner_address_; }

 private:
  // Opens the next stream on the current target; false when cancelled.
  bool Open();

  v1::GameStateService::Stub& entry_;
  v1::WatchGameRequest request_;
  std::function<void(grpc::ClientContext&)> prepare_;
  std::string owner_address_;
  std::unique_ptr<v1::GameStateService::Stub> owner_;
  std::unique_ptr<grpc::ClientContext> ctx_;
  std::unique_ptr<grpc::ClientReader<v1::GameEvent>> reader_;
  int reopens_ = 0;  // streams opened since the last event
  bool done_ = false;
  grpc::Status status_;

  std::mutex mu_;  // guards ctx_ (the pointer) and cancelled_ against Cancel()
  bool cancelled_ = false;
};

}  // namespace arena::clients
