// arena-llm-gateway against arena-mock-abacus, both real processes talking HTTP on loopback:
// every scripted behaviour gets the right attempt labels, retries happen only where allowed,
// no call or turn costs more than its cap, keys are bound to their game and seat and die on
// release or restart, only `arena` may call, and no key ever shows up in a log line, an error
// or a reply.
#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "arena/v1/gateway.grpc.pb.h"
#include "common/grpc_util.h"
#include "engine/core/game.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/service_auth.h"
#include "tests/support/log_lines.h"
#include "tests/support/server_process.h"
#include "tests/support/subprocess.h"

namespace arena::testing {
namespace {

// The typed cause in a refused call's details (GatewayRefusal), UNSPECIFIED when none.
v1::TurnFailure Refusal(const grpc::Status& s) {
  v1::GatewayRefusal refusal;
  if (s.error_details().empty() || !refusal.ParseFromString(s.error_details())) {
    return v1::TURN_FAILURE_UNSPECIFIED;
  }
  return refusal.failure();
}

using ::testing::HasSubstr;

constexpr char kPlatformKey[] = "plat-SECRET-7f3a9c1e5b";
constexpr char kGameKey[] = "game-SECRET-2d8e4b6a0c";
constexpr char kBrokeKey[] = "broke-SECRET-9a1b2c3d4e";
constexpr char kUnknownKey[] = "nobody-SECRET-5e6f7a8b9c";

// The stand-in for Abacus, as a child process on a loopback port.
class MockAbacus {
 public:
  explicit MockAbacus(std::vector<std::string> extra = {}) {
    std::string dir = MakeTempDir("mock-abacus");
    std::string port_file = dir + "/port";
    std::vector<std::string> argv = {ARENA_MOCK_ABACUS_BIN, "--port=0", "--port_file=" + port_file,
                                     std::string("--keys=") + kPlatformKey + ":1000000000," +
                                         kGameKey + ":1000000000," + kBrokeKey + ":0"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    process_ = std::make_unique<Subprocess>(argv);
    port_ = WaitForPortFile(port_file, absl::Seconds(30));
  }
  bool ok() const { return port_ > 0; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  Subprocess& process() { return *process_; }
  int Requests(const std::string& model) {
    return CountLogLines(process_->Stderr(), {{"msg", "request"}, {"model", model}});
  }

 private:
  std::unique_ptr<Subprocess> process_;
  int port_ = 0;
};

std::string WriteKeyFile(const std::string& key) {
  std::string path = MakeTempDir("gateway-key") + "/abacus.key";
  std::ofstream(path) << key << "\n";
  return path;
}

class GatewayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    chess_ = engine::FindGame("chess");
    if (chess_ == nullptr) GTEST_SKIP() << "the chess engine is not registered in this build";
    auto state = chess_->NewInitialState(engine::Variant());
    ASSERT_TRUE(state.ok());
    initial_ = (*state)->Serialize();
    legal_ = (*state)->LegalActions();
    mock_ = std::make_unique<MockAbacus>(mock_flags_);
    ASSERT_TRUE(mock_->ok());
    StartGateway();
    auto id = common::ServiceIdentity::Load(TestSecretsDir(), "arena");
    ASSERT_TRUE(id.ok());
    arena_ = *id;
  }

  void StartGateway() {
    std::vector<std::string> flags = {"--abacus_base_url=" + mock_->base_url(),
                                      "--abacus_api_key_file=" + WriteKeyFile(kPlatformKey),
                                      "--retry_base_ms=20", "--retry_max_ms=1500"};
    flags.insert(flags.end(), gateway_flags_.begin(), gateway_flags_.end());
    gateway_ = std::make_unique<ServerProcess>(ARENA_GATEWAY_BIN, flags);
    ASSERT_TRUE(gateway_->ok());
    stub_ = v1::ModelGatewayService::NewStub(gateway_->channel());
  }

  void TearDown() override {
    if (gateway_ == nullptr) return;
    // No key, in any form, in the gateway's or the mock's log or in anything it returned.
    std::string logs = gateway_->process().Stderr() + mock_->process().Stderr();
    for (const char* key : {kPlatformKey, kGameKey, kBrokeKey, kUnknownKey}) {
      EXPECT_THAT(logs, ::testing::Not(HasSubstr(key)));
      EXPECT_THAT(seen_, ::testing::Not(HasSubstr(key)));
    }
  }

