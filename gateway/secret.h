// Secrets in locked memory: an API key lives in a sodium_malloc'd buffer (guard pages,
// mlock'd where the system allows) and is wiped with sodium_memzero when released. It is never
// copied into a std::string, logged, or returned.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace arena::gateway {

class SecretKey {
 public:
  // Copies `text` into locked memory. INVALID_ARGUMENT (the message never quotes the key)
  // when it is empty, longer than 1024 bytes, or holds anything but printable ASCII.
  static absl::StatusOr<std::shared_ptr<const SecretKey>> Make(std::string_view text);
  // Reads a key file (trailing whitespace trimmed), wiping the intermediate buffer.
  static absl::StatusOr<std::shared_ptr<const SecretKey>> ReadFile(const std::string& path);
  ~SecretKey();
  SecretKey(const SecretKey&) = delete;
  SecretKey& operator=(const SecretKey&) = delete;

  const char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  SecretKey() = default;
  char* data_ = nullptr;  // NUL-terminated
  size_t size_ = 0;
};

// Initialises libsodium once; false when it cannot.
bool InitSodium();

}  // namespace arena::gateway
