// Test support for the `arena` server's accounts and ledger RPCs: start it with a bootstrap
// admin, call it as a given principal.
#pragma once

#include <fstream>
#include <memory>
#include <string>

#include "arena/v1/arena.grpc.pb.h"
#include "common/grpc_util.h"
#include "gtest/gtest.h"
#include "tests/support/server_process.h"
#include "tests/support/subprocess.h"

namespace arena::testing {

inline constexpr char kAdminName[] = "root";
inline constexpr char kAdminPassword[] = "root-password-123";

// The flags that start `arena` with a bootstrap admin and cheap test hashing.
inline std::vector<std::string> ArenaFlags(const std::string& db_url) {
  static const std::string* password_file = [] {
    auto* path = new std::string(MakeTempDir("arena-admin") + "/password");
    std::ofstream(*path) << kAdminPassword << "\n";
    return path;
  }();
  return {"--database_url=" + db_url, "--bootstrap_admin=" + std::string(kAdminName),
          "--admin_password_file=" + *password_file, "--password_cost=minimum",
          "--hold_sweep_ms=100", "--log_level=warning",
          // No Stockfish behind every settled ranked game unless a test asks (a later
          // --fair_play_depth wins).
          "--fair_play_depth=0",
          // Every test client is one loopback address: quotas off (security_test has them on).
          "--signup_burst=1000000", "--guest_burst=1000000", "--signin_burst=1000000",
          "--failed_signin_burst=1000000", "--table_burst=1000000", "--clue_burst=1000000"};
}

// Who a call is made as.
struct As {
  std::string token;                   // bearer token; empty = none
  bool service = false;                // attach a service credential
  std::string service_name = "arena";  // whose
  bool forged_service = false;         // the name with a credential that is not its secret
};

inline void Decorate(grpc::ClientContext& ctx, const As& as) {
  common::SetDeadline(ctx, absl::Seconds(20));
  if (!as.token.empty()) ctx.AddMetadata("authorization", "Bearer " + as.token);
  if (as.service && as.forged_service) {
    ctx.AddMetadata("x-arena-service", as.service_name);
    ctx.AddMetadata("x-arena-credential", std::string(64, '0'));
  } else if (as.service) {
    AttachServiceCredential(ctx, as.service_name);
  }
}

// Calls `method` on `stub` as `as`; returns the status.
template <typename Method, typename Req, typename Resp>
grpc::Status CallAs(v1::ArenaService::Stub& stub, Method method, const As& as, const Req& req,
                    Resp* resp) {
  grpc::ClientContext ctx;
  Decorate(ctx, as);
  return (stub.*method)(&ctx, req, resp);
}

// Signs up a person named `name` with the password "<name>-password-1"; their session token
// (empty, and a test failure, when sign-up is refused).
inline v1::SessionToken SignUpPerson(v1::ArenaService::Stub& stub, const std::string& name) {
  v1::SignUpRequest r;
  r.set_name(name);
  r.set_password(name + "-password-1");
  v1::SessionToken t;
  grpc::Status s = CallAs(stub, &v1::ArenaService::Stub::SignUp, As{}, r, &t);
  EXPECT_TRUE(s.ok()) << name << ": " << s.error_message();
  return t;
}

// The bootstrap admin's session token (ArenaFlags makes the admin); "" and a test failure when
// sign-in is refused.
inline std::string AdminToken(v1::ArenaService::Stub& stub) {
  v1::SignInRequest in;
  in.set_name(kAdminName);
  in.set_password(kAdminPassword);
  v1::SessionToken t;
  grpc::Status s = CallAs(stub, &v1::ArenaService::Stub::SignIn, As{}, in, &t);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return t.token();
}

// Grants the admin 200 credits, donates half of them to the pool model seats draw on, and
// gives the admin a daily allowance large enough for a test's league.
inline void FundPool(v1::ArenaService::Stub& stub, const std::string& admin,
                     const std::string& reason) {
  using Stub = v1::ArenaService::Stub;
  v1::WhoAmIResponse me;
  ASSERT_TRUE(CallAs(stub, &Stub::WhoAmI, As{admin}, v1::WhoAmIRequest(), &me).ok());
  v1::AdminGrantRequest grant;
  grant.set_account_id(me.account_id());
  grant.set_amount_microcredits(200'000'000);
  grant.set_reason(reason);
  v1::TransferResponse tr;
  ASSERT_TRUE(CallAs(stub, &Stub::AdminGrant, As{admin}, grant, &tr).ok());
  v1::DonateRequest donate;
  donate.set_amount_microcredits(100'000'000);
  ASSERT_TRUE(CallAs(stub, &Stub::Donate, As{admin}, donate, &tr).ok());
  v1::SetAllowanceRequest allowance;
  allowance.set_account_id(me.account_id());
  allowance.set_daily_microcredits(100'000'000);
  allowance.set_reason(reason);
  v1::SetAllowanceResponse ar;
  ASSERT_TRUE(CallAs(stub, &Stub::AdminSetAllowance, As{admin}, allowance, &ar).ok());
}

// The end-to-end tests' league table: two-seat Chestonia chess with darts, 8 s a move, capped
// at 24 moves so a game of bots and mock models ends in seconds.
inline v1::TableSettings TwoPlayerDarts() {
  v1::TableSettings s;
  s.set_engine_game("chestonia-chess");
  (*s.mutable_variant()->mutable_options())["players"] = "2";
  (*s.mutable_variant()->mutable_options())["darts"] = "on";
  s.mutable_clock()->set_per_move_ms(8000);
  s.set_move_cap(24);
  s.set_level(v1::TABLE_LEVEL_BEGINNER);
  return s;
}

// League entries: a bot at a level, a model paid from donated credits.
inline v1::LeagueParticipant LeagueBot(int level) {
  v1::LeagueParticipant p;
  p.mutable_spec()->set_kind(v1::SEAT_KIND_BOT);
  p.mutable_spec()->set_bot_level(level);
  return p;
}
inline v1::LeagueParticipant LeagueModel(const std::string& id) {
  v1::LeagueParticipant p;
  p.mutable_spec()->set_kind(v1::SEAT_KIND_MODEL);
  p.mutable_spec()->set_model_id(id);
  p.mutable_spec()->set_funding(v1::FUNDING_DONATED_CREDITS);
  return p;
}

}  // namespace arena::testing
