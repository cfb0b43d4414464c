// Issue 28: every RPC of arena-game-state, arena-bot and arena-llm-gateway called as every kind
// of caller, against the real binaries. Each cell states the exact status; every refused cell
// also checks that the call changed nothing (the game, the database, the key vault, the
// upstream). ArenaService has its own table in accounts_rpc_test.cc
// (EveryRpcAgainstEveryPrincipal).
//
// Coverage: each table lists its service's RPC names, and a static_assert compares that list's
// length with the number of RPCs protoc generated (tests/support/rpc_count.h), so an RPC added
// to a proto breaks the build of this test until it has a row. The names themselves are then
// checked against the proto descriptor at run time (a rename is a test failure: C++ cannot
// read a method's name at compile time).
#include <chrono>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "arena/v1/bot.grpc.pb.h"
#include "arena/v1/gateway.grpc.pb.h"
#include "engine/core/game.h"
#include "google/protobuf/util/message_differencer.h"
#include "tests/game_state_support.h"
#include "tests/support/arena_client.h"
#include "tests/support/log_lines.h"
#include "tests/support/rpc_count.h"

namespace arena::testing {
namespace {

using Code = grpc::StatusCode;
constexpr Code OK = Code::OK, UA = Code::UNAUTHENTICATED, PD = Code::PERMISSION_DENIED;

// The descriptor of service `name` of the proto file that defines `MessageInFile` (naming a
// message links the file's descriptor in).
template <class MessageInFile>
const google::protobuf::ServiceDescriptor* ServiceOf(const char* name) {
  return MessageInFile::descriptor()->file()->FindServiceByName(name);
}

// Every descriptor method of `service` is named in `names`, and every name is a method.
void ExpectSameRpcs(const google::protobuf::ServiceDescriptor* service,
                    const std::vector<std::string_view>& names) {
  ASSERT_NE(service, nullptr);
  std::set<std::string_view> listed(names.begin(), names.end());
  std::set<std::string_view> in_proto;
  for (int i = 0; i < service->method_count(); ++i) in_proto.insert(service->method(i)->name());
  EXPECT_EQ(listed, in_proto) << service->full_name() << ": the table and the proto disagree";
}

// The rows name their RPC first ("SubmitAction (a bot seat)"); every listed RPC has a row.
template <class Row>
void ExpectEveryRpcHasARow(const std::vector<Row>& rows,
                           const std::vector<std::string_view>& names) {
  std::set<std::string> covered;
  for (const Row& r : rows) covered.insert(r.rpc.substr(0, r.rpc.find(' ')));
  for (std::string_view n : names) {
    EXPECT_TRUE(covered.count(std::string(n))) << n << " has no row in the principal table";
  }
}

// A string shaped like `real` (same length and alphabet) that is not it.
std::string Forged(const std::string& real) {
  std::string f = real.empty() ? std::string(64, 'a') : real;
  for (char& c : f) c = c == 'a' ? 'b' : 'a';
  return f;
}

v1::ClockSettings TenMinutes() {
  v1::ClockSettings c;
  c.set_initial_ms(600000);
  return c;
}

// --- arena-game-state ------------------------------------------------------------------------

enum GameStatePrincipal {
  kNobody,         // no credential at all
  kForgedService,  // "arena" with a credential that is not its secret
  kOtherService,   // arena-bot's valid credential
  kArena,          // the arena service
  kOwnSeat,        // the credential of the seat the request names
  kOtherSeat,      // another seat's credential in the same game
  kForgedSeat,     // a seat credential's shape, no seat's
  kHost,           // the table's host credential
  kForgedHost,     // a host credential's shape, not the host's
  kGameStatePrincipals
};
const char* const kGameStatePrincipalNames[] = {
    "no credential", "forged service credential", "another service (arena-bot)",
    "arena",         "the seat's credential",     "another seat's credential",
    "forged seat",   "host credential",           "forged host credential"};

constexpr std::string_view kGameStateRpcs[] = {
    "CreateTable", "JoinTable",      "SubmitAction", "GetGame", "ListGames", "WatchGame",
    "GetRecord",   "UpdateSettings", "DeleteGame",   "Pong",    "VoidGame"};
static_assert(std::size(kGameStateRpcs) == RpcCountOf<v1::GameStateService>::value,
              "a GameStateService RPC has no row in kGameStateRpcs (and the table below)");

// What one cell acts on: a fresh table and the credentials the principals present.
struct GameFixture {
  std::string game;
  std::string host;
  int seat = -1;           // the seat the request names (the seat to move where it matters)
  std::string own_seat;    // that seat's credential ("" for a bot seat: it has none)
  std::string other_seat;  // another seat's credential in the same game
  int64_t action_number = 0;
  std::string legal;  // a legal action for `seat`
  int64_t ping_id = 0;
  // Holds a watch stream open for the cell (Pong needs a live ping); closed at the end.
  std::shared_ptr<void> keep;
};

struct GameStateRow {
  std::string rpc;
  std::function<GameFixture()> setup;
  std::function<grpc::Status(grpc::ClientContext&, const GameFixture&)> call;
  Code expected[kGameStatePrincipals];
  // Extra proof that a refused call changed nothing (beyond the game and database checks).
  std::function<void(const GameFixture&)> still_intact = nullptr;
};

class GameStatePrincipals {
 public:
  explicit GameStatePrincipals(GameStateHarness& h) : h_(h) {}