  v1::ModelTurnRequest Turn(const std::string& model, int64_t cap = 1'000'000) {
    v1::ModelTurnRequest r;
    r.set_game_id("g-1");
    r.set_seat(0);
    r.set_engine_game("chess");
    r.set_position(initial_);
    r.set_owed("move");
    r.set_show_legal_moves(true);
    r.set_model_id(model);
    r.set_cost_cap_microcredits(cap);
    return r;
  }

  grpc::Status Choose(const v1::ModelTurnRequest& request, v1::ModelTurnResponse* response) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(60));
    arena_.Attach(ctx);
    grpc::Status s = stub_->ChooseMove(&ctx, request, response);
    seen_ += response->DebugString() + s.error_message();
    return s;
  }

  absl::StatusOr<std::string> Register(const std::string& game, int seat, const std::string& key) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    arena_.Attach(ctx);
    v1::RegisterKeyRequest req;
    req.set_game_id(game);
    req.set_seat(seat);
    req.set_api_key(key);
    v1::RegisterKeyResponse resp;
    grpc::Status s = stub_->RegisterKey(&ctx, req, &resp);
    seen_ += resp.DebugString() + s.error_message();
    if (!s.ok()) return common::FromGrpc(s);
    return resp.key_handle();
  }

  grpc::Status Release(const std::string& handle, const std::string& game) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    arena_.Attach(ctx);
    v1::ReleaseKeyRequest req;
    req.set_key_handle(handle);
    req.set_game_id(game);
    v1::ReleaseKeyResponse resp;
    return stub_->ReleaseKey(&ctx, req, &resp);
  }

  std::vector<std::string> Labels(const v1::ModelTurnResponse& r) {
    std::vector<std::string> out;
    for (const auto& a : r.attempts()) out.push_back(a.label());
    return out;
  }

  // Every call fit what was left of the cap, and the turn's total is the sum of its calls.
  void ExpectWithinCap(const v1::ModelTurnResponse& r, int64_t cap) {
    int64_t spent = 0;
    for (const auto& a : r.attempts()) {
      EXPECT_LE(a.cost_microcredits(), a.worst_case_microcredits()) << a.DebugString();
      EXPECT_LE(a.worst_case_microcredits(), cap - spent) << a.DebugString();
      spent += a.cost_microcredits();
    }
    EXPECT_EQ(spent, r.total_cost_microcredits());
    EXPECT_LE(r.total_cost_microcredits(), cap);
  }

  const engine::Game* chess_ = nullptr;
  std::string initial_;
  std::vector<std::string> legal_;
  std::vector<std::string> mock_flags_;
  std::vector<std::string> gateway_flags_;
  std::unique_ptr<MockAbacus> mock_;
  std::unique_ptr<ServerProcess> gateway_;
  std::unique_ptr<v1::ModelGatewayService::Stub> stub_;
  common::ServiceIdentity arena_;
  std::string seen_;  // every reply and error message the test received
};

TEST_F(GatewayTest, CompetentModelPlaysALegalMoveAndIsCharged) {
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(Turn("mock-competent"), &r).ok());
  ASSERT_TRUE(r.ok()) << r.DebugString();
  EXPECT_THAT(legal_, ::testing::Contains(r.move().text()));
  EXPECT_FALSE(r.reasoning().empty());
  ASSERT_EQ(Labels(r), std::vector<std::string>({"ok"}));
  const auto& a = r.attempts(0);
  EXPECT_EQ(a.http_status(), 200);
  EXPECT_GT(a.prompt_tokens(), 0);
  EXPECT_GT(a.completion_tokens(), 0);
  // mock-competent lists string rates 1e-6 / 2e-6 USD per token; rounded up.
  int64_t pico = a.prompt_tokens() * 1'000'000 + a.completion_tokens() * 2'000'000;
  EXPECT_EQ(a.cost_microcredits(), (pico + 999'999) / 1'000'000);
  EXPECT_THAT(a.prompt(), HasSubstr("<<<POSITION"));
  EXPECT_THAT(a.prompt(), HasSubstr("Legal moves"));
  EXPECT_THAT(a.reply(), HasSubstr(r.move().text()));
  ExpectWithinCap(r, 1'000'000);
  EXPECT_EQ(mock_->Requests("mock-competent"), 1);
}

TEST_F(GatewayTest, IllegalThenLegalIsRepromptedWithTheReason) {
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(Turn("mock-illegal-then-legal"), &r).ok());
  ASSERT_TRUE(r.ok()) << r.DebugString();
  EXPECT_EQ(Labels(r), std::vector<std::string>({"illegal", "ok"}));
  EXPECT_THAT(r.attempts(1).prompt(), HasSubstr("'z9z9' is not a legal move"));
  EXPECT_THAT(legal_, ::testing::Contains(r.move().text()));
  ExpectWithinCap(r, 1'000'000);
}

