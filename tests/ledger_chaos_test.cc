// The ledger under fire: 32 clients run randomised transfers, donations, holds, posts and
// voids against the real `arena` server over gRPC while the server is killed (SIGKILL) and
// restarted midway. Clients retry with the same idempotency key until they get a definite
// answer, exactly as a careful client would. Afterwards the books must balance exactly,
// every acknowledged operation must be in the database once, no user balance may be
// negative, and every hold past its expiry must be released.
//
// The same code runs twice: 32 x 150 operations under `integration` (ASan CI) and
// 32 x 3125 = 100,000 under `slow` (LEDGER_CHAOS_OPS_PER_CLIENT).
#include <signal.h>

#include <atomic>
#include <mutex>
#include <random>
#include <thread>

#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "tests/support/arena_client.h"
#include "tests/support/server_process.h"
#include "tests/support/test_database.h"

#ifndef LEDGER_CHAOS_OPS_PER_CLIENT
#define LEDGER_CHAOS_OPS_PER_CLIENT 150
#endif

namespace arena::testing {
namespace {

using Stub = v1::ArenaService::Stub;
using Code = grpc::StatusCode;

constexpr int kClients = 32;
constexpr int kUsers = 16;
constexpr int kOpsPerClient = LEDGER_CHAOS_OPS_PER_CLIENT;
constexpr int64_t kStartingCredits = 2'000'000;

// The server's current address; replaced when it is restarted.
class Target {
 public:
  void Set(std::shared_ptr<grpc::Channel> channel) {
    std::lock_guard<std::mutex> lock(mu_);
    channel_ = std::move(channel);
  }
  std::unique_ptr<Stub> NewStub() {
    std::lock_guard<std::mutex> lock(mu_);
    return v1::ArenaService::NewStub(channel_);
  }

 private:
  std::mutex mu_;
  std::shared_ptr<grpc::Channel> channel_;
};

bool Retryable(const grpc::Status& s) {
  switch (s.error_code()) {
    case Code::UNAVAILABLE:
    case Code::DEADLINE_EXCEEDED:
    case Code::UNKNOWN:
    case Code::CANCELLED:
    case Code::INTERNAL:
    case Code::ABORTED:
      return true;
    case Code::RESOURCE_EXHAUSTED:
      return s.error_message().find("busy") != std::string::npos;
    default:
      return false;
  }
}

struct AckedTransfer {
  int64_t transfer_id;
  std::string debit, credit;
  int64_t amount;
};
struct AckedSettle {
  int64_t hold_id;
  int64_t amount;  // posted amount; -1 for a void
};

struct ClientLog {
  std::vector<AckedTransfer> transfers;
  std::vector<int64_t> holds;
  std::vector<AckedSettle> settles;
  int gave_up = 0;
  int refused = 0;
  std::map<std::string, int> unexpected;  // status code name -> count
};

class LedgerChaosTest : public ::testing::Test {
 protected:
  template <typename Fn>
  grpc::Status Retry(Fn fn, ClientLog& log) {
    absl::Time deadline = absl::Now() + absl::Seconds(180);
    std::mt19937 jitter(std::random_device{}());
    while (true) {
      auto stub = target_.NewStub();
      grpc::Status s = fn(*stub);
      if (!Retryable(s)) return s;
      if (absl::Now() > deadline) {
        ++log.gave_up;
        return s;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20 + jitter() % 80));
    }
  }