  void Attach(grpc::ClientContext& ctx, GameStatePrincipal p, const GameFixture& f) const {
    switch (p) {
      case kNobody:
        return GameStateHarness::Attach(ctx, {});
      case kForgedService:
        return Decorate(ctx, As{"", true, "arena", /*forged_service=*/true});
      case kOtherService:
        return GameStateHarness::Attach(ctx, {"", "", "arena-bot"});
      case kArena:
        return GameStateHarness::Attach(ctx, {"", "", "arena"});
      case kOwnSeat:
        return GameStateHarness::Attach(ctx, {f.own_seat});
      case kOtherSeat:
        return GameStateHarness::Attach(ctx, {f.other_seat});
      case kForgedSeat:
        return GameStateHarness::Attach(ctx, {Forged(f.own_seat)});
      case kHost:
        return GameStateHarness::Attach(ctx, {"", f.host});
      case kForgedHost:
        return GameStateHarness::Attach(ctx, {"", Forged(f.host)});
      case kGameStatePrincipals:
        break;
    }
  }

  // Everything a call could have changed: the game as arena sees it (the mover's live clock
  // reading and presence aside: time passes) and the durable rows of every game.
  struct Snapshot {
    bool exists = false;
    v1::GameView view;
    std::string rows;
  };
  Snapshot Take(const GameFixture& f) {
    Snapshot s;
    s.exists = h_.Get(f.game, &s.view, {"", "", "arena"}).ok();
    if (s.exists && s.view.to_move() >= 0) {
      s.view.mutable_seats(s.view.to_move())->clear_clock_remaining_ms();
    }
    for (auto& seat : *s.view.mutable_seats()) seat.clear_present();
    pqxx::connection c(h_.db().url());
    pqxx::work w(c);
    s.rows =
        w.exec1(
             "SELECT concat_ws('/', (SELECT count(*) FROM game.games WHERE NOT deleted),"
             " (SELECT count(*) FROM game.events),"
             " (SELECT count(*) FROM game.seats WHERE credential_hash IS NOT NULL),"
             " (SELECT string_agg(game_id || status, ',' ORDER BY game_id) FROM game.games))")[0]
            .as<std::string>();
    return s;
  }
  static void ExpectSame(const Snapshot& before, const Snapshot& after, const std::string& cell) {
    EXPECT_EQ(before.exists, after.exists) << cell;
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(before.view, after.view))
        << cell << " changed the game:\n"
        << before.view.ShortDebugString() << "\n"
        << after.view.ShortDebugString();
    EXPECT_EQ(before.rows, after.rows) << cell << " changed the database";
  }

