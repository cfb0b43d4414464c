#include "services/web/feed_hub.h"

#include <atomic>
#include <chrono>
#include <vector>

#include "boost/asio/post.hpp"
#include "boost/asio/steady_timer.hpp"
#include "clients/game_state_client.h"
#include "common/grpc_util.h"
#include "common/log.h"
#include "services/web/edge_policy.h"

namespace arena::web {
namespace {

namespace asio = boost::asio;

void SetDeadline(grpc::ClientContext& ctx, absl::Duration d) {
  ctx.set_deadline(std::chrono::system_clock::now() + absl::ToChronoMilliseconds(d));
}

// Refusals a retry does not cure: the browsers are told and the feed closes.
bool Permanent(const grpc::Status& s) {
  switch (s.error_code()) {
    case grpc::StatusCode::NOT_FOUND:
    case grpc::StatusCode::PERMISSION_DENIED:
    case grpc::StatusCode::UNAUTHENTICATED:
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return true;
    default:
      return false;
  }
}

}  // namespace

struct FeedHub::Feed {
  explicit Feed(std::string id, size_t max_events, asio::io_context& io)
      : game_id(std::move(id)), logic(max_events), retry(io) {}
  std::string game_id;
  GameFeed logic;
  std::map<SseSink*, std::shared_ptr<SseSink>> sinks;
  // Browsers that came before the first view, with where they resume.
  std::vector<std::pair<std::optional<int64_t>, std::shared_ptr<SseSink>>> waiting;
  std::shared_ptr<Upstream> upstream;
  bool history_loaded = false;             // the record's events are in `logic`
  bool record_requested = false;           // GetRecord asked (after the stream's snapshot)
  std::vector<v1::GameEvent> early;        // live events that came before the record
  bool fetching = false, refetch = false;  // GetGame
  bool upstream_ended = false;             // the stream closed with OK (the game is over)
  asio::steady_timer retry;
  bool closed = false;
  std::string owner;  // the game-state replica that redirected the stream here; "" = any
};

struct FeedHub::KeepaliveTimer {
  explicit KeepaliveTimer(asio::io_context& io) : timer(io) {}
  asio::steady_timer timer;
};

// One WatchGame call. It owns itself until OnDone; the feed holds it to cancel it.
class FeedHub::Upstream : public grpc::ClientReadReactor<v1::GameEvent>,
                          public std::enable_shared_from_this<Upstream> {
 public:
  Upstream(FeedHub* hub, std::shared_ptr<Feed> feed, v1::GameStateService::Stub* stub)
      : hub_(hub), io_(hub->io_), feed_(feed), alive_(hub->alive_), stub_(stub) {
    req_.set_game_id(feed->game_id);
    req_.set_from_sequence(feed->logic.last_sequence() + 1);
  }
  void Start() {
    self_ = shared_from_this();
    hub_->calls_.Begin();
    stub_->async()->WatchGame(&ctx_, &req_, this);
    StartRead(&event_);
    StartCall();
  }
  void Cancel() { ctx_.TryCancel(); }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // OnDone follows
    Post([ev = event_](FeedHub* hub, const std::shared_ptr<Feed>& f) {
      hub->OnUpstreamEvent(f, ev);
    });
    StartRead(&event_);
  }
  void OnDone(const grpc::Status& status) override {
    Post(
        [status](FeedHub* hub, const std::shared_ptr<Feed>& f) { hub->OnUpstreamDone(f, status); });
    common::InFlightCalls* calls = &hub_->calls_;
    self_.reset();  // may delete this, and its context
    calls->End();
  }

 private:
  template <typename F>
  void Post(F f) {
    asio::post(io_, [f = std::move(f), hub = hub_, weak = feed_, alive = alive_] {
      if (!*alive) return;
      if (auto feed = weak.lock(); feed && !feed->closed) f(hub, feed);
    });
  }
  FeedHub* hub_;
  asio::io_context& io_;  // outlives every call (main keeps it until they are done)
  std::weak_ptr<Feed> feed_;
  std::shared_ptr<bool> alive_;
  v1::GameStateService::Stub* stub_;  // the hub's, alive until the hub's calls are done
  grpc::ClientContext ctx_;
  v1::WatchGameRequest req_;
  v1::GameEvent event_;
  std::shared_ptr<Upstream> self_;
};

