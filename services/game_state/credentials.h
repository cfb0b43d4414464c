// Seat and host credentials: random tokens shown once, stored only as keyed BLAKE2b hashes.
//
// The hashing key (32 bytes) lives in `<secrets_dir>/game-state-credential.key`, created on
// first start with mode 0600. A credential is 32 random bytes written as 64 hex characters.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace arena::game_state {

class CredentialHasher {
 public:
  static absl::StatusOr<CredentialHasher> LoadOrCreate(const std::string& secrets_dir);
  explicit CredentialHasher(std::string key) : key_(std::move(key)) {}

  static std::string NewCredential();
  // Keyed BLAKE2b-256 of the credential.
  std::string Hash(std::string_view credential) const;
  // Constant-time comparison of Hash(credential) with `stored`.
  bool Matches(std::string_view credential, std::string_view stored) const;

 private:
  std::string key_;
};

}  // namespace arena::game_state
