#include "gateway/key_vault.h"

#include <sodium.h>

namespace arena::gateway {

absl::StatusOr<std::string> KeyVault::Register(const std::string& game_id, int seat,
                                               std::string_view api_key) {
  if (game_id.empty()) return absl::InvalidArgumentError("game_id is required");
  if (seat < 0) return absl::InvalidArgumentError("seat must not be negative");
  auto key = SecretKey::Make(api_key);
  if (!key.ok()) return key.status();
  unsigned char raw[24];
  randombytes_buf(raw, sizeof raw);
  char hex[sizeof raw * 2 + 1];
  sodium_bin2hex(hex, sizeof hex, raw, sizeof raw);
  std::string handle = std::string("kh_") + hex;
  std::lock_guard<std::mutex> lock(mu_);
  entries_[handle] = Entry{game_id, seat, *std::move(key)};
  return handle;
}

absl::StatusOr<std::shared_ptr<const SecretKey>> KeyVault::Lookup(const std::string& handle,
                                                                  const std::string& game_id,
                                                                  int seat) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(handle);
  if (it == entries_.end()) {
    return absl::FailedPreconditionError(
        "key_needed: no key is registered under this handle (released, or lost when the "
        "gateway restarted); register the key again");
  }
  if (it->second.game_id != game_id || it->second.seat != seat) {
    return absl::PermissionDeniedError("the key handle belongs to another game or seat");
  }
  return it->second.key;
}

absl::StatusOr<std::shared_ptr<const SecretKey>> KeyVault::LookupAny(
    const std::string& handle) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(handle);
  if (it == entries_.end()) {
    return absl::FailedPreconditionError("key_needed: no key is registered under this handle");
  }
  return it->second.key;
}

absl::Status KeyVault::Release(const std::string& handle, const std::string& game_id) {
  std::shared_ptr<const SecretKey> doomed;  // wiped outside the lock
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(handle);
  if (it == entries_.end()) return absl::NotFoundError("no key is registered under this handle");
  if (!game_id.empty() && it->second.game_id != game_id) {
    return absl::PermissionDeniedError("the key handle belongs to another game");
  }
  doomed = std::move(it->second.key);
  entries_.erase(it);
  return absl::OkStatus();
}

int KeyVault::ReleaseGame(const std::string& game_id) {
  std::lock_guard<std::mutex> lock(mu_);
  int n = 0;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->second.game_id == game_id) {
      it = entries_.erase(it);
      ++n;
    } else {
      ++it;
    }
  }
  return n;
}

size_t KeyVault::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

}  // namespace arena::gateway
