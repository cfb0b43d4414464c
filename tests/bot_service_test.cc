// arena-bot as a real process over gRPC: moves for chess and Chestonia chess with their
// search figures, precise statuses for malformed requests, the same answer for the same
// request, the time cap and the caller's deadline stopping a search with its best move so
// far, requests beyond the worker count queueing first come first served, and only the arena
// service's credential getting an answer.
#include <chrono>
#include <future>
#include <thread>

#include "arena/v1/bot.grpc.pb.h"
#include "common/grpc_util.h"
#include "engine/core/game.h"
#include "gtest/gtest.h"
#include "services/common/service_auth.h"
#include "tests/support/server_process.h"

namespace arena::testing {
namespace {

using v1::ChooseMoveRequest;
using v1::ChooseMoveResponse;

class BotServiceTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new ServerProcess(ARENA_BOT_BIN, {"--bot_workers=2"}); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    ASSERT_TRUE(server_->ok());
    stub_ = v1::BotService::NewStub(server_->channel());
  }
  grpc::Status Call(const ChooseMoveRequest& req, ChooseMoveResponse* resp,
                    absl::Duration deadline = absl::Seconds(60)) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, deadline);
    AttachServiceCredential(ctx, "arena");  // its only caller
    return stub_->ChooseMove(&ctx, req, resp);
  }
  static std::string Initial(const std::string& game, const std::string& variant) {
    auto v = engine::Variant::Parse(variant);
    auto s = engine::FindGame(game)->NewInitialState(*v);
    return (*s)->Serialize();
  }
  static bool Legal(const std::string& game, const std::string& variant,
                    const std::string& position, const std::string& move) {
    auto v = engine::Variant::Parse(variant);
    auto s = engine::FindGame(game)->Parse(position, *v);
    if (!s.ok()) return false;
    for (const auto& a : (*s)->LegalActions()) {
      if (a == move) return true;
    }
    return false;
  }

  static ServerProcess* server_;
  std::unique_ptr<v1::BotService::Stub> stub_;
};
ServerProcess* BotServiceTest::server_ = nullptr;

ChooseMoveRequest ChessRequest(const std::string& position, int level) {
  ChooseMoveRequest req;
  req.set_engine_game("chess");
  req.set_position(position);
  req.set_seat(0);
  req.set_level(level);
  req.set_seed(3);
  return req;
}

TEST_F(BotServiceTest, OnlyTheArenaServiceMayAsk) {
  const ChooseMoveRequest req = ChessRequest(Initial("chess", ""), 2);
  ChooseMoveResponse resp;
  {
    grpc::ClientContext ctx;  // no credential: a user or a stranger
    common::SetDeadline(ctx, absl::Seconds(20));
    EXPECT_EQ(stub_->ChooseMove(&ctx, req, &resp).error_code(), grpc::UNAUTHENTICATED);
  }
  {
    grpc::ClientContext ctx;  // a real credential of another service
    common::SetDeadline(ctx, absl::Seconds(20));
    AttachServiceCredential(ctx, "arena-llm-gateway");
    EXPECT_EQ(stub_->ChooseMove(&ctx, req, &resp).error_code(), grpc::PERMISSION_DENIED);
  }
  {
    grpc::ClientContext ctx;  // the arena's name with a wrong secret
    common::SetDeadline(ctx, absl::Seconds(20));
    ctx.AddMetadata(common::kServiceNameHeader, "arena");
    ctx.AddMetadata(common::kServiceCredentialHeader, std::string(64, '0'));
    EXPECT_EQ(stub_->ChooseMove(&ctx, req, &resp).error_code(), grpc::UNAUTHENTICATED);
  }
  EXPECT_TRUE(Call(req, &resp).ok());
  EXPECT_FALSE(resp.move().text().empty());
}

