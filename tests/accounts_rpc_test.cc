// The real `arena` binary over gRPC: sign-up and sign-in, tokens, guests, admin operations
// with their audit trail, refusals, holds over the service-only RPCs, arenactl's player and
// admin commands, and one table that calls every ArenaService RPC as every principal.
#include <fstream>
#include <functional>
#include <set>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "tests/support/arena_client.h"
#include "tests/support/rpc_count.h"
#include "tests/support/server_process.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace arena::testing {
namespace {

using ::testing::HasSubstr;
using Stub = v1::ArenaService::Stub;
using Code = grpc::StatusCode;

class ArenaRpcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.ok());
    server_ = std::make_unique<ServerProcess>(ARENA_ARENA_BIN, ArenaFlags(db_.url()));
    ASSERT_TRUE(server_->ok());
    stub_ = v1::ArenaService::NewStub(server_->channel());
    admin_ = SignIn(kAdminName, kAdminPassword);
    ASSERT_FALSE(admin_.token.empty());
  }

  v1::SessionToken SignUp(const std::string& name, const std::string& password = "password-1") {
    v1::SignUpRequest req;
    req.set_name(name);
    req.set_password(password);
    v1::SessionToken t;
    grpc::Status s = CallAs(*stub_, &Stub::SignUp, As{}, req, &t);
    EXPECT_TRUE(s.ok()) << name << ": " << s.error_message();
    return t;
  }

  As SignIn(const std::string& name, const std::string& password) {
    v1::SignInRequest req;
    req.set_name(name);
    req.set_password(password);
    v1::SessionToken t;
    grpc::Status s = CallAs(*stub_, &Stub::SignIn, As{}, req, &t);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return As{t.token()};
  }

  As Guest() {
    v1::GuestTokenRequest req;
    req.set_display_name("visitor");
    v1::SessionToken t;
    EXPECT_TRUE(CallAs(*stub_, &Stub::GuestToken, As{}, req, &t).ok());
    EXPECT_EQ(t.role(), "guest");
    return As{t.token()};
  }

  void Grant(const std::string& account, int64_t micro) {
    v1::AdminGrantRequest req;
    req.set_account_id(account);
    req.set_amount_microcredits(micro);
    req.set_reason("test funds");
    v1::TransferResponse r;
    grpc::Status s = CallAs(*stub_, &Stub::AdminGrant, admin_, req, &r);
    ASSERT_TRUE(s.ok()) << s.error_message();
  }

  v1::Balance BalanceOf(const As& as, const std::string& account = "") {
    v1::BalanceRequest req;
    req.set_account_id(account);
    v1::Balance b;
    grpc::Status s = CallAs(*stub_, &Stub::GetBalance, as, req, &b);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return b;
  }

  TestDatabase db_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<Stub> stub_;
  As admin_;
};

TEST_F(ArenaRpcTest, SignUpSignInAndTokens) {
  v1::SessionToken alice = SignUp("alice");
  EXPECT_EQ(alice.role(), "player");
  EXPECT_FALSE(alice.token().empty());

  v1::SignUpRequest dup;
  dup.set_name("alice");
  dup.set_password("another-password");
  v1::SessionToken t;
  EXPECT_EQ(CallAs(*stub_, &Stub::SignUp, As{}, dup, &t).error_code(), Code::ALREADY_EXISTS);
  dup.set_name("Bad Name!");
  EXPECT_EQ(CallAs(*stub_, &Stub::SignUp, As{}, dup, &t).error_code(), Code::INVALID_ARGUMENT);
  dup.set_name("bob");
  dup.set_password("short");
  EXPECT_EQ(CallAs(*stub_, &Stub::SignUp, As{}, dup, &t).error_code(), Code::INVALID_ARGUMENT);

  v1::SignInRequest wrong;
  wrong.set_name("alice");
  wrong.set_password("not-the-password");
  EXPECT_EQ(CallAs(*stub_, &Stub::SignIn, As{}, wrong, &t).error_code(), Code::UNAUTHENTICATED);
  wrong.set_name("nobody");
  EXPECT_EQ(CallAs(*stub_, &Stub::SignIn, As{}, wrong, &t).error_code(), Code::UNAUTHENTICATED);

  As session = SignIn("alice", "password-1");
  v1::WhoAmIResponse me;
  ASSERT_TRUE(CallAs(*stub_, &Stub::WhoAmI, session, v1::WhoAmIRequest(), &me).ok());
  EXPECT_EQ(me.name(), "alice");
  EXPECT_EQ(me.account_id(), alice.account_id());

  // An API token works until it is revoked; another player cannot revoke it.
  v1::CreateTokenRequest create;
  create.set_label("bot");
  v1::SessionToken api;
  ASSERT_TRUE(CallAs(*stub_, &Stub::CreateToken, session, create, &api).ok());
  ASSERT_TRUE(CallAs(*stub_, &Stub::WhoAmI, As{api.token()}, v1::WhoAmIRequest(), &me).ok());
  v1::SessionToken bob = SignUp("bob");
  v1::RevokeTokenRequest revoke;
  revoke.set_token_id(api.token_id());
  v1::RevokeTokenResponse rr;
  EXPECT_EQ(CallAs(*stub_, &Stub::RevokeToken, As{bob.token()}, revoke, &rr).error_code(),
            Code::NOT_FOUND);
  ASSERT_TRUE(CallAs(*stub_, &Stub::RevokeToken, session, revoke, &rr).ok());
  EXPECT_EQ(CallAs(*stub_, &Stub::WhoAmI, As{api.token()}, v1::WhoAmIRequest(), &me).error_code(),
            Code::UNAUTHENTICATED);
  EXPECT_EQ(
      CallAs(*stub_, &Stub::WhoAmI, As{"arena_forged"}, v1::WhoAmIRequest(), &me).error_code(),
      Code::UNAUTHENTICATED);

  // Only keyed hashes are stored: neither the token nor the password appears in the database.
  pqxx::connection c(db_.url());
  pqxx::work w(c);
  EXPECT_EQ(w.exec_params1("SELECT count(*) FROM arena.tokens WHERE encode(token_hash, 'hex') "
                           "LIKE '%' || $1 || '%' OR token_id = $2",
                           api.token().substr(6, 16), api.token())[0]
                .as<int>(),
            0);
  auto hash =
      w.exec1("SELECT password_hash FROM arena.accounts WHERE name = 'alice'")[0].as<std::string>();
  EXPECT_THAT(hash, HasSubstr("$argon2id$"));
  EXPECT_EQ(hash.find("password-1"), std::string::npos);
}

