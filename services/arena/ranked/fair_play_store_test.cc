// Fair-play reports on a fresh PostgreSQL database: Record is idempotent per (game, account),
// inside a caller's transaction too; only flagged reports are listed and open for review; a
// review writes its audit row in the same transaction and happens once.
#include "services/arena/ranked/fair_play_store.h"

#include <memory>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "pqxx/pqxx"
#include "services/common/migrate.h"
#include "tests/support/test_database.h"

namespace arena::migrations {
const std::vector<arena::common::Migration>& ArenaMigrations();
}

namespace arena::ranked {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class FairPlayStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.ok());
    auto report = common::ApplyMigrations(db_.url(), "arena", migrations::ArenaMigrations());
    ASSERT_TRUE(report.ok()) << report.status();
    auto pool = common::PgPool::Create(db_.url());
    ASSERT_TRUE(pool.ok()) << pool.status();
    pool_ = *std::move(pool);
    store_ = std::make_unique<FairPlayStore>(*pool_);
    pqxx::connection c(db_.url());
    pqxx::work w(c);
    for (const char* id : {"u_ann", "u_bob"}) {
      w.exec_params("INSERT INTO arena.accounts (account_id, name) VALUES ($1, $1)", id);
    }
    w.exec(
        "INSERT INTO arena.accounts (account_id, name, role) VALUES ('u_root', 'u_root', "
        "'admin')");
    w.commit();
  }

  // A report with figures derived from `seed`, so two calls with different seeds differ.
  static FairPlayRecord Report(const std::string& game, const std::string& account, int color,
                               bool flagged, int seed = 1) {
    FairPlayRecord r;
    r.game_id = game;
    r.account_id = account;
    r.figures.color = color;
    r.figures.moves_analysed = 20 + seed;
    r.figures.engine_matches = 15 + seed;
    r.figures.match_rate = double(15 + seed) / (20 + seed);
    r.figures.acpl = 3.5 * seed;
    r.figures.median_think_ms = 1200.0 * seed;
    r.figures.flagged = flagged;
    r.figures.evidence_json = nlohmann::json{{"seed", seed}, {"flagged", flagged}}.dump();
    return r;
  }

  int64_t Count(const std::string& sql) {
    pqxx::connection c(db_.url());
    pqxx::nontransaction n(c);
    return n.exec1(sql)[0].as<int64_t>();
  }

  arena::testing::TestDatabase db_;
  std::unique_ptr<common::PgPool> pool_;
  std::unique_ptr<FairPlayStore> store_;
};

TEST_F(FairPlayStoreTest, RecordIsIdempotentPerGameAndAccount) {
  auto first = store_->Record(Report("g1", "u_ann", 0, true, 1));
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(first->newly_recorded);
  const StoredFairPlayReport& r = first->report;
  EXPECT_GT(r.report_id, 0);
  EXPECT_EQ(r.game_id, "g1");
  EXPECT_EQ(r.account_id, "u_ann");
  EXPECT_EQ(r.color, 0);
  EXPECT_EQ(r.moves_analysed, 21);
  EXPECT_DOUBLE_EQ(r.match_rate, 16.0 / 21);
  EXPECT_DOUBLE_EQ(r.acpl, 3.5);
  ASSERT_TRUE(r.median_think_ms.has_value());
  EXPECT_DOUBLE_EQ(*r.median_think_ms, 1200);
  EXPECT_TRUE(r.flagged);
  EXPECT_EQ(r.review_state, ReviewState::kOpen);
  EXPECT_EQ(nlohmann::json::parse(r.evidence_json)["seed"], 1);
  EXPECT_FALSE(r.reviewed_at.has_value());

  // A repeat, even with other figures and no flag, changes nothing and answers the first row.
  auto again = store_->Record(Report("g1", "u_ann", 0, false, 2));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_FALSE(again->newly_recorded);
  EXPECT_EQ(again->report.report_id, r.report_id);
  EXPECT_EQ(again->report.moves_analysed, 21);
  EXPECT_EQ(again->report.review_state, ReviewState::kOpen);
  EXPECT_EQ(again->report.created_at, r.created_at);
  EXPECT_EQ(Count("SELECT count(*) FROM arena.fair_play_reports"), 1);

  // The other player of the game, unflagged and without timings: a report of its own.
  FairPlayRecord bob = Report("g1", "u_bob", 1, false);
  bob.figures.median_think_ms.reset();
  auto other = store_->Record(bob);
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_TRUE(other->newly_recorded);
  EXPECT_EQ(other->report.color, 1);
  EXPECT_EQ(other->report.review_state, ReviewState::kNone);
  EXPECT_FALSE(other->report.median_think_ms.has_value());
  auto got = store_->Get("g1", "u_bob");
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->report_id, other->report.report_id);
  EXPECT_EQ(store_->Get("g2", "u_bob").status().code(), absl::StatusCode::kNotFound);
}