  TestDatabase db_;
  Target target_;
};

TEST_F(LedgerChaosTest, BooksBalanceAfterAKillAndRestartUnderLoad) {
  ASSERT_TRUE(db_.ok());
  auto flags = ArenaFlags(db_.url());
  auto server = std::make_unique<ServerProcess>(ARENA_ARENA_BIN, flags);
  ASSERT_TRUE(server->ok());
  target_.Set(server->channel());

  // Users, each funded by the admin, with a pool allowance.
  ClientLog setup_log;
  auto stub = target_.NewStub();
  v1::SignInRequest admin_in;
  admin_in.set_name(kAdminName);
  admin_in.set_password(kAdminPassword);
  v1::SessionToken admin_token;
  ASSERT_TRUE(CallAs(*stub, &Stub::SignIn, As{}, admin_in, &admin_token).ok());
  As admin{admin_token.token()};
  std::vector<v1::SessionToken> users(kUsers);
  for (int u = 0; u < kUsers; ++u) {
    v1::SignUpRequest req;
    req.set_name("user" + std::to_string(u));
    req.set_password("password-" + std::to_string(u));
    ASSERT_TRUE(CallAs(*stub, &Stub::SignUp, As{}, req, &users[u]).ok());
    v1::AdminGrantRequest grant;
    grant.set_account_id(users[u].account_id());
    grant.set_amount_microcredits(kStartingCredits);
    grant.set_reason("chaos funds");
    grant.set_idempotency_key("grant-" + std::to_string(u));
    v1::TransferResponse tr;
    ASSERT_TRUE(CallAs(*stub, &Stub::AdminGrant, admin, grant, &tr).ok());
    v1::SetAllowanceRequest allowance;
    allowance.set_account_id(users[u].account_id());
    allowance.set_daily_microcredits(200'000);
    allowance.set_reason("chaos");
    v1::SetAllowanceResponse ar;
    ASSERT_TRUE(CallAs(*stub, &Stub::AdminSetAllowance, admin, allowance, &ar).ok());
  }

  std::atomic<int> done{0};
  std::vector<ClientLog> logs(kClients);
  std::vector<std::thread> clients;
  const char* const kCredits[] = {"model_spend", "fees", "escrow"};
  for (int c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {
      ClientLog& log = logs[c];
      std::mt19937 rng(1234 + c);
      const int me = c % kUsers;
      const As as_me{users[me].token()};
      const As service{"", true};
      std::vector<int64_t> open_holds;
      for (int i = 0; i < kOpsPerClient; ++i, ++done) {
        const std::string key = "c" + std::to_string(c) + "-" + std::to_string(i);
        int roll = rng() % 100;
        if (roll < 35) {
          int to = (me + 1 + rng() % (kUsers - 1)) % kUsers;
          v1::SendCreditsRequest req;
          req.set_to_name("user" + std::to_string(to));
          // Mostly small; sometimes more than anyone has, to exercise refusals.
          req.set_amount_microcredits(rng() % 20 == 0 ? 5'000'000 : 1 + rng() % 20'000);
          req.set_idempotency_key(key);
          v1::TransferResponse resp;
          grpc::Status s = Retry(
              [&](Stub& st) { return CallAs(st, &Stub::SendCredits, as_me, req, &resp); }, log);
          if (s.ok()) {
            log.transfers.push_back({std::stoll(resp.transfer_id()), users[me].account_id(),
                                     users[to].account_id(), req.amount_microcredits()});
          } else if (s.error_code() == Code::FAILED_PRECONDITION) {
            ++log.refused;
          } else {
            ++log.unexpected[std::to_string(s.error_code())];
          }
        } else if (roll < 45) {
          v1::DonateRequest req;
          req.set_amount_microcredits(1 + rng() % 5'000);
          req.set_idempotency_key(key);
          v1::TransferResponse resp;
          grpc::Status s =
              Retry([&](Stub& st) { return CallAs(st, &Stub::Donate, as_me, req, &resp); }, log);
          if (s.ok()) {
            log.transfers.push_back({std::stoll(resp.transfer_id()), users[me].account_id(),
                                     "system:pool", req.amount_microcredits()});
          } else if (s.error_code() == Code::FAILED_PRECONDITION) {
            ++log.refused;
          } else {
            ++log.unexpected[std::to_string(s.error_code())];
          }
        } else if (roll < 75) {
          v1::ReserveHoldRequest req;
          req.set_account_id(users[me].account_id());
          bool pool = roll >= 70;
          req.set_from_pool(pool);
          if (!pool) {
            if (rng() % 4 == 0) {
              req.set_credit_account(users[(me + 1) % kUsers].account_id());
            } else {
              req.set_credit_account(kCredits[rng() % 3]);
            }
          }
          req.set_amount_microcredits(1 + rng() % 30'000);
          // A fifth of the holds are short and will expire before anyone settles them.
          req.set_timeout_ms(rng() % 5 == 0 ? 200 + rng() % 600 : 120'000);
          req.set_idempotency_key(key);
          v1::HoldResponse resp;
          grpc::Status s = Retry(
              [&](Stub& st) { return CallAs(st, &Stub::ReserveHold, service, req, &resp); }, log);
          if (s.ok()) {
            log.holds.push_back(resp.hold_id());
            open_holds.push_back(resp.hold_id());
          } else if (s.error_code() == Code::FAILED_PRECONDITION ||
                     s.error_code() == Code::RESOURCE_EXHAUSTED) {
            ++log.refused;
          } else {
            ++log.unexpected[std::to_string(s.error_code())];
          }
        } else {
          if (open_holds.empty()) continue;
          size_t pick = rng() % open_holds.size();
          int64_t hold = open_holds[pick];
          open_holds.erase(open_holds.begin() + pick);
          grpc::Status s;
          if (roll < 90) {
            v1::PostHoldRequest req;
            req.set_hold_id(hold);
            req.set_amount_microcredits(rng() % 3 == 0 ? 0 : 1 + rng() % 1'000);
            req.set_idempotency_key(key);
            v1::TransferResponse resp;
            s = Retry([&](Stub& st) { return CallAs(st, &Stub::PostHold, service, req, &resp); },
                      log);
            if (s.ok()) log.settles.push_back({hold, req.amount_microcredits()});
          } else {
            v1::VoidHoldRequest req;
            req.set_hold_id(hold);
            req.set_idempotency_key(key);
            v1::VoidHoldResponse resp;
            s = Retry([&](Stub& st) { return CallAs(st, &Stub::VoidHold, service, req, &resp); },
                      log);
            if (s.ok()) log.settles.push_back({hold, -1});
          }
          if (s.error_code() == Code::FAILED_PRECONDITION) {
            ++log.refused;  // expired (or amount beyond the hold)
          } else if (s.error_code() == Code::INVALID_ARGUMENT) {
            ++log.refused;
          } else if (!s.ok()) {
            ++log.unexpected[std::to_string(s.error_code())];
          }
        }
      }
    });
  }

  // Midway: SIGKILL the server and start it again on the same database.
  const int total = kClients * kOpsPerClient;
  while (done.load() < total / 2) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  server->process().Signal(SIGKILL);
  auto killed = server->process().Wait(absl::Seconds(30));
  ASSERT_TRUE(killed.has_value());
  EXPECT_EQ(*killed, 128 + SIGKILL);
  const int done_at_kill = done.load();
  server = std::make_unique<ServerProcess>(ARENA_ARENA_BIN, flags);
  ASSERT_TRUE(server->ok());
  target_.Set(server->channel());
  for (auto& t : clients) t.join();
  EXPECT_LT(done_at_kill, total);

  // Let every short hold pass its expiry and the sweeper run.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));

  int acked_transfers = 0, acked_holds = 0, acked_settles = 0, refused = 0;
  pqxx::connection conn(db_.url());
  pqxx::work w(conn);
  for (const ClientLog& log : logs) {
    EXPECT_EQ(log.gave_up, 0);
    for (const auto& [code, n] : log.unexpected) ADD_FAILURE() << n << " calls ended with " << code;
    refused += log.refused;
    for (const AckedTransfer& t : log.transfers) {
      ++acked_transfers;
      auto rows = w.exec_params(
          "SELECT da.name, ca.name, t.amount FROM arena.transfers t "
          "JOIN arena.ledger_accounts da ON da.ledger_account_id = t.debit_id "
          "JOIN arena.ledger_accounts ca ON ca.ledger_account_id = t.credit_id "
          "WHERE t.transfer_id = $1",
          t.transfer_id);
      ASSERT_EQ(rows.size(), 1u) << "acknowledged transfer " << t.transfer_id << " missing";
      EXPECT_EQ(rows[0][0].as<std::string>(), t.debit);
      EXPECT_EQ(rows[0][1].as<std::string>(), t.credit);
      EXPECT_EQ(rows[0][2].as<int64_t>(), t.amount);
    }
    for (int64_t h : log.holds) {
      ++acked_holds;
      EXPECT_EQ(
          w.exec_params1("SELECT count(*) FROM arena.holds WHERE hold_id = $1", h)[0].as<int>(), 1);
    }
    for (const AckedSettle& s : log.settles) {
      ++acked_settles;
      auto row = w.exec_params1("SELECT state, posted_amount FROM arena.holds WHERE hold_id = $1",
                                s.hold_id);
      if (s.amount < 0) {
        EXPECT_EQ(row[0].as<std::string>(), "voided");
      } else {
        EXPECT_EQ(row[0].as<std::string>(), "posted");
        EXPECT_EQ(row[1].as<int64_t>(), s.amount);
      }
    }
  }

  auto count = [&](const std::string& sql) { return w.exec1(sql)[0].as<int64_t>(); };
  // The books balance exactly, issuance carries the minus.
  EXPECT_EQ(count("SELECT sum(balance) FROM arena.ledger_accounts"), 0);
  EXPECT_EQ(count("SELECT balance FROM arena.ledger_accounts WHERE kind = 'issuance'"),
            -kStartingCredits * kUsers);
  // No user (nor any non-issuance account) below zero, counting holds.
  EXPECT_EQ(count("SELECT count(*) FROM arena.ledger_accounts WHERE NOT may_go_negative AND "
                  "(balance < 0 OR balance - held < 0)"),
            0);
  // Each balance is exactly what its transfers say; each `held` what its open holds say.
  EXPECT_EQ(count("SELECT count(*) FROM arena.ledger_accounts a WHERE a.balance <> "
                  "(SELECT coalesce(sum(amount), 0) FROM arena.transfers WHERE credit_id = "
                  "a.ledger_account_id) - (SELECT coalesce(sum(amount), 0) FROM arena.transfers "
                  "WHERE debit_id = a.ledger_account_id)"),
            0);
  EXPECT_EQ(count("SELECT count(*) FROM arena.ledger_accounts a WHERE a.held <> "
                  "(SELECT coalesce(sum(amount), 0) FROM arena.holds WHERE debit_id = "
                  "a.ledger_account_id AND state = 'open')"),
            0);
  // Exactly once: every plain transfer came from one idempotent request, every posted hold
  // produced at most one transfer, of its posted amount.
  EXPECT_EQ(count("SELECT count(*) FROM arena.transfers WHERE hold_id IS NULL"),
            count("SELECT count(*) FROM arena.ledger_requests WHERE op = 'transfer'"));
  EXPECT_EQ(count("SELECT count(*) FROM (SELECT hold_id FROM arena.transfers WHERE hold_id IS "
                  "NOT NULL GROUP BY hold_id HAVING count(*) > 1) d"),
            0);
  EXPECT_EQ(count("SELECT count(*) FROM arena.holds h WHERE h.state = 'posted' AND "
                  "h.posted_amount <> coalesce((SELECT amount FROM arena.transfers t WHERE "
                  "t.hold_id = h.hold_id), 0)"),
            0);
  EXPECT_EQ(count("SELECT count(*) FROM arena.transfers t JOIN arena.holds h USING (hold_id) "
                  "WHERE h.state <> 'posted'"),
            0);
  // Every hold past its expiry has been released.
  EXPECT_EQ(count("SELECT count(*) FROM arena.holds WHERE state = 'open' AND expires_at <= now()"),
            0);
  EXPECT_GT(count("SELECT count(*) FROM arena.holds WHERE state = 'expired'"), 0);
  w.commit();

  std::printf(
      "chaos: %d ops, killed after %d; acked %d transfers, %d holds, %d settles; %d "
      "refused\n",
      total, done_at_kill, acked_transfers, acked_holds, acked_settles, refused);
  EXPECT_GT(acked_transfers, 0);
  EXPECT_GT(acked_settles, 0);
  EXPECT_EQ(server->Stop(), 0);
}

}  // namespace
}  // namespace arena::testing