TEST_F(ArenaRpcTest, GuestsPlayWithoutCreditsAndBlocksStopInvitations) {
  As guest = Guest();
  v1::WhoAmIResponse me;
  ASSERT_TRUE(CallAs(*stub_, &Stub::WhoAmI, guest, v1::WhoAmIRequest(), &me).ok());
  EXPECT_EQ(me.role(), "guest");
  v1::DonateRequest donate;
  donate.set_amount_microcredits(1);
  v1::TransferResponse tr;
  EXPECT_EQ(CallAs(*stub_, &Stub::Donate, guest, donate, &tr).error_code(),
            Code::PERMISSION_DENIED);

  As alice{SignUp("alice").token()};
  As bob{SignUp("bob").token()};
  v1::InviteRequest invite;
  invite.set_name("alice");
  invite.set_note("a game?");
  v1::InviteResponse ir;
  ASSERT_TRUE(CallAs(*stub_, &Stub::Invite, bob, invite, &ir).ok());
  v1::ListInvitationsResponse list;
  ASSERT_TRUE(
      CallAs(*stub_, &Stub::ListInvitations, alice, v1::ListInvitationsRequest(), &list).ok());
  ASSERT_EQ(list.invitations_size(), 1);
  EXPECT_EQ(list.invitations(0).from_name(), "bob");

  v1::BlockRequest block;
  block.set_name("bob");
  v1::BlockResponse br;
  ASSERT_TRUE(CallAs(*stub_, &Stub::Block, alice, block, &br).ok());
  EXPECT_EQ(CallAs(*stub_, &Stub::Invite, bob, invite, &ir).error_code(), Code::PERMISSION_DENIED);
  list.Clear();
  ASSERT_TRUE(
      CallAs(*stub_, &Stub::ListInvitations, alice, v1::ListInvitationsRequest(), &list).ok());
  EXPECT_EQ(list.invitations_size(), 0);
  invite.set_name("nobody");
  EXPECT_EQ(CallAs(*stub_, &Stub::Invite, bob, invite, &ir).error_code(), Code::NOT_FOUND);
}

TEST_F(ArenaRpcTest, BotLevelsAreThoseOfTheGamesSeatCount) {
  // Three seats have the levels 1..4 and two seats 1..8 (bots/core/levels.h). This arena runs
  // without game-state, so a request that passes every check ends at the missing service.
  As guest = Guest();
  auto table = [&](int seats, int level) {
    v1::ArenaCreateTableRequest req;
    req.mutable_settings()->set_engine_game("chestonia-chess");
    (*req.mutable_settings()->mutable_variant()->mutable_options())["players"] =
        std::to_string(seats);
    for (int i = 0; i < seats; ++i) {
      v1::ArenaSeat* seat = req.add_seats();
      seat->mutable_spec()->set_kind(v1::SEAT_KIND_BOT);
      seat->mutable_spec()->set_bot_level(i == 0 ? level : 1);
    }
    v1::ArenaCreateTableResponse resp;
    return CallAs(*stub_, &Stub::CreateTable, guest, req, &resp);
  };
  const grpc::Status too_high = table(3, 5);
  EXPECT_EQ(too_high.error_code(), Code::INVALID_ARGUMENT);
  EXPECT_NE(too_high.error_message().find("1..4"), std::string::npos) << too_high.error_message();
  EXPECT_EQ(table(2, 9).error_code(), Code::INVALID_ARGUMENT);
  for (const auto& [seats, level] : {std::pair{3, 4}, std::pair{2, 8}}) {
    const grpc::Status passed = table(seats, level);
    EXPECT_NE(passed.error_code(), Code::INVALID_ARGUMENT)
        << seats << " seats, level " << level << ": " << passed.error_message();
    EXPECT_NE(passed.error_code(), Code::OK);  // no game-state to make the table
  }
}