TEST_F(GatewayTest, GarbageAndTruncatedRepliesExhaustTheRepromptLimit) {
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(Turn("mock-garbage"), &r).ok());
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.failure(), "illegal");
  EXPECT_EQ(r.failure_kind(), v1::TURN_FAILURE_ILLEGAL);
  EXPECT_EQ(Labels(r), std::vector<std::string>(4, "unparsable"));  // 1 + default 3 re-prompts

  auto req = Turn("mock-truncated");
  req.set_max_reprompts(1);
  v1::ModelTurnResponse t;
  ASSERT_TRUE(Choose(req, &t).ok());
  EXPECT_FALSE(t.ok());
  EXPECT_EQ(t.failure(), "truncated");  // not "illegal": the answers were cut off
  EXPECT_EQ(t.failure_kind(), v1::TURN_FAILURE_TRUNCATED);
  EXPECT_EQ(Labels(t), std::vector<std::string>(2, "truncated"));
  EXPECT_THAT(t.attempts(1).prompt(), HasSubstr("cut off"));
  for (const auto& a : t.attempts()) EXPECT_EQ(a.completion_tokens(), a.max_tokens());
  ExpectWithinCap(t, 1'000'000);
  EXPECT_EQ(mock_->Requests("mock-garbage"), 4);
  EXPECT_EQ(mock_->Requests("mock-truncated"), 2);
}

TEST_F(GatewayTest, AReplyWithoutUsageIsChargedTheUpperEstimate) {
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(Turn("mock-no-usage"), &r).ok());
  ASSERT_TRUE(r.ok()) << r.DebugString();
  EXPECT_THAT(legal_, ::testing::Contains(r.move().text()));
  ASSERT_EQ(Labels(r), std::vector<std::string>({"ok"}));
  const auto& a = r.attempts(0);
  EXPECT_TRUE(a.usage_estimated());
  EXPECT_FALSE(a.usage_disputed());
  EXPECT_EQ(a.prompt_tokens(), 0);  // nothing reported
  EXPECT_GT(a.cost_microcredits(), 0);
  EXPECT_EQ(a.cost_microcredits(), a.worst_case_microcredits());
  // The estimate covers more than the provider could have billed for the same exchange.
  v1::ModelTurnResponse honest;
  ASSERT_TRUE(Choose(Turn("mock-competent"), &honest).ok());
  EXPECT_FALSE(honest.attempts(0).usage_estimated());
  EXPECT_GT(a.cost_microcredits(), honest.attempts(0).cost_microcredits());
  EXPECT_EQ(a.worst_case_microcredits(), honest.attempts(0).worst_case_microcredits());
  EXPECT_EQ(r.total_cost_microcredits(), a.cost_microcredits());
  ExpectWithinCap(r, 1'000'000);
  EXPECT_THAT(gateway_->process().Stderr(), HasSubstr("has no usage"));
}

TEST_F(GatewayTest, UsageThatCannotBeRightIsLoggedAndChargedAtTheLarger) {
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(Turn("mock-underreports"), &r).ok());
  ASSERT_TRUE(r.ok()) << r.DebugString();
  ASSERT_EQ(Labels(r), std::vector<std::string>({"ok"}));
  const auto& a = r.attempts(0);
  EXPECT_EQ(a.prompt_tokens(), 1);  // as reported, for the record
  EXPECT_EQ(a.completion_tokens(), 1);
  EXPECT_TRUE(a.usage_disputed());
  EXPECT_TRUE(a.usage_estimated());
  EXPECT_EQ(a.cost_microcredits(), a.worst_case_microcredits());
  EXPECT_GT(a.cost_microcredits(), 1);  // what 1 + 1 tokens would have cost, rounded up
  ExpectWithinCap(r, 1'000'000);
  EXPECT_THAT(gateway_->process().Stderr(), HasSubstr("usage disagrees"));
}