  // A two-seat chess game of guests, both joined and under way (private unless `is_public`).
  GameFixture Active(bool is_public = false) {
    auto t = h_.NewTable("chess", 2, TenMinutes(), {}, 0, {}, is_public);
    v1::GameView v;
    EXPECT_TRUE(h_.Get(t.id, &v, {"", "", "arena"}).ok());
    GameFixture f;
    f.game = t.id;
    f.host = t.host;
    f.seat = v.to_move();
    f.own_seat = t.seats[v.to_move()];
    f.other_seat = t.seats[1 - v.to_move()];
    f.action_number = v.action_number();
    f.legal = v.legal_moves(0);
    return f;
  }

  // A waiting table: seat 0 joined (its credential is the "own" one), seat 1 open.
  GameFixture Waiting() {
    v1::CreateTableRequest req = GuestTable(false);
    v1::CreateTableResponse resp;
    EXPECT_TRUE(h_.Create(req, &resp).ok());
    GameFixture f;
    f.game = resp.game_id();
    f.host = resp.host_credential();
    EXPECT_TRUE(h_.Join(f.game, 0, &f.own_seat).ok());
    f.other_seat = f.own_seat;
    f.seat = 1;
    return f;
  }

  // Made by arena: seat 0 as given, seat 1 a guest joined here; the fixture names seat 0.
  GameFixture ByArena(const v1::SeatSpec& seat0, const std::string& league = "") {
    v1::CreateTableRequest req = GuestTable(false);
    *req.mutable_seats(0) = seat0;
    req.mutable_settings()->set_league_id(league);
    req.set_fixed_leader(0);
    v1::CreateTableResponse resp;
    grpc::Status s = h_.Create(req, &resp, {"", "", "arena"});
    EXPECT_TRUE(s.ok()) << s.error_message();
    GameFixture f;
    f.game = resp.game_id();
    f.host = resp.host_credential();
    f.seat = 0;
    if (resp.seat_credentials_size() > 0) f.own_seat = resp.seat_credentials(0);
    EXPECT_TRUE(h_.Join(f.game, 1, &f.other_seat).ok());
    if (seat0.account_id().empty()) {  // under way (a seat for an account stays open)
      // The guest's join drew the leader: when the guest leads, it moves first, so that seat 0
      // is to move.
      v1::GameView v;
      EXPECT_TRUE(h_.Get(f.game, &v, {"", "", "arena"}).ok());
      if (v.to_move() == 1) {
        const std::string m = v.legal_moves(0);
        EXPECT_TRUE(
            h_.Submit(f.game, 1, GameStateHarness::KindOf(m), m, v.action_number(), {f.other_seat})
                .ok());
        EXPECT_TRUE(h_.Get(f.game, &v, {"", "", "arena"}).ok());
      }
      EXPECT_EQ(v.to_move(), 0);
      f.action_number = v.action_number();
      if (v.legal_moves_size() > 0) f.legal = v.legal_moves(0);
    }
    return f;
  }

  static v1::CreateTableRequest GuestTable(bool is_public) {
    v1::CreateTableRequest req;
    req.mutable_settings()->set_engine_game("chess");
    req.mutable_settings()->set_is_public(is_public);
    *req.mutable_settings()->mutable_clock() = TenMinutes();
    req.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
    req.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
    return req;
  }

