// The page in a real browser (Debian's chromium, driven by playwright-core from npm): every
// server and PostgreSQL come up, this test prepares a live model game, a finished game and a
// player's account, and tests/web/browser_test.mjs opens the lobby and the live game and sees
// moves arrive, replays the finished game, plays a full game as a guest against a bot, grants
// credits as an admin and finds them in the audit log, and is refused the admin console (by
// the API) as a player. Screenshots of each page are kept in build/<preset>/web-e2e/screenshots.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "tests/support/web_deployment.h"

namespace arena::testing {
namespace {

using Stub = v1::ArenaService::Stub;
constexpr char kPlayer[] = "alice";
constexpr char kPlayerPassword[] = "alice-password-123";

v1::ArenaSeat BotSeat(int level) {
  v1::ArenaSeat s;
  s.mutable_spec()->set_kind(v1::SEAT_KIND_BOT);
  s.mutable_spec()->set_bot_level(level);
  return s;
}

std::string CreateTable(Stub& stub, const std::string& token, v1::ArenaCreateTableRequest req) {
  v1::ArenaCreateTableResponse resp;
  grpc::Status s = CallAs(stub, &Stub::CreateTable, As{token}, req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp.game_id();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream b;
  b << in.rdbuf();
  return b.str();
}

TEST(WebE2eTest, ThePageInChromium) {
  for (const char* tool : {"/usr/bin/chromium", "/usr/bin/node", "/usr/bin/npm"}) {
    ASSERT_TRUE(std::filesystem::exists(tool)) << tool << " is missing: run scripts/setup-deps";
  }
  WebDeployment d;
  ASSERT_TRUE(d.ok()) << d.Logs();
  auto stub = d.Arena();
  const std::string admin = AdminToken(*stub);
  FundPool(*stub, admin, "web e2e funding");
  {
    v1::SignUpRequest up;
    up.set_name(kPlayer);
    up.set_password(kPlayerPassword);
    v1::SessionToken t;
    ASSERT_TRUE(CallAs(*stub, &Stub::SignUp, As{}, up, &t).ok());
  }

  // A finished game: two bots, a short move cap.
  v1::ArenaCreateTableRequest quick;
  quick.mutable_settings()->set_engine_game("chess");
  quick.mutable_settings()->set_is_public(true);
  quick.mutable_settings()->set_move_cap(10);
  *quick.add_seats() = BotSeat(1);
  *quick.add_seats() = BotSeat(1);
  const std::string finished = CreateTable(*stub, admin, quick);
  ASSERT_FALSE(finished.empty());

  // A live model game on the hex board with darts, paced so a watcher sees moves arrive.
  v1::ArenaCreateTableRequest live;
  live.mutable_settings()->set_engine_game("chestonia-chess");
  (*live.mutable_settings()->mutable_variant()->mutable_options())["players"] = "2";
  (*live.mutable_settings()->mutable_variant()->mutable_options())["darts"] = "on";
  live.mutable_settings()->set_is_public(true);
  live.mutable_settings()->set_move_cap(400);
  v1::ArenaSeat model;
  model.mutable_spec()->set_kind(v1::SEAT_KIND_MODEL);
  model.mutable_spec()->set_model_id("mock-competent");
  model.mutable_spec()->set_funding(v1::FUNDING_DONATED_CREDITS);
  *live.add_seats() = model;
  *live.add_seats() = BotSeat(1);
  live.mutable_policy()->set_min_bot_turn_ms(1200);
  live.mutable_policy()->set_turn_cost_cap_microcredits(50'000);
  const std::string model_game = CreateTable(*stub, admin, live);
  ASSERT_FALSE(model_game.empty());

  auto gs = d.GameState();
  absl::Time deadline = absl::Now() + absl::Minutes(3);
  while (absl::Now() < deadline) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    v1::GetGameRequest get;
    get.set_game_id(finished);
    v1::GameView v;
    if (gs->GetGame(&ctx, get, &v).ok() && v.status() == v1::GAME_STATUS_FINISHED) break;
    absl::SleepFor(absl::Milliseconds(200));
  }

  const std::string dir = ARENA_WEB_E2E_DIR;
  const std::string scripts = ARENA_WEB_E2E_SCRIPT_DIR;
  ASSERT_TRUE(std::filesystem::exists(scripts + "/node_modules/playwright-core/package.json"))
      << "playwright-core is not installed in " << scripts << ": run scripts/setup-deps";
  std::filesystem::create_directories(dir);
  const std::string out = dir + "/browser_test.out";
  std::string cmd =
      "cd '" + scripts + "' && WEB_URL='" + d.web_url() + "' MODEL_GAME='" + model_game +
      "' FINISHED_GAME='" + finished + "' ADMIN_NAME='" + kAdminName + "' ADMIN_PASSWORD='" +
      kAdminPassword + "' PLAYER_NAME='" + kPlayer + "' PLAYER_PASSWORD='" + kPlayerPassword +
      "' SCREENSHOT_DIR='" + dir +
      "/screenshots' CHROMIUM=/usr/bin/chromium timeout 600 node browser_test.mjs > '" + out +
      "' 2>&1";
  int rc = std::system(cmd.c_str());
  std::string report = ReadFile(out);
  std::printf("%s\n", report.c_str());
  EXPECT_EQ(rc, 0) << report << "\n--- servers ---\n" << d.Logs().substr(0, 20000);
}

}  // namespace
}  // namespace arena::testing