TEST_F(GatewayTest, AProseAnswerIsReadAfterItsMarker) {
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(Turn("mock-prose"), &r).ok());
  ASSERT_TRUE(r.ok()) << r.DebugString();
  ASSERT_EQ(Labels(r), std::vector<std::string>({"ok"}));
  const auto& a = r.attempts(0);
  // The reply names another legal move first and its answer after "**Final Answer:**".
  const std::string marker = "**Final Answer:** ";
  size_t at = a.reply().rfind(marker);
  ASSERT_NE(at, std::string::npos) << a.reply();
  EXPECT_EQ(r.move().text(), a.reply().substr(at + marker.size()));
  EXPECT_THAT(legal_, ::testing::Contains(r.move().text()));
  EXPECT_THAT(r.reasoning(), HasSubstr("One idea is"));
  EXPECT_FALSE(a.usage_estimated());
  int64_t pico = a.prompt_tokens() * 1'000'000 + a.completion_tokens() * 2'000'000;
  EXPECT_EQ(a.cost_microcredits(), (pico + 999'999) / 1'000'000);
  EXPECT_GT(a.cost_microcredits(), 0);
  ExpectWithinCap(r, 1'000'000);
}

TEST_F(GatewayTest, AnAmbiguousAnswerIsRepromptedSayingWhatWasAmbiguous) {
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(Turn("mock-ambiguous-then-json"), &r).ok());
  ASSERT_TRUE(r.ok()) << r.DebugString();
  ASSERT_EQ(Labels(r), std::vector<std::string>({"unparsable", "ok"}));
  const std::string& first = r.attempts(0).reply();
  const std::string& again = r.attempts(1).prompt();
  EXPECT_THAT(again, HasSubstr("ambiguous"));
  // The re-prompt names both moves the reply named ("Both X and Y look fine to me.").
  std::vector<std::string> named;
  for (const auto& m : legal_) {
    if (first.find(m) != std::string::npos) named.push_back(m);
  }
  ASSERT_EQ(named.size(), 2u) << first;
  for (const auto& m : named) EXPECT_THAT(again, HasSubstr(m));
  EXPECT_THAT(legal_, ::testing::Contains(r.move().text()));
  for (const auto& at : r.attempts()) EXPECT_GT(at.cost_microcredits(), 0);
  ExpectWithinCap(r, 1'000'000);
}

TEST_F(GatewayTest, RateLimitIsRetriedAfterRetryAfter) {
  v1::ModelTurnResponse r;
  auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(Choose(Turn("mock-429-then-ok"), &r).ok());
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(r.ok()) << r.DebugString();
  ASSERT_EQ(Labels(r), std::vector<std::string>({"transport", "ok"}));
  EXPECT_EQ(r.attempts(0).http_status(), 429);
  EXPECT_EQ(r.attempts(0).cost_microcredits(), 0);
  EXPECT_GE(elapsed, std::chrono::milliseconds(1000));  // Retry-After: 1
  EXPECT_EQ(mock_->Requests("mock-429-then-ok"), 2);
}

TEST_F(GatewayTest, ServerErrorsAreRetriedThenReportedAsProviderFailure) {
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(Turn("mock-500"), &r).ok());
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.failure(), "provider");
  EXPECT_EQ(Labels(r), std::vector<std::string>(4, "transport"));  // 1 + 3 retries
  for (const auto& a : r.attempts()) {
    EXPECT_EQ(a.http_status(), 500);
    EXPECT_EQ(a.cost_microcredits(), 0);
  }
  EXPECT_EQ(mock_->Requests("mock-500"), 4);
}

TEST_F(GatewayTest, OutOfCreditsIsFinalAndNeverRetried) {
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(Turn("mock-broke"), &r).ok());
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.failure(), "out_of_credits");
  EXPECT_EQ(Labels(r), std::vector<std::string>({"out_of_credits"}));
  EXPECT_EQ(r.attempts(0).http_status(), 400);
  EXPECT_EQ(mock_->Requests("mock-broke"), 1);

  // A game's own key whose balance is spent: the same answer, by the message.
  auto handle = Register("g-1", 0, kBrokeKey);
  ASSERT_TRUE(handle.ok()) << handle.status();
  auto req = Turn("mock-competent", 0);
  req.set_key_handle(*handle);
  v1::ModelTurnResponse own;
  ASSERT_TRUE(Choose(req, &own).ok());
  EXPECT_EQ(own.failure(), "out_of_credits");
  EXPECT_EQ(Labels(own), std::vector<std::string>({"out_of_credits"}));
}

class GatewayOutOfCredits429Test : public GatewayTest {
 protected:
  GatewayOutOfCredits429Test() { mock_flags_ = {"--out_of_credits_status=429"}; }
};