TEST_F(ArenaRpcTest, AdminOperationsAreAuditedAndEnforced) {
  v1::SessionToken alice = SignUp("alice");
  As as_alice{alice.token()};
  SignUp("bob");
  Grant("alice", 5'000'000);
  EXPECT_EQ(BalanceOf(as_alice).available_microcredits(), 5'000'000);

  // Donation, replay, conflicting body.
  v1::DonateRequest donate;
  donate.set_amount_microcredits(1'000'000);
  donate.set_idempotency_key("d-1");
  v1::TransferResponse first, again;
  ASSERT_TRUE(CallAs(*stub_, &Stub::Donate, as_alice, donate, &first).ok());
  ASSERT_TRUE(CallAs(*stub_, &Stub::Donate, as_alice, donate, &again).ok());
  EXPECT_TRUE(again.replayed());
  EXPECT_EQ(again.transfer_id(), first.transfer_id());
  donate.set_amount_microcredits(2'000'000);
  EXPECT_EQ(CallAs(*stub_, &Stub::Donate, as_alice, donate, &again).error_code(),
            Code::ALREADY_EXISTS);
  EXPECT_EQ(BalanceOf(as_alice).available_microcredits(), 4'000'000);
  EXPECT_EQ(BalanceOf(admin_, "system:pool").posted_microcredits(), 1'000'000);

  // Insufficient funds.
  v1::SendCreditsRequest send;
  send.set_to_name("bob");
  send.set_amount_microcredits(4'000'001);
  EXPECT_EQ(CallAs(*stub_, &Stub::SendCredits, as_alice, send, &again).error_code(),
            Code::FAILED_PRECONDITION);

  // Freeze: no spending; unfreeze: spending again.
  v1::AdminFreezeRequest freeze;
  freeze.set_account_id("alice");
  freeze.set_freeze(true);
  freeze.set_reason("chargeback");
  v1::AdminFreezeResponse fr;
  ASSERT_TRUE(CallAs(*stub_, &Stub::AdminFreeze, admin_, freeze, &fr).ok());
  EXPECT_TRUE(BalanceOf(as_alice).frozen());
  send.set_amount_microcredits(1);
  EXPECT_EQ(CallAs(*stub_, &Stub::SendCredits, as_alice, send, &again).error_code(),
            Code::FAILED_PRECONDITION);
  freeze.set_reason("");
  EXPECT_EQ(CallAs(*stub_, &Stub::AdminFreeze, admin_, freeze, &fr).error_code(),
            Code::INVALID_ARGUMENT);
  freeze.set_freeze(false);
  freeze.set_reason("resolved");
  ASSERT_TRUE(CallAs(*stub_, &Stub::AdminFreeze, admin_, freeze, &fr).ok());
  ASSERT_TRUE(CallAs(*stub_, &Stub::SendCredits, as_alice, send, &again).ok());

  // Adjust down (more than she has is refused), allowance.
  v1::AdminAdjustRequest adjust;
  adjust.set_account_id(alice.account_id());
  adjust.set_delta_microcredits(-500'000);
  adjust.set_reason("correction");
  ASSERT_TRUE(CallAs(*stub_, &Stub::AdminAdjust, admin_, adjust, &again).ok());
  EXPECT_EQ(BalanceOf(as_alice).available_microcredits(), 3'499'999);
  adjust.set_delta_microcredits(-100'000'000);
  EXPECT_EQ(CallAs(*stub_, &Stub::AdminAdjust, admin_, adjust, &again).error_code(),
            Code::FAILED_PRECONDITION);
  v1::SetAllowanceRequest allowance;
  allowance.set_account_id("alice");
  allowance.set_daily_microcredits(250'000);
  allowance.set_reason("trusted player");
  v1::SetAllowanceResponse ar;
  ASSERT_TRUE(CallAs(*stub_, &Stub::AdminSetAllowance, admin_, allowance, &ar).ok());
  EXPECT_EQ(BalanceOf(as_alice).daily_allowance_microcredits(), 250'000);

  // History of another account: admin yes, alice no.
  v1::HistoryRequest hreq;
  hreq.set_account_id("bob");
  v1::HistoryResponse history;
  EXPECT_EQ(CallAs(*stub_, &Stub::GetHistory, as_alice, hreq, &history).error_code(),
            Code::PERMISSION_DENIED);
  ASSERT_TRUE(CallAs(*stub_, &Stub::GetHistory, admin_, hreq, &history).ok());
  ASSERT_EQ(history.entries_size(), 1);
  EXPECT_EQ(history.entries(0).kind(), "gift");

  // The audit log: who, what, why, newest first.
  v1::AuditRequest areq;
  areq.set_account_id("alice");
  v1::AuditResponse audit;
  ASSERT_TRUE(CallAs(*stub_, &Stub::AdminAudit, admin_, areq, &audit).ok());
  std::vector<std::string> actions;
  for (const auto& r : audit.records()) {
    actions.push_back(r.action());
    EXPECT_FALSE(r.actor().empty());
    EXPECT_FALSE(r.reason().empty());
    EXPECT_GT(r.at().seconds(), 0);
  }
  EXPECT_EQ(actions,
            (std::vector<std::string>{"allowance", "adjust", "unfreeze", "freeze", "grant"}));
  EXPECT_EQ(audit.records(3).reason(), "chargeback");
}

TEST_F(ArenaRpcTest, HoldsThroughTheServiceOnlyRpcsAndExpiry) {
  v1::SessionToken alice = SignUp("alice");
  As as_alice{alice.token()};
  Grant("alice", 1'000);
  As service{"", true};

  v1::ReserveHoldRequest reserve;
  reserve.set_account_id(alice.account_id());
  reserve.set_amount_microcredits(600);
  reserve.set_timeout_ms(60'000);
  reserve.set_idempotency_key("h-1");
  v1::HoldResponse hold;
  ASSERT_TRUE(CallAs(*stub_, &Stub::ReserveHold, service, reserve, &hold).ok());
  EXPECT_EQ(BalanceOf(as_alice).held_microcredits(), 600);
  reserve.set_amount_microcredits(401);
  reserve.set_idempotency_key("h-2");
  EXPECT_EQ(CallAs(*stub_, &Stub::ReserveHold, service, reserve, &hold).error_code(),
            Code::FAILED_PRECONDITION);

  v1::PostHoldRequest post;
  post.set_hold_id(hold.hold_id());
  post.set_amount_microcredits(250);
  post.set_idempotency_key("p-1");
  v1::TransferResponse posted;
  ASSERT_TRUE(CallAs(*stub_, &Stub::PostHold, service, post, &posted).ok());
  EXPECT_EQ(BalanceOf(as_alice).available_microcredits(), 750);
  EXPECT_EQ(BalanceOf(admin_, "system:model_spend").posted_microcredits(), 250);

  // A short hold expires: the sweeper releases it and it cannot be posted.
  reserve.set_amount_microcredits(700);
  reserve.set_timeout_ms(300);
  reserve.set_idempotency_key("h-3");
  ASSERT_TRUE(CallAs(*stub_, &Stub::ReserveHold, service, reserve, &hold).ok());
  EXPECT_EQ(BalanceOf(as_alice).available_microcredits(), 50);
  std::this_thread::sleep_for(std::chrono::milliseconds(900));
  {
    pqxx::connection c(db_.url());
    pqxx::work w(c);
    EXPECT_EQ(w.exec_params1("SELECT state FROM arena.holds WHERE hold_id = $1", hold.hold_id())[0]
                  .as<std::string>(),
              "expired");
  }
  post.set_hold_id(hold.hold_id());
  post.set_idempotency_key("p-2");
  EXPECT_EQ(CallAs(*stub_, &Stub::PostHold, service, post, &posted).error_code(),
            Code::FAILED_PRECONDITION);
  EXPECT_EQ(BalanceOf(as_alice).available_microcredits(), 750);

  // Pool holds need an allowance.
  v1::DonateRequest donate;
  donate.set_amount_microcredits(500);
  v1::TransferResponse tr;
  ASSERT_TRUE(CallAs(*stub_, &Stub::Donate, as_alice, donate, &tr).ok());
  v1::ReserveHoldRequest pool;
  pool.set_account_id("alice");
  pool.set_from_pool(true);
  pool.set_amount_microcredits(100);
  EXPECT_EQ(CallAs(*stub_, &Stub::ReserveHold, service, pool, &hold).error_code(),
            Code::RESOURCE_EXHAUSTED);
  v1::SetAllowanceRequest allowance;
  allowance.set_account_id("alice");
  allowance.set_daily_microcredits(150);
  allowance.set_reason("test");
  v1::SetAllowanceResponse ar;
  ASSERT_TRUE(CallAs(*stub_, &Stub::AdminSetAllowance, admin_, allowance, &ar).ok());
  ASSERT_TRUE(CallAs(*stub_, &Stub::ReserveHold, service, pool, &hold).ok());
  EXPECT_EQ(CallAs(*stub_, &Stub::ReserveHold, service, pool, &hold).error_code(),
            Code::RESOURCE_EXHAUSTED);
  v1::VoidHoldRequest void_req;
  void_req.set_hold_id(hold.hold_id());
  v1::VoidHoldResponse vr;
  ASSERT_TRUE(CallAs(*stub_, &Stub::VoidHold, service, void_req, &vr).ok());
  ASSERT_TRUE(CallAs(*stub_, &Stub::ReserveHold, service, pool, &hold).ok());
  EXPECT_EQ(BalanceOf(as_alice).allowance_used_today_microcredits(), 100);
}

// --- Every RPC, every principal ------------------------------------------------------------

enum Principal {
  kAnonymous,
  kForged,
  kGuest,
  kPlayer,
  kOther,
  kAdmin,
  kService,
  kWrongService,
  kAnotherService,
  kPrincipals
};
const char* const kPrincipalNames[] = {"anonymous",
                                       "forged-token",
                                       "guest",
                                       "player",
                                       "other-player",
                                       "admin",
                                       "arena-service",
                                       "forged-service-credential",
                                       "another-service (arena-bot)"};

struct Door {
  std::string rpc;
  // Calls the RPC as `as`; requests are about the player ("alice") where they name someone.
  std::function<grpc::Status(const As& as)> call;
  Code expected[kPrincipals];
};

// Every RPC of ArenaService, in the proto's order. The count is checked at compile time, so a new
// RPC breaks this test's build until it has a name here and a row below; the names are checked
// against the descriptor, and the rows against the names, at run time.
constexpr const char* kArenaRpcs[] = {"SignUp",
                                      "SignIn",
                                      "GuestToken",
                                      "CreateToken",
                                      "RevokeToken",
                                      "Block",
                                      "GetBalance",
                                      "GetHistory",
                                      "Donate",
                                      "AdminGrant",
                                      "AdminAdjust",
                                      "AdminFreeze",
                                      "AdminSetAllowance",
                                      "AdminAudit",
                                      "SendCredits",
                                      "Invite",
                                      "ListInvitations",
                                      "WhoAmI",
                                      "ReserveHold",
                                      "PostHold",
                                      "VoidHold",
                                      "CreateTable",
                                      "GetTable",
                                      "SupplyKey",
                                      "GetClue",
                                      "JoinTable",
                                      "AnswerInvitation",
                                      "GetAccountRecord",
                                      "CreateLeague",
                                      "StartLeague",
                                      "PauseLeague",
                                      "ResumeLeague",
                                      "CancelLeague",
                                      "ListLeagues",
                                      "GetStandings",
                                      "GetLeaderboard",
                                      "ListMatches",
                                      "ExportGame",
                                      "GetModelStats",
                                      "ListModels",
                                      "AdminPutCity",
                                      "ListCities",
                                      "JoinRankedQueue",
                                      "LeaveRankedQueue",
                                      "GetRankedStatus",
                                      "ListRankedGames",
                                      "AdminListFairPlayFlags",
                                      "AdminReviewFairPlayFlag"};
static_assert(std::size(kArenaRpcs) == RpcCountOf<v1::ArenaService>::value,
              "an ArenaService RPC has no name in kArenaRpcs (and so no row in the table)");

TEST_F(ArenaRpcTest, EveryRpcAgainstEveryPrincipal) {
  v1::SessionToken alice = SignUp("alice");
  v1::SessionToken bob = SignUp("bob");
  SignUp("carol");
  SignUp("dave");  // invited: carol is blocked by then, and a block refuses invitations both ways
  As principals[kPrincipals] = {As{},
                                As{"arena_0123456789abcdef"},
                                Guest(),
                                As{alice.token()},
                                As{bob.token()},
                                admin_,
                                As{"", true},
                                As{"", true, "arena", /*forged_service=*/true},
                                As{"", true, "arena-bot"}};
  v1::WhoAmIResponse admin_me;
  ASSERT_TRUE(CallAs(*stub_, &Stub::WhoAmI, admin_, v1::WhoAmIRequest(), &admin_me).ok());
  Grant("alice", 1'000'000);
  Grant("bob", 1'000'000);
  Grant(admin_me.account_id(), 1'000'000);
  Stub& stub = *stub_;
  int counter = 0;
  auto fresh_hold = [&]() {
    v1::ReserveHoldRequest r;
    r.set_account_id(alice.account_id());
    r.set_amount_microcredits(1);
    v1::HoldResponse h;
    EXPECT_TRUE(CallAs(stub, &Stub::ReserveHold, As{"", true}, r, &h).ok());
    return h.hold_id();
  };
  auto fresh_token_id = [&]() {
    v1::CreateTokenRequest r;
    v1::SessionToken t;
    EXPECT_TRUE(CallAs(stub, &Stub::CreateToken, As{alice.token()}, r, &t).ok());
    return t.token_id();
  };

  const Code OK = Code::OK, UA = Code::UNAUTHENTICATED, PD = Code::PERMISSION_DENIED,
             NF = Code::NOT_FOUND, IA = Code::INVALID_ARGUMENT;
  // Columns: anonymous, forged, guest, player, other player, admin, arena service, a forged
  // service credential, another service's (arena-bot) credential. A bare service credential
  // carries no user, so user RPCs treat it as anonymous.
  std::vector<Door> doors = {
      {"SignUp",
       [&](const As& as) {
         v1::SignUpRequest r;
         r.set_name("user" + std::to_string(counter++));
         r.set_password("password-1");
         v1::SessionToken t;
         return CallAs(stub, &Stub::SignUp, as, r, &t);
       },
       {OK, OK, OK, OK, OK, OK, OK, OK, OK}},
      {"SignIn",
       [&](const As& as) {
         v1::SignInRequest r;
         r.set_name("alice");
         r.set_password("password-1");
         v1::SessionToken t;
         return CallAs(stub, &Stub::SignIn, as, r, &t);
       },
       {OK, OK, OK, OK, OK, OK, OK, OK, OK}},
      {"GuestToken",
       [&](const As& as) {
         v1::SessionToken t;
         return CallAs(stub, &Stub::GuestToken, as, v1::GuestTokenRequest(), &t);
       },
       {OK, OK, OK, OK, OK, OK, OK, OK, OK}},
      {"CreateToken",
       [&](const As& as) {
         v1::SessionToken t;
         return CallAs(stub, &Stub::CreateToken, as, v1::CreateTokenRequest(), &t);
       },
       {UA, UA, PD, OK, OK, OK, UA, UA, UA}},
      {"RevokeToken (the player's)",
       [&](const As& as) {
         v1::RevokeTokenRequest r;
         r.set_token_id(fresh_token_id());
         v1::RevokeTokenResponse resp;
         return CallAs(stub, &Stub::RevokeToken, as, r, &resp);
       },
       {UA, UA, NF, OK, NF, NF, UA, UA, UA}},
      {"Block",
       [&](const As& as) {
         v1::BlockRequest r;
         r.set_name("carol");
         v1::BlockResponse resp;
         return CallAs(stub, &Stub::Block, as, r, &resp);
       },
       {UA, UA, PD, OK, OK, OK, UA, UA, UA}},
      {"Invite",
       [&](const As& as) {
         v1::InviteRequest r;
         r.set_name("dave");
         v1::InviteResponse resp;
         return CallAs(stub, &Stub::Invite, as, r, &resp);
       },
       {UA, UA, PD, OK, OK, OK, UA, UA, UA}},
      {"ListInvitations",
       [&](const As& as) {
         v1::ListInvitationsResponse resp;
         return CallAs(stub, &Stub::ListInvitations, as, v1::ListInvitationsRequest(), &resp);
       },
       {UA, UA, PD, OK, OK, OK, UA, UA, UA}},
      {"WhoAmI",
       [&](const As& as) {
         v1::WhoAmIResponse resp;
         return CallAs(stub, &Stub::WhoAmI, as, v1::WhoAmIRequest(), &resp);
       },
       {UA, UA, OK, OK, OK, OK, UA, UA, UA}},
      {"GetBalance (the player's)",
       [&](const As& as) {
         v1::BalanceRequest r;
         r.set_account_id(alice.account_id());
         v1::Balance resp;
         return CallAs(stub, &Stub::GetBalance, as, r, &resp);
       },
       {UA, UA, PD, OK, PD, OK, UA, UA, UA}},
      {"GetBalance (system pool)",
       [&](const As& as) {
         v1::BalanceRequest r;
         r.set_account_id("system:pool");
         v1::Balance resp;
         return CallAs(stub, &Stub::GetBalance, as, r, &resp);
       },
       {UA, UA, PD, PD, PD, OK, UA, UA, UA}},
      {"GetHistory (the player's)",
       [&](const As& as) {
         v1::HistoryRequest r;
         r.set_account_id("alice");
         v1::HistoryResponse resp;
         return CallAs(stub, &Stub::GetHistory, as, r, &resp);
       },
       {UA, UA, PD, OK, PD, OK, UA, UA, UA}},
      {"Donate",
       [&](const As& as) {
         v1::DonateRequest r;
         r.set_amount_microcredits(1);
         v1::TransferResponse resp;
         return CallAs(stub, &Stub::Donate, as, r, &resp);
       },
       {UA, UA, PD, OK, OK, OK, UA, UA, UA}},
      {"SendCredits",
       [&](const As& as) {
         v1::SendCreditsRequest r;
         r.set_to_name("carol");
         r.set_amount_microcredits(1);
         v1::TransferResponse resp;
         return CallAs(stub, &Stub::SendCredits, as, r, &resp);
       },
       {UA, UA, PD, OK, OK, OK, UA, UA, UA}},
      {"AdminGrant",
       [&](const As& as) {
         v1::AdminGrantRequest r;
         r.set_account_id("alice");
         r.set_amount_microcredits(1);
         r.set_reason("matrix");
         v1::TransferResponse resp;
         return CallAs(stub, &Stub::AdminGrant, as, r, &resp);
       },
       {UA, UA, PD, PD, PD, OK, UA, UA, UA}},
      {"AdminAdjust",
       [&](const As& as) {
         v1::AdminAdjustRequest r;
         r.set_account_id("alice");
         r.set_delta_microcredits(1);
         r.set_reason("matrix");
         v1::TransferResponse resp;
         return CallAs(stub, &Stub::AdminAdjust, as, r, &resp);
       },
       {UA, UA, PD, PD, PD, OK, UA, UA, UA}},
      {"AdminFreeze",
       [&](const As& as) {
         v1::AdminFreezeRequest r;
         r.set_account_id("carol");
         r.set_freeze(false);
         r.set_reason("matrix");
         v1::AdminFreezeResponse resp;
         return CallAs(stub, &Stub::AdminFreeze, as, r, &resp);
       },
       {UA, UA, PD, PD, PD, OK, UA, UA, UA}},
      {"AdminSetAllowance",
       [&](const As& as) {
         v1::SetAllowanceRequest r;
         r.set_account_id("alice");
         r.set_daily_microcredits(10);
         r.set_reason("matrix");
         v1::SetAllowanceResponse resp;
         return CallAs(stub, &Stub::AdminSetAllowance, as, r, &resp);
       },
       {UA, UA, PD, PD, PD, OK, UA, UA, UA}},
      {"AdminAudit",
       [&](const As& as) {
         v1::AuditResponse resp;
         return CallAs(stub, &Stub::AdminAudit, as, v1::AuditRequest(), &resp);
       },
       {UA, UA, PD, PD, PD, OK, UA, UA, UA}},
      {"ReserveHold",
       [&](const As& as) {
         v1::ReserveHoldRequest r;
         r.set_account_id(alice.account_id());
         r.set_amount_microcredits(1);
         v1::HoldResponse resp;
         return CallAs(stub, &Stub::ReserveHold, as, r, &resp);
       },
       {UA, UA, PD, PD, PD, PD, OK, UA, PD}},
      {"PostHold",
       [&](const As& as) {
         v1::PostHoldRequest r;
         r.set_hold_id(fresh_hold());
         r.set_amount_microcredits(1);
         v1::TransferResponse resp;
         return CallAs(stub, &Stub::PostHold, as, r, &resp);
       },
       {UA, UA, PD, PD, PD, PD, OK, UA, PD}},
      {"VoidHold",
       [&](const As& as) {
         v1::VoidHoldRequest r;
         r.set_hold_id(fresh_hold());
         v1::VoidHoldResponse resp;
         return CallAs(stub, &Stub::VoidHold, as, r, &resp);
       },
       {UA, UA, PD, PD, PD, PD, OK, UA, PD}},
      // Tables, leagues and history with empty requests: who is refused before the request is
      // even read (this server runs without the other services; their end-to-end behaviour
      // is in league_e2e_test).
      {"CreateTable",
       [&](const As& as) {
         v1::ArenaCreateTableResponse resp;
         return CallAs(stub, &Stub::CreateTable, as, v1::ArenaCreateTableRequest(), &resp);
       },
       {UA, UA, IA, IA, IA, IA, UA, UA, UA}},
      {"GetTable",
       [&](const As& as) {
         v1::ArenaTable resp;
         return CallAs(stub, &Stub::GetTable, as, v1::TableRef(), &resp);
       },
       {IA, IA, IA, IA, IA, IA, IA, IA, IA}},
      {"SupplyKey",
       [&](const As& as) {
         v1::SupplyKeyResponse resp;
         return CallAs(stub, &Stub::SupplyKey, as, v1::SupplyKeyRequest(), &resp);
       },
       {UA, UA, PD, IA, IA, IA, UA, UA, UA}},
      {"GetClue",
       [&](const As& as) {
         v1::ClueResponse resp;
         return CallAs(stub, &Stub::GetClue, as, v1::ClueRequest(), &resp);
       },
       {IA, IA, IA, IA, IA, IA, IA, IA, IA}},
      // People at tables: a guest or an account takes a seat (no game named: IA once the
      // caller is known); only the invitee answers an invitation (none numbered 0: NF); a
      // record is anyone's signed in (their own here).
      {"JoinTable",
       [&](const As& as) {
         v1::ArenaJoinTableResponse resp;
         return CallAs(stub, &Stub::JoinTable, as, v1::ArenaJoinTableRequest(), &resp);
       },
       {UA, UA, IA, IA, IA, IA, UA, UA, UA}},
      {"AnswerInvitation",
       [&](const As& as) {
         v1::AnswerInvitationResponse resp;
         return CallAs(stub, &Stub::AnswerInvitation, as, v1::AnswerInvitationRequest(), &resp);
       },
       {UA, UA, PD, NF, NF, NF, UA, UA, UA}},
      {"GetAccountRecord",
       [&](const As& as) {
         v1::AccountRecord resp;
         return CallAs(stub, &Stub::GetAccountRecord, as, v1::AccountRecordRequest(), &resp);
       },
       {UA, UA, OK, OK, OK, OK, UA, UA, UA}},
      {"CreateLeague",
       [&](const As& as) {
         v1::League resp;
         return CallAs(stub, &Stub::CreateLeague, as, v1::CreateLeagueRequest(), &resp);
       },
       {UA, UA, PD, IA, IA, IA, UA, UA, UA}},
      {"StartLeague",
       [&](const As& as) {
         v1::League resp;
         return CallAs(stub, &Stub::StartLeague, as, v1::LeagueRef(), &resp);
       },
       {UA, UA, PD, IA, IA, IA, UA, UA, UA}},
      {"PauseLeague",
       [&](const As& as) {
         v1::League resp;
         return CallAs(stub, &Stub::PauseLeague, as, v1::LeagueRef(), &resp);
       },
       {UA, UA, PD, IA, IA, IA, UA, UA, UA}},
      {"ResumeLeague",
       [&](const As& as) {
         v1::League resp;
         return CallAs(stub, &Stub::ResumeLeague, as, v1::LeagueRef(), &resp);
       },
       {UA, UA, PD, IA, IA, IA, UA, UA, UA}},
      {"CancelLeague",
       [&](const As& as) {
         v1::League resp;
         return CallAs(stub, &Stub::CancelLeague, as, v1::LeagueRef(), &resp);
       },
       {UA, UA, PD, IA, IA, IA, UA, UA, UA}},
      {"ListLeagues",
       [&](const As& as) {
         v1::ListLeaguesResponse resp;
         return CallAs(stub, &Stub::ListLeagues, as, v1::ListLeaguesRequest(), &resp);
       },
       {OK, OK, OK, OK, OK, OK, OK, OK, OK}},
      {"GetStandings",
       [&](const As& as) {
         v1::StandingsResponse resp;
         return CallAs(stub, &Stub::GetStandings, as, v1::LeagueRef(), &resp);
       },
       {IA, IA, IA, IA, IA, IA, IA, IA, IA}},
      {"GetLeaderboard",
       [&](const As& as) {
         v1::LeaderboardResponse resp;
         return CallAs(stub, &Stub::GetLeaderboard, as, v1::LeaderboardRequest(), &resp);
       },
       {IA, IA, IA, IA, IA, IA, IA, IA, IA}},
      {"ListMatches",
       [&](const As& as) {
         v1::ListMatchesResponse resp;
         return CallAs(stub, &Stub::ListMatches, as, v1::ListMatchesRequest(), &resp);
       },
       {OK, OK, OK, OK, OK, OK, OK, OK, OK}},
      {"ExportGame",
       [&](const As& as) {
         v1::ExportGameResponse resp;
         return CallAs(stub, &Stub::ExportGame, as, v1::ExportGameRequest(), &resp);
       },
       {IA, IA, IA, IA, IA, IA, IA, IA, IA}},
      {"GetModelStats",
       [&](const As& as) {
         v1::ModelStatsResponse resp;
         return CallAs(stub, &Stub::GetModelStats, as, v1::ModelStatsRequest(), &resp);
       },
       {OK, OK, OK, OK, OK, OK, OK, OK, OK}},
      // Anyone may list the models; this arena runs without the gateway, so none can be had.
      {"ListModels",
       [&](const As& as) {
         v1::ArenaListModelsResponse resp;
         return CallAs(stub, &Stub::ListModels, as, v1::ArenaListModelsRequest(), &resp);
       },
       {Code::UNAVAILABLE, Code::UNAVAILABLE, Code::UNAVAILABLE, Code::UNAVAILABLE,
        Code::UNAVAILABLE, Code::UNAVAILABLE, Code::UNAVAILABLE, Code::UNAVAILABLE,
        Code::UNAVAILABLE}},
      // Ranked chess: cities are the admins'; queueing is for members (guests hold no credits).
      {"AdminPutCity",
       [&](const As& as) {
         v1::AdminPutCityRequest r;
         r.mutable_city()->set_city_id("tallinn");
         r.mutable_city()->set_name("Tallinn");
         r.mutable_city()->set_stake_microcredits(1000);
         r.mutable_city()->set_fee_bps(500);
         r.mutable_city()->set_active(true);
         r.set_reason("principal table");
         v1::City resp;
         return CallAs(stub, &Stub::AdminPutCity, as, r, &resp);
       },
       {UA, UA, PD, PD, PD, OK, UA, UA, UA}},
      {"ListCities",
       [&](const As& as) {
         v1::ListCitiesResponse resp;
         return CallAs(stub, &Stub::ListCities, as, v1::ListCitiesRequest(), &resp);
       },
       {OK, OK, OK, OK, OK, OK, OK, OK, OK}},
      {"JoinRankedQueue bullet",
       [&](const As& as) {
         v1::JoinRankedQueueRequest r;
         r.set_city_id("tallinn");
         r.set_time_control("1+0");
         v1::RankedStatus resp;
         return CallAs(stub, &Stub::JoinRankedQueue, as, r, &resp);
       },
       {UA, UA, PD, IA, IA, IA, UA, UA, UA}},
      {"LeaveRankedQueue",
       [&](const As& as) {
         v1::RankedStatus resp;
         return CallAs(stub, &Stub::LeaveRankedQueue, as, v1::LeaveRankedQueueRequest(), &resp);
       },
       {UA, UA, PD, OK, OK, OK, UA, UA, UA}},
      {"GetRankedStatus",
       [&](const As& as) {
         v1::RankedStatus resp;
         return CallAs(stub, &Stub::GetRankedStatus, as, v1::RankedStatusRequest(), &resp);
       },
       {UA, UA, PD, OK, OK, OK, UA, UA, UA}},
      {"ListRankedGames",
       [&](const As& as) {
         v1::RankedGamesResponse resp;
         return CallAs(stub, &Stub::ListRankedGames, as, v1::RankedGamesRequest(), &resp);
       },
       {UA, UA, PD, OK, OK, OK, UA, UA, UA}},
      {"AdminListFairPlayFlags",
       [&](const As& as) {
         v1::ListFairPlayFlagsResponse resp;
         return CallAs(stub, &Stub::AdminListFairPlayFlags, as, v1::ListFairPlayFlagsRequest(),
                       &resp);
       },
       {UA, UA, PD, PD, PD, OK, UA, UA, UA}},
      // No report has that id: an admin is told so, everyone else is refused first.
      {"AdminReviewFairPlayFlag",
       [&](const As& as) {
         v1::ReviewFairPlayFlagRequest r;
         r.set_report_id(987654);
         r.set_decision("dismiss");
         r.set_reason("principal table");
         v1::FairPlayFlag resp;
         return CallAs(stub, &Stub::AdminReviewFairPlayFlag, as, r, &resp);
       },
       {UA, UA, PD, PD, PD, NF, UA, UA, UA}},
  };

  // The names are the service's (a rename fails here), and each has a row.
  const auto* service = v1::SignUpRequest::descriptor()->file()->FindServiceByName("ArenaService");
  ASSERT_NE(service, nullptr);
  ASSERT_EQ(service->method_count(), static_cast<int>(std::size(kArenaRpcs)));
  for (int i = 0; i < service->method_count(); ++i) {
    EXPECT_EQ(service->method(i)->name(), kArenaRpcs[i]);
  }
  std::set<std::string> covered;
  for (const Door& d : doors) covered.insert(d.rpc.substr(0, d.rpc.find(' ')));
  for (const char* rpc : kArenaRpcs) {
    EXPECT_TRUE(covered.count(rpc)) << rpc << " has no row in the principal table";
  }

  for (const Door& d : doors) {
    for (int p = 0; p < kPrincipals; ++p) {
      grpc::Status s = d.call(principals[p]);
      EXPECT_EQ(s.error_code(), d.expected[p])
          << d.rpc << " as " << kPrincipalNames[p] << ": " << s.error_message();
    }
  }
}

// --- arenactl ------------------------------------------------------------------------------

std::string RunCtl(const std::vector<std::string>& args, int expect_code,
                   const std::string& stdin_text = "") {
  std::vector<std::string> argv = {ARENACTL_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  Subprocess p(argv);
  auto code = p.Wait(absl::Seconds(60));
  EXPECT_TRUE(code.has_value());
  EXPECT_EQ(code.value_or(-1), expect_code) << args[0] << ":\n" << p.Stderr();
  return p.Stderr();
}

TEST_F(ArenaRpcTest, ArenactlPlayerAndAdminCommands) {
  std::string dir = MakeTempDir("arenactl");
  std::string pw = dir + "/pw";
  std::ofstream(pw) << "dana-password\n";
  std::ofstream(dir + "/adminpw") << kAdminPassword << "\n";
  std::string addr = "--arena_addr=" + server_->address();
  std::string dana_tok = "--token_file=" + dir + "/dana.token";
  std::string admin_tok = "--token_file=" + dir + "/admin.token";

  EXPECT_THAT(RunCtl({"signup", "dana", addr, "--password_file=" + pw, dana_tok}, 0),
              HasSubstr("token stored in"));
  RunCtl({"signin", kAdminName, addr, "--password_file=" + dir + "/adminpw", admin_tok}, 0);
  EXPECT_THAT(RunCtl({"grant", "dana", "12.5", addr, admin_tok}, 2), HasSubstr("--reason"));
  RunCtl({"grant", "dana", "12.5", addr, admin_tok, "--reason=welcome"}, 0);
  RunCtl({"grant", "dana", "1", addr, dana_tok, "--reason=greedy"}, 1);
  std::string balance = RunCtl({"balance", addr, dana_tok}, 0);
  EXPECT_THAT(balance, HasSubstr("AVAILABLE"));
  EXPECT_THAT(balance, HasSubstr("12.500000"));
  RunCtl({"donate", "2.25", addr, dana_tok}, 0);
  EXPECT_THAT(RunCtl({"balance", addr, dana_tok}, 0), HasSubstr("10.250000"));
  std::string history = RunCtl({"history", addr, dana_tok}, 0);
  EXPECT_THAT(history, HasSubstr("donation"));
  EXPECT_THAT(history, HasSubstr("grant"));
  EXPECT_THAT(RunCtl({"donate", "100", addr, dana_tok}, 1), HasSubstr("FAILED_PRECONDITION"));
  RunCtl({"freeze", "dana", addr, admin_tok, "--reason=fraud check"}, 0);
  EXPECT_THAT(RunCtl({"donate", "1", addr, dana_tok}, 1), HasSubstr("frozen"));
  RunCtl({"unfreeze", "dana", addr, admin_tok, "--reason=cleared"}, 0);
  // A negative amount follows "--" so it is not read as a flag.
  RunCtl({"adjust", addr, admin_tok, "--reason=fee correction", "--", "dana", "-0.25"}, 0);
  RunCtl({"allowance", "dana", "5", addr, admin_tok, "--reason=regular"}, 0);
  EXPECT_THAT(RunCtl({"balance", "dana", addr, admin_tok}, 0), HasSubstr("10.000000"));
  std::string audit = RunCtl({"audit", "dana", addr, admin_tok}, 0);
  for (const char* s : {"grant", "freeze", "unfreeze", "adjust", "allowance", "fraud check"}) {
    EXPECT_THAT(audit, HasSubstr(s));
  }
  // Issue 20: names and credits, never account ids or micro-credits.
  EXPECT_THAT(audit, HasSubstr("amount=12.500000 credits"));
  EXPECT_THAT(audit, HasSubstr("daily=5.000000 credits"));
  EXPECT_THAT(audit, HasSubstr(kAdminName));
  EXPECT_THAT(audit, ::testing::Not(HasSubstr("u_")));
  EXPECT_THAT(audit, ::testing::Not(HasSubstr("12500000")));
  EXPECT_THAT(RunCtl({"audit", addr, dana_tok}, 1), HasSubstr("PERMISSION_DENIED"));
  EXPECT_THAT(RunCtl({"balance", addr}, 1), HasSubstr("UNAUTHENTICATED"));
  RunCtl({"nonsense", addr}, 2);
}

}  // namespace
}  // namespace arena::testing
