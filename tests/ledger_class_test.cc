// The Ledger class, directly against a fresh PostgreSQL database: transfers, refusals,
// idempotency, holds (post, void, expiry lazily and by the sweeper), the pool allowance,
// freezing, and concurrent transfers that neither deadlock nor lose an update.
#include "services/arena/ledger.h"

#include <random>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/common/migrate.h"
#include "tests/support/test_database.h"

namespace arena::migrations {
const std::vector<arena::common::Migration>& ArenaMigrations();
}

namespace arena::ledger {
namespace {

using ::testing::HasSubstr;

class LedgerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.ok());
    auto report = common::ApplyMigrations(db_.url(), "arena", migrations::ArenaMigrations());
    ASSERT_TRUE(report.ok()) << report.status();
    common::PgPool::Options options;
    options.size = 12;
    auto pool = common::PgPool::Create(db_.url(), options);
    ASSERT_TRUE(pool.ok()) << pool.status();
    pool_ = *std::move(pool);
    ledger_ = std::make_unique<Ledger>(*pool_);
  }

  // A user account with a ledger account and `credits` micro-credits from issuance.
  std::string User(const std::string& id, int64_t credits = 0) {
    pqxx::connection c(db_.url());
    pqxx::work w(c);
    w.exec_params("INSERT INTO arena.accounts (account_id, name, role) VALUES ($1, $1, 'player')",
                  id);
    Ledger::OpenUserAccount(w, id);
    w.commit();
    if (credits > 0) {
      TransferRequest r{kIssuance, id, credits, "grant"};
      EXPECT_TRUE(ledger_->Transfer(r).ok());
    }
    return id;
  }

  int64_t Available(const std::string& name) {
    auto b = ledger_->Balance(name);
    EXPECT_TRUE(b.ok()) << b.status();
    return b.ok() ? b->available : -1;
  }

  // Sum of every balance (must be 0) and the per-account check balance == credits - debits.
  void ExpectBooksBalance() {
    pqxx::connection c(db_.url());
    pqxx::work w(c);
    EXPECT_EQ(
        w.exec1("SELECT coalesce(sum(balance), 0) FROM arena.ledger_accounts")[0].as<int64_t>(), 0);
    EXPECT_EQ(w.exec1("SELECT count(*) FROM arena.ledger_accounts a WHERE a.balance <> "
                      "(SELECT coalesce(sum(amount), 0) FROM arena.transfers WHERE credit_id = "
                      "a.ledger_account_id) - (SELECT coalesce(sum(amount), 0) FROM "
                      "arena.transfers WHERE debit_id = a.ledger_account_id)")[0]
                  .as<int>(),
              0);
    EXPECT_EQ(w.exec1("SELECT count(*) FROM arena.ledger_accounts a WHERE a.held <> "
                      "(SELECT coalesce(sum(amount), 0) FROM arena.holds WHERE debit_id = "
                      "a.ledger_account_id AND state = 'open')")[0]
                  .as<int>(),
              0);
    EXPECT_EQ(w.exec1("SELECT count(*) FROM arena.ledger_accounts WHERE kind = 'user' AND "
                      "balance - held < 0")[0]
                  .as<int>(),
              0);
  }

  testing::TestDatabase db_;
  std::unique_ptr<common::PgPool> pool_;
  std::unique_ptr<Ledger> ledger_;
};

TEST_F(LedgerTest, TransferMovesCreditsAndTheBooksBalance) {
  User("u_alice", 1000);
  User("u_bob");
  auto t = ledger_->Transfer({"u_alice", "u_bob", 300, "gift", "thanks"});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_GT(t->transfer_id, 0);
  EXPECT_FALSE(t->replayed);
  EXPECT_EQ(Available("u_alice"), 700);
  EXPECT_EQ(Available("u_bob"), 300);
  auto issuance = ledger_->Balance(kIssuance);
  ASSERT_TRUE(issuance.ok());
  EXPECT_EQ(issuance->balance, -1000);
  auto history = ledger_->History("u_bob", 10);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u);
  EXPECT_EQ((*history)[0].debit, "u_alice");
  EXPECT_EQ((*history)[0].amount, 300);
  EXPECT_EQ((*history)[0].memo, "thanks");
  ExpectBooksBalance();
}