 private:
  GameStateHarness& h_;
};

// An open watch stream of one seat holder, closed when the last copy goes.
struct OpenWatch {
  grpc::ClientContext ctx;
  std::unique_ptr<grpc::ClientReader<v1::GameEvent>> reader;
  ~OpenWatch() {
    ctx.TryCancel();
    if (reader) reader->Finish();
  }
};

TEST(PrincipalsRpcTest, EveryGameStateRpcAgainstEveryPrincipal) {
  if (engine::FindGame("chess") == nullptr) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  GameStatePrincipals p(h);
  auto& stub = h.stub();
  auto active = [&] { return p.Active(false); };
  v1::SeatSpec bot;
  bot.set_kind(v1::SEAT_KIND_BOT);
  bot.set_bot_level(1);
  v1::SeatSpec account;
  account.set_kind(v1::SEAT_KIND_HUMAN);
  account.set_account_id("u_0123456789abcdef");

  std::vector<GameStateRow> rows = {
      // Anyone may open a table of guest seats (anonymous callers under a quota, off here).
      {"CreateTable (guest seats)",
       [&] { return p.Waiting(); },
       [&](grpc::ClientContext& ctx, const GameFixture&) {
         v1::CreateTableResponse resp;
         return stub.CreateTable(&ctx, GameStatePrincipals::GuestTable(true), &resp);
       },
       {OK, UA, OK, OK, OK, OK, OK, OK, OK}},
      {"CreateTable (rated)",
       [&] { return p.Waiting(); },
       [&](grpc::ClientContext& ctx, const GameFixture&) {
         v1::CreateTableRequest req = GameStatePrincipals::GuestTable(true);
         req.mutable_settings()->set_rated(true);
         v1::CreateTableResponse resp;
         return stub.CreateTable(&ctx, req, &resp);
       },
       {UA, UA, PD, OK, UA, UA, UA, UA, UA}},
      {"CreateTable (a seat for an account)",
       [&] { return p.Waiting(); },
       [&](grpc::ClientContext& ctx, const GameFixture&) {
         v1::CreateTableRequest req = GameStatePrincipals::GuestTable(true);
         *req.mutable_seats(0) = account;
         v1::CreateTableResponse resp;
         return stub.CreateTable(&ctx, req, &resp);
       },
       {UA, UA, PD, OK, UA, UA, UA, UA, UA}},
      // Only arena joins seats (people sit down through ArenaService.JoinTable, which checks
      // blocks, invitations and guests); whatever else a caller holds is not enough.
      {"JoinTable (an open guest seat)",
       [&] { return p.Waiting(); },
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::JoinTableRequest req;
         req.set_game_id(f.game);
         req.set_seat(1);
         v1::JoinTableResponse resp;
         return stub.JoinTable(&ctx, req, &resp);
       },
       {PD, UA, PD, OK, PD, PD, PD, PD, PD}},
      {"JoinTable (a seat for an account)",
       [&] { return p.ByArena(account); },
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::JoinTableRequest req;
         req.set_game_id(f.game);
         req.set_seat(0);
         v1::JoinTableResponse resp;
         return stub.JoinTable(&ctx, req, &resp);
       },
       {PD, UA, PD, OK, PD, PD, PD, PD, PD}},
      {"SubmitAction (a guest's move)",
       active,
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::SubmitActionResponse resp;
         return stub.SubmitAction(
             &ctx, clients::SeatAction(f.game, f.seat, f.legal, f.action_number), &resp);
       },
       {UA, UA, PD, PD, OK, PD, UA, UA, UA}},
      // A bot seat has no credential: only arena acts for it ("the seat's credential" is none).
      {"SubmitAction (a bot's move)",
       [&] { return p.ByArena(bot); },
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::SubmitActionResponse resp;
         return stub.SubmitAction(
             &ctx, clients::SeatAction(f.game, f.seat, f.legal, f.action_number), &resp);
       },
       {UA, UA, PD, OK, UA, PD, UA, UA, UA}},
      {"SubmitAction (forfeit a bot's turn)",
       [&] { return p.ByArena(bot); },
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::SubmitActionRequest req;
         req.set_game_id(f.game);
         req.set_seat(f.seat);
         req.set_kind(v1::ACTION_KIND_FORFEIT_TURN);
         req.set_expected_action_number(f.action_number);
         v1::SubmitActionResponse resp;
         return stub.SubmitAction(&ctx, req, &resp);
       },
       {UA, UA, PD, OK, UA, PD, UA, PD, UA}},
      // A private game shows itself to its seats, its host and arena.
      {"GetGame (private)",
       active,
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::GetGameRequest req;
         req.set_game_id(f.game);
         v1::GameView resp;
         return stub.GetGame(&ctx, req, &resp);
       },
       {PD, UA, PD, OK, OK, OK, PD, OK, PD}},
      {"GetGame (public)",
       [&] { return p.Active(true); },
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::GetGameRequest req;
         req.set_game_id(f.game);
         v1::GameView resp;
         return stub.GetGame(&ctx, req, &resp);
       },
       {OK, UA, OK, OK, OK, OK, OK, OK, OK}},
      {"ListGames",
       active,
       [&](grpc::ClientContext& ctx, const GameFixture&) {
         v1::ListGamesResponse resp;
         return stub.ListGames(&ctx, v1::ListGamesRequest(), &resp);
       },
       {OK, UA, OK, OK, OK, OK, OK, OK, OK}},
      {"WatchGame (private)",
       active,
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::WatchGameRequest req;
         req.set_game_id(f.game);
         auto reader = stub.WatchGame(&ctx, req);
         v1::GameEvent first;
         if (reader->Read(&first)) {  // admitted: the snapshot came; hang up
           ctx.TryCancel();
           reader->Finish();
           return grpc::Status::OK;
         }
         return reader->Finish();
       },
       {PD, UA, PD, OK, OK, OK, PD, OK, PD}},
      {"GetRecord (private)",
       active,
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::GetRecordRequest req;
         req.set_game_id(f.game);
         v1::GameRecord resp;
         return stub.GetRecord(&ctx, req, &resp);
       },
       {PD, UA, PD, OK, OK, OK, PD, OK, PD}},
      // Host controls take the host credential, whoever else the caller is.
      {"UpdateSettings",
       active,
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::UpdateSettingsRequest req;
         req.set_game_id(f.game);
         // The level may change mid-game; clues are fixed when the table is made.
         req.mutable_settings()->set_level(v1::TABLE_LEVEL_ADVANCED);
         v1::GameView resp;
         return stub.UpdateSettings(&ctx, req, &resp);
       },
       {UA, UA, UA, UA, UA, UA, UA, OK, PD}},
      {"DeleteGame",
       active,
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::DeleteGameRequest req;
         req.set_game_id(f.game);
         v1::DeleteGameResponse resp;
         return stub.DeleteGame(&ctx, req, &resp);
       },
       {UA, UA, UA, UA, UA, UA, UA, OK, PD}},
      // The answer to a ping on the seat holder's own stream, by that seat only.
      {"Pong",
       [&] {
         GameFixture f = active();
         auto w = std::make_shared<OpenWatch>();
         GameStateHarness::Attach(w->ctx, {f.own_seat});
         v1::WatchGameRequest req;
         req.set_game_id(f.game);
         w->reader = stub.WatchGame(&w->ctx, req);
         v1::GameEvent e;
         while (f.ping_id == 0 && w->reader->Read(&e)) f.ping_id = e.ping_id();
         EXPECT_NE(f.ping_id, 0) << "no ping reached the seat holder's stream";
         f.keep = w;
         return f;
       },
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::PongRequest req;
         req.set_game_id(f.game);
         req.set_seat(f.seat);
         req.set_ping_id(f.ping_id);
         v1::PongResponse resp;
         return stub.Pong(&ctx, req, &resp);
       },
       {UA, UA, UA, UA, OK, PD, PD, UA, UA},
       // The ping is still there to be answered by its seat.
       [&](const GameFixture& f) {
         grpc::ClientContext ctx;
         GameStateHarness::Attach(ctx, {f.own_seat});
         v1::PongRequest req;
         req.set_game_id(f.game);
         req.set_seat(f.seat);
         req.set_ping_id(f.ping_id);
         v1::PongResponse resp;
         grpc::Status s = stub.Pong(&ctx, req, &resp);
         EXPECT_TRUE(s.ok()) << "the seat's own answer to its ping: " << s.error_message();
       }},
      // Only arena voids, and only league games.
      {"VoidGame (a league game)",
       [&] { return p.ByArena(bot, "league-principals"); },
       [&](grpc::ClientContext& ctx, const GameFixture& f) {
         v1::VoidGameRequest req;
         req.set_game_id(f.game);
         req.set_reason("principal table");
         v1::GameView resp;
         return stub.VoidGame(&ctx, req, &resp);
       },
       {UA, UA, PD, OK, UA, PD, UA, PD, UA}},
  };

  const std::vector<std::string_view> names(std::begin(kGameStateRpcs), std::end(kGameStateRpcs));
  ExpectSameRpcs(ServiceOf<v1::SubmitActionRequest>("GameStateService"), names);
  ExpectEveryRpcHasARow(rows, names);

  int cells = 0;
  for (const GameStateRow& row : rows) {
    for (int who = 0; who < kGameStatePrincipals; ++who) {
      const std::string cell = row.rpc + " as " + kGameStatePrincipalNames[who];
      GameFixture f = row.setup();
      ASSERT_FALSE(f.game.empty()) << cell << ": no fixture";
      auto before = p.Take(f);
      grpc::ClientContext ctx;
      p.Attach(ctx, static_cast<GameStatePrincipal>(who), f);
      grpc::Status s = row.call(ctx, f);
      EXPECT_EQ(s.error_code(), row.expected[who]) << cell << ": " << s.error_message();
      if (!s.ok()) {
        GameStatePrincipals::ExpectSame(before, p.Take(f), cell);
        if (row.still_intact) row.still_intact(f);
      }
      ++cells;
    }
  }
  EXPECT_EQ(cells, int(rows.size()) * kGameStatePrincipals);
  EXPECT_EQ(h.server().process().Stderr().find("event batch failed"), std::string::npos);
}

