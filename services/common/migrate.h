// Schema migrations: numbered SQL files, embedded in the binary at build time, applied once
// each, in order, under a PostgreSQL advisory lock, and recorded in <schema>.schema_migrations.
// Two servers starting at the same moment serialise on the lock; the second finds the work
// done and applies nothing.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace arena::common {

struct Migration {
  int version = 0;   // from the file name: 0001_init.sql -> 1
  std::string name;  // "0001_init.sql"
  std::string sql;
};

struct MigrationReport {
  std::vector<int> applied;  // versions applied by this call
  int current_version = 0;   // highest version recorded after the call
};

// Applies the pending migrations of `schema`. Versions must be unique and positive; a
// recorded version whose file is missing or renamed is an error (the binary is older than the
// database).
absl::StatusOr<MigrationReport> ApplyMigrations(const std::string& conninfo,
                                                const std::string& schema,
                                                const std::vector<Migration>& migrations);

}  // namespace arena::common
