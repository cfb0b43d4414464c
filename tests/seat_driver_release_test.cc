// Seat drivers release what a finished game held (issue 19): the real `arena` drives 500 short
// bot-against-bot games on the real game-state and bot services, and its threads and memory,
// read from /proc/<pid>/status, come back to where they were after a warm-up.
//
// Before the fix every driven game kept its thread (joinable, its stack mapped) and its entry
// until Stop(): 500 games left ~4 GB of thread stacks mapped (VmSize), which this test refuses.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "tests/support/arena_client.h"
#include "tests/support/server_process.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace arena::testing {
namespace {

using Stub = v1::ArenaService::Stub;

struct ProcStatus {
  int64_t threads = 0;
  int64_t vm_size_kb = 0;
  int64_t vm_rss_kb = 0;
};

ProcStatus ReadStatus(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  ProcStatus s;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key;
    int64_t value = 0;
    words >> key >> value;
    if (key == "Threads:") s.threads = value;
    if (key == "VmSize:") s.vm_size_kb = value;
    if (key == "VmRSS:") s.vm_rss_kb = value;
  }
  return s;
}

class SeatDriverReleaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.ok());
    game_state_ = std::make_unique<ServerProcess>(
        ARENA_GAME_STATE_BIN,
        std::vector<std::string>{"--database_url=" + db_.url(), "--log_level=warning"});
    bot_ = std::make_unique<ServerProcess>(ARENA_BOT_BIN,
                                           std::vector<std::string>{"--log_level=warning"});
    std::string key = MakeTempDir("release-key") + "/key";
    std::ofstream(key) << "unused-key\n";
    gateway_ = std::make_unique<ServerProcess>(
        ARENA_GATEWAY_BIN,
        std::vector<std::string>{"--abacus_base_url=http://127.0.0.1:9/v1",
                                 "--abacus_api_key_file=" + key, "--log_level=warning"});
    ASSERT_TRUE(game_state_->ok() && bot_->ok() && gateway_->ok());
    std::vector<std::string> flags = ArenaFlags(db_.url());
    flags.push_back("--game_state_addr=" + game_state_->address());
    flags.push_back("--bot_addr=" + bot_->address());
    flags.push_back("--gateway_addr=" + gateway_->address());
    // A small quarantine, and free pages handed back to the OS, so RSS measures what is still
    // held rather than ASan's high-water mark.
    const char* asan = std::getenv("ASAN_OPTIONS");
    std::string options = std::string(asan ? asan : "") +
                          ":quarantine_size_mb=8:allocator_release_to_os_interval_ms=100";
    arena_ = std::make_unique<ServerProcess>(
        ARENA_ARENA_BIN, flags, std::map<std::string, std::string>{{"ASAN_OPTIONS", options}});
    ASSERT_TRUE(arena_->ok());
    stub_ = v1::ArenaService::NewStub(arena_->channel());
    v1::GuestTokenRequest g;
    g.set_display_name("driver-test");
    v1::SessionToken t;
    ASSERT_TRUE(CallAs(*stub_, &Stub::GuestToken, As{}, g, &t).ok());
    guest_ = As{t.token()};
  }

  // A chess table of two greedy bots that the cap ends after two moves.
  void CreateShortGame() {
    v1::ArenaCreateTableRequest req;
    req.mutable_settings()->set_engine_game("chess");
    req.mutable_settings()->set_move_cap(2);
    for (int i = 0; i < 2; ++i) {
      v1::SeatSpec* s = req.add_seats()->mutable_spec();
      s->set_kind(v1::SEAT_KIND_BOT);
      s->set_bot_level(1);
    }
    v1::ArenaCreateTableResponse resp;
    grpc::Status s = CallAs(*stub_, &Stub::CreateTable, guest_, req, &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }

  // Plays `n` games, `wave` at a time, each wave to its end.
  void PlayGames(int n, int wave) {
    pqxx::connection c(db_.url());
    for (int done = 0; done < n; done += wave) {
      for (int i = 0; i < wave && done + i < n; ++i) CreateShortGame();
      absl::Time deadline = absl::Now() + absl::Seconds(60);
      while (true) {
        pqxx::work w(c);
        int64_t active =
            w.exec1("SELECT count(*) FROM arena.driven_tables WHERE state = 'active'")[0]
                .as<int64_t>();
        w.commit();
        if (active == 0) break;
        ASSERT_LT(absl::Now(), deadline) << active << " games still active";
        absl::SleepFor(absl::Milliseconds(10));
      }
    }
  }

  TestDatabase db_;
  std::unique_ptr<ServerProcess> game_state_, bot_, gateway_, arena_;
  std::unique_ptr<Stub> stub_;
  As guest_;
};

TEST_F(SeatDriverReleaseTest, FiveHundredGamesLeaveThreadsAndMemoryWhereTheyWere) {
  const pid_t pid = arena_->process().pid();
  PlayGames(20, 10);  // warm-up: pools, caches and connections reach their working size
  absl::SleepFor(absl::Milliseconds(300));
  const ProcStatus before = ReadStatus(pid);
  ASSERT_GT(before.threads, 0);

  PlayGames(250, 10);
  absl::SleepFor(absl::Milliseconds(300));
  const ProcStatus middle = ReadStatus(pid);
  PlayGames(250, 10);
  absl::SleepFor(absl::Milliseconds(300));
  const ProcStatus after = ReadStatus(pid);
  std::printf("arena after 270 games: %lld threads, VmSize %lld kB, VmRSS %lld kB\n",
              static_cast<long long>(middle.threads), static_cast<long long>(middle.vm_size_kb),
              static_cast<long long>(middle.vm_rss_kb));

  pqxx::connection c(db_.url());
  pqxx::work w(c);
  EXPECT_EQ(
      w.exec1("SELECT count(*) FROM arena.driven_tables WHERE state = 'finished'")[0].as<int64_t>(),
      520);
  std::printf(
      "arena after 20 games: %lld threads, VmSize %lld kB, VmRSS %lld kB\n"
      "arena after 520 games: %lld threads, VmSize %lld kB, VmRSS %lld kB\n",
      static_cast<long long>(before.threads), static_cast<long long>(before.vm_size_kb),
      static_cast<long long>(before.vm_rss_kb), static_cast<long long>(after.threads),
      static_cast<long long>(after.vm_size_kb), static_cast<long long>(after.vm_rss_kb));
  // At most a few threads of the last wave may still be ending.
  EXPECT_LE(after.threads, before.threads + 4);
  // 500 kept thread stacks alone would map 500 × 8 MiB.
  EXPECT_LT(after.vm_size_kb - before.vm_size_kb, 256 * 1024);
  EXPECT_LT(after.vm_rss_kb - before.vm_rss_kb, 64 * 1024);
  // And it has levelled off: the second 250 games add far less than 250 kept games would.
  EXPECT_LT(after.vm_rss_kb - middle.vm_rss_kb, 16 * 1024);
}

}  // namespace
}  // namespace arena::testing