FeedHub::FeedHub(asio::io_context& io, std::shared_ptr<grpc::Channel> game_state,
                 FeedHubOptions options)
    : io_(io),
      stub_(v1::GameStateService::NewStub(std::move(game_state))),
      options_(options),
      alive_(std::make_shared<bool>(true)),
      keepalive_(std::make_unique<KeepaliveTimer>(io)) {
  ArmKeepalive();
}

FeedHub::~FeedHub() {
  *alive_ = false;
  Shutdown();
  // Watches are cancelled; reads of records and views end by their deadline.
  calls_.WaitUntilNone();
}

size_t FeedHub::sinks() const {
  size_t n = 0;
  for (const auto& [id, f] : feeds_) n += f->sinks.size() + f->waiting.size();
  return n;
}

void FeedHub::ArmKeepalive() {
  keepalive_->timer.expires_after(absl::ToChronoMilliseconds(options_.keepalive));
  keepalive_->timer.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
    if (ec || !*alive || shut_down_) return;
    static const FramePtr kFrame = std::make_shared<const std::string>(kSseKeepAlive);
    for (auto& [id, feed] : feeds_) {
      Broadcast(*feed, kFrame);
      for (auto& [last, sink] : feed->waiting) sink->Send(kFrame);
    }
    ArmKeepalive();
  });
}

void FeedHub::Subscribe(const std::string& game_id, std::optional<int64_t> last_event_id,
                        std::shared_ptr<SseSink> sink) {
  if (shut_down_) {
    sink->Finish();
    return;
  }
  std::shared_ptr<Feed>& slot = feeds_[game_id];
  if (!slot) {
    slot = std::make_shared<Feed>(game_id, options_.max_events, io_);
    OpenUpstream(slot);
  }
  Feed& feed = *slot;
  if (!feed.logic.has_view() || !feed.history_loaded) {
    feed.waiting.emplace_back(last_event_id, std::move(sink));
    return;
  }
  for (const FramePtr& f : feed.logic.Join(last_event_id)) sink->Send(f);
  feed.sinks.emplace(sink.get(), sink);
}

void FeedHub::Unsubscribe(const std::string& game_id, SseSink* sink) {
  auto it = feeds_.find(game_id);
  if (it == feeds_.end()) return;
  std::shared_ptr<Feed> feed = it->second;
  feed->sinks.erase(sink);
  std::erase_if(feed->waiting, [sink](const auto& w) { return w.second.get() == sink; });
  if (feed->sinks.empty() && feed->waiting.empty()) Close(feed);
}

v1::GameStateService::Stub* FeedHub::WatchStub(const std::string& owner) {
  if (owner.empty()) return stub_.get();
  std::unique_ptr<v1::GameStateService::Stub>& stub = owner_stubs_[owner];
  if (!stub) stub = v1::GameStateService::NewStub(common::MakeChannel(owner));
  return stub.get();
}

void FeedHub::OpenUpstream(const std::shared_ptr<Feed>& feed) {
  const bool from_start = feed->logic.last_sequence() < 0;
  auto up = std::make_shared<Upstream>(this, feed, WatchStub(feed->owner));
  feed->upstream = up;
  feed->upstream_ended = false;
  up->Start();
  if (!from_start) {
    FetchView(feed);  // the reopened stream starts with events, not a snapshot
    return;
  }
  // From the start: the stream opens with a snapshot and then live events; the events up to
  // the snapshot come from the record, once, asked for only when the snapshot is in
  // (OnUpstreamEvent). A record read before the snapshot could miss what happened in between:
  // a move made then would be in neither.
}

