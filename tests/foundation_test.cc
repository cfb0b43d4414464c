// The foundation's promises, checked on real processes and a real PostgreSQL cluster:
// migrations apply once under concurrent starts, every server serves health and its info,
// SIGTERM drains and exits 0, bad configuration is a clear startup error, and service
// credentials are checked.
#include <signal.h>

#include <algorithm>
#include <thread>

#include "arena/v1/bot.grpc.pb.h"
#include "arena/v1/common.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "common/grpc_util.h"
#include "engine/core/game.h"
#include "gmock/gmock.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/common/service_auth.h"
#include "tests/support/log_lines.h"
#include "tests/support/server_process.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace arena::testing {
namespace {

using ::testing::HasSubstr;

int CountOccurrences(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) {
    ++n;
  }
  return n;
}

TEST(MigrationsTest, ApplyOnceUnderConcurrentStarts) {
  TestDatabase db;
  ASSERT_TRUE(db.ok());
  std::vector<std::unique_ptr<Subprocess>> procs;
  for (int i = 0; i < 2; ++i) {
    procs.push_back(std::make_unique<Subprocess>(std::vector<std::string>{
        ARENA_GAME_STATE_BIN, "--migrate_only", "--database_url=" + db.url()}));
    procs.push_back(std::make_unique<Subprocess>(
        std::vector<std::string>{ARENA_ARENA_BIN, "--migrate_only", "--database_url=" + db.url()}));
  }
  std::string all_logs;
  for (auto& p : procs) {
    auto code = p->Wait(absl::Seconds(120));
    ASSERT_TRUE(code.has_value());
    EXPECT_EQ(*code, 0) << p->Stderr();
    all_logs += p->Stderr();
  }
  // Each migration was applied by exactly one of the racing processes.
  for (const char* schema : {"game", "arena"}) {
    EXPECT_EQ(
        CountLogLines(all_logs, {{"msg", "migration applied"}, {"schema", schema}, {"version", 1}}),
        1)
        << all_logs;
  }

  pqxx::connection c(db.url());
  pqxx::work w(c);
  for (const std::string schema : {"game", "arena"}) {
    auto rows = w.exec("SELECT version, count(*) OVER () FROM " + schema + ".schema_migrations");
    ASSERT_FALSE(rows.empty()) << schema;
    EXPECT_EQ(rows[0][1].as<int>(), static_cast<int>(rows.size()));
  }
  EXPECT_EQ(w.exec1("SELECT count(*) FROM game.events")[0].as<int>(), 0);
  EXPECT_EQ(w.exec1("SELECT count(*) FROM arena.accounts")[0].as<int>(), 0);
  w.commit();

  // A later start applies nothing.
  Subprocess again({ARENA_GAME_STATE_BIN, "--migrate_only", "--database_url=" + db.url()});
  ASSERT_EQ(again.Wait(absl::Seconds(60)), 0);
  EXPECT_EQ(CountLogLines(again.Stderr(), {{"msg", "schema ready"}, {"applied", 0}}), 1)
      << again.Stderr();
}

