// Accounts, sign-in and tokens of the `arena` service (PostgreSQL schema `arena`).
//
// Passwords are stored as argon2id strings (crypto_pwhash_str) and hashed or verified behind
// PasswordHasher's small concurrency limit, so a flood of sign-ins cannot take every core.
// Tokens are 32 random bytes shown once; only their keyed BLAKE2b hash (crypto_generichash
// with the server key from the secrets dir) is stored. Roles: "guest" (a guest token, no
// credits), "player", "admin".
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <semaphore>
#include <string>
#include <unordered_map>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"

namespace arena::accounts {

inline constexpr char kGuest[] = "guest";
inline constexpr char kPlayer[] = "player";
inline constexpr char kAdmin[] = "admin";

// Who a request comes from, after its bearer token was checked.
struct Principal {
  std::string account_id;
  std::string name;
  std::string role;
  std::string token_id;
  bool is_admin() const { return role == kAdmin; }
  bool is_guest() const { return role == kGuest; }
};

// A token just issued: the only time its plain text exists outside the client.
struct IssuedToken {
  std::string account_id;
  std::string token_id;
  std::string token;
  std::string role;
};

// argon2id behind a semaphore of `concurrency` permits. A caller that cannot get a permit
// within `wait` gets UNAVAILABLE instead of queueing forever.
class PasswordHasher {
 public:
  enum class Cost { kInteractive, kMinimum };  // kMinimum is for tests only
  PasswordHasher(Cost cost, absl::Duration wait = absl::Seconds(10));
  absl::StatusOr<std::string> Hash(const std::string& password);
  // OK when it matches; UNAUTHENTICATED when it does not.
  absl::Status Verify(const std::string& stored, const std::string& password);

 private:
  absl::Status Acquire();
  unsigned long long ops_;
  size_t mem_;
  absl::Duration wait_;
  std::counting_semaphore<2> permits_{2};
};

class Accounts {
 public:
  // `token_key` is the 32-byte server key for token hashes.
  Accounts(common::PgPool& pool, std::string token_key, PasswordHasher& hasher);

  // Reads `<dir>/arena-token.key` (64 hex chars), creating it (0600) when missing.
  static absl::StatusOr<std::string> LoadOrCreateTokenKey(const std::string& secrets_dir);

  absl::StatusOr<IssuedToken> SignUp(const std::string& name, const std::string& password);
  absl::StatusOr<IssuedToken> SignIn(const std::string& name, const std::string& password);
  absl::StatusOr<IssuedToken> Guest(const std::string& display_name);
  absl::StatusOr<IssuedToken> CreateApiToken(const Principal& who, const std::string& label);
  absl::Status RevokeToken(const Principal& who, const std::string& token_id);

  // UNAUTHENTICATED for an unknown, revoked or expired token.
  absl::StatusOr<Principal> Authenticate(const std::string& token);

  absl::Status Block(const Principal& who, const std::string& name, bool unblock);
  // Invites `name` to play; PERMISSION_DENIED when `name` has blocked the inviter.
  absl::StatusOr<int64_t> Invite(const Principal& who, const std::string& name,
                                 const std::string& note);
  struct Invitation {
    int64_t id = 0;
    std::string from_name;
    std::string note;
    absl::Time at;
  };
  absl::StatusOr<std::vector<Invitation>> Invitations(const Principal& who, int limit);

  // NOT_FOUND for an unknown name (guests included).
  absl::StatusOr<Principal> FindByName(const std::string& name);
  absl::StatusOr<Principal> FindById(const std::string& account_id);

  // Creates `name` as an admin with `password`, or makes an existing account admin (its
  // password unchanged). Idempotent; used by `arena --bootstrap_admin`.
  absl::Status BootstrapAdmin(const std::string& name, const std::string& password);

 private:
  std::string TokenHashHex(const std::string& token) const;
  absl::StatusOr<IssuedToken> IssueToken(pqxx::transaction_base& t, const std::string& account_id,
                                         const std::string& role, const std::string& kind,
                                         const std::string& label, absl::Duration ttl);

  common::PgPool& pool_;
  std::string token_key_;
  PasswordHasher& hasher_;
  std::string dummy_hash_;  // verified against for unknown names, so timing reveals nothing

  // Every call checks its token and many name a player: two small caches save those reads.
  // A token check is trusted for kTokenCacheTtl (a revocation here drops it at once; one made
  // through another replica takes effect within the TTL). Names never change owner.
  struct CachedPrincipal {
    Principal principal;
    std::chrono::steady_clock::time_point until;
  };
  std::mutex cache_mu_;
  std::unordered_map<std::string, CachedPrincipal> token_cache_;  // token hash -> principal
  std::unordered_map<std::string, Principal> name_cache_;         // name -> principal
};

// Name rules: 3..32 of [a-z0-9_-], starting with a letter; not a letter and '_' (the shape of
// account ids), not guest-.

absl::Status ValidateName(const std::string& name);

// True when `s` has the shape of an account id: a lower-case letter, '_', then anything.
// Such a string is looked up as an id only, never as a name.
bool LooksLikeAccountId(const std::string& s);

}  // namespace arena::accounts