TEST_F(GatewayOutOfCredits429Test, OutOfCreditsAs429IsRecognisedByItsMessage) {
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(Turn("mock-broke"), &r).ok());
  EXPECT_EQ(r.failure(), "out_of_credits");
  EXPECT_EQ(Labels(r), std::vector<std::string>({"out_of_credits"}));
  EXPECT_EQ(r.attempts(0).http_status(), 429);
  EXPECT_EQ(mock_->Requests("mock-broke"), 1);
}

TEST_F(GatewayTest, BadKeyIsAnAuthFailureAndFinal) {
  v1::ModelTurnResponse warm;
  ASSERT_TRUE(Choose(Turn("mock-competent"), &warm).ok());  // caches the model list
  auto handle = Register("g-1", 0, kUnknownKey);
  ASSERT_TRUE(handle.ok());
  auto req = Turn("mock-competent", 0);
  req.set_key_handle(*handle);
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(req, &r).ok());
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.failure(), "auth");
  EXPECT_EQ(Labels(r), std::vector<std::string>({"auth"}));
  EXPECT_EQ(r.attempts(0).http_status(), 401);
  EXPECT_EQ(mock_->Requests("mock-competent"), 2);
}

class GatewaySlowTest : public GatewayTest {
 protected:
  GatewaySlowTest() {
    mock_flags_ = {"--slow_ms=3000"};
    gateway_flags_ = {"--call_timeout_ms=400", "--max_retries=1"};
  }
};

TEST_F(GatewaySlowTest, TimedOutCallsAreChargedAtTheirWorstCaseAndRetried) {
  const int64_t cap = 200'000;
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(Turn("mock-slow", cap), &r).ok());
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.failure(), "provider");
  ASSERT_EQ(Labels(r), std::vector<std::string>(2, "transport"));
  for (const auto& a : r.attempts()) {
    EXPECT_TRUE(a.outcome_unknown());
    EXPECT_EQ(a.http_status(), 0);
    EXPECT_GT(a.worst_case_microcredits(), 0);
    EXPECT_EQ(a.cost_microcredits(), a.worst_case_microcredits());
  }
  ExpectWithinCap(r, cap);
  // The competent model still answers quickly through the same gateway.
  v1::ModelTurnResponse ok;
  ASSERT_TRUE(Choose(Turn("mock-competent"), &ok).ok());
  EXPECT_TRUE(ok.ok());
}