// --- Internal services: arena-bot and arena-llm-gateway -----------------------------------------

enum InternalPrincipal {
  kNoCredential,
  kWrongSecret,     // "arena" with a credential that is not its secret
  kUnknownService,  // a name no deployment has
  kAnotherService,  // arena-game-state's valid credential
  kTheCaller,       // arena
  kInternalPrincipals
};
const char* const kInternalPrincipalNames[] = {"no credential", "arena with a wrong secret",
                                               "an unknown service", "arena-game-state", "arena"};

void AttachInternal(grpc::ClientContext& ctx, InternalPrincipal p) {
  common::SetDeadline(ctx, absl::Seconds(30));
  switch (p) {
    case kNoCredential:
      break;
    case kWrongSecret:
      Decorate(ctx, As{"", true, "arena", /*forged_service=*/true});
      break;
    case kUnknownService:
      Decorate(ctx, As{"", true, "arena-mallory", /*forged_service=*/true});
      break;
    case kAnotherService:
      AttachServiceCredential(ctx, "arena-game-state");
      break;
    case kTheCaller:
      AttachServiceCredential(ctx, "arena");
      break;
    case kInternalPrincipals:
      break;
  }
}

struct InternalRow {
  std::string rpc;
  std::function<grpc::Status(grpc::ClientContext&)> call;
  Code expected[kInternalPrincipals];
};

