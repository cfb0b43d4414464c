// End to end (issue 26, fair play): a staked ranked game played by two people on every real
// server, checked against Debian's Stockfish once it is settled, and an admin's review of the
// flag with the refund and the block it asks for.
//
// The check's verdict on so short a game says nothing (its rule is fair_play_test's work), so
// once both reports are stored the winner's is marked as flagged in the database, as the check
// marks an engine-like one; everything after that goes through arena's RPCs: who may list and
// review flags, a refund the account cannot cover (refused, nothing changed, the flag still
// open), then the refund, the freeze and the decision, each in the ledger and the audit log.
#include <grpcpp/grpcpp.h>

#include <fstream>
#include <iterator>
#include <string>

#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "pqxx/pqxx"
#include "tests/support/deployment.h"

namespace arena::testing {
namespace {

using Stub = v1::ArenaService::Stub;
using GsStub = v1::GameStateService::Stub;
using ::testing::HasSubstr;

constexpr int64_t kStake = 2'000'000;  // 2 credits, 5% fee
constexpr int64_t kGrant = 10'000'000;

int64_t Available(Stub& stub, const std::string& token) {
  v1::Balance b;
  EXPECT_TRUE(CallAs(stub, &Stub::GetBalance, As{token}, v1::BalanceRequest(), &b).ok());
  return b.available_microcredits();
}

class FairPlayE2eTest : public ::testing::Test {
 protected:
  FairPlayE2eTest()
      : d_({"--ranked_tick_ms=200", "--fair_play_depth=6", "--fair_play_book_plies=0",
            "--fair_play_min_moves=1"}) {}

  void SetUp() override {
    ASSERT_TRUE(d_.ok()) << d_.AllLogs();
    arena_ = d_.Arena();
    gs_ = d_.GameState();
    admin_ = AdminToken(*arena_);
    v1::AdminPutCityRequest city;
    city.mutable_city()->set_city_id("tallinn");
    city.mutable_city()->set_name("Tallinn");
    city.mutable_city()->set_stake_microcredits(kStake);
    city.mutable_city()->set_fee_bps(500);
    city.mutable_city()->set_active(true);
    city.set_reason("fair-play e2e");
    v1::City made;
    ASSERT_TRUE(CallAs(*arena_, &Stub::AdminPutCity, As{admin_}, city, &made).ok());
  }

  void Grant(const std::string& account) {
    v1::AdminGrantRequest g;
    g.set_account_id(account);
    g.set_amount_microcredits(kGrant);
    g.set_reason("fair-play e2e");
    v1::TransferResponse tr;
    ASSERT_TRUE(CallAs(*arena_, &Stub::AdminGrant, As{admin_}, g, &tr).ok());
  }

  // Waits until `token`'s ranked status is `playing`.
  v1::RankedStatus WaitPlaying(const std::string& token) {
    v1::RankedStatus st;
    for (absl::Time end = absl::Now() + absl::Seconds(60); absl::Now() < end;) {
      EXPECT_TRUE(
          CallAs(*arena_, &Stub::GetRankedStatus, As{token}, v1::RankedStatusRequest(), &st).ok());
      if (st.state() == "playing") return st;
      absl::SleepFor(absl::Milliseconds(100));
    }
    ADD_FAILURE() << "never paired: " << st.ShortDebugString();
    return st;
  }

  // Plays `uci` as `seat` once it is that seat's turn; false when the game stopped first.
  bool Move(const std::string& game, int seat, const std::string& uci, const std::string& cred) {
    for (absl::Time end = absl::Now() + absl::Seconds(30); absl::Now() < end;) {
      v1::GameView v;
      grpc::ClientContext vctx;
      common::SetDeadline(vctx, absl::Seconds(10));
      v1::GetGameRequest g;
      g.set_game_id(game);
      if (!gs_->GetGame(&vctx, g, &v).ok()) return false;
      if (v.status() != v1::GAME_STATUS_ACTIVE && v.status() != v1::GAME_STATUS_WAITING) {
        return false;
      }
      if (v.status() == v1::GAME_STATUS_ACTIVE && v.to_move() == seat) {
        grpc::ClientContext ctx;
        common::SetDeadline(ctx, absl::Seconds(10));
        ctx.AddMetadata("x-arena-seat-credential", cred);
        v1::SubmitActionRequest r;
        r.set_game_id(game);
        r.set_seat(seat);
        r.set_kind(v1::ACTION_KIND_MOVE);
        r.mutable_move()->set_text(uci);
        r.set_expected_action_number(v.action_number());
        v1::SubmitActionResponse resp;
        return gs_->SubmitAction(&ctx, r, &resp).ok();
      }
      absl::SleepFor(absl::Milliseconds(50));
    }
    return false;
  }

