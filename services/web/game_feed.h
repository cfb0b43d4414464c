// One game's event stream as arena-web relays it to any number of browsers over Server-Sent
// Events. arena-web follows each watched game with one upstream WatchGame stream and one
// GetGame after each change, whatever the number of browsers; GameFeed is the plain logic
// between them: it keeps the game's events (each serialised to its SSE frame once) and the
// latest view, and says what a browser joining or resuming is sent.
//
// Frames (`event:` names): `snapshot` (a GameView, with `id:` its last_sequence), `event` (a
// GameEvent, `id:` its sequence), `view` (a newer GameView, no id), `end` (the game is over) and
// `failure` (the stream was refused for good). A browser resuming with Last-Event-ID N gets every
// held event after N and then the latest view; one whose N is not held (too old, or from another
// life of the feed) starts again from a snapshot. Keep-alive and ping messages from upstream are
// not relayed (the edge sends its own keep-alive comments).
//
// Not thread-safe: arena-web touches every feed from its one I/O thread.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arena/v1/game_state.pb.h"

namespace arena::web {

using FramePtr = std::shared_ptr<const std::string>;

// One SSE frame: "event: <name>\n[id: <id>\n]data: <line>\n...\n\n" (data split at newlines).
std::string SseFrame(std::string_view event, std::optional<int64_t> id, std::string_view data);
// A comment line that keeps proxies and browsers from timing the stream out.
inline constexpr std::string_view kSseKeepAlive = ": keep-alive\n\n";

// GameView and GameEvent as the JSON the API answers (protobuf's mapping, .proto names).
std::string ViewJson(const v1::GameView& view);
std::string EventJson(const v1::GameEvent& event);

class GameFeed {
 public:
  // Holds at most `max_events` events (the oldest are dropped first; a browser resuming from
  // before them starts again from a snapshot).
  explicit GameFeed(size_t max_events = 8192);

  // An upstream event. Returns its frame for every watcher, or nullptr for messages not
  // relayed (keep-alives, pings, snapshots, an event already held).
  FramePtr OnEvent(const v1::GameEvent& event);
  // Whether `event` may change what GetGame shows (anything but keep-alives and pings).
  static bool ChangesView(const v1::GameEvent& event);

  // A view fetched after a change. Returns the `view` frame for every watcher (nullptr when it
  // is older than the view held).
  FramePtr OnView(const v1::GameView& view);

  // The frames for a browser that joins, resuming after `last_event_id` when it is set.
  // Empty until the feed has a view (the browser then waits for the first one).
  std::vector<FramePtr> Join(std::optional<int64_t> last_event_id) const;

  bool has_view() const { return view_frame_ != nullptr; }
  const v1::GameView& view() const { return view_; }
  // The sequence of the newest event held (-1 before any).
  int64_t last_sequence() const { return events_.empty() ? -1 : events_.back().sequence; }
  size_t held_events() const { return events_.size(); }
  // True once the game has ended (the view says finished, aborted or voided).
  bool finished() const;

 private:
  struct Held {
    int64_t sequence;
    FramePtr frame;
  };
  size_t max_events_;
  std::deque<Held> events_;  // ascending sequence
  v1::GameView view_;
  FramePtr view_frame_;      // the `view` frame of view_
  FramePtr snapshot_frame_;  // the `snapshot` frame of view_
};

}  // namespace arena::web
