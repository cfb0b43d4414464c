// Issue 28: a request that is not valid protobuf for its method — here a proto3 string field
// holding bytes that are not UTF-8 — never reaches a handler. This pins, for every RPC of every
// service (found by walking the proto descriptors), what gRPC 1.51 answers and that nothing
// changed; docs/security.md ("Requests that do not parse") says why the code is what it is.
//
// The requests are written byte by byte (a valid request whose marker string is overwritten
// with the same number of 0xFF bytes), so the test does not depend on what a client library
// lets through: protobuf's C++ serialiser logs and sends such a string, Go, Java and Python
// refuse to send it.
#include <functional>
#include <memory>
#include <string>

#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/bot.grpc.pb.h"
#include "arena/v1/gateway.grpc.pb.h"
#include "engine/core/game.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "grpcpp/generic/generic_stub.h"
#include "tests/game_state_support.h"
#include "tests/support/arena_client.h"

namespace arena::testing {
namespace {

// The descriptor of service `name` of the proto file that defines `MessageInFile` (naming a
// message links the file's descriptor in).
template <class MessageInFile>
const google::protobuf::ServiceDescriptor* ServiceOf(const char* name) {
  return MessageInFile::descriptor()->file()->FindServiceByName(name);
}

constexpr char kMarker[] = "@@utf8-poison@@";

// Puts kMarker into the first string field of `m`, depth first through singular message
// fields; false when `m` has none.
bool PlantMarker(google::protobuf::Message* m) {
  const auto* d = m->GetDescriptor();
  const auto* r = m->GetReflection();
  for (int i = 0; i < d->field_count(); ++i) {
    const auto* f = d->field(i);
    if (f->type() == google::protobuf::FieldDescriptor::TYPE_STRING) {
      if (f->is_repeated()) {
        r->AddString(m, f, kMarker);
      } else {
        r->SetString(m, f, kMarker);
      }
      return true;
    }
    if (f->type() == google::protobuf::FieldDescriptor::TYPE_MESSAGE && !f->is_repeated() &&
        PlantMarker(r->MutableMessage(m, f))) {
      return true;
    }
  }
  return false;
}

// `request` serialised, with its marker turned into bytes that are not UTF-8.
std::string Poisoned(const google::protobuf::Message& request) {
  std::string bytes = request.SerializeAsString();
  size_t at = bytes.find(kMarker);
  EXPECT_NE(at, std::string::npos);
  if (at != std::string::npos) bytes.replace(at, sizeof kMarker - 1, sizeof kMarker - 1, '\xff');
  return bytes;
}

struct RawReply {
  grpc::Status status;
  bool got_message = false;
};

// Sends `bytes` as the one request message of `method` ("/pkg.Service/Method") and reads at
// most one reply message: one generic call serves unary and streaming methods alike.
RawReply RawCall(const std::shared_ptr<grpc::Channel>& channel, const std::string& method,
                 const std::string& bytes, const std::function<void(grpc::ClientContext&)>& as) {
  grpc::GenericStub stub(channel);
  grpc::CompletionQueue cq;
  grpc::ClientContext ctx;
  common::SetDeadline(ctx, absl::Seconds(20));
  as(ctx);
  RawReply reply;
  auto step = [&](intptr_t want) {
    void* tag = nullptr;
    bool ok = false;
    EXPECT_TRUE(cq.Next(&tag, &ok));
    EXPECT_EQ(reinterpret_cast<intptr_t>(tag), want);
    return ok;
  };
  auto call = stub.PrepareCall(&ctx, method, &cq);
  call->StartCall(reinterpret_cast<void*>(1));
  step(1);
  grpc::Slice slice(bytes);
  grpc::ByteBuffer request(&slice, 1);
  call->Write(request, reinterpret_cast<void*>(2));
  step(2);
  call->WritesDone(reinterpret_cast<void*>(3));
  step(3);
  grpc::ByteBuffer response;
  call->Read(&response, reinterpret_cast<void*>(4));
  reply.got_message = step(4);
  if (reply.got_message) ctx.TryCancel();  // a stream answered: that is enough
  call->Finish(&reply.status, reinterpret_cast<void*>(5));
  step(5);
  cq.Shutdown();
  void* tag;
  bool ok;
  while (cq.Next(&tag, &ok)) {
  }
  return reply;
}

std::string MethodPath(const google::protobuf::MethodDescriptor* m) {
  return "/" + m->service()->full_name() + "/" + m->name();
}

// Every RPC of `service` with a string field in its request, poisoned, as `as`: the exact
// status, and no message. Returns how many were sent.
int ExpectEveryRpcRefused(const google::protobuf::ServiceDescriptor* service,
                          const std::shared_ptr<grpc::Channel>& channel,
                          const std::function<void(grpc::ClientContext&)>& as) {
  int poisoned = 0;
  EXPECT_NE(service, nullptr);
  if (service == nullptr) return 0;
  for (int i = 0; i < service->method_count(); ++i) {
    const auto* m = service->method(i);
    std::unique_ptr<google::protobuf::Message> req(
        google::protobuf::MessageFactory::generated_factory()
            ->GetPrototype(m->input_type())
            ->New());
    if (!PlantMarker(req.get())) continue;  // no string to poison
    ++poisoned;
    RawReply r = RawCall(channel, MethodPath(m), Poisoned(*req), as);
    EXPECT_FALSE(r.got_message) << m->full_name();
    // The raw WatchGame handler parses its own request: a clear INVALID_ARGUMENT.
    if (m->full_name() == "arena.v1.GameStateService.WatchGame") {
      EXPECT_EQ(r.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << m->full_name();
      EXPECT_EQ(r.status.error_message(), "malformed WatchGameRequest");
      continue;
    }
    // gRPC's callback server answers a request it cannot parse with UNIMPLEMENTED and no
    // message, before any handler runs (grpcpp/impl/codegen/server_callback_handlers.h).
    EXPECT_EQ(r.status.error_code(), grpc::StatusCode::UNIMPLEMENTED)
        << m->full_name() << ": " << r.status.error_message();
    EXPECT_EQ(r.status.error_message(), "") << m->full_name();
  }
  return poisoned;
}

void AsArena(grpc::ClientContext& ctx) {
  AttachServiceCredential(ctx, "arena");
}

TEST(UnparsableRequestTest, GameStateAnswersBeforeAnyHandlerAndChangesNothing) {
  if (engine::FindGame("chess") == nullptr) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  v1::ClockSettings clock;
  clock.set_initial_ms(600000);
  auto t = h.NewTable("chess", 2, clock);
  v1::GameView before;
  ASSERT_TRUE(h.Get(t.id, &before).ok());
  const int mover = before.to_move();
  const std::string move = before.legal_moves(0);
  const int64_t events = h.CountRows("SELECT count(*) FROM game.events");
  const int64_t games = h.CountRows("SELECT count(*) FROM game.games");

  // SubmitAction as it would be played: the seat to move, its credential, a legal move, and
  // a reasoning that is not UTF-8.
  {
    v1::SubmitActionRequest req = clients::SeatAction(t.id, mover, move, 0, kMarker);
    RawReply r =
        RawCall(h.server().channel(), "/arena.v1.GameStateService/SubmitAction", Poisoned(req),
                [&](grpc::ClientContext& ctx) { GameStateHarness::Attach(ctx, {t.seats[mover]}); });
    EXPECT_EQ(r.status.error_code(), grpc::StatusCode::UNIMPLEMENTED) << r.status.error_message();
  }
  const int poisoned = ExpectEveryRpcRefused(ServiceOf<v1::SubmitActionRequest>("GameStateService"),
                                             h.server().channel(), AsArena);
  EXPECT_EQ(poisoned, ServiceOf<v1::SubmitActionRequest>("GameStateService")->method_count() -
                          1);  // ListGames

  // Nothing changed: no game, no event, the same view, the same clock.
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.events"), events);
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.games"), games);
  v1::GameView after;
  ASSERT_TRUE(h.Get(t.id, &after).ok());
  EXPECT_EQ(after.action_number(), 0);
  EXPECT_EQ(after.last_sequence(), before.last_sequence());
  EXPECT_EQ(after.turn_deadline_unix_ms(), before.turn_deadline_unix_ms());
  // The same move with its reasoning in UTF-8 takes action number 0: the refusal used none.
  v1::SubmitActionResponse resp;
  ASSERT_TRUE(h.Submit(t.id, mover, GameStateHarness::KindOf(move), move, 0, {t.seats[mover]},
                       &resp, "plain reasoning")
                  .ok());
  EXPECT_EQ(resp.action_number(), 0);
  // What the server logged of it: protobuf's own line per refused parse, and nothing else.
  const std::string log = h.server().process().Stderr();
  EXPECT_NE(log.find("contains invalid UTF-8 data when parsing"), std::string::npos);
  EXPECT_EQ(log.find("event batch failed"), std::string::npos);
}

TEST(UnparsableRequestTest, ArenaAnswersBeforeAnyHandlerAndChangesNothing) {
  TestDatabase db;
  ASSERT_TRUE(db.ok());
  ServerProcess arena(ARENA_ARENA_BIN, ArenaFlags(db.url()));
  ASSERT_TRUE(arena.ok());
  auto rows = [&] {
    pqxx::connection c(db.url());
    pqxx::work w(c);
    return w
        .exec1(
            "SELECT concat_ws('/', (SELECT count(*) FROM arena.accounts),"
            " (SELECT count(*) FROM arena.tokens), (SELECT count(*) FROM arena.transfers),"
            " (SELECT count(*) FROM arena.audit_log))")[0]
        .as<std::string>();
  };
  const std::string before = rows();
  const int poisoned =
      ExpectEveryRpcRefused(ServiceOf<v1::SignUpRequest>("ArenaService"), arena.channel(), AsArena);
  EXPECT_GT(poisoned, 20);
  EXPECT_EQ(rows(), before);
}

TEST(UnparsableRequestTest, BotAndGatewayAnswerBeforeAnyHandler) {
  ServerProcess bot(ARENA_BOT_BIN, {"--bot_workers=1"});
  ASSERT_TRUE(bot.ok());
  EXPECT_EQ(
      ExpectEveryRpcRefused(ServiceOf<v1::ChooseMoveRequest>("BotService"), bot.channel(), AsArena),
      2);  // ChooseMove, EvaluateMove
  // No upstream: a parsed call would fail on it, so the code proves the parse refused first.
  ServerProcess gateway(ARENA_GATEWAY_BIN, {"--abacus_base_url=http://127.0.0.1:9/v1"});
  ASSERT_TRUE(gateway.ok());
  EXPECT_EQ(ExpectEveryRpcRefused(ServiceOf<v1::RegisterKeyRequest>("ModelGatewayService"),
                                  gateway.channel(), AsArena),
            4);
  EXPECT_EQ(gateway.process().Stderr().find("key registered"), std::string::npos);
}

}  // namespace
}  // namespace arena::testing