TEST_F(FairPlayStoreTest, RecordInTheCallersTransactionCommitsOrRollsBackWithIt) {
  // Rolled back with the caller's transaction: nothing stays.
  absl::Status rolled = pool_->Transact([&](pqxx::transaction_base& txn) {
    auto r = FairPlayStore::Record(txn, Report("g1", "u_ann", 0, true));
    EXPECT_TRUE(r.ok()) << r.status();
    return absl::AbortedError("the caller changed its mind");
  });
  EXPECT_EQ(rolled.code(), absl::StatusCode::kAborted);
  EXPECT_EQ(Count("SELECT count(*) FROM arena.fair_play_reports"), 0);

  // An unknown account is an answer, and the caller's transaction goes on.
  absl::Status status = pool_->Transact([&](pqxx::transaction_base& txn) {
    auto unknown = FairPlayStore::Record(txn, Report("g1", "u_nobody", 0, true));
    EXPECT_EQ(unknown.status().code(), absl::StatusCode::kNotFound);
    auto r = FairPlayStore::Record(txn, Report("g1", "u_ann", 0, true));
    EXPECT_TRUE(r.ok() && r->newly_recorded);
    auto repeat = FairPlayStore::Record(txn, Report("g1", "u_ann", 0, true));
    EXPECT_TRUE(repeat.ok() && !repeat->newly_recorded);
    return absl::OkStatus();
  });
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(Count("SELECT count(*) FROM arena.fair_play_reports"), 1);
}

