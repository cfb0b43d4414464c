// Test support: a fresh PostgreSQL database per test, on the throw-away cluster that
// scripts/test starts (ARENA_TEST_DATABASE_URL points at its maintenance database).
#pragma once

#include <string>

namespace arena::testing {

class TestDatabase {
 public:
  // Creates a uniquely named database; fails the test (via ADD_FAILURE) when the cluster is
  // not reachable or ARENA_TEST_DATABASE_URL is not set.
  TestDatabase();
  ~TestDatabase();  // drops it
  TestDatabase(const TestDatabase&) = delete;
  TestDatabase& operator=(const TestDatabase&) = delete;

  bool ok() const { return !url_.empty(); }
  const std::string& url() const { return url_; }
  const std::string& name() const { return name_; }

 private:
  std::string admin_url_;
  std::string name_;
  std::string url_;
};

// The cluster URL with its database name replaced by `dbname`.
std::string WithDatabase(const std::string& url, const std::string& dbname);

}  // namespace arena::testing