TEST_F(BotServiceTest, EvaluatesAPlayedMoveForTheArenaOnly) {
  v1::EvaluateMoveRequest req;
  req.set_engine_game("chess");
  req.set_position("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1");  // the queen on d5 is free
  req.set_seat(0);
  req.set_move("e1f2");
  v1::EvaluateMoveResponse resp;
  {
    grpc::ClientContext ctx;  // another service: refused like ChooseMove
    common::SetDeadline(ctx, absl::Seconds(20));
    AttachServiceCredential(ctx, "arena-web");
    EXPECT_EQ(stub_->EvaluateMove(&ctx, req, &resp).error_code(), grpc::PERMISSION_DENIED);
  }
  grpc::ClientContext ctx;
  common::SetDeadline(ctx, absl::Seconds(60));
  AttachServiceCredential(ctx, "arena");
  grpc::Status s = stub_->EvaluateMove(&ctx, req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.best_move(), "e4d5");
  EXPECT_FALSE(resp.matched());
  EXPECT_TRUE(resp.has_loss());
  EXPECT_EQ(resp.mark(), "blunder");
  EXPECT_GT(resp.loss_cp(), 700);
  EXPECT_GT(resp.nodes(), 0);

  req.set_move("e4e6");  // not legal: refused, nothing else to lose
  grpc::ClientContext bad;
  common::SetDeadline(bad, absl::Seconds(20));
  AttachServiceCredential(bad, "arena");
  EXPECT_EQ(stub_->EvaluateMove(&bad, req, &resp).error_code(), grpc::INVALID_ARGUMENT);
}

TEST_F(BotServiceTest, ChessMoveWithSearchFigures) {
  const std::string start = Initial("chess", "");
  ChooseMoveResponse resp;
  ASSERT_TRUE(Call(ChessRequest(start, 3), &resp).ok());
  EXPECT_TRUE(Legal("chess", "", start, resp.move().text())) << resp.move().text();
  EXPECT_GT(resp.depth(), 0);
  EXPECT_GT(resp.nodes(), 0);
  EXPECT_LE(resp.nodes(), 3001);
  ASSERT_GT(resp.principal_variation_size(), 0);
  EXPECT_EQ(resp.principal_variation(0), resp.move().text());
  EXPECT_EQ(resp.algorithm(), "alphabeta");
  EXPECT_FALSE(resp.stopped());
}