TEST_F(FairPlayStoreTest, RecordRefusesBadReports) {
  auto code = [&](const FairPlayRecord& r) { return store_->Record(r).status().code(); };
  FairPlayRecord r = Report("g1", "u_ann", 0, true);
  r.game_id = "";
  EXPECT_EQ(code(r), absl::StatusCode::kInvalidArgument);
  r = Report(std::string(129, 'g'), "u_ann", 0, true);
  EXPECT_EQ(code(r), absl::StatusCode::kInvalidArgument);
  r = Report("g1", "u_ann", 2, true);
  EXPECT_EQ(code(r), absl::StatusCode::kInvalidArgument);
  r = Report("g1", "u_ann", 0, true);
  r.figures.match_rate = 1.5;
  EXPECT_EQ(code(r), absl::StatusCode::kInvalidArgument);
  r = Report("g1", "u_ann", 0, true);
  r.figures.evidence_json.clear();
  EXPECT_EQ(code(r), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(code(Report("g1", "u_nobody", 0, true)), absl::StatusCode::kNotFound);
  EXPECT_EQ(Count("SELECT count(*) FROM arena.fair_play_reports"), 0);
}

TEST_F(FairPlayStoreTest, ListFlagsShowsFlaggedReportsByStateOldestFirst) {
  ASSERT_TRUE(store_->Record(Report("g1", "u_ann", 0, true)).ok());
  ASSERT_TRUE(store_->Record(Report("g1", "u_bob", 1, false)).ok());
  ASSERT_TRUE(store_->Record(Report("g2", "u_bob", 0, true)).ok());
  ASSERT_TRUE(store_->Record(Report("g3", "u_ann", 1, true)).ok());
  auto games = [](const absl::StatusOr<std::vector<StoredFairPlayReport>>& list) {
    EXPECT_TRUE(list.ok()) << list.status();
    std::vector<std::string> out;
    if (list.ok()) {
      for (const StoredFairPlayReport& r : *list) out.push_back(r.game_id + "/" + r.account_id);
    }
    return out;
  };
  EXPECT_THAT(games(store_->ListFlags(ReviewState::kOpen, 10)),
              ElementsAre("g1/u_ann", "g2/u_bob", "g3/u_ann"));
  EXPECT_THAT(games(store_->ListFlags(ReviewState::kOpen, 2)), ElementsAre("g1/u_ann", "g2/u_bob"));
  auto g2 = store_->Get("g2", "u_bob");
  ASSERT_TRUE(g2.ok());
  ASSERT_TRUE(store_->Resolve(g2->report_id, ReviewState::kDismissed, "u_root", "book line").ok());
  EXPECT_THAT(games(store_->ListFlags(ReviewState::kOpen, 10)),
              ElementsAre("g1/u_ann", "g3/u_ann"));
  EXPECT_THAT(games(store_->ListFlags(ReviewState::kDismissed, 10)), ElementsAre("g2/u_bob"));
  EXPECT_THAT(games(store_->ListFlags(ReviewState::kActioned, 10)), IsEmpty());
  EXPECT_THAT(games(store_->ListFlags(std::nullopt, 10)),
              ElementsAre("g1/u_ann", "g2/u_bob", "g3/u_ann"));
  EXPECT_EQ(store_->ListFlags(ReviewState::kNone, 10).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->ListFlags(ReviewState::kOpen, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->ListFlags(ReviewState::kOpen, 1001).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(FairPlayStoreTest, ResolveWritesTheAuditRowAndHappensOnce) {
  auto flagged = store_->Record(Report("g1", "u_ann", 0, true));
  ASSERT_TRUE(flagged.ok());
  const int64_t id = flagged->report.report_id;

  auto resolved = store_->Resolve(id, ReviewState::kActioned, "u_root", "matches engine 90%");
  ASSERT_TRUE(resolved.ok()) << resolved.status();
  EXPECT_EQ(resolved->review_state, ReviewState::kActioned);
  EXPECT_EQ(resolved->reviewed_by, "u_root");
  EXPECT_EQ(resolved->review_reason, "matches engine 90%");
  ASSERT_TRUE(resolved->reviewed_at.has_value());
  EXPECT_GE(*resolved->reviewed_at, resolved->created_at);

  {
    pqxx::connection c(db_.url());
    pqxx::nontransaction n(c);
    pqxx::result audit = n.exec(
        "SELECT actor_id, action, target_id, reason, detail_json FROM arena.audit_log "
        "ORDER BY audit_id");
    ASSERT_EQ(audit.size(), 1u);
    EXPECT_EQ(audit[0][0].as<std::string>(), "u_root");
    EXPECT_EQ(audit[0][1].as<std::string>(), "fair_play_action");
    EXPECT_EQ(audit[0][2].as<std::string>(), "u_ann");
    EXPECT_EQ(audit[0][3].as<std::string>(), "matches engine 90%");
    auto detail = nlohmann::json::parse(audit[0][4].as<std::string>());
    EXPECT_EQ(detail["report_id"], id);
    EXPECT_EQ(detail["game_id"], "g1");
    EXPECT_EQ(detail["review_state"], "actioned");
  }

  // A second decision, either way, is refused and writes nothing.
  auto twice = store_->Resolve(id, ReviewState::kDismissed, "u_root", "changed my mind");
  EXPECT_EQ(twice.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(twice.status().message()), HasSubstr("'actioned', not open"));
  EXPECT_EQ(store_->Resolve(id, ReviewState::kActioned, "u_root", "again").status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Count("SELECT count(*) FROM arena.audit_log"), 1);
  auto stored = store_->Get("g1", "u_ann");
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->review_state, ReviewState::kActioned);
  EXPECT_EQ(stored->review_reason, "matches engine 90%");

  // A report never flagged is not open either; an unknown one is NOT_FOUND.
  auto clean = store_->Record(Report("g1", "u_bob", 1, false));
  ASSERT_TRUE(clean.ok());
  EXPECT_EQ(store_->Resolve(clean->report.report_id, ReviewState::kDismissed, "u_root", "x")
                .status()
                .code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(store_->Resolve(id + 1000, ReviewState::kDismissed, "u_root", "x").status().code(),
            absl::StatusCode::kNotFound);
  // Bad decisions and missing reasons are refused before anything is read.
  auto open = store_->Record(Report("g2", "u_bob", 0, true));
  ASSERT_TRUE(open.ok());
  const int64_t open_id = open->report.report_id;
  EXPECT_EQ(store_->Resolve(open_id, ReviewState::kOpen, "u_root", "x").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Resolve(open_id, ReviewState::kNone, "u_root", "x").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Resolve(open_id, ReviewState::kDismissed, "", "x").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Resolve(open_id, ReviewState::kDismissed, "u_root", "").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Count("SELECT count(*) FROM arena.audit_log"), 1);
  EXPECT_EQ(store_->Get("g2", "u_bob")->review_state, ReviewState::kOpen);
}

}  // namespace
}  // namespace arena::ranked
