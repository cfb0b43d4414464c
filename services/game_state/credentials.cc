#include "services/game_state/credentials.h"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "services/chance/fair_rng.h"

namespace arena::game_state {

absl::StatusOr<CredentialHasher> CredentialHasher::LoadOrCreate(const std::string& dir) {
  std::string path = dir + "/game-state-credential.key";
  std::ifstream in(path, std::ios::binary);
  if (in) {
    std::stringstream ss;
    ss << in.rdbuf();
    std::string key = ss.str();
    if (key.size() != crypto_generichash_KEYBYTES) {
      return absl::FailedPreconditionError(absl::StrCat("credential key ", path, " is malformed"));
    }
    return CredentialHasher(std::move(key));
  }
  ::mkdir(dir.c_str(), 0700);
  std::string key(crypto_generichash_KEYBYTES, '\0');
  randombytes_buf(key.data(), key.size());
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) {
    // Another process created it first: read theirs.
    std::ifstream again(path, std::ios::binary);
    if (!again) return absl::FailedPreconditionError(absl::StrCat("cannot create ", path));
    std::stringstream ss;
    ss << again.rdbuf();
    if (ss.str().size() != key.size()) {
      return absl::FailedPreconditionError(absl::StrCat("credential key ", path, " is malformed"));
    }
    return CredentialHasher(ss.str());
  }
  bool ok = ::write(fd, key.data(), key.size()) == static_cast<ssize_t>(key.size());
  ::close(fd);
  if (!ok) return absl::FailedPreconditionError(absl::StrCat("cannot write ", path));
  return CredentialHasher(std::move(key));
}

std::string CredentialHasher::NewCredential() {
  std::string raw(32, '\0');
  randombytes_buf(raw.data(), raw.size());
  return ToHex(raw);
}

std::string CredentialHasher::Hash(std::string_view credential) const {
  std::string out(32, '\0');
  crypto_generichash(reinterpret_cast<unsigned char*>(out.data()), out.size(),
                     reinterpret_cast<const unsigned char*>(credential.data()), credential.size(),
                     reinterpret_cast<const unsigned char*>(key_.data()), key_.size());
  return out;
}

bool CredentialHasher::Matches(std::string_view credential, std::string_view stored) const {
  if (credential.empty() || stored.size() != 32) return false;
  std::string h = Hash(credential);
  return sodium_memcmp(h.data(), stored.data(), 32) == 0;
}

}  // namespace arena::game_state
