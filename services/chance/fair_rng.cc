#include "services/chance/fair_rng.h"

#include <sodium.h>

#include <cmath>

namespace arena::game_state {

std::string FairDraw::NewSecretSeed() {
  std::string seed(32, '\0');
  randombytes_buf(seed.data(), seed.size());
  return seed;
}

std::string FairDraw::Commitment(std::string_view seed) {
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(seed.data()), seed.size());
  return ToHex(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

DrawBytes FairDraw::Draw(std::string_view purpose, uint64_t counter) const {
  std::string message;
  for (const std::string& s : seat_seeds_) {
    uint32_t n = static_cast<uint32_t>(s.size());
    for (int i = 3; i >= 0; --i) message.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
    message += s;
  }
  message += purpose;
  message.push_back('\0');
  for (int i = 7; i >= 0; --i) message.push_back(static_cast<char>((counter >> (8 * i)) & 0xff));

  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, reinterpret_cast<const unsigned char*>(seed_.data()),
                              seed_.size());
  crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(message.data()),
                                message.size());
  DrawBytes out{};
  crypto_auth_hmacsha256_final(&state, out.data());
  return out;
}

double UniformFromBytes(const DrawBytes& bytes) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | bytes[i];
  return static_cast<double>(v >> 11) * 0x1.0p-53;
}

int PickByInverseCdf(const std::vector<engine::ChanceOutcome>& outcomes, double u) {
  if (outcomes.empty()) return -1;
  double total = 0;
  for (const auto& o : outcomes) total += o.probability;
  double target = u * total;
  double running = 0;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    running += outcomes[i].probability;
    if (target < running) return static_cast<int>(i);
  }
  return static_cast<int>(outcomes.size()) - 1;
}

int PickUniform(int n, double u) {
  int k = static_cast<int>(std::floor(u * n));
  return k < 0 ? 0 : (k >= n ? n - 1 : k);
}

std::string ToHex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

bool FromHex(std::string_view hex, std::string* out) {
  if (hex.size() % 2 != 0) return false;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) return false;
    bytes.push_back(static_cast<char>(hi * 16 + lo));
  }
  *out = std::move(bytes);
  return true;
}

}  // namespace arena::game_state