constexpr std::string_view kBotRpcs[] = {"ChooseMove", "EvaluateMove"};
static_assert(std::size(kBotRpcs) == RpcCountOf<v1::BotService>::value,
              "a BotService RPC has no row in kBotRpcs (and the table below)");
constexpr std::string_view kGatewayRpcs[] = {"RegisterKey", "ReleaseKey", "ChooseMove",
                                             "ListModels"};
static_assert(std::size(kGatewayRpcs) == RpcCountOf<v1::ModelGatewayService>::value,
              "a ModelGatewayService RPC has no row in kGatewayRpcs (and the table below)");

std::string InitialChess() {
  auto state = engine::FindGame("chess")->NewInitialState(engine::Variant());
  return state.ok() ? (*state)->Serialize() : "";
}

// arena-bot is stateless: a refused call has nothing to change; its table asserts the codes
// and that the one caller it serves is served.
TEST(PrincipalsRpcTest, EveryBotRpcAgainstEveryPrincipal) {
  if (engine::FindGame("chess") == nullptr) GTEST_SKIP();
  ServerProcess bot(ARENA_BOT_BIN, {"--bot_workers=1"});
  ASSERT_TRUE(bot.ok());
  auto stub = v1::BotService::NewStub(bot.channel());
  const std::string position = InitialChess();
  std::vector<InternalRow> rows = {
      {"ChooseMove",
       [&](grpc::ClientContext& ctx) {
         v1::ChooseMoveRequest req;
         req.set_engine_game("chess");
         req.set_position(position);
         req.set_level(0);
         v1::ChooseMoveResponse resp;
         grpc::Status s = stub->ChooseMove(&ctx, req, &resp);
         if (s.ok()) {
           EXPECT_FALSE(resp.move().text().empty());
         }
         return s;
       },
       {UA, UA, UA, PD, OK}},
      {"EvaluateMove",
       [&](grpc::ClientContext& ctx) {
         v1::EvaluateMoveRequest req;
         req.set_engine_game("chess");
         req.set_position(position);
         req.set_move("e2e4");
         req.set_level(2);
         v1::EvaluateMoveResponse resp;
         grpc::Status s = stub->EvaluateMove(&ctx, req, &resp);
         if (s.ok()) {
           EXPECT_FALSE(resp.best_move().empty());
         }
         return s;
       },
       {UA, UA, UA, PD, OK}},
  };
  const std::vector<std::string_view> names(std::begin(kBotRpcs), std::end(kBotRpcs));
  ExpectSameRpcs(ServiceOf<v1::ChooseMoveRequest>("BotService"), names);
  ExpectEveryRpcHasARow(rows, names);
  for (const InternalRow& row : rows) {
    for (int who = 0; who < kInternalPrincipals; ++who) {
      grpc::ClientContext ctx;
      AttachInternal(ctx, static_cast<InternalPrincipal>(who));
      grpc::Status s = row.call(ctx);
      EXPECT_EQ(s.error_code(), row.expected[who])
          << row.rpc << " as " << kInternalPrincipalNames[who] << ": " << s.error_message();
    }
  }
}

