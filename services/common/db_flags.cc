#include "services/common/db_flags.h"

#include <cstdlib>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "common/log.h"
#include "services/common/startup.h"

ABSL_FLAG(std::string, database_url, "", "PostgreSQL connection URL (required).");
ABSL_FLAG(int, db_pool_size, 16, "Connections in the PostgreSQL pool.");
ABSL_FLAG(bool, migrate_only, false, "Apply migrations and exit.");

namespace arena::common {

std::unique_ptr<PgPool> OpenDatabaseOrDie(const std::string& schema,
                                          const std::vector<Migration>& migrations) {
  std::string url = absl::GetFlag(FLAGS_database_url);
  if (url.empty()) DieAtStartup(absl::InvalidArgumentError("--database_url is required"));
  int pool_size = absl::GetFlag(FLAGS_db_pool_size);
  if (pool_size < 1 || pool_size > 1000) {
    DieAtStartup(absl::InvalidArgumentError(
        absl::StrCat("--db_pool_size=", pool_size, " must be within 1..1000")));
  }
  auto report = ValueOrDie(ApplyMigrations(url, schema, migrations));
  LogInfo("schema ready", {{"schema", schema},
                           {"version", report.current_version},
                           {"applied", report.applied.size()}});
  if (absl::GetFlag(FLAGS_migrate_only)) std::exit(0);
  PgPool::Options options;
  options.size = pool_size;
  options.schema = schema;
  return ValueOrDie(PgPool::Create(url, options));
}

}  // namespace arena::common
