// Token buckets by key, for quotas at the edge (sign-ups and sign-ins per address and per
// name, table creation per caller, clues per seat). Each key holds at most `burst` tokens and
// regains `per_second` tokens a second; a call takes one or is refused at once, so a flood is
// answered cheaply and never queues in front of other callers' work. Thread-safe.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace grpc {
class CallbackServerContext;
}

namespace arena::common {

class RateLimiter {
 public:
  struct Limit {
    double burst = 10;
    double per_second = 1;
  };
  // At most `max_keys` buckets are kept; past that, full (idle) buckets are forgotten first.
  explicit RateLimiter(Limit limit, size_t max_keys = 100000);

  // Takes a token from `key`'s bucket: true when there was one.
  bool Take(const std::string& key, absl::Time now = absl::Now());
  // True when `key`'s bucket holds a token (taking none).
  bool Has(const std::string& key, absl::Time now = absl::Now());
  // Takes a token even when that leaves the bucket empty (e.g. charging a failure).
  void Charge(const std::string& key, absl::Time now = absl::Now());
  // When `key` will next have a token (0 when it has one now).
  absl::Duration RetryAfter(const std::string& key, absl::Time now = absl::Now());

  // RESOURCE_EXHAUSTED "`what`; retry in N s" when `key` has no token, else takes one.
  absl::Status Check(const std::string& key, const std::string& what, absl::Time now = absl::Now());

  const Limit& limit() const { return limit_; }

 private:
  struct Bucket {
    double tokens = 0;
    absl::Time at;
  };
  Bucket& Refilled(const std::string& key, absl::Time now);  // mu_ held

  Limit limit_;
  size_t max_keys_;
  std::mutex mu_;
  std::unordered_map<std::string, Bucket> buckets_;
};

// The caller's network address without its port ("ipv4:127.0.0.1:5000" -> "127.0.0.1",
// "ipv6:[::1]:5000" -> "::1"); the whole peer string when it has no such form.
std::string PeerAddress(const grpc::CallbackServerContext& ctx);
std::string PeerAddressOf(const std::string& peer);

}  // namespace arena::common
