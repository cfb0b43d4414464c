// Flags of the servers that own a PostgreSQL schema (ARENA_DATABASE_URL, ARENA_DB_POOL_SIZE,
// ARENA_MIGRATE_ONLY).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "services/common/migrate.h"
#include "services/common/pg_pool.h"

ABSL_DECLARE_FLAG(std::string, database_url);
ABSL_DECLARE_FLAG(int, db_pool_size);
ABSL_DECLARE_FLAG(bool, migrate_only);

namespace arena::common {

// Applies `schema`'s migrations and opens the pool; exits 2 with a clear message when the
// database is unreachable or a migration fails. With --migrate_only, exits 0 after migrating.
std::unique_ptr<PgPool> OpenDatabaseOrDie(const std::string& schema,
                                          const std::vector<Migration>& migrations);

}  // namespace arena::common