TEST_F(LedgerTest, RefusalsChangeNothing) {
  User("u_alice", 100);
  User("u_bob");
  auto s = ledger_->Transfer({"u_alice", "u_bob", 101, "gift"});
  EXPECT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.status().message()), HasSubstr("insufficient funds"));
  EXPECT_EQ(ledger_->Transfer({"u_alice", "u_bob", 0, "gift"}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ledger_->Transfer({"u_alice", "u_bob", -5, "gift"}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ledger_->Transfer({"u_alice", "u_alice", 5, "gift"}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ledger_->Transfer({"u_alice", "u_nobody", 5, "gift"}).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(Available("u_alice"), 100);
  EXPECT_EQ(Available("u_bob"), 0);
  // The pool is not issuance: it cannot go negative either.
  EXPECT_EQ(ledger_->Transfer({kPool, "u_bob", 1, "gift"}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  ExpectBooksBalance();
}

TEST_F(LedgerTest, IdempotencyReplaysSameBodyRefusesDifferentBodyAndIsScopedToTheCaller) {
  User("u_alice", 1000);
  User("u_bob");
  TransferRequest r{"u_alice", "u_bob", 10, "gift", "", "u_alice", "key-1"};
  auto first = ledger_->Transfer(r);
  ASSERT_TRUE(first.ok());
  auto again = ledger_->Transfer(r);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->replayed);
  EXPECT_EQ(again->transfer_id, first->transfer_id);
  EXPECT_EQ(Available("u_alice"), 990);

  TransferRequest different = r;
  different.amount = 11;
  auto conflict = ledger_->Transfer(different);
  EXPECT_EQ(conflict.status().code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(Available("u_alice"), 990);

  // Bob using the same key string is a different request altogether.
  User("u_carol", 50);
  TransferRequest bobs{"u_carol", "u_bob", 5, "gift", "", "u_carol", "key-1"};
  auto other = ledger_->Transfer(bobs);
  ASSERT_TRUE(other.ok());
  EXPECT_FALSE(other->replayed);
  EXPECT_NE(other->transfer_id, first->transfer_id);
  EXPECT_EQ(Available("u_bob"), 15);
  ExpectBooksBalance();
}

TEST_F(LedgerTest, ConcurrentRequestsWithOneKeyApplyOnce) {
  User("u_alice", 1000);
  User("u_bob");
  std::vector<std::thread> threads;
  std::atomic<int> replays{0}, firsts{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      auto t = ledger_->Transfer({"u_alice", "u_bob", 7, "gift", "", "u_alice", "same"});
      ASSERT_TRUE(t.ok()) << t.status();
      (t->replayed ? replays : firsts)++;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(firsts.load(), 1);
  EXPECT_EQ(replays.load(), 7);
  EXPECT_EQ(Available("u_bob"), 7);
}

TEST_F(LedgerTest, HoldPostPartialReleasesTheRest) {
  User("u_alice", 1000);
  auto h = ledger_->Reserve({"u_alice", kModelSpend, 400, absl::Minutes(1)});
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(Available("u_alice"), 600);
  // The held credits cannot be spent twice.
  EXPECT_EQ(ledger_->Transfer({"u_alice", kPool, 601, "donation"}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  auto p = ledger_->Post(h->hold_id, 150, "svc", "post-1");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_GT(p->transfer_id, 0);
  EXPECT_EQ(Available("u_alice"), 850);
  auto spend = ledger_->Balance(kModelSpend);
  ASSERT_TRUE(spend.ok());
  EXPECT_EQ(spend->balance, 150);
  // Replayed, not applied twice; a second post or a void is refused.
  auto replay = ledger_->Post(h->hold_id, 150, "svc", "post-1");
  ASSERT_TRUE(replay.ok());
  EXPECT_TRUE(replay->replayed);
  EXPECT_EQ(ledger_->Post(h->hold_id, 10, "svc", "post-2").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(ledger_->Void(h->hold_id, "svc", "").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Available("u_alice"), 850);
  auto info = ledger_->GetHold(h->hold_id);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->state, "posted");
  EXPECT_EQ(info->posted_amount, 150);
  ExpectBooksBalance();
}

TEST_F(LedgerTest, HoldRefusals) {
  User("u_alice", 100);
  EXPECT_EQ(ledger_->Reserve({"u_alice", kModelSpend, 101, absl::Minutes(1)}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(ledger_->Reserve({"u_alice", kModelSpend, 10, absl::ZeroDuration()}).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto h = ledger_->Reserve({"u_alice", kModelSpend, 50, absl::Minutes(1)});
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(ledger_->Post(h->hold_id, 51, "svc", "").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ledger_->Post(999999, 1, "svc", "").status().code(), absl::StatusCode::kNotFound);
  auto v = ledger_->Void(h->hold_id, "svc", "void-1");
  ASSERT_TRUE(v.ok());
  EXPECT_FALSE(*v);
  auto v2 = ledger_->Void(h->hold_id, "svc", "void-1");
  ASSERT_TRUE(v2.ok());
  EXPECT_TRUE(*v2);
  EXPECT_EQ(Available("u_alice"), 100);
  ExpectBooksBalance();
}

TEST_F(LedgerTest, ExpiredHoldIsReleasedLazilyAndCannotBePosted) {
  User("u_alice", 100);
  auto h = ledger_->Reserve({"u_alice", kModelSpend, 80, absl::Milliseconds(200)});
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(Available("u_alice"), 20);
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  // Reading the balance applies the expiry.
  EXPECT_EQ(Available("u_alice"), 100);
  auto p = ledger_->Post(h->hold_id, 10, "svc", "");
  EXPECT_EQ(p.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("expired"));
  ExpectBooksBalance();
}

TEST_F(LedgerTest, PostOfAnOverdueHoldExpiresIt) {
  User("u_alice", 100);
  auto h = ledger_->Reserve({"u_alice", kModelSpend, 80, absl::Milliseconds(100)});
  ASSERT_TRUE(h.ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto p = ledger_->Post(h->hold_id, 80, "svc", "");
  EXPECT_EQ(p.status().code(), absl::StatusCode::kFailedPrecondition);
  auto info = ledger_->GetHold(h->hold_id);
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->state, "expired");
  auto spend = ledger_->Balance(kModelSpend);
  ASSERT_TRUE(spend.ok());
  EXPECT_EQ(spend->balance, 0);
  ExpectBooksBalance();
}

TEST_F(LedgerTest, SweeperExpiresOverdueHolds) {
  User("u_alice", 100);
  User("u_bob", 100);
  ASSERT_TRUE(ledger_->Reserve({"u_alice", kModelSpend, 30, absl::Milliseconds(100)}).ok());
  ASSERT_TRUE(ledger_->Reserve({"u_alice", kFees, 20, absl::Milliseconds(100)}).ok());
  ASSERT_TRUE(ledger_->Reserve({"u_bob", kModelSpend, 10, absl::Milliseconds(100)}).ok());
  auto keep = ledger_->Reserve({"u_bob", kModelSpend, 5, absl::Minutes(10)});
  ASSERT_TRUE(keep.ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto n = ledger_->ExpireOverdueHolds();
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 3);
  pqxx::connection c(db_.url());
  pqxx::work w(c);
  EXPECT_EQ(w.exec1("SELECT held FROM arena.ledger_accounts WHERE name = 'u_alice'")[0].as<int>(),
            0);
  EXPECT_EQ(w.exec1("SELECT held FROM arena.ledger_accounts WHERE name = 'u_bob'")[0].as<int>(), 5);
  w.commit();
  auto again = ledger_->ExpireOverdueHolds();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, 0);
  ExpectBooksBalance();
}

TEST_F(LedgerTest, FrozenAccountCannotSpendButSettlesEarlierHolds) {
  User("u_alice", 100);
  User("u_bob");
  auto h = ledger_->Reserve({"u_alice", kModelSpend, 40, absl::Minutes(1)});
  ASSERT_TRUE(h.ok());
  AuditEntry audit{"u_admin", "freeze", "u_alice", "suspicious"};
  ASSERT_TRUE(ledger_->SetFrozen("u_alice", true, audit).ok());
  EXPECT_EQ(ledger_->Transfer({"u_alice", "u_bob", 1, "gift"}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(ledger_->Reserve({"u_alice", kModelSpend, 1, absl::Minutes(1)}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  // Receiving still works, and the earlier hold settles.
  ASSERT_TRUE(ledger_->Transfer({kIssuance, "u_alice", 5, "grant"}).ok());
  ASSERT_TRUE(ledger_->Post(h->hold_id, 40, "svc", "").ok());
  EXPECT_EQ(Available("u_alice"), 65);
  ASSERT_TRUE(ledger_->SetFrozen("u_alice", false, {"u_admin", "unfreeze", "u_alice", "ok"}).ok());
  EXPECT_TRUE(ledger_->Transfer({"u_alice", "u_bob", 1, "gift"}).ok());
  auto records = ledger_->Audit("u_alice", 10);
  ASSERT_TRUE(records.ok());
  ASSERT_EQ(records->size(), 2u);
  EXPECT_EQ((*records)[0].action, "unfreeze");
  EXPECT_EQ((*records)[1].reason, "suspicious");
  EXPECT_EQ((*records)[1].actor, "u_admin");
  // A reason is required.
  EXPECT_EQ(ledger_->SetFrozen("u_alice", true, {"u_admin", "freeze", "u_alice", ""}).code(),
            absl::StatusCode::kInvalidArgument);
  ExpectBooksBalance();
}

TEST_F(LedgerTest, PoolHoldsCountAgainstTheDailyAllowance) {
  User("u_donor", 1000);
  User("u_player");
  ASSERT_TRUE(ledger_->Transfer({"u_donor", kPool, 500, "donation"}).ok());
  // No allowance yet.
  EXPECT_EQ(
      ledger_->ReserveFromPool("u_player", 10, absl::Minutes(1), "", "svc", "").status().code(),
      absl::StatusCode::kResourceExhausted);
  ASSERT_TRUE(
      ledger_->SetDailyAllowance("u_player", 100, {"u_admin", "allowance", "u_player", "x"}).ok());
  auto a = ledger_->ReserveFromPool("u_player", 60, absl::Minutes(1), "", "svc", "");
  ASSERT_TRUE(a.ok()) << a.status();
  // The open hold counts: 60 + 50 > 100.
  EXPECT_EQ(
      ledger_->ReserveFromPool("u_player", 50, absl::Minutes(1), "", "svc", "").status().code(),
      absl::StatusCode::kResourceExhausted);
  // Posting 20 of the 60 frees 40 of the allowance.
  ASSERT_TRUE(ledger_->Post(a->hold_id, 20, "svc", "").ok());
  auto b = ledger_->ReserveFromPool("u_player", 80, absl::Minutes(1), "", "svc", "");
  ASSERT_TRUE(b.ok()) << b.status();
  auto bal = ledger_->Balance("u_player");
  ASSERT_TRUE(bal.ok());
  EXPECT_EQ(bal->allowance_used_today, 100);
  EXPECT_EQ(bal->daily_allowance, 100);
  auto pool = ledger_->Balance(kPool);
  ASSERT_TRUE(pool.ok());
  EXPECT_EQ(pool->balance, 480);
  EXPECT_EQ(pool->held, 80);
  // The pool itself cannot be overdrawn even within an allowance.
  ASSERT_TRUE(
      ledger_->SetDailyAllowance("u_player", 10000, {"u_admin", "allowance", "u_player", "x"})
          .ok());
  EXPECT_EQ(
      ledger_->ReserveFromPool("u_player", 401, absl::Minutes(1), "", "svc", "").status().code(),
      absl::StatusCode::kFailedPrecondition);
  ExpectBooksBalance();
}

TEST_F(LedgerTest, ConcurrentTransfersInBothDirectionsNeitherDeadlockNorLoseUpdates) {
  const int kUsers = 6;
  for (int i = 0; i < kUsers; ++i) User("u_" + std::to_string(i), 10000);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 12; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      for (int i = 0; i < 60; ++i) {
        int a = rng() % kUsers, b = (a + 1 + rng() % (kUsers - 1)) % kUsers;
        auto r = ledger_->Transfer(
            {"u_" + std::to_string(a), "u_" + std::to_string(b), 1 + int(rng() % 50), "gift"});
        if (!r.ok() && !absl::IsFailedPrecondition(r.status())) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  int64_t total = 0;
  for (int i = 0; i < kUsers; ++i) total += Available("u_" + std::to_string(i));
  EXPECT_EQ(total, 10000 * kUsers);
  ExpectBooksBalance();
}

}  // namespace
}  // namespace arena::ledger
