// PgPool::SingleStatement: the statement commits on its own, a serialization failure is
// retried, and an error reaches the caller as a status and leaves the connection usable.
// (A connection lost mid-statement is not tested here: libpqxx 6.4 leaks the error's PGresult
// when that happens, which fails the ASan build's leak check.)
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/common/pg_pool.h"
#include "tests/support/test_database.h"

namespace arena::common {
namespace {

class SingleStatementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.ok());
    pqxx::connection c(db_.url());
    pqxx::nontransaction n(c);
    n.exec("CREATE TABLE t (v int)");
    n.exec("CREATE SEQUENCE attempts");
    // Fails with serialization_failure on its first call only (sequences survive rollback).
    n.exec(
        "CREATE FUNCTION flaky() RETURNS int LANGUAGE plpgsql AS $$ BEGIN "
        "IF nextval('attempts') = 1 THEN "
        "  RAISE EXCEPTION 'try again' USING ERRCODE = 'serialization_failure'; END IF; "
        "INSERT INTO t VALUES (1); RETURN 1; END $$");
    PgPool::Options options;
    options.size = 1;
    auto pool = PgPool::Create(db_.url(), options);
    ASSERT_TRUE(pool.ok()) << pool.status();
    pool_ = *std::move(pool);
  }

  int64_t Query(const std::string& sql) {
    pqxx::connection c(db_.url());
    pqxx::nontransaction n(c);
    return n.exec1(sql)[0].as<int64_t>();
  }

  testing::TestDatabase db_;
  std::unique_ptr<PgPool> pool_;
};

TEST_F(SingleStatementTest, CommitsOnItsOwnAndRetriesASerializationFailure) {
  absl::Status s = pool_->SingleStatement([](pqxx::transaction_base& t) -> absl::Status {
    t.exec("SELECT flaky()");
    return absl::OkStatus();
  });
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Query("SELECT last_value FROM attempts"), 2);
  EXPECT_EQ(Query("SELECT count(*) FROM t"), 1);  // visible from another connection
}

TEST_F(SingleStatementTest, AnErrorIsAStatusAndTheConnectionStaysUsable) {
  absl::Status s = pool_->SingleStatement([](pqxx::transaction_base& t) -> absl::Status {
    t.exec("INSERT INTO t VALUES ('not a number')");
    return absl::OkStatus();
  });
  // A data exception (SQLSTATE class 22) is the request's fault: INVALID_ARGUMENT (issue 28).
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  s = pool_->SingleStatement([](pqxx::transaction_base& t) -> absl::Status {
    t.exec("INSERT INTO t VALUES (2)");
    return absl::OkStatus();
  });
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Query("SELECT count(*) FROM t"), 1);
}

// A service's pool finds its schema's tables by the schema it names, not because the role that
// connects shares the schema's name (scripts/up's role is arena_service; the schema is arena).
TEST(PgPoolSchemaTest, UnqualifiedNamesResolveInTheNamedSchemaWhateverTheRole) {
  testing::TestDatabase db;
  ASSERT_TRUE(db.ok());
  {
    pqxx::connection c(db.url());
    pqxx::nontransaction n(c);
    n.exec("CREATE SCHEMA served");
    n.exec("CREATE TABLE served.rows (v int)");
    n.exec("INSERT INTO served.rows VALUES (1), (2)");
  }
  auto count_rows = [](PgPool& pool) {
    int64_t n = -1;
    absl::Status s = pool.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
      try {
        n = txn.exec1("SELECT count(*) FROM rows")[0].as<int64_t>();
      } catch (const pqxx::sql_error& e) {
        return absl::NotFoundError(e.what());
      }
      return absl::OkStatus();
    });
    return s.ok() ? absl::StatusOr<int64_t>(n) : absl::StatusOr<int64_t>(s);
  };
  PgPool::Options named;
  named.schema = "served";
  auto pool = PgPool::Create(db.url(), named);
  ASSERT_TRUE(pool.ok()) << pool.status();
  auto counted = count_rows(**pool);
  ASSERT_TRUE(counted.ok()) << counted.status();
  EXPECT_EQ(*counted, 2);
  // Without it, the role's own search path does not find them (the role is named otherwise).
  auto plain = PgPool::Create(db.url());
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(count_rows(**plain).ok());
}

}  // namespace
}  // namespace arena::common