grpc::health::v1::HealthCheckResponse::ServingStatus Health(ServerProcess& server) {
  grpc::ClientContext ctx;
  common::SetDeadline(ctx, absl::Seconds(10));
  grpc::health::v1::HealthCheckResponse resp;
  grpc::Status s = grpc::health::v1::Health::NewStub(server.channel())
                       ->Check(&ctx, grpc::health::v1::HealthCheckRequest(), &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp.status();
}

TEST(ServersTest, EveryServerServesHealthInfoAndStopsCleanlyOnSigterm) {
  TestDatabase db;
  ASSERT_TRUE(db.ok());
  struct Spec {
    const char* binary;
    const char* service;
    bool needs_db;
  };
  const Spec specs[] = {{ARENA_ARENA_BIN, "arena", true},
                        {ARENA_GAME_STATE_BIN, "arena-game-state", true},
                        {ARENA_BOT_BIN, "arena-bot", false},
                        {ARENA_GATEWAY_BIN, "arena-llm-gateway", false}};
  std::vector<std::unique_ptr<ServerProcess>> servers;
  for (const Spec& spec : specs) {
    std::vector<std::string> flags;
    if (spec.needs_db) flags.push_back("--database_url=" + db.url());
    servers.push_back(std::make_unique<ServerProcess>(spec.binary, flags));
    ASSERT_TRUE(servers.back()->ok());
  }
  for (size_t i = 0; i < servers.size(); ++i) {
    EXPECT_EQ(Health(*servers[i]), grpc::health::v1::HealthCheckResponse::SERVING);
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    v1::ServerInfo info;
    ASSERT_TRUE(v1::InfoService::NewStub(servers[i]->channel())
                    ->GetServerInfo(&ctx, v1::GetServerInfoRequest(), &info)
                    .ok());
    EXPECT_EQ(info.service(), specs[i].service);
    EXPECT_FALSE(info.version().empty());
  }

  // arenactl health sees all four.
  Subprocess ctl({ARENACTL_BIN, "health", "--arena_addr=" + servers[0]->address(),
                  "--game_state_addr=" + servers[1]->address(),
                  "--bot_addr=" + servers[2]->address(),
                  "--gateway_addr=" + servers[3]->address()});
  ASSERT_EQ(ctl.Wait(absl::Seconds(60)), 0) << ctl.Stderr();
  EXPECT_EQ(CountOccurrences(ctl.Stderr(), "SERVING"), 4) << ctl.Stderr();

  // With one server gone, arenactl health says so and fails.
  ASSERT_EQ(servers[2]->Stop(), 0);
  Subprocess ctl2({ARENACTL_BIN, "health", "--arena_addr=" + servers[0]->address(),
                   "--game_state_addr=" + servers[1]->address(),
                   "--bot_addr=" + servers[2]->address(), "--gateway_addr=" + servers[3]->address(),
                   "--timeout_ms=500"});
  EXPECT_EQ(ctl2.Wait(absl::Seconds(60)), 1) << ctl2.Stderr();
  EXPECT_THAT(ctl2.Stderr(), HasSubstr("DOWN"));

  for (auto& server : servers) {
    if (!server->process().Running()) continue;
    auto code = server->Stop();
    ASSERT_TRUE(code.has_value()) << "did not exit after SIGTERM";
    EXPECT_EQ(*code, 0) << server->process().Stderr();
    std::string log = server->process().Stderr();
    EXPECT_EQ(CountLogLines(log, {{"msg", "shutting down"}, {"signal", "SIGTERM"}}), 1) << log;
    EXPECT_EQ(CountLogLines(log, {{"msg", "stopped"}}), 1) << log;
  }
}

TEST(ServersTest, SigtermDrainsACallInFlight) {
  // A search that is running on the server when SIGTERM arrives still gets its answer, and the
  // server then exits 0.
  ServerProcess server(ARENA_BOT_BIN, {"--drain_seconds=20"});
  ASSERT_TRUE(server.ok());
  const engine::Game* chess = engine::FindGame("chess");
  ASSERT_NE(chess, nullptr);
  auto start = chess->NewInitialState(engine::Variant());
  ASSERT_TRUE(start.ok());
  EXPECT_EQ(Health(server), grpc::health::v1::HealthCheckResponse::SERVING);  // connected

  v1::ChooseMoveRequest req;
  req.set_engine_game("chess");
  req.set_position((*start)->PublicSerialize());
  req.set_seat(0);
  req.set_level(8);
  req.set_time_cap_ms(1500);
  v1::ChooseMoveResponse resp;
  grpc::Status status;
  std::thread caller([&] {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(30));
    AttachServiceCredential(ctx, "arena");  // arena-bot's only caller
    status = v1::BotService::NewStub(server.channel())->ChooseMove(&ctx, req, &resp);
  });
  // Give the call time to reach the server and start searching.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  auto code = server.Stop(absl::Seconds(30));
  caller.join();
  ASSERT_TRUE(code.has_value());
  EXPECT_EQ(*code, 0) << server.process().Stderr();
  EXPECT_TRUE(status.ok()) << status.error_message();
  EXPECT_FALSE(resp.move().text().empty());
  std::vector<std::string> legal = (*start)->LegalActions();
  EXPECT_NE(std::find(legal.begin(), legal.end(), resp.move().text()), legal.end());
}

struct BadStart {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;
  std::string expect_in_stderr;
};

