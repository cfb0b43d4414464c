// arena.ledger_transfer (migration 0004), the one-statement transfer behind Ledger::Transfer:
// it never lets a balance go negative, even when called directly; a refusal writes nothing
// (overdue holds are expired only when the transfer goes ahead); an audited transfer still
// writes its audit row once; and transfers between the same two accounts in both directions
// at once neither deadlock nor lose an update.
#include <atomic>
#include <random>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/arena/ledger.h"
#include "services/common/migrate.h"
#include "tests/support/test_database.h"

namespace arena::migrations {
const std::vector<arena::common::Migration>& ArenaMigrations();
}

namespace arena::ledger {
namespace {

using ::testing::HasSubstr;

class LedgerTransferFunctionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.ok());
    auto report = common::ApplyMigrations(db_.url(), "arena", migrations::ArenaMigrations());
    ASSERT_TRUE(report.ok()) << report.status();
    common::PgPool::Options options;
    options.size = 8;
    auto pool = common::PgPool::Create(db_.url(), options);
    ASSERT_TRUE(pool.ok()) << pool.status();
    pool_ = *std::move(pool);
    ledger_ = std::make_unique<Ledger>(*pool_);
  }

  void User(const std::string& id, int64_t credits) {
    pqxx::connection c(db_.url());
    pqxx::work w(c);
    w.exec_params("INSERT INTO arena.accounts (account_id, name, role) VALUES ($1, $1, 'player')",
                  id);
    Ledger::OpenUserAccount(w, id);
    w.commit();
    if (credits > 0) {
      ASSERT_TRUE(ledger_->Transfer({kIssuance, id, credits, "grant"}).ok());
    }
  }

  int64_t Query(const std::string& sql) {
    pqxx::connection c(db_.url());
    pqxx::nontransaction n(c);
    return n.exec1(sql)[0].as<int64_t>();
  }

  testing::TestDatabase db_;
  std::unique_ptr<common::PgPool> pool_;
  std::unique_ptr<Ledger> ledger_;
};

TEST_F(LedgerTransferFunctionTest, CalledDirectlyItRefusesToOverdrawAndWritesNothing) {
  User("u_alice", 100);
  User("u_bob", 0);
  pqxx::connection c(db_.url());
  pqxx::nontransaction n(c);
  auto row = n.exec1(
      "SELECT status, transfer_id, available FROM arena.ledger_transfer("
      "'u_alice', 'u_bob', 101, 'gift', '', 'u_alice', 'k1', 'h1', false)");
  EXPECT_EQ(row[0].as<std::string>(), "insufficient");
  EXPECT_EQ(row[1].as<int64_t>(), 0);
  EXPECT_EQ(row[2].as<int64_t>(), 100);
  EXPECT_EQ(Query("SELECT count(*) FROM arena.transfers WHERE kind = 'gift'"), 0);
  EXPECT_EQ(Query("SELECT count(*) FROM arena.ledger_requests"), 0);
  EXPECT_EQ(Query("SELECT balance FROM arena.ledger_accounts WHERE name = 'u_alice'"), 100);

  row = n.exec1(
      "SELECT status FROM arena.ledger_transfer("
      "'u_alice', 'u_nobody', 1, 'gift', '', 'u_alice', '', '', false)");
  EXPECT_EQ(row[0].as<std::string>(), "no_credit");
  row = n.exec1(
      "SELECT status, transfer_id FROM arena.ledger_transfer("
      "'u_alice', 'u_bob', 100, 'gift', '', 'u_alice', 'k1', 'h1', false)");
  EXPECT_EQ(row[0].as<std::string>(), "ok");
  EXPECT_EQ(Query("SELECT balance FROM arena.ledger_accounts WHERE name = 'u_alice'"), 0);
  EXPECT_EQ(Query("SELECT balance FROM arena.ledger_accounts WHERE name = 'u_bob'"), 100);
  // The same key: its own body replays, another body is a conflict.
  row = n.exec1(
      "SELECT status FROM arena.ledger_transfer("
      "'u_alice', 'u_bob', 100, 'gift', '', 'u_alice', 'k1', 'h1', false)");
  EXPECT_EQ(row[0].as<std::string>(), "replayed");
  row = n.exec1(
      "SELECT status FROM arena.ledger_transfer("
      "'u_alice', 'u_bob', 100, 'gift', '', 'u_alice', 'k1', 'h2', false)");
  EXPECT_EQ(row[0].as<std::string>(), "conflict");
}

