#include "gateway/secret.h"

#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <cstring>

namespace arena::gateway {

bool InitSodium() {
  static const bool ok = sodium_init() >= 0;
  return ok;
}

absl::StatusOr<std::shared_ptr<const SecretKey>> SecretKey::Make(std::string_view text) {
  if (!InitSodium()) return absl::InternalError("libsodium failed to initialise");
  if (text.empty()) return absl::InvalidArgumentError("api key is empty");
  if (text.size() > 1024) return absl::InvalidArgumentError("api key is longer than 1024 bytes");
  for (unsigned char c : text) {
    if (c < 0x21 || c > 0x7e) {
      return absl::InvalidArgumentError("api key holds a character that is not printable ASCII");
    }
  }
  std::shared_ptr<SecretKey> key(new SecretKey());
  // sodium_malloc locks the pages (mlock) and surrounds them with guard pages.
  key->data_ = static_cast<char*>(sodium_malloc(text.size() + 1));
  if (key->data_ == nullptr) return absl::ResourceExhaustedError("cannot allocate locked memory");
  std::memcpy(key->data_, text.data(), text.size());
  key->data_[text.size()] = '\0';
  key->size_ = text.size();
  return std::shared_ptr<const SecretKey>(std::move(key));
}

absl::StatusOr<std::shared_ptr<const SecretKey>> SecretKey::ReadFile(const std::string& path) {
  if (!InitSodium()) return absl::InternalError("libsodium failed to initialise");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::NotFoundError("cannot open the api key file " + path);
  constexpr size_t kMax = 4096;
  char* buf = static_cast<char*>(sodium_malloc(kMax));
  if (buf == nullptr) {
    ::close(fd);
    return absl::ResourceExhaustedError("cannot allocate locked memory");
  }
  size_t len = 0;
  while (len < kMax) {
    ssize_t n = ::read(fd, buf + len, kMax - len);
    if (n <= 0) break;
    len += static_cast<size_t>(n);
  }
  ::close(fd);
  size_t begin = 0;
  while (begin < len &&
         (buf[begin] == ' ' || buf[begin] == '\n' || buf[begin] == '\r' || buf[begin] == '\t')) {
    ++begin;
  }
  while (len > begin && (buf[len - 1] == ' ' || buf[len - 1] == '\n' || buf[len - 1] == '\r' ||
                         buf[len - 1] == '\t')) {
    --len;
  }
  auto key = Make(std::string_view(buf + begin, len - begin));
  sodium_memzero(buf, kMax);
  sodium_free(buf);
  if (!key.ok()) {
    return absl::Status(key.status().code(),
                        "api key file " + path + ": " + std::string(key.status().message()));
  }
  return key;
}

SecretKey::~SecretKey() {
  if (data_ != nullptr) {
    sodium_memzero(data_, size_ + 1);
    sodium_free(data_);
  }
}

}  // namespace arena::gateway
