#include "services/web/game_feed.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arena::web {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

v1::GameEvent Event(int64_t seq, const std::string& type = "action") {
  v1::GameEvent e;
  e.set_sequence(seq);
  e.set_type(type);
  e.set_action("a" + std::to_string(seq));
  return e;
}

v1::GameView View(int64_t last_sequence) {
  v1::GameView v;
  v.set_game_id("g1");
  v.set_last_sequence(last_sequence);
  v.set_status(v1::GAME_STATUS_ACTIVE);
  return v;
}

std::vector<std::string> Texts(const std::vector<FramePtr>& frames) {
  std::vector<std::string> out;
  for (const auto& f : frames) out.push_back(*f);
  return out;
}

TEST(SseFrame, SplitsDataAtNewlinesAndCarriesTheId) {
  EXPECT_EQ(SseFrame("event", 7, "{\"a\":1}"), "event: event\nid: 7\ndata: {\"a\":1}\n\n");
  EXPECT_EQ(SseFrame("end", std::nullopt, "x\ny\r\nz"),
            "event: end\ndata: x\ndata: y\ndata: z\n\n");
}

TEST(GameFeed, NothingIsSentBeforeTheFirstView) {
  GameFeed feed;
  EXPECT_NE(feed.OnEvent(Event(0, "created")), nullptr);
  EXPECT_TRUE(feed.Join(std::nullopt).empty());
  EXPECT_TRUE(feed.Join(0).empty());
}

TEST(GameFeed, ANewcomerGetsTheSnapshotThenEveryEvent) {
  GameFeed feed;
  for (int i = 0; i < 3; ++i) feed.OnEvent(Event(i));
  feed.OnView(View(2));
  auto frames = Texts(feed.Join(std::nullopt));
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_THAT(frames[0], StartsWith("event: snapshot\nid: 2\n"));
  EXPECT_THAT(frames[1], StartsWith("event: event\nid: 0\n"));
  EXPECT_THAT(frames[3], HasSubstr("\"action\":\"a2\""));
}

TEST(GameFeed, KeepalivesPingsAndRepeatsAreNotRelayed) {
  GameFeed feed;
  EXPECT_NE(feed.OnEvent(Event(0)), nullptr);
  EXPECT_EQ(feed.OnEvent(Event(0)), nullptr) << "the same sequence again";
  EXPECT_EQ(feed.OnEvent(Event(5, "keepalive")), nullptr);
  EXPECT_EQ(feed.OnEvent(Event(5, "ping")), nullptr);
  EXPECT_EQ(feed.held_events(), 1u);
  EXPECT_FALSE(GameFeed::ChangesView(Event(1, "keepalive")));
  EXPECT_TRUE(GameFeed::ChangesView(Event(1, "chance")));
}

TEST(GameFeed, ResumingGetsOnlyWhatCameAfterTheLastId) {
  GameFeed feed;
  for (int i = 0; i < 5; ++i) feed.OnEvent(Event(i));
  feed.OnView(View(4));
  auto frames = Texts(feed.Join(2));
  ASSERT_EQ(frames.size(), 3u);
  EXPECT_THAT(frames[0], StartsWith("event: event\nid: 3\n"));
  EXPECT_THAT(frames[1], StartsWith("event: event\nid: 4\n"));
  EXPECT_THAT(frames[2], StartsWith("event: view\n"));
  // Up to date: nothing at all.
  EXPECT_TRUE(feed.Join(4).empty());
}

TEST(GameFeed, ResumingFromBeforeTheHeldEventsOrFromTheFutureStartsAgain) {
  GameFeed feed(3);  // holds three events
  for (int i = 0; i < 6; ++i) feed.OnEvent(Event(i));
  feed.OnView(View(5));
  EXPECT_EQ(feed.held_events(), 3u);
  auto old = Texts(feed.Join(1));  // 2 was dropped
  ASSERT_EQ(old.size(), 4u);
  EXPECT_THAT(old[0], StartsWith("event: snapshot\n"));
  auto covered = Texts(feed.Join(2));  // 3, 4, 5 held
  ASSERT_EQ(covered.size(), 4u);
  EXPECT_THAT(covered[0], StartsWith("event: event\nid: 3\n"));
  auto future = Texts(feed.Join(99));
  EXPECT_THAT(future[0], StartsWith("event: snapshot\n"));
}

TEST(GameFeed, AnOlderViewNeverReplacesANewerOne) {
  GameFeed feed;
  EXPECT_NE(feed.OnView(View(4)), nullptr);
  EXPECT_EQ(feed.OnView(View(3)), nullptr);
  EXPECT_EQ(feed.view().last_sequence(), 4);
  EXPECT_NE(feed.OnView(View(4)), nullptr) << "the same sequence, refetched: still news";
  EXPECT_FALSE(feed.finished());
  v1::GameView done = View(6);
  done.set_status(v1::GAME_STATUS_FINISHED);
  feed.OnView(done);
  EXPECT_TRUE(feed.finished());
}

TEST(GameFeed, EventsTravelWithoutTheirSnapshot) {
  GameFeed feed;
  v1::GameEvent e = Event(0, "settings");
  *e.mutable_snapshot() = View(0);
  FramePtr f = feed.OnEvent(e);
  ASSERT_NE(f, nullptr);
  EXPECT_THAT(*f, ::testing::Not(HasSubstr("snapshot")));
}

}  // namespace
}  // namespace arena::web