void FeedHub::LoadRecord(const std::shared_ptr<Feed>& feed) {
  feed->record_requested = true;
  struct RecordCall {
    grpc::ClientContext ctx;
    v1::GetRecordRequest req;
    v1::GameRecord resp;
  };
  auto* call = new RecordCall();
  call->req.set_game_id(feed->game_id);
  SetDeadline(call->ctx, options_.rpc_deadline);
  std::weak_ptr<Feed> weak = feed;
  calls_.Begin();
  stub_->async()->GetRecord(
      &call->ctx, &call->req, &call->resp, [this, call, weak, alive = alive_](grpc::Status s) {
        // The context goes on this thread, before the hub may.
        auto record = std::make_shared<v1::GameRecord>(std::move(call->resp));
        delete call;
        asio::post(io_, [this, record, weak, alive, s] {
          if (!*alive) return;
          auto f = weak.lock();
          if (!f || f->closed) return;
          if (!s.ok()) {
            if (Permanent(s)) return Fail(f, s);
            // The stream will fail too and be reopened; history then comes
            // from it.
            f->history_loaded = true;
          } else {
            for (const v1::GameEvent& ev : record->events()) f->logic.OnEvent(ev);
            f->history_loaded = true;
          }
          for (const v1::GameEvent& ev : f->early) OnUpstreamEvent(f, ev);
          f->early.clear();
          if (!f->logic.has_view() && s.ok()) {
            OnView(f, record->final_view());
          } else if (f->logic.has_view()) {
            const v1::GameView held = f->logic.view();  // a copy: OnView replaces it
            OnView(f, held);
          }
        });
        calls_.End();
      });
}

void FeedHub::OnUpstreamEvent(const std::shared_ptr<Feed>& feed, const v1::GameEvent& event) {
  if (event.type() == "snapshot" && event.has_snapshot()) {
    OnView(feed, event.snapshot());
    if (!feed->history_loaded && !feed->record_requested) LoadRecord(feed);
    return;
  }
  if (!feed->history_loaded) {
    if (GameFeed::ChangesView(event)) feed->early.push_back(event);
    return;
  }
  if (FramePtr frame = feed->logic.OnEvent(event)) Broadcast(*feed, frame);
  if (GameFeed::ChangesView(event)) FetchView(feed);
}

void FeedHub::OnUpstreamDone(const std::shared_ptr<Feed>& feed, const grpc::Status& status) {
  feed->upstream.reset();
  if (status.ok()) {
    // game-state ends a stream when its game is over.
    feed->upstream_ended = true;
    if (!feed->history_loaded && !feed->record_requested) LoadRecord(feed);  // no snapshot came
    FetchView(feed);
    return;
  }
  if (Permanent(status)) return Fail(feed, status);
  if (shut_down_) return;
  if (std::optional<std::string> to = clients::RedirectedTo(status)) {
    if (*to != feed->owner) {  // another game-state replica owns the game: watch it there
      feed->owner = *to;
      OpenUpstream(feed);
      return;
    }
  } else if (!feed->owner.empty()) {
    feed->owner.clear();  // the owner went away: ask through any replica again
  }
  common::LogWarning("upstream watch failed; reopening",
                     {{"game_id", feed->game_id}, {"error", status.error_message()}});
  feed->retry.expires_after(absl::ToChronoMilliseconds(options_.reconnect));
  std::weak_ptr<Feed> weak = feed;
  feed->retry.async_wait([this, weak, alive = alive_](const boost::system::error_code& ec) {
    if (ec || !*alive || shut_down_) return;
    if (auto f = weak.lock(); f && !f->closed && !f->upstream) OpenUpstream(f);
  });
}