constexpr char kPlatformKey[] = "plat-SECRET-principals-1";
constexpr char kGameKey[] = "game-SECRET-principals-2";

// The gateway's state is its key vault and what it asks upstream: a refused call registers
// and releases no key (the gateway logs each) and sends the mock Abacus nothing.
TEST(PrincipalsRpcTest, EveryGatewayRpcAgainstEveryPrincipal) {
  if (engine::FindGame("chess") == nullptr) GTEST_SKIP();
  const std::string dir = MakeTempDir("principals-gateway");
  const std::string keys = dir + "/keys";
  std::ofstream(keys) << kPlatformKey << ":1000000000\n" << kGameKey << ":1000000000\n";
  const std::string platform = dir + "/platform.key";
  std::ofstream(platform) << kPlatformKey << "\n";
  Subprocess mock(
      {ARENA_MOCK_ABACUS_BIN, "--port=0", "--port_file=" + dir + "/port", "--keys_file=" + keys});
  const int mock_port = WaitForPortFile(dir + "/port", absl::Seconds(60));
  ASSERT_GT(mock_port, 0) << mock.Stderr();
  ServerProcess gateway(ARENA_GATEWAY_BIN,
                        {"--abacus_base_url=http://127.0.0.1:" + std::to_string(mock_port) + "/v1",
                         "--abacus_api_key_file=" + platform});
  ASSERT_TRUE(gateway.ok());
  auto stub = v1::ModelGatewayService::NewStub(gateway.channel());

  auto registered = [&](const std::string& game) {
    grpc::ClientContext ctx;
    AttachInternal(ctx, kTheCaller);
    v1::RegisterKeyRequest req;
    req.set_game_id(game);
    req.set_seat(0);
    req.set_api_key(kGameKey);
    v1::RegisterKeyResponse resp;
    grpc::Status s = stub->RegisterKey(&ctx, req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.key_handle();
  };
  const std::string position = InitialChess();
  int game = 0;
  std::string handle;  // registered before each ReleaseKey cell
  std::vector<InternalRow> rows = {
      {"RegisterKey",
       [&](grpc::ClientContext& ctx) {
         v1::RegisterKeyRequest req;
         req.set_game_id("g-register-" + std::to_string(game++));
         req.set_seat(0);
         req.set_api_key(kGameKey);
         v1::RegisterKeyResponse resp;
         return stub->RegisterKey(&ctx, req, &resp);
       },
       {UA, UA, UA, PD, OK}},
      {"ReleaseKey",
       [&](grpc::ClientContext& ctx) {
         v1::ReleaseKeyRequest req;
         req.set_key_handle(handle);
         req.set_game_id("g-release");
         v1::ReleaseKeyResponse resp;
         return stub->ReleaseKey(&ctx, req, &resp);
       },
       {UA, UA, UA, PD, OK}},
      {"ChooseMove",
       [&](grpc::ClientContext& ctx) {
         v1::ModelTurnRequest req;
         req.set_game_id("g-turn");
         req.set_seat(0);
         req.set_engine_game("chess");
         req.set_position(position);
         req.set_owed("move");
         req.set_show_legal_moves(true);
         req.set_model_id("mock-competent");
         req.set_cost_cap_microcredits(1'000'000);
         v1::ModelTurnResponse resp;
         grpc::Status s = stub->ChooseMove(&ctx, req, &resp);
         if (s.ok()) {
           EXPECT_TRUE(resp.ok()) << resp.failure();
         }
         return s;
       },
       {UA, UA, UA, PD, OK}},
      {"ListModels",
       [&](grpc::ClientContext& ctx) {
         v1::ListModelsResponse resp;
         grpc::Status s = stub->ListModels(&ctx, v1::ListModelsRequest(), &resp);
         if (s.ok()) {
           EXPECT_GT(resp.models_size(), 0);
         }
         return s;
       },
       {UA, UA, UA, PD, OK}},
  };
  const std::vector<std::string_view> names(std::begin(kGatewayRpcs), std::end(kGatewayRpcs));
  ExpectSameRpcs(ServiceOf<v1::RegisterKeyRequest>("ModelGatewayService"), names);
  ExpectEveryRpcHasARow(rows, names);

  auto counts = [&] {
    const std::string log = gateway.process().Stderr();
    return std::vector<int>{CountLogLines(log, {{"msg", "key registered"}}),
                            CountLogLines(log, {{"msg", "key released"}}),
                            CountLogLines(mock.Stderr(), {{"msg", "request"}})};
  };
  for (const InternalRow& row : rows) {
    for (int who = 0; who < kInternalPrincipals; ++who) {
      const std::string cell = row.rpc + " as " + kInternalPrincipalNames[who];
      if (row.rpc == "ReleaseKey") handle = registered("g-release");
      const std::vector<int> before = counts();
      grpc::ClientContext ctx;
      AttachInternal(ctx, static_cast<InternalPrincipal>(who));
      grpc::Status s = row.call(ctx);
      EXPECT_EQ(s.error_code(), row.expected[who]) << cell << ": " << s.error_message();
      if (s.ok()) continue;
      EXPECT_EQ(counts(), before) << cell << " registered, released or asked upstream";
      if (row.rpc == "ReleaseKey") {  // the handle is still held: arena's release finds it
        grpc::ClientContext ctx2;
        AttachInternal(ctx2, kTheCaller);
        v1::ReleaseKeyRequest req;
        req.set_key_handle(handle);
        req.set_game_id("g-release");
        v1::ReleaseKeyResponse resp;
        EXPECT_TRUE(stub->ReleaseKey(&ctx2, req, &resp).ok()) << cell;
      }
    }
  }
}

}  // namespace
}  // namespace arena::testing
