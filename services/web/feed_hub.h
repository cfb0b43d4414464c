// Every watched game's feed in one arena-web process: one upstream WatchGame per game (from
// its first event, so a browser gets the whole move list), a GetGame after each change (one
// in flight per game; changes that arrive meanwhile share the next one), and the browsers
// watching it. A browser costs a socket and a queue of shared frames, never a thread or an
// upstream stream: 5,000 watchers of one game are one WatchGame on game-state.
//
// Everything runs on the one I/O thread; gRPC's callbacks post their results to it. An
// upstream that fails for a reason a retry may cure (game-state restarting) is reopened after
// the events already held; one refused for good (no such game, a private game) ends every
// browser's stream with an `error` frame.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "absl/time/time.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "boost/asio/io_context.hpp"
#include "grpcpp/channel.h"
#include "services/common/in_flight.h"
#include "services/web/game_feed.h"

namespace arena::web {

// Where a feed writes: one browser's stream.
class SseSink {
 public:
  virtual ~SseSink() = default;
  // Queues `frame`; a sink too far behind closes itself (the browser reconnects and resumes).
  virtual void Send(const FramePtr& frame) = 0;
  // Ends the stream after what is queued.
  virtual void Finish() = 0;
};

struct FeedHubOptions {
  absl::Duration keepalive = absl::Seconds(15);  // a comment to every stream this often
  absl::Duration reconnect = absl::Seconds(1);   // before reopening a failed upstream
  absl::Duration rpc_deadline = absl::Seconds(10);
  size_t max_events = 8192;  // per game (GameFeed)
};

class FeedHub {
 public:
  FeedHub(boost::asio::io_context& io, std::shared_ptr<grpc::Channel> game_state,
          FeedHubOptions options);
  ~FeedHub();

  // Starts `sink` on `game_id`'s feed, resuming after `last_event_id` when set.
  void Subscribe(const std::string& game_id, std::optional<int64_t> last_event_id,
                 std::shared_ptr<SseSink> sink);
  // Stops sending to `sink` (its browser went away). A feed with no sink left is closed.
  void Unsubscribe(const std::string& game_id, SseSink* sink);
  // Cancels every upstream and finishes every stream.
  void Shutdown();

  size_t feeds() const { return feeds_.size(); }
  size_t sinks() const;

 private:
  struct Feed;
  class Upstream;
  void OpenUpstream(const std::shared_ptr<Feed>& feed);
  // The game's record (the events the stream's snapshot already holds), into the feed.
  void LoadRecord(const std::shared_ptr<Feed>& feed);
  void OnUpstreamEvent(const std::shared_ptr<Feed>& feed, const v1::GameEvent& event);
  void OnUpstreamDone(const std::shared_ptr<Feed>& feed, const grpc::Status& status);
  void FetchView(const std::shared_ptr<Feed>& feed);
  void OnView(const std::shared_ptr<Feed>& feed, const v1::GameView& view);
  void Fail(const std::shared_ptr<Feed>& feed, const grpc::Status& status);
  void Broadcast(Feed& feed, const FramePtr& frame);
  void EndIfFinished(const std::shared_ptr<Feed>& feed);
  void Close(const std::shared_ptr<Feed>& feed);
  void ArmKeepalive();

  boost::asio::io_context& io_;
  std::unique_ptr<v1::GameStateService::Stub> stub_;
  // Game-state replicas that own watched games, by address: a replica answers a watch of a
  // game another one owns with a redirect, and the stream is reopened on the owner (io thread
  // only; the stubs stay until the calls in flight are done, as stub_ does).
  std::map<std::string, std::unique_ptr<v1::GameStateService::Stub>> owner_stubs_;
  v1::GameStateService::Stub* WatchStub(const std::string& owner);
  FeedHubOptions options_;
  std::map<std::string, std::shared_ptr<Feed>> feeds_;
  std::shared_ptr<bool> alive_;  // callbacks posted after the hub is gone see false
  common::InFlightCalls calls_;  // the stub stays until their callbacks have returned
  struct KeepaliveTimer;
  std::unique_ptr<KeepaliveTimer> keepalive_;
  bool shut_down_ = false;
};

}  // namespace arena::web