TEST(StartupTest, BadConfigurationIsAClearStartupError) {
  const std::vector<BadStart> cases = {
      {{ARENA_BOT_BIN, "--port=abc"}, {}, "port"},
      {{ARENA_BOT_BIN, "--port=99999"}, {}, "--port=99999 is not a TCP port"},
      {{ARENA_BOT_BIN}, {{"ARENA_PORT", "70000"}}, "--port=70000 is not a TCP port"},
      {{ARENA_BOT_BIN}, {{"ARENA_PORT", "seven"}}, "ARENA_PORT=seven is not a valid value"},
      {{ARENA_BOT_BIN, "--log_level=loud"}, {}, "--log_level=loud"},
      {{ARENA_BOT_BIN, "--no_such_flag=1"}, {}, "no_such_flag"},
      {{ARENA_GAME_STATE_BIN}, {{"ARENA_DATABASE_URL", ""}}, "--database_url is required"},
      {{ARENA_ARENA_BIN, "--database_url=postgresql://127.0.0.1:1/none?connect_timeout=2",
        "--db_pool_size=0"},
       {},
       "--db_pool_size=0"},
  };
  for (const BadStart& c : cases) {
    Subprocess p(c.argv, c.env);
    auto code = p.Wait(absl::Seconds(60));
    ASSERT_TRUE(code.has_value()) << c.argv[1];
    EXPECT_NE(*code, 0) << "started despite bad configuration: " << c.expect_in_stderr;
    EXPECT_THAT(p.Stderr(), HasSubstr(c.expect_in_stderr));
  }
}

// A real in-process gRPC server whose handler checks service credentials the way every
// service does.
class GuardedGameState final : public v1::GameStateService::CallbackService {
 public:
  explicit GuardedGameState(common::ServiceAuthenticator auth) : auth_(std::move(auth)) {}
  grpc::ServerUnaryReactor* ListGames(grpc::CallbackServerContext* ctx, const v1::ListGamesRequest*,
                                      v1::ListGamesResponse*) override {
    auto* reactor = ctx->DefaultReactor();
    reactor->Finish(common::ToGrpc(auth_.Require(*ctx, {"arena"})));
    return reactor;
  }

 private:
  common::ServiceAuthenticator auth_;
};

TEST(ServiceAuthTest, OnlyTheTrustedServiceGetsIn) {
  const std::string& dir = TestSecretsDir();
  std::vector<std::string> all(std::begin(common::kKnownServices),
                               std::end(common::kKnownServices));
  auto auth = common::ServiceAuthenticator::Load(dir, all);
  ASSERT_TRUE(auth.ok()) << auth.status();
  GuardedGameState service(*auth);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  auto server = builder.BuildAndStart();
  ASSERT_NE(port, 0);
  auto stub =
      v1::GameStateService::NewStub(common::MakeChannel("127.0.0.1:" + std::to_string(port)));

  auto call = [&](const std::function<void(grpc::ClientContext&)>& decorate) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    decorate(ctx);
    v1::ListGamesResponse resp;
    return stub->ListGames(&ctx, v1::ListGamesRequest(), &resp).error_code();
  };
  auto arena_id = common::ServiceIdentity::Load(dir, "arena");
  auto bot_id = common::ServiceIdentity::Load(dir, "arena-bot");
  ASSERT_TRUE(arena_id.ok() && bot_id.ok());

  EXPECT_EQ(call([](auto&) {}), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(call([&](auto& ctx) { arena_id->Attach(ctx); }), grpc::StatusCode::OK);
  EXPECT_EQ(call([&](auto& ctx) { bot_id->Attach(ctx); }), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(call([](auto& ctx) {
              ctx.AddMetadata(common::kServiceNameHeader, "arena");
              ctx.AddMetadata(common::kServiceCredentialHeader, std::string(64, 'a'));
            }),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(call([](auto& ctx) { ctx.AddMetadata(common::kServiceNameHeader, "arena"); }),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(call([](auto& ctx) {
              ctx.AddMetadata(common::kServiceNameHeader, "mallory");
              ctx.AddMetadata(common::kServiceCredentialHeader, std::string(64, 'a'));
            }),
            grpc::StatusCode::UNAUTHENTICATED);
  server->Shutdown();
}

}  // namespace
}  // namespace arena::testing