  // Runs arenactl against this deployment as `token`; its exit code, with stdout in *out.
  int Ctl(std::vector<std::string> args, const std::string& token, std::string* out) {
    const std::string path = MakeTempDir("fair-play-ctl") + "/out";
    std::string command = std::string(ARENACTL_BIN);
    args.push_back("--arena_addr=" + d_.Address("arena"));
    args.push_back("--token=" + token);
    for (const std::string& a : args) command += " '" + a + "'";
    Subprocess p({"/bin/sh", "-c", command + " > " + path}, {});
    auto code = p.Wait(absl::Seconds(60));
    std::ifstream in(path);
    *out = std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()) +
           p.Stderr();
    return code.value_or(-1);
  }

  Deployment d_;
  std::unique_ptr<Stub> arena_;
  std::unique_ptr<GsStub> gs_;
  std::string admin_;
};

TEST_F(FairPlayE2eTest, SettledGamesAreCheckedAndAFlagIsReviewedWithRefundAndBlock) {
  v1::SessionToken ann = SignUpPerson(*arena_, "ann");
  v1::SessionToken ben = SignUpPerson(*arena_, "ben");
  Grant(ann.account_id());
  Grant(ben.account_id());
  // The fool's mate: black wins in two moves. Under a loaded machine the game may still miss
  // the 20 s first-move window and be aborted (nothing moves then); the pair queues again.
  pqxx::connection conn(d_.db().url());
  std::string game, state;
  v1::RankedStatus st_ann, st_ben;
  for (int attempt = 0; attempt < 6 && state != "finished/done"; ++attempt) {
    for (const auto* t : {&ann, &ben}) {
      v1::JoinRankedQueueRequest join;
      join.set_city_id("tallinn");
      join.set_time_control("5+0");
      v1::RankedStatus st;
      ASSERT_TRUE(CallAs(*arena_, &Stub::JoinRankedQueue, As{t->token()}, join, &st).ok());
    }
    st_ann = WaitPlaying(ann.token());
    st_ben = WaitPlaying(ben.token());
    ASSERT_EQ(st_ann.game_id(), st_ben.game_id());
    game = st_ann.game_id();
    std::string cred[2];
    for (const auto& [token, st] :
         {std::pair{ann.token(), st_ann}, std::pair{ben.token(), st_ben}}) {
      v1::ArenaJoinTableRequest sit;
      sit.set_game_id(game);
      sit.set_seat(st.seat());
      v1::ArenaJoinTableResponse seated;
      ASSERT_TRUE(CallAs(*arena_, &Stub::JoinTable, As{token}, sit, &seated).ok());
      cred[st.seat()] = seated.seat_credential();
    }
    // SAN for the mate: the check reads every recorded move as UCI.
    (void)(Move(game, 0, "f2f3", cred[0]) && Move(game, 1, "e7e5", cred[1]) &&
           Move(game, 0, "g2g4", cred[0]) && Move(game, 1, "Qh4#", cred[1]));
    // Settled, then checked: both reports, from the recorded moves, and the pairing marked
    // done; or aborted, and then nothing to check.
    for (absl::Time end = absl::Now() + absl::Seconds(90); absl::Now() < end;) {
      pqxx::work txn(conn);
      state = txn.exec_params1(
                     "SELECT state || '/' || fair_play FROM arena.ranked_pairings "
                     "WHERE game_id = $1",
                     game)[0]
                  .as<std::string>();
      if (state == "finished/done" || state.rfind("aborted/", 0) == 0) break;
      absl::SleepFor(absl::Milliseconds(200));
    }
    if (state != "finished/done")
      std::printf("attempt %d ended %s; again\n", attempt, state.c_str());
  }
  ASSERT_EQ(state, "finished/done") << d_.AllLogs();
  const std::string black = st_ann.seat() == 1 ? ann.account_id() : ben.account_id();
  const std::string black_token = st_ann.seat() == 1 ? ann.token() : ben.token();
  const std::string white_token = st_ann.seat() == 0 ? ann.token() : ben.token();
  {
    pqxx::work txn(conn);
    pqxx::result reports = txn.exec_params(
        "SELECT account_id, color, moves_analysed, evidence_json FROM arena.fair_play_reports "
        "WHERE game_id = $1 ORDER BY color DESC",
        game);
    ASSERT_EQ(reports.size(), 2u);
    for (const pqxx::row& r : reports) {
      EXPECT_FALSE(nlohmann::json::parse(r[3].as<std::string>()).empty());
    }
    // No book plies: white's two moves are analysed; of black's, the mate is played where a
    // mate in one stood, a decided position the check leaves out.
    EXPECT_EQ(reports[0][2].as<int>(), 2);
    EXPECT_EQ(reports[1][2].as<int>(), 1);
    EXPECT_EQ(reports[1][0].as<std::string>(), black);  // 'black' sorts before 'white'
    EXPECT_THAT(reports[1][3].as<std::string>(), HasSubstr("d8h4"));
    // As the check marks an engine-like player: the winner's report enters the review queue.
    txn.exec_params(
        "UPDATE arena.fair_play_reports SET flagged = true, review_state = 'open' "
        "WHERE game_id = $1 AND account_id = $2",
        game, black);
    txn.commit();
  }

  // Only admins see and decide flags.
  v1::ListFairPlayFlagsResponse flags;
  EXPECT_EQ(CallAs(*arena_, &Stub::AdminListFairPlayFlags, As{white_token},
                   v1::ListFairPlayFlagsRequest(), &flags)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(CallAs(*arena_, &Stub::AdminListFairPlayFlags, As{admin_},
                     v1::ListFairPlayFlagsRequest(), &flags)
                  .ok());
  ASSERT_EQ(flags.flags_size(), 1);
  const v1::FairPlayFlag flag = flags.flags(0);
  EXPECT_EQ(flag.account_id(), black);
  EXPECT_EQ(flag.colour(), "black");
  EXPECT_EQ(flag.game_id(), game);
  EXPECT_EQ(flag.review_state(), "open");
  EXPECT_EQ(flag.stake_microcredits(), kStake);
  EXPECT_EQ(flag.opponent_loss_microcredits(), kStake) << "white lost the whole stake";
  EXPECT_FALSE(flag.account_frozen());

  const int64_t white_before = Available(*arena_, white_token);
  const int64_t black_before = Available(*arena_, black_token);
  EXPECT_EQ(black_before, kGrant - kStake + (2 * kStake - 2 * kStake * 500 / 10000));
  EXPECT_EQ(white_before, kGrant - kStake);

  v1::ReviewFairPlayFlagRequest review;
  review.set_report_id(flag.report_id());
  review.set_decision("action");
  review.set_refund_opponent(true);
  review.set_block(true);
  v1::FairPlayFlag reviewed;
  // No reason: refused before anything moves.
  EXPECT_EQ(
      CallAs(*arena_, &Stub::AdminReviewFairPlayFlag, As{admin_}, review, &reviewed).error_code(),
      grpc::StatusCode::INVALID_ARGUMENT);
  review.set_reason("engine moves throughout");
  EXPECT_EQ(CallAs(*arena_, &Stub::AdminReviewFairPlayFlag, As{white_token}, review, &reviewed)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED);

  // The account no longer holds what it won: the refund cannot be taken, and nothing changes.
  v1::WhoAmIResponse admin_me;
  ASSERT_TRUE(CallAs(*arena_, &Stub::WhoAmI, As{admin_}, v1::WhoAmIRequest(), &admin_me).ok());
  v1::AdminAdjustRequest spend;
  spend.set_account_id(black);
  spend.set_delta_microcredits(-(black_before - kStake / 2));
  spend.set_reason("fair-play e2e: the winnings are gone");
  spend.set_idempotency_key("fair-play-e2e-spend");
  v1::TransferResponse sent;
  grpc::Status spent = CallAs(*arena_, &Stub::AdminAdjust, As{admin_}, spend, &sent);
  ASSERT_TRUE(spent.ok()) << spent.error_message();
  grpc::Status short_of =
      CallAs(*arena_, &Stub::AdminReviewFairPlayFlag, As{admin_}, review, &reviewed);
  EXPECT_EQ(short_of.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(short_of.error_message(), HasSubstr("flag stays open"));
  EXPECT_EQ(Available(*arena_, white_token), white_before);
  ASSERT_TRUE(CallAs(*arena_, &Stub::AdminListFairPlayFlags, As{admin_},
                     v1::ListFairPlayFlagsRequest(), &flags)
                  .ok());
  ASSERT_EQ(flags.flags_size(), 1);
  EXPECT_FALSE(flags.flags(0).account_frozen()) << "a refused review blocks nobody";

  // Given the credits back, the review goes through: refund, freeze, decision.
  Grant(black);
  ASSERT_TRUE(CallAs(*arena_, &Stub::AdminReviewFairPlayFlag, As{admin_}, review, &reviewed).ok());
  EXPECT_EQ(reviewed.review_state(), "actioned");
  EXPECT_EQ(reviewed.review_reason(), "engine moves throughout");
  EXPECT_EQ(reviewed.reviewed_by(), admin_me.account_id());
  EXPECT_TRUE(reviewed.account_frozen());
  EXPECT_EQ(Available(*arena_, white_token), white_before + kStake);
  EXPECT_EQ(Available(*arena_, black_token), kGrant + kStake / 2 - kStake);

  // Once: a second decision is refused and moves nothing.
  EXPECT_EQ(
      CallAs(*arena_, &Stub::AdminReviewFairPlayFlag, As{admin_}, review, &reviewed).error_code(),
      grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Available(*arena_, white_token), white_before + kStake);
  ASSERT_TRUE(CallAs(*arena_, &Stub::AdminListFairPlayFlags, As{admin_},
                     v1::ListFairPlayFlagsRequest(), &flags)
                  .ok());
  EXPECT_EQ(flags.flags_size(), 0) << "the open queue is empty";
  v1::ListFairPlayFlagsRequest actioned;
  actioned.set_state("actioned");
  ASSERT_TRUE(CallAs(*arena_, &Stub::AdminListFairPlayFlags, As{admin_}, actioned, &flags).ok());
  EXPECT_EQ(flags.flags_size(), 1);
  actioned.set_state("none");
  EXPECT_EQ(
      CallAs(*arena_, &Stub::AdminListFairPlayFlags, As{admin_}, actioned, &flags).error_code(),
      grpc::StatusCode::INVALID_ARGUMENT);

  // The victim sees the refund in their history; the blocked account cannot stake again.
  v1::HistoryResponse history;
  ASSERT_TRUE(
      CallAs(*arena_, &Stub::GetHistory, As{white_token}, v1::HistoryRequest(), &history).ok());
  bool refunded = false;
  for (const auto& e : history.entries()) {
    if (e.kind() == "fair_play_refund") {
      refunded = true;
      EXPECT_EQ(e.amount_microcredits(), kStake);
    }
  }
  EXPECT_TRUE(refunded);
  v1::JoinRankedQueueRequest again;
  again.set_city_id("tallinn");
  again.set_time_control("5+0");
  v1::RankedStatus st;
  grpc::Status frozen = CallAs(*arena_, &Stub::JoinRankedQueue, As{black_token}, again, &st);
  EXPECT_EQ(frozen.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(frozen.error_message(), HasSubstr("frozen"));

  // The same from the terminal: the admin's flag list, the victim's history and queue line.
  std::string out;
  EXPECT_EQ(Ctl({"flags", "--state=actioned"}, admin_, &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("actioned (frozen)"));
  EXPECT_THAT(out, HasSubstr(game));
  EXPECT_EQ(Ctl({"ranked", "history"}, white_token, &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("loss, checkmate"));
  EXPECT_THAT(out, HasSubstr("5+0"));
  EXPECT_EQ(Ctl({"ranked", "queue", "tallinn", "5+0", "--no_wait"}, white_token, &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("searching… tallinn 5+0"));
  EXPECT_THAT(out, HasSubstr("widened to ±100"));
  EXPECT_EQ(Ctl({"ranked", "leave"}, white_token, &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("left the queue"));
  EXPECT_EQ(Ctl({"review-flag", std::to_string(flag.report_id()), "dismiss", "--reason=again"},
                admin_, &out),
            1)
      << out;
  EXPECT_THAT(out, HasSubstr("FAILED_PRECONDITION"));

  // Audited: the refund, the freeze and the decision, each by the admin.
  pqxx::work txn(conn);
  pqxx::result audit = txn.exec_params(
      "SELECT action FROM arena.audit_log WHERE target_id = $1 AND actor_id = $2 "
      "ORDER BY audit_id",
      black, admin_me.account_id());
  std::vector<std::string> actions;
  for (const pqxx::row& r : audit) actions.push_back(r[0].as<std::string>());
  EXPECT_THAT(actions, ::testing::IsSupersetOf({"fair_play_refund", "freeze", "fair_play_action"}));
}

}  // namespace
}  // namespace arena::testing