TEST_F(BotServiceTest, FindsMateAndIsDeterministic) {
  ChooseMoveRequest req = ChessRequest("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3);
  ChooseMoveResponse a, b;
  ASSERT_TRUE(Call(req, &a).ok());
  ASSERT_TRUE(Call(req, &b).ok());
  EXPECT_EQ(a.move().text(), "a1a8");
  EXPECT_EQ(a.move().text(), b.move().text());
  EXPECT_EQ(a.nodes(), b.nodes());
  EXPECT_EQ(a.score_cp(), b.score_cp());
}

TEST_F(BotServiceTest, ChestoniaThreePlayers) {
  ChooseMoveRequest req;
  req.set_engine_game("chestonia-chess");
  (*req.mutable_variant()->mutable_options())["players"] = "3";
  const std::string pos = Initial("chestonia-chess", "players=3");
  req.set_position(pos);
  req.set_seat(0);
  req.set_level(2);
  ChooseMoveResponse resp;
  const grpc::Status st = Call(req, &resp);
  ASSERT_TRUE(st.ok()) << st.error_message();
  EXPECT_TRUE(Legal("chestonia-chess", "players=3", pos, resp.move().text()));
  EXPECT_GT(resp.nodes(), 0);
}

TEST_F(BotServiceTest, MalformedRequestsAreRefused) {
  const std::string start = Initial("chess", "");
  ChooseMoveResponse resp;
  ChooseMoveRequest req = ChessRequest(start, 2);
  req.set_engine_game("");
  EXPECT_EQ(Call(req, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  req.set_engine_game("no-such-game");
  EXPECT_EQ(Call(req, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  req = ChessRequest("rnbqkbnr/pppppppp/8/8 w", 2);
  EXPECT_EQ(Call(req, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  req = ChessRequest(start, 2);
  req.set_seat(1);
  EXPECT_EQ(Call(req, &resp).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  req = ChessRequest(start, 12);
  EXPECT_EQ(Call(req, &resp).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  // Checkmated: nothing to choose.
  req = ChessRequest("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", 2);
  req.set_seat(1);
  EXPECT_EQ(Call(req, &resp).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

TEST_F(BotServiceTest, TimeCapStopsTheSearchWithItsBestMove) {
  const std::string start = Initial("chess", "");
  ChooseMoveRequest req = ChessRequest(start, 8);
  req.set_node_budget(int64_t{1} << 40);
  req.set_time_cap_ms(300);
  ChooseMoveResponse resp;
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(Call(req, &resp).ok());
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  EXPECT_TRUE(resp.stopped());
  EXPECT_GE(ms, 250);
  EXPECT_LT(ms, 3000);
  EXPECT_TRUE(Legal("chess", "", start, resp.move().text()));
}

TEST_F(BotServiceTest, DeadlineStopsTheSearchBeforeItExpires) {
  const std::string start = Initial("chess", "");
  ChooseMoveRequest req = ChessRequest(start, 8);
  req.set_node_budget(int64_t{1} << 40);
  ChooseMoveResponse resp;
  const grpc::Status st = Call(req, &resp, absl::Milliseconds(1500));
  ASSERT_TRUE(st.ok()) << st.error_message();
  EXPECT_TRUE(resp.stopped());
  EXPECT_TRUE(Legal("chess", "", start, resp.move().text()));
}

TEST_F(BotServiceTest, RequestsBeyondTheWorkersQueueInOrder) {
  const std::string start = Initial("chess", "");
  // Two workers, four requests of 400 ms each: two run at once, two wait their turn.
  struct Sent {
    grpc::Status status;
    ChooseMoveResponse response;
    int64_t sent_ms = 0;  // when the call went out, from the test's start
  };
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::future<Sent>> calls;
  for (int i = 0; i < 4; ++i) {
    calls.push_back(std::async(std::launch::async, [&, i] {
      std::this_thread::sleep_for(std::chrono::milliseconds(40 * i));
      ChooseMoveRequest req = ChessRequest(start, 8);
      req.set_node_budget(int64_t{1} << 40);
      req.set_time_cap_ms(400 + 100 * i);
      auto stub = v1::BotService::NewStub(server_->channel());
      grpc::ClientContext ctx;
      common::SetDeadline(ctx, absl::Seconds(30));
      AttachServiceCredential(ctx, "arena");
      Sent out;
      out.sent_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - t0)
                        .count();
      out.status = stub->ChooseMove(&ctx, req, &out.response);
      return out;
    }));
  }
  std::vector<Sent> r;
  for (auto& c : calls) {
    r.push_back(c.get());
    ASSERT_TRUE(r.back().status.ok()) << r.back().status.error_message();
  }
  // The first two started at once; the last two waited for a worker.
  EXPECT_LT(r[0].response.queued_ms(), 100);
  EXPECT_LT(r[1].response.queued_ms(), 100);
  EXPECT_GE(r[2].response.queued_ms(), 150);
  EXPECT_GE(r[3].response.queued_ms(), 150);
  // First come first served: of the two that waited, the one sent first got the first free
  // worker (the second frees about 140 ms later). Their threads are spaced 40 ms apart, but a
  // loaded machine can delay one past the other, so the order is the measured one; sent within
  // 10 ms of each other, either may have reached the server first.
  const Sent& first = r[2].sent_ms <= r[3].sent_ms ? r[2] : r[3];
  const Sent& second = r[2].sent_ms <= r[3].sent_ms ? r[3] : r[2];
  if (second.sent_ms - first.sent_ms >= 10) {
    EXPECT_LE(first.sent_ms + first.response.queued_ms(),
              second.sent_ms + second.response.queued_ms() + 40)
        << "sent at " << first.sent_ms << " and " << second.sent_ms << " ms";
  }
}

}  // namespace
}  // namespace arena::testing