TEST_F(LedgerTransferFunctionTest, OverdueHoldsAreExpiredOnlyWhenTheTransferGoesAhead) {
  User("u_alice", 100);
  User("u_bob", 0);
  auto h = ledger_->Reserve({"u_alice", kModelSpend, 80, absl::Milliseconds(1)});
  ASSERT_TRUE(h.ok()) << h.status();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  // The overdue hold does not count against the funds, but the refusal leaves it as it was.
  auto refused = ledger_->Transfer({"u_alice", "u_bob", 150, "gift"});
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("insufficient funds: available 100, needed 150"));
  EXPECT_EQ(Query("SELECT held FROM arena.ledger_accounts WHERE name = 'u_alice'"), 80);
  EXPECT_EQ(Query("SELECT count(*) FROM arena.holds WHERE state = 'open'"), 1);
  // A transfer that fits only without it expires it and goes ahead.
  auto sent = ledger_->Transfer({"u_alice", "u_bob", 90, "gift"});
  ASSERT_TRUE(sent.ok()) << sent.status();
  EXPECT_EQ(Query("SELECT held FROM arena.ledger_accounts WHERE name = 'u_alice'"), 0);
  EXPECT_EQ(Query("SELECT count(*) FROM arena.holds WHERE state = 'expired'"), 1);
  EXPECT_EQ(Query("SELECT balance FROM arena.ledger_accounts WHERE name = 'u_alice'"), 10);
  auto post = ledger_->Post(h->hold_id, 10, "svc", "");
  EXPECT_EQ(post.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(LedgerTransferFunctionTest, AnAuditedTransferWritesItsAuditRowOnceAndMayDebitFrozen) {
  User("u_alice", 100);
  ASSERT_TRUE(ledger_->SetFrozen("u_alice", true, {"u_admin", "freeze", "u_alice", "why"}).ok());
  EXPECT_EQ(ledger_->Transfer({"u_alice", kIssuance, 5, "adjust"}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  TransferRequest adjust{"u_alice", kIssuance, 5, "adjust", "", "u_admin", "adj-1"};
  adjust.audit = AuditEntry{"u_admin", "adjust", "u_alice", "refund abuse"};
  adjust.allow_frozen_debit = true;
  auto first = ledger_->Transfer(adjust);
  ASSERT_TRUE(first.ok()) << first.status();
  auto again = ledger_->Transfer(adjust);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->replayed);
  EXPECT_EQ(again->transfer_id, first->transfer_id);
  auto records = ledger_->Audit("u_alice", 10);
  ASSERT_TRUE(records.ok());
  ASSERT_EQ(records->size(), 2u);  // the freeze and one adjustment
  EXPECT_EQ((*records)[0].action, "adjust");
  EXPECT_EQ((*records)[0].detail_json,
            "{\"transfer_id\":" + std::to_string(first->transfer_id) +
                ",\"amount\":5,\"debit\":\"u_alice\",\"credit\":\"system:issuance\"}");
  EXPECT_EQ(Query("SELECT balance FROM arena.ledger_accounts WHERE name = 'u_alice'"), 95);
}

// Raw connections without any retry, so a deadlock would surface as an error here.
TEST_F(LedgerTransferFunctionTest, BothDirectionsAtOnceNeitherDeadlockNorLoseUpdates) {
  User("u_a", 5000);
  User("u_b", 5000);
  std::atomic<int> errors{0}, done{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      pqxx::connection c(db_.url());
      std::mt19937 rng(t);
      const std::string from = t % 2 ? "u_a" : "u_b", to = t % 2 ? "u_b" : "u_a";
      for (int i = 0; i < 150; ++i) {
        try {
          pqxx::nontransaction n(c);
          auto row = n.exec_params1(
              "SELECT status FROM arena.ledger_transfer($1, $2, $3, 'gift', '', $1, $4, 'h', "
              "false)",
              from, to, static_cast<int64_t>(1 + rng() % 20),
              "k" + std::to_string(t) + "-" + std::to_string(i));
          const std::string status = row[0].as<std::string>();
          if (status == "ok") {
            ++done;
          } else if (status != "insufficient") {
            ++errors;
          }
        } catch (const std::exception& e) {
          ADD_FAILURE() << e.what();
          ++errors;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(errors.load(), 0);
  EXPECT_GT(done.load(), 0);
  EXPECT_EQ(Query("SELECT sum(balance) FROM arena.ledger_accounts WHERE name IN ('u_a', 'u_b')"),
            10000);
  EXPECT_EQ(Query("SELECT count(*) FROM arena.transfers WHERE kind = 'gift'"), done.load());
  EXPECT_EQ(Query("SELECT count(*) FROM arena.ledger_accounts a WHERE a.balance <> "
                  "(SELECT coalesce(sum(amount), 0) FROM arena.transfers WHERE credit_id = "
                  "a.ledger_account_id) - (SELECT coalesce(sum(amount), 0) FROM "
                  "arena.transfers WHERE debit_id = a.ledger_account_id)"),
            0);
}

}  // namespace
}  // namespace arena::ledger
