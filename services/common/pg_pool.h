// A small PostgreSQL connection pool on libpqxx with transactional retries.
//
// Transact() runs a function inside one transaction on a pooled connection. It retries the
// whole function when the transaction could not have committed: a lost connection before the
// commit, a serialization failure or a deadlock. A connection lost *during* the commit leaves
// the outcome unknown; that is reported as UNAVAILABLE and never retried, because the work
// may already be durable. Exceptions from libpqxx stop here; callers see absl::Status.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"

namespace arena::common {

enum class Isolation { kReadCommitted, kRepeatableRead, kSerializable };

class PgPool {
 public:
  struct Options {
    int size = 8;
    int max_attempts = 8;  // per Transact() call
    absl::Duration acquire_timeout = absl::Seconds(30);
    absl::Duration connect_retry = absl::Seconds(20);  // total time to keep reconnecting
    // When set, every connection resolves unqualified names in this schema, then `public`
    // (SET search_path), whatever the role is called: a service's queries never depend on its
    // role being named after its schema.
    std::string schema;
  };

  // Opens one connection eagerly to fail fast on a bad URL; the rest open on demand.
  static absl::StatusOr<std::unique_ptr<PgPool>> Create(std::string conninfo, Options options);
  static absl::StatusOr<std::unique_ptr<PgPool>> Create(std::string conninfo) {
    return Create(std::move(conninfo), Options{});
  }

  using TxnFn = std::function<absl::Status(pqxx::transaction_base&)>;
  // Runs `fn` in a transaction; commits when it returns OK, rolls back otherwise.
  absl::Status Transact(const TxnFn& fn, Isolation isolation = Isolation::kReadCommitted);

  // Runs `fn` outside a transaction block, for work that is exactly one statement (say, one
  // function call) and so is its own transaction: one round trip instead of BEGIN, statement,
  // COMMIT. A serialization failure or deadlock rolled the statement back, so it is retried
  // like Transact; a lost connection may have lost the answer to a committed statement, so it
  // is UNAVAILABLE and never retried. `fn` must not issue more than one writing statement.
  absl::Status SingleStatement(const TxnFn& fn);

  // Runs `fn` with a raw connection (for LISTEN, COPY or a session-level advisory lock).
  absl::Status WithConnection(const std::function<absl::Status(pqxx::connection&)>& fn);

  const std::string& conninfo() const { return conninfo_; }
  int size() const { return options_.size; }

 private:
  PgPool(std::string conninfo, Options options);
  absl::StatusOr<std::unique_ptr<pqxx::connection>> Acquire();
  void Release(std::unique_ptr<pqxx::connection> conn);
  absl::StatusOr<std::unique_ptr<pqxx::connection>> Connect();

  const std::string conninfo_;
  const Options options_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::unique_ptr<pqxx::connection>> idle_;  // guarded by mu_
  int open_ = 0;                                         // guarded by mu_
};

// Maps a libpqxx exception to a status for the edge of a storage call.
absl::Status StatusFromPqxx(const std::exception& e);

// Runs `fn` holding a session-level advisory lock keyed by `key` on its own connection.
absl::Status WithAdvisoryLock(const std::string& conninfo, int64_t key,
                              const std::function<absl::Status(pqxx::connection&)>& fn);

}  // namespace arena::common
