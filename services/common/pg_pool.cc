#include "services/common/pg_pool.h"

#include <thread>

#include "absl/strings/str_cat.h"
#include "common/log.h"

namespace arena::common {

PgPool::PgPool(std::string conninfo, Options options)
    : conninfo_(std::move(conninfo)), options_(options) {}

absl::StatusOr<std::unique_ptr<PgPool>> PgPool::Create(std::string conninfo, Options options) {
  if (options.size < 1) return absl::InvalidArgumentError("pool size must be at least 1");
  std::unique_ptr<PgPool> pool(new PgPool(std::move(conninfo), options));
  auto first = pool->Connect();
  if (!first.ok()) return first.status();
  pool->open_ = 1;
  pool->idle_.push_back(*std::move(first));
  return pool;
}

absl::StatusOr<std::unique_ptr<pqxx::connection>> PgPool::Connect() {
  absl::Time deadline = absl::Now() + options_.connect_retry;
  absl::Duration backoff = absl::Milliseconds(50);
  while (true) {
    try {
      auto conn = std::make_unique<pqxx::connection>(conninfo_);
      if (!options_.schema.empty()) {
        pqxx::nontransaction n(*conn);
        n.exec("SET search_path TO " + n.quote_name(options_.schema) + ", public");
      }
      return conn;
    } catch (const pqxx::broken_connection& e) {
      // The server may be restarting; keep trying for a while.
      if (absl::Now() + backoff > deadline) {
        return absl::UnavailableError(absl::StrCat("cannot connect to PostgreSQL: ", e.what()));
      }
    } catch (const std::exception& e) {
      return absl::InvalidArgumentError(absl::StrCat("bad database URL: ", e.what()));
    }
    std::this_thread::sleep_for(absl::ToChronoMilliseconds(backoff));
    backoff = std::min(backoff * 2, absl::Seconds(1));
  }
}

absl::StatusOr<std::unique_ptr<pqxx::connection>> PgPool::Acquire() {
  {
    std::unique_lock<std::mutex> lock(mu_);
    auto ready = [&] { return !idle_.empty() || open_ < options_.size; };
    if (!cv_.wait_for(lock, absl::ToChronoMilliseconds(options_.acquire_timeout), ready)) {
      return absl::ResourceExhaustedError("no database connection free in time");
    }
    if (!idle_.empty()) {
      std::unique_ptr<pqxx::connection> conn = std::move(idle_.back());
      idle_.pop_back();
      if (conn->is_open()) return conn;
      --open_;  // a dead one: replace it below
    }
    ++open_;
  }
  auto conn = Connect();
  if (!conn.ok()) {
    std::lock_guard<std::mutex> lock(mu_);
    --open_;
    cv_.notify_one();
  }
  return conn;
}

void PgPool::Release(std::unique_ptr<pqxx::connection> conn) {
  std::lock_guard<std::mutex> lock(mu_);
  if (conn && conn->is_open()) {
    idle_.push_back(std::move(conn));
  } else {
    --open_;
  }
  cv_.notify_one();
}

absl::Status StatusFromPqxx(const std::exception& e) {
  if (dynamic_cast<const pqxx::in_doubt_error*>(&e)) {
    return absl::UnavailableError(absl::StrCat("commit outcome unknown: ", e.what()));
  }
  if (dynamic_cast<const pqxx::broken_connection*>(&e)) {
    return absl::UnavailableError(absl::StrCat("database connection lost: ", e.what()));
  }
  if (dynamic_cast<const pqxx::serialization_failure*>(&e) ||
      dynamic_cast<const pqxx::deadlock_detected*>(&e)) {
    return absl::AbortedError(e.what());
  }
  if (dynamic_cast<const pqxx::unique_violation*>(&e)) {
    return absl::AlreadyExistsError(e.what());
  }
  if (dynamic_cast<const pqxx::check_violation*>(&e)) {
    return absl::FailedPreconditionError(e.what());
  }
  // Class 22, data exceptions (a number out of range, text the database cannot hold): the
  // request's values, not the server, are at fault. The message names the class only: the
  // server's text can quote the statement and its values.
  if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e);
      sql != nullptr && sql->sqlstate().rfind("22", 0) == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a value is out of range or cannot be stored (SQLSTATE ", sql->sqlstate(), ")"));
  }
  return absl::InternalError(absl::StrCat("database error: ", e.what()));
}