void FeedHub::FetchView(const std::shared_ptr<Feed>& feed) {
  if (feed->fetching) {
    feed->refetch = true;
    return;
  }
  feed->fetching = true;
  struct ViewCall {
    grpc::ClientContext ctx;
    v1::GetGameRequest req;
    v1::GameView resp;
  };
  auto* call = new ViewCall();
  call->req.set_game_id(feed->game_id);
  SetDeadline(call->ctx, options_.rpc_deadline);
  std::weak_ptr<Feed> weak = feed;
  calls_.Begin();
  stub_->async()->GetGame(&call->ctx, &call->req, &call->resp,
                          [this, call, weak, alive = alive_](grpc::Status s) {
                            // The context goes on this thread, before the hub may.
                            auto view = std::make_shared<v1::GameView>(std::move(call->resp));
                            delete call;
                            asio::post(io_, [this, view, weak, alive, s] {
                              if (!*alive) return;
                              auto f = weak.lock();
                              if (!f || f->closed) return;
                              f->fetching = false;
                              if (s.ok()) {
                                OnView(f, *view);
                              } else if (Permanent(s)) {
                                return Fail(f, s);
                              }
                              if (f->refetch && !f->closed) {
                                f->refetch = false;
                                FetchView(f);
                              }
                            });
                            calls_.End();
                          });
}

void FeedHub::OnView(const std::shared_ptr<Feed>& feed, const v1::GameView& view) {
  FramePtr frame = feed->logic.OnView(view);
  if (feed->history_loaded && !feed->waiting.empty()) {
    auto waiting = std::move(feed->waiting);
    feed->waiting.clear();
    for (auto& [last, sink] : waiting) {
      for (const FramePtr& f : feed->logic.Join(last)) sink->Send(f);
      feed->sinks.emplace(sink.get(), sink);
    }
  } else if (frame && feed->history_loaded) {
    Broadcast(*feed, frame);
  }
  EndIfFinished(feed);
}

void FeedHub::EndIfFinished(const std::shared_ptr<Feed>& feed) {
  // Not before the history is in: a browser that came for a finished game gets it first.
  if (!feed->upstream_ended || !feed->history_loaded) return;
  if (!feed->logic.finished()) {
    // Closed without the game being over (game-state draining): follow it again.
    if (!feed->upstream && !feed->fetching && !shut_down_) OpenUpstream(feed);
    return;
  }
  const v1::GameView& v = feed->logic.view();
  std::string data = "{\"status\":\"" + v1::GameStatus_Name(v.status()) + "\",\"result_text\":\"" +
                     v.outcome().result_text() + "\"}";
  Broadcast(*feed, std::make_shared<const std::string>(SseFrame("end", std::nullopt, data)));
  Close(feed);
}

void FeedHub::Fail(const std::shared_ptr<Feed>& feed, const grpc::Status& status) {
  auto frame = std::make_shared<const std::string>(
      SseFrame("failure", std::nullopt, ErrorJson(status.error_code(), status.error_message())));
  for (auto& [last, sink] : feed->waiting) sink->Send(frame);
  Broadcast(*feed, frame);
  Close(feed);
}

void FeedHub::Broadcast(Feed& feed, const FramePtr& frame) {
  // A sink may unsubscribe itself while being sent to (too far behind): iterate a copy.
  std::vector<std::shared_ptr<SseSink>> sinks;
  sinks.reserve(feed.sinks.size());
  for (auto& [p, s] : feed.sinks) sinks.push_back(s);
  for (auto& s : sinks) s->Send(frame);
}

void FeedHub::Close(const std::shared_ptr<Feed>& feed) {
  if (feed->closed) return;
  feed->closed = true;
  if (feed->upstream) feed->upstream->Cancel();
  feed->upstream.reset();
  feed->retry.cancel();
  auto sinks = std::move(feed->sinks);
  auto waiting = std::move(feed->waiting);
  auto it = feeds_.find(feed->game_id);
  if (it != feeds_.end() && it->second == feed) feeds_.erase(it);
  for (auto& [p, s] : sinks) s->Finish();
  for (auto& [last, s] : waiting) s->Finish();
}

void FeedHub::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  keepalive_->timer.cancel();
  std::vector<std::shared_ptr<Feed>> all;
  for (auto& [id, f] : feeds_) all.push_back(f);
  for (auto& f : all) Close(f);
}

}  // namespace arena::web
