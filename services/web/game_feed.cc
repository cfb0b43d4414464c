#include "services/web/game_feed.h"

#include <algorithm>

#include "google/protobuf/util/json_util.h"

namespace arena::web {
namespace {

std::string Json(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  opts.always_print_primitive_fields = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, opts);
  return out;
}

FramePtr Share(std::string s) {
  return std::make_shared<const std::string>(std::move(s));
}

}  // namespace

std::string SseFrame(std::string_view event, std::optional<int64_t> id, std::string_view data) {
  std::string out;
  out.reserve(data.size() + event.size() + 32);
  out.append("event: ").append(event).append("\n");
  if (id) out.append("id: ").append(std::to_string(*id)).append("\n");
  size_t start = 0;
  while (true) {
    size_t nl = data.find('\n', start);
    std::string_view line = data.substr(start, nl == std::string_view::npos ? nl : nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    out.append("data: ").append(line).append("\n");
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  out.append("\n");
  return out;
}

std::string ViewJson(const v1::GameView& view) {
  return Json(view);
}
std::string EventJson(const v1::GameEvent& event) {
  return Json(event);
}

GameFeed::GameFeed(size_t max_events) : max_events_(max_events == 0 ? 1 : max_events) {}

bool GameFeed::ChangesView(const v1::GameEvent& event) {
  return event.type() != "keepalive" && event.type() != "ping" && event.type() != "snapshot";
}

FramePtr GameFeed::OnEvent(const v1::GameEvent& event) {
  if (!ChangesView(event) || event.sequence() < 0) return nullptr;
  if (!events_.empty() && event.sequence() <= events_.back().sequence) return nullptr;
  v1::GameEvent copy = event;
  copy.clear_snapshot();  // views travel in their own frames
  FramePtr frame = Share(SseFrame("event", event.sequence(), EventJson(copy)));
  events_.push_back({event.sequence(), frame});
  while (events_.size() > max_events_) events_.pop_front();
  return frame;
}

FramePtr GameFeed::OnView(const v1::GameView& view) {
  if (view_frame_ && view.last_sequence() < view_.last_sequence()) return nullptr;
  view_ = view;
  std::string json = ViewJson(view_);
  snapshot_frame_ = Share(SseFrame("snapshot", view_.last_sequence(), json));
  view_frame_ = Share(SseFrame("view", std::nullopt, json));
  return view_frame_;
}

std::vector<FramePtr> GameFeed::Join(std::optional<int64_t> last_event_id) const {
  std::vector<FramePtr> out;
  if (!view_frame_) return out;
  if (last_event_id) {
    const int64_t n = *last_event_id;
    const int64_t newest = std::max(last_sequence(), view_.last_sequence());
    // Held: nothing after N is missing (the oldest held event is at most N + 1, or N is the
    // newest sequence there is) and N is not from the future.
    const bool covered =
        n <= newest && (n == newest || (!events_.empty() && events_.front().sequence <= n + 1));
    if (covered) {
      for (const Held& h : events_) {
        if (h.sequence > n) out.push_back(h.frame);
      }
      if (view_.last_sequence() > n || !out.empty()) out.push_back(view_frame_);
      return out;
    }
  }
  out.push_back(snapshot_frame_);
  for (const Held& h : events_) out.push_back(h.frame);
  return out;
}

bool GameFeed::finished() const {
  if (!view_frame_) return false;
  switch (view_.status()) {
    case v1::GAME_STATUS_FINISHED:
    case v1::GAME_STATUS_ABORTED:
    case v1::GAME_STATUS_VOIDED:
      return true;
    default:
      return false;
  }
}

}  // namespace arena::web