namespace {

template <typename Txn>
absl::Status RunOnce(pqxx::connection& conn, const PgPool::TxnFn& fn, bool* committed) {
  Txn txn(conn);
  absl::Status status = fn(txn);
  if (!status.ok()) return status;  // the destructor rolls back
  *committed = true;                // from here on, a failure leaves the outcome unknown
  txn.commit();
  return absl::OkStatus();
}

}  // namespace

absl::Status PgPool::Transact(const TxnFn& fn, Isolation isolation) {
  absl::Duration backoff = absl::Milliseconds(2);
  absl::Status last;
  for (int attempt = 0; attempt < options_.max_attempts; ++attempt) {
    auto conn = Acquire();
    if (!conn.ok()) return conn.status();
    bool committing = false;
    absl::Status status;
    try {
      switch (isolation) {
        case Isolation::kReadCommitted:
          status = RunOnce<pqxx::transaction<pqxx::read_committed>>(**conn, fn, &committing);
          break;
        case Isolation::kRepeatableRead:
          status = RunOnce<pqxx::transaction<pqxx::repeatable_read>>(**conn, fn, &committing);
          break;
        case Isolation::kSerializable:
          status = RunOnce<pqxx::transaction<pqxx::serializable>>(**conn, fn, &committing);
          break;
      }
      Release(*std::move(conn));
      return status;
    } catch (const pqxx::in_doubt_error& e) {
      Release(*std::move(conn));
      return StatusFromPqxx(e);
    } catch (const pqxx::broken_connection& e) {
      Release(*std::move(conn));
      if (committing) {
        return absl::UnavailableError(
            absl::StrCat("connection lost during commit, outcome unknown: ", e.what()));
      }
      last = StatusFromPqxx(e);
    } catch (const pqxx::serialization_failure& e) {
      Release(*std::move(conn));
      last = StatusFromPqxx(e);
    } catch (const pqxx::deadlock_detected& e) {
      Release(*std::move(conn));
      last = StatusFromPqxx(e);
    } catch (const std::exception& e) {
      Release(*std::move(conn));
      return StatusFromPqxx(e);
    }
    std::this_thread::sleep_for(absl::ToChronoMicroseconds(backoff));
    backoff = std::min(backoff * 2, absl::Milliseconds(200));
  }
  return last;
}

absl::Status PgPool::SingleStatement(const TxnFn& fn) {
  absl::Duration backoff = absl::Milliseconds(2);
  absl::Status last;
  for (int attempt = 0; attempt < options_.max_attempts; ++attempt) {
    auto conn = Acquire();
    if (!conn.ok()) return conn.status();
    try {
      absl::Status status;
      {
        pqxx::nontransaction txn(**conn);
        status = fn(txn);
      }
      Release(*std::move(conn));
      return status;
    } catch (const pqxx::broken_connection& e) {
      Release(*std::move(conn));
      return absl::UnavailableError(
          absl::StrCat("connection lost during a statement, outcome unknown: ", e.what()));
    } catch (const pqxx::serialization_failure& e) {
      Release(*std::move(conn));
      last = StatusFromPqxx(e);
    } catch (const pqxx::deadlock_detected& e) {
      Release(*std::move(conn));
      last = StatusFromPqxx(e);
    } catch (const std::exception& e) {
      Release(*std::move(conn));
      return StatusFromPqxx(e);
    }
    std::this_thread::sleep_for(absl::ToChronoMicroseconds(backoff));
    backoff = std::min(backoff * 2, absl::Milliseconds(200));
  }
  return last;
}

absl::Status PgPool::WithConnection(const std::function<absl::Status(pqxx::connection&)>& fn) {
  auto conn = Acquire();
  if (!conn.ok()) return conn.status();
  absl::Status status;
  try {
    status = fn(**conn);
  } catch (const std::exception& e) {
    status = StatusFromPqxx(e);
  }
  Release(*std::move(conn));
  return status;
}

absl::Status WithAdvisoryLock(const std::string& conninfo, int64_t key,
                              const std::function<absl::Status(pqxx::connection&)>& fn) {
  try {
    pqxx::connection conn(conninfo);
    {
      pqxx::nontransaction n(conn);
      n.exec("SELECT pg_advisory_lock(" + std::to_string(key) + ")");
    }
    absl::Status status = fn(conn);
    {
      pqxx::nontransaction n(conn);
      n.exec("SELECT pg_advisory_unlock(" + std::to_string(key) + ")");
    }
    return status;
  } catch (const std::exception& e) {
    return StatusFromPqxx(e);
  }
}

}  // namespace arena::common
