#include "services/common/migrate.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "common/log.h"
#include "services/common/pg_pool.h"

namespace arena::common {
namespace {

// One lock key for all migrations of a database: schemas may reference each other's types.
constexpr int64_t kMigrationLockKey = 0x4152454e41'4d49;  // "ARENA" "MI"

bool ValidIdentifier(const std::string& s) {
  if (s.empty() || s.size() > 63) return false;
  for (char c : s) {
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  }
  return !(s[0] >= '0' && s[0] <= '9');
}

}  // namespace

absl::StatusOr<MigrationReport> ApplyMigrations(const std::string& conninfo,
                                                const std::string& schema,
                                                const std::vector<Migration>& migrations) {
  if (!ValidIdentifier(schema)) {
    return absl::InvalidArgumentError(absl::StrCat("bad schema name '", schema, "'"));
  }
  std::vector<Migration> sorted = migrations;
  std::sort(sorted.begin(), sorted.end(),
            [](const Migration& a, const Migration& b) { return a.version < b.version; });
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i].version <= 0 || (i > 0 && sorted[i].version == sorted[i - 1].version)) {
      return absl::InvalidArgumentError(
          absl::StrCat("migration versions must be unique and positive: ", sorted[i].name));
    }
  }
  MigrationReport report;
  absl::Status status = WithAdvisoryLock(conninfo, kMigrationLockKey, [&](pqxx::connection& c) {
    {
      pqxx::work w(c);
      w.exec("CREATE SCHEMA IF NOT EXISTS " + schema);
      w.exec("CREATE TABLE IF NOT EXISTS " + schema +
             ".schema_migrations (version integer PRIMARY KEY, name text NOT NULL, "
             "applied_at timestamptz NOT NULL DEFAULT now())");
      w.commit();
    }
    std::map<int, std::string> recorded;
    {
      pqxx::work w(c);
      for (const auto& row : w.exec("SELECT version, name FROM " + schema + ".schema_migrations")) {
        recorded[row[0].as<int>()] = row[1].as<std::string>();
      }
      w.commit();
    }
    for (const auto& [version, name] : recorded) {
      auto it = std::find_if(sorted.begin(), sorted.end(),
                             [&](const Migration& m) { return m.version == version; });
      if (it == sorted.end() || it->name != name) {
        return absl::FailedPreconditionError(absl::StrCat(
            "database has migration ", version, " (", name, ") that this binary does not know"));
      }
    }
    for (const Migration& m : sorted) {
      if (recorded.count(m.version)) continue;
      pqxx::work w(c);
      w.exec("SET LOCAL search_path TO " + schema + ", public");
      w.exec(m.sql);
      w.exec_params("INSERT INTO " + schema + ".schema_migrations (version, name) VALUES ($1, $2)",
                    m.version, m.name);
      w.commit();
      report.applied.push_back(m.version);
      LogInfo("migration applied", {{"schema", schema}, {"version", m.version}, {"name", m.name}});
    }
    report.current_version = sorted.empty() ? 0 : sorted.back().version;
    if (!recorded.empty())
      report.current_version = std::max(report.current_version, recorded.rbegin()->first);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return report;
}

}  // namespace arena::common