TEST_F(GatewayTest, RouteLlmIsBudgetedAtTheHighestRateAndTheCapHolds) {
  // route-llm is priced at the max over /v1/models: mock-expensive's 1e-5 in, 3e-5 out.
  v1::ModelTurnResponse tiny;
  grpc::Status s = Choose(Turn("route-llm", 10), &tiny);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();

  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(Turn("route-llm", 100'000), &r).ok());
  ASSERT_TRUE(r.ok()) << r.DebugString();
  const auto& a = r.attempts(0);
  int64_t pico = a.prompt_tokens() * 10'000'000 + a.completion_tokens() * 30'000'000;
  EXPECT_EQ(a.cost_microcredits(), (pico + 999'999) / 1'000'000);
  ExpectWithinCap(r, 100'000);

  // A garbage writer under a cap that covers about two calls: max_tokens shrinks to fit, and
  // the turn stops with "cost_cap" rather than spend past it.
  const int64_t cap = 2'200;  // micro-credits
  v1::ModelTurnResponse g;
  ASSERT_TRUE(Choose(Turn("mock-garbage", cap), &g).ok());
  EXPECT_FALSE(g.ok());
  ExpectWithinCap(g, cap);
  EXPECT_GE(g.attempts_size(), 1);
  EXPECT_EQ(g.failure(), g.attempts_size() < 4 ? "cost_cap" : "illegal");
}

TEST_F(GatewayTest, PlatformKeyTurnsNeedACap) {
  v1::ModelTurnResponse r;
  EXPECT_EQ(Choose(Turn("mock-competent", 0), &r).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  auto req = Turn("mock-competent");
  req.set_seat(1);  // not Black's turn
  EXPECT_EQ(Choose(req, &r).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  req = Turn("mock-competent");
  req.set_position("not a position");
  EXPECT_EQ(Choose(req, &r).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  req = Turn("no-such-model");
  EXPECT_EQ(Choose(req, &r).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(mock_->Requests("mock-competent"), 0);
}

TEST_F(GatewayTest, KeyHandlesAreBoundToGameAndSeatAndDieOnRelease) {
  auto handle = Register("g-7", 0, kGameKey);
  ASSERT_TRUE(handle.ok()) << handle.status();
  EXPECT_THAT(*handle, ::testing::Not(HasSubstr(kGameKey)));
  auto req = Turn("mock-competent", 0);
  req.set_game_id("g-7");
  req.set_key_handle(*handle);
  v1::ModelTurnResponse r;
  ASSERT_TRUE(Choose(req, &r).ok());
  EXPECT_TRUE(r.ok()) << r.DebugString();

  auto other_game = req;
  other_game.set_game_id("g-8");
  EXPECT_EQ(Choose(other_game, &r).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  auto other_seat = req;
  other_seat.set_seat(1);
  EXPECT_EQ(Choose(other_seat, &r).error_code(), grpc::StatusCode::PERMISSION_DENIED);

  // A refusal another service acts on carries its cause typed; a permission refusal none.
  EXPECT_EQ(Refusal(Choose(other_seat, &r)), v1::TURN_FAILURE_UNSPECIFIED);
  EXPECT_TRUE(Release(*handle, "g-7").ok());
  grpc::Status s = Choose(req, &r);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Refusal(s), v1::TURN_FAILURE_KEY_NEEDED);

  // Releasing by game wipes every key of that game.
  auto h2 = Register("g-9", 1, kGameKey);
  ASSERT_TRUE(h2.ok());
  EXPECT_TRUE(Release("", "g-9").ok());
  auto req9 = Turn("mock-competent", 0);
  req9.set_game_id("g-9");
  req9.set_seat(1);
  req9.set_key_handle(*h2);
  EXPECT_EQ(Choose(req9, &r).error_code(), grpc::StatusCode::FAILED_PRECONDITION);

  // Bad keys are refused without being quoted.
  auto bad = Register("g-10", 0, "has a space");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(GatewayTest, ARestartLosesEveryKey) {
  auto handle = Register("g-1", 0, kGameKey);
  ASSERT_TRUE(handle.ok());
  std::string before = gateway_->process().Stderr();
  ASSERT_EQ(gateway_->Stop(), 0);
  EXPECT_THAT(before, ::testing::Not(HasSubstr(kGameKey)));
  StartGateway();
  auto req = Turn("mock-competent", 0);
  req.set_key_handle(*handle);
  v1::ModelTurnResponse r;
  grpc::Status s = Choose(req, &r);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Refusal(s), v1::TURN_FAILURE_KEY_NEEDED);
}

TEST_F(GatewayTest, OnlyArenaMayCall) {
  auto call = [&](const std::function<void(grpc::ClientContext&)>& decorate) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    decorate(ctx);
    v1::ModelTurnResponse r;
    return stub_->ChooseMove(&ctx, Turn("mock-competent"), &r).error_code();
  };
  auto bot = common::ServiceIdentity::Load(TestSecretsDir(), "arena-bot");
  ASSERT_TRUE(bot.ok());
  EXPECT_EQ(call([](auto&) {}), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(call([&](auto& ctx) { bot->Attach(ctx); }), grpc::StatusCode::PERMISSION_DENIED);
  grpc::ClientContext ctx;
  common::SetDeadline(ctx, absl::Seconds(10));
  bot->Attach(ctx);
  v1::RegisterKeyRequest req;
  req.set_game_id("g");
  req.set_api_key(kGameKey);
  v1::RegisterKeyResponse resp;
  EXPECT_EQ(stub_->RegisterKey(&ctx, req, &resp).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(mock_->Requests("mock-competent"), 0);
}

TEST_F(GatewayTest, ListModelsReportsRatesIncludingStringRates) {
  grpc::ClientContext ctx;
  common::SetDeadline(ctx, absl::Seconds(10));
  arena_.Attach(ctx);
  v1::ListModelsResponse resp;
  ASSERT_TRUE(stub_->ListModels(&ctx, v1::ListModelsRequest(), &resp).ok());
  bool found = false;
  for (const auto& m : resp.models()) {
    if (m.id() == "mock-competent") {
      found = true;
      EXPECT_DOUBLE_EQ(m.input_usd_per_token(), 1e-6);
      EXPECT_DOUBLE_EQ(m.output_usd_per_token(), 2e-6);
      EXPECT_EQ(m.max_completion_tokens(), 4096);
    }
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace arena::testing
