#include "services/common/rate_limit.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "grpcpp/server_context.h"

namespace arena::common {

RateLimiter::RateLimiter(Limit limit, size_t max_keys) : limit_(limit), max_keys_(max_keys) {}

RateLimiter::Bucket& RateLimiter::Refilled(const std::string& key, absl::Time now) {
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    if (buckets_.size() >= max_keys_) {
      // Forget the buckets that are full again: they hold no memory of abuse.
      for (auto i = buckets_.begin(); i != buckets_.end();) {
        double t = i->second.tokens + absl::ToDoubleSeconds(now - i->second.at) * limit_.per_second;
        i = t >= limit_.burst ? buckets_.erase(i) : std::next(i);
      }
      if (buckets_.size() >= max_keys_) buckets_.erase(buckets_.begin());
    }
    it = buckets_.emplace(key, Bucket{limit_.burst, now}).first;
    return it->second;
  }
  Bucket& b = it->second;
  if (now > b.at) {
    b.tokens =
        std::min(limit_.burst, b.tokens + absl::ToDoubleSeconds(now - b.at) * limit_.per_second);
    b.at = now;
  }
  return b;
}

bool RateLimiter::Take(const std::string& key, absl::Time now) {
  std::lock_guard<std::mutex> lock(mu_);
  Bucket& b = Refilled(key, now);
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

bool RateLimiter::Has(const std::string& key, absl::Time now) {
  std::lock_guard<std::mutex> lock(mu_);
  return Refilled(key, now).tokens >= 1;
}

void RateLimiter::Charge(const std::string& key, absl::Time now) {
  std::lock_guard<std::mutex> lock(mu_);
  Bucket& b = Refilled(key, now);
  b.tokens = std::max(0.0, b.tokens - 1);
}

absl::Duration RateLimiter::RetryAfter(const std::string& key, absl::Time now) {
  std::lock_guard<std::mutex> lock(mu_);
  Bucket& b = Refilled(key, now);
  if (b.tokens >= 1 || limit_.per_second <= 0) return absl::ZeroDuration();
  return absl::Seconds((1 - b.tokens) / limit_.per_second);
}

absl::Status RateLimiter::Check(const std::string& key, const std::string& what, absl::Time now) {
  if (Take(key, now)) return absl::OkStatus();
  int64_t seconds = static_cast<int64_t>(std::ceil(absl::ToDoubleSeconds(RetryAfter(key, now))));
  return absl::ResourceExhaustedError(
      absl::StrCat(what, "; retry in ", std::max<int64_t>(1, seconds), " s"));
}

std::string PeerAddressOf(const std::string& peer) {
  std::string rest = peer;
  for (const char* scheme : {"ipv4:", "ipv6:"}) {
    if (rest.rfind(scheme, 0) == 0) {
      rest = rest.substr(5);
      if (!rest.empty() && rest[0] == '[') {
        size_t close = rest.find(']');
        return close == std::string::npos ? rest : rest.substr(1, close - 1);
      }
      size_t colon = rest.rfind(':');
      return colon == std::string::npos ? rest : rest.substr(0, colon);
    }
  }
  return peer;
}

std::string PeerAddress(const grpc::CallbackServerContext& ctx) {
  return PeerAddressOf(ctx.peer());
}

}  // namespace arena::common
