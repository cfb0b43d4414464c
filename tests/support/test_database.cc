#include "tests/support/test_database.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <random>

#include "gtest/gtest.h"
#include "pqxx/pqxx"

namespace arena::testing {

std::string WithDatabase(const std::string& url, const std::string& dbname) {
  // postgresql://user@host:port/db?params  ->  replace "db".
  size_t scheme = url.find("://");
  size_t slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  size_t query = url.find('?');
  if (slash == std::string::npos) {
    return query == std::string::npos ? url + "/" + dbname
                                      : url.substr(0, query) + "/" + dbname + url.substr(query);
  }
  std::string tail = query == std::string::npos ? "" : url.substr(query);
  return url.substr(0, slash + 1) + dbname + tail;
}

TestDatabase::TestDatabase() {
  const char* env = std::getenv("ARENA_TEST_DATABASE_URL");
  if (env == nullptr || *env == '\0') {
    ADD_FAILURE() << "ARENA_TEST_DATABASE_URL is not set: run the tests with scripts/test, which "
                     "starts a throw-away PostgreSQL cluster";
    return;
  }
  admin_url_ = env;
  static std::atomic<int> counter{0};
  std::random_device rd;
  name_ = "t_" + std::to_string(getpid()) + "_" + std::to_string(counter++) + "_" +
          std::to_string(rd() % 1000000);
  try {
    pqxx::connection c(admin_url_);
    pqxx::nontransaction n(c);
    n.exec("CREATE DATABASE " + name_);
    url_ = WithDatabase(admin_url_, name_);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "cannot create test database: " << e.what();
  }
}

TestDatabase::~TestDatabase() {
  if (url_.empty()) return;
  try {
    pqxx::connection c(admin_url_);
    pqxx::nontransaction n(c);
    n.exec("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
  } catch (const std::exception&) {
    // The cluster is thrown away at the end of the run anyway.
  }
}

}  // namespace arena::testing
