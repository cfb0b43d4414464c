#include "services/common/service_auth.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "gtest/gtest.h"

namespace arena::common {
namespace {

std::string TempDir() {
  char tmpl[] = "/tmp/arena-secrets-XXXXXX";
  return mkdtemp(tmpl);
}

TEST(ServiceSecretsTest, CreatesOneSecretPerServiceOnceWithPrivateMode) {
  std::string dir = TempDir() + "/secrets";
  ASSERT_TRUE(EnsureServiceSecrets(dir).ok());
  struct stat st;
  std::string path = dir + "/arena.secret";
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  std::ifstream in(path);
  std::string first;
  in >> first;
  EXPECT_EQ(first.size(), 64u);
  ASSERT_TRUE(EnsureServiceSecrets(dir).ok());  // idempotent: keeps existing secrets
  std::ifstream again(path);
  std::string second;
  again >> second;
  EXPECT_EQ(first, second);
  std::ifstream other(dir + "/arena-bot.secret");
  std::string bot;
  other >> bot;
  EXPECT_NE(bot, first);
}

TEST(ServiceIdentityTest, MissingSecretIsAnError) {
  auto id = ServiceIdentity::Load(TempDir(), "arena");
  EXPECT_EQ(id.status().code(), absl::StatusCode::kNotFound);
  auto auth = ServiceAuthenticator::Load(TempDir(), {"arena"});
  EXPECT_EQ(auth.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace arena::common
