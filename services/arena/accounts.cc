#include "services/arena/accounts.h"

#include <sodium.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "services/arena/ledger.h"

namespace arena::accounts {
namespace {

constexpr char kFindByName[] =
    "SELECT account_id, name, role, password_hash FROM arena.accounts WHERE name = $1";
constexpr char kFindById[] =
    "SELECT account_id, name, role FROM arena.accounts WHERE account_id = $1";
constexpr char kInsertAccount[] =
    "INSERT INTO arena.accounts (account_id, name, password_hash, role, display_name) "
    "VALUES ($1, $2, NULLIF($3, ''), $4, $5) ON CONFLICT (name) DO NOTHING RETURNING account_id";
constexpr char kInsertToken[] =
    "INSERT INTO arena.tokens (token_id, account_id, token_hash, label, kind, expires_at) "
    "VALUES ($1, $2, decode($3, 'hex'), $4, $5, "
    "        CASE WHEN $6 > 0 THEN now() + $6 * interval '1 second' END)";
constexpr char kAuthenticate[] =
    "SELECT t.token_id, a.account_id, a.name, a.role FROM arena.tokens t "
    "JOIN arena.accounts a ON a.account_id = t.account_id "
    "WHERE t.token_hash = decode($1, 'hex') AND t.revoked_at IS NULL "
    "AND (t.expires_at IS NULL OR t.expires_at > now())";
constexpr char kRevokeToken[] =
    "UPDATE arena.tokens SET revoked_at = now() WHERE token_id = $1 AND account_id = $2 "
    "AND revoked_at IS NULL RETURNING token_id";
constexpr char kBlock[] =
    "INSERT INTO arena.blocks (blocker_id, blocked_id) VALUES ($1, $2) ON CONFLICT DO NOTHING";
constexpr char kUnblock[] = "DELETE FROM arena.blocks WHERE blocker_id = $1 AND blocked_id = $2";
constexpr char kIsBlocked[] =
    "SELECT 1 FROM arena.blocks WHERE blocker_id = $1 AND blocked_id = $2";
constexpr char kInsertInvitation[] =
    "INSERT INTO arena.invitations (inviter_id, invitee_id, note) VALUES ($1, $2, $3) "
    "RETURNING invitation_id";
constexpr char kInvitationsFor[] =
    "SELECT i.invitation_id, a.name, i.note, (extract(epoch FROM i.created_at) * 1000000)::bigint "
    "FROM arena.invitations i JOIN arena.accounts a ON a.account_id = i.inviter_id "
    "WHERE i.invitee_id = $1 AND NOT EXISTS (SELECT 1 FROM arena.blocks b "
    "  WHERE b.blocker_id = i.invitee_id AND b.blocked_id = i.inviter_id) "
    "ORDER BY i.invitation_id DESC LIMIT $2";
constexpr char kPromoteAdmin[] =
    "UPDATE arena.accounts SET role = 'admin' WHERE name = $1 AND role <> 'guest' "
    "RETURNING account_id";

constexpr auto kTokenCacheTtl = std::chrono::seconds(2);
constexpr size_t kMaxCacheEntries = 100000;
constexpr absl::Duration kSessionTtl = absl::Hours(24 * 30);
constexpr absl::Duration kGuestTtl = absl::Hours(24);

std::string RandomHex(size_t bytes) {
  std::string raw(bytes, '\0');
  randombytes_buf(raw.data(), raw.size());
  std::string hex(bytes * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), reinterpret_cast<const unsigned char*>(raw.data()),
                 raw.size());
  sodium_memzero(raw.data(), raw.size());
  hex.pop_back();
  return hex;
}

absl::Status ValidatePassword(const std::string& password) {
  if (password.size() < 8) return absl::InvalidArgumentError("password shorter than 8");
  if (password.size() > 1024) return absl::InvalidArgumentError("password longer than 1024");
  return absl::OkStatus();
}

}  // namespace

bool LooksLikeAccountId(const std::string& s) {
  return s.size() >= 2 && s[0] >= 'a' && s[0] <= 'z' && s[1] == '_';
}

absl::Status ValidateName(const std::string& name) {
  if (name.size() < 3 || name.size() > 32) {
    return absl::InvalidArgumentError("name must be 3 to 32 characters");
  }
  if (!(name[0] >= 'a' && name[0] <= 'z')) {
    return absl::InvalidArgumentError("name must start with a lower-case letter");
  }
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) return absl::InvalidArgumentError("name may hold only a-z, 0-9, _ and -");
  }
  // Account ids are a letter, '_' and hex ("u_3f…", "g_…"): a name shaped like that could be
  // taken for another account's id wherever a request accepts either.
  if (name[1] == '_') {
    return absl::InvalidArgumentError("a name may not start with a letter and '_' (ids do)");
  }
  if (absl::StartsWith(name, "guest-")) {
    return absl::InvalidArgumentError("names starting with guest- are for guests");
  }
  return absl::OkStatus();
}

// --- PasswordHasher ------------------------------------------------------------------------

PasswordHasher::PasswordHasher(Cost cost, absl::Duration wait) : wait_(wait) {
  if (sodium_init() < 0) std::abort();
  if (cost == Cost::kInteractive) {
    ops_ = crypto_pwhash_OPSLIMIT_INTERACTIVE;
    mem_ = crypto_pwhash_MEMLIMIT_INTERACTIVE;
  } else {
    ops_ = crypto_pwhash_OPSLIMIT_MIN;
    mem_ = crypto_pwhash_MEMLIMIT_MIN;
  }
}

absl::Status PasswordHasher::Acquire() {
  if (!permits_.try_acquire_for(absl::ToChronoMilliseconds(wait_))) {
    return absl::UnavailableError("too many sign-ins at once; retry shortly");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> PasswordHasher::Hash(const std::string& password) {
  if (auto s = Acquire(); !s.ok()) return s;
  char out[crypto_pwhash_STRBYTES];
  int rc = crypto_pwhash_str_alg(out, password.data(), password.size(), ops_, mem_,
                                 crypto_pwhash_ALG_ARGON2ID13);
  permits_.release();
  if (rc != 0) return absl::ResourceExhaustedError("password hashing ran out of memory");
  return std::string(out);
}

absl::Status PasswordHasher::Verify(const std::string& stored, const std::string& password) {
  if (auto s = Acquire(); !s.ok()) return s;
  int rc = crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size());
  permits_.release();
  if (rc != 0) return absl::UnauthenticatedError("wrong name or password");
  return absl::OkStatus();
}

// --- Accounts ------------------------------------------------------------------------------

Accounts::Accounts(common::PgPool& pool, std::string token_key, PasswordHasher& hasher)
    : pool_(pool), token_key_(std::move(token_key)), hasher_(hasher) {
  auto dummy = hasher_.Hash(RandomHex(16));
  if (dummy.ok()) dummy_hash_ = *dummy;
}

absl::StatusOr<std::string> Accounts::LoadOrCreateTokenKey(const std::string& secrets_dir) {
  if (sodium_init() < 0) return absl::InternalError("libsodium failed to initialise");
  if (secrets_dir.empty()) return absl::InvalidArgumentError("--secrets_dir is required");
  std::string path = secrets_dir + "/arena-token.key";
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    ::mkdir(secrets_dir.c_str(), 0700);
    std::string tmp = path + ".tmp." + RandomHex(4);
    {
      std::ofstream out(tmp, std::ios::trunc);
      out << RandomHex(crypto_generichash_KEYBYTES) << "\n";
      if (!out) return absl::InternalError(absl::StrCat("cannot write ", tmp));
    }
    ::chmod(tmp.c_str(), 0600);
    // link() fails if another process created it first; then both use the winner's key.
    if (::link(tmp.c_str(), path.c_str()) != 0 && errno != EEXIST) {
      ::unlink(tmp.c_str());
      return absl::InternalError(absl::StrCat("cannot create ", path));
    }
    ::unlink(tmp.c_str());
  }
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string hex(absl::StripAsciiWhitespace(ss.str()));
  std::string key(crypto_generichash_KEYBYTES, '\0');
  size_t len = 0;
  if (sodium_hex2bin(reinterpret_cast<unsigned char*>(key.data()), key.size(), hex.data(),
                     hex.size(), nullptr, &len, nullptr) != 0 ||
      len != key.size()) {
    return absl::FailedPreconditionError(absl::StrCat("bad token key in ", path));
  }
  return key;
}

std::string Accounts::TokenHashHex(const std::string& token) const {
  unsigned char out[32];
  crypto_generichash(out, sizeof out, reinterpret_cast<const unsigned char*>(token.data()),
                     token.size(), reinterpret_cast<const unsigned char*>(token_key_.data()),
                     token_key_.size());
  char hex[65];
  sodium_bin2hex(hex, sizeof hex, out, sizeof out);
  return std::string(hex, 64);
}

absl::StatusOr<IssuedToken> Accounts::IssueToken(pqxx::transaction_base& t,
                                                 const std::string& account_id,
                                                 const std::string& role, const std::string& kind,
                                                 const std::string& label, absl::Duration ttl) {
  IssuedToken out;
  out.account_id = account_id;
  out.role = role;
  out.token_id = "tok_" + RandomHex(8);
  out.token = "arena_" + RandomHex(32);
  t.exec_params(kInsertToken, out.token_id, account_id, TokenHashHex(out.token), label, kind,
                absl::ToInt64Seconds(ttl));
  return out;
}

absl::StatusOr<IssuedToken> Accounts::SignUp(const std::string& name, const std::string& password) {
  if (auto s = ValidateName(name); !s.ok()) return s;
  if (auto s = ValidatePassword(password); !s.ok()) return s;
  auto hash = hasher_.Hash(password);
  if (!hash.ok()) return hash.status();
  IssuedToken out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    std::string id = "u_" + RandomHex(8);
    auto rows = t.exec_params(kInsertAccount, id, name, *hash, kPlayer, name);
    if (rows.empty()) return absl::AlreadyExistsError(absl::StrCat("name ", name, " is taken"));
    ledger::Ledger::OpenUserAccount(t, id);
    auto token = IssueToken(t, id, kPlayer, "session", "sign-up", kSessionTtl);
    if (!token.ok()) return token.status();
    out = *token;
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<IssuedToken> Accounts::SignIn(const std::string& name, const std::string& password) {
  if (password.empty() || password.size() > 1024 || name.size() > 64) {
    return absl::UnauthenticatedError("wrong name or password");
  }
  std::string account_id, role, stored;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    auto rows = t.exec_params(kFindByName, name);
    if (!rows.empty() && !rows[0][3].is_null()) {
      account_id = rows[0][0].as<std::string>();
      role = rows[0][2].as<std::string>();
      stored = rows[0][3].as<std::string>();
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  if (stored.empty()) {
    // Spend the same effort as a real check, then refuse the same way.
    (void)hasher_.Verify(dummy_hash_, password);
    return absl::UnauthenticatedError("wrong name or password");
  }
  if (auto s = hasher_.Verify(stored, password); !s.ok()) return s;
  IssuedToken out;
  status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    auto token = IssueToken(t, account_id, role, "session", "sign-in", kSessionTtl);
    if (!token.ok()) return token.status();
    out = *token;
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<IssuedToken> Accounts::Guest(const std::string& display_name) {
  if (display_name.size() > 64) return absl::InvalidArgumentError("display name longer than 64");
  IssuedToken out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    std::string id = "g_" + RandomHex(8);
    std::string name = "guest-" + RandomHex(6);
    std::string shown = display_name.empty() ? name : display_name;
    auto rows = t.exec_params(kInsertAccount, id, name, std::string(), kGuest, shown);
    if (rows.empty()) return absl::AbortedError("guest name collision; retry");
    auto token = IssueToken(t, id, kGuest, "guest", "guest", kGuestTtl);
    if (!token.ok()) return token.status();
    out = *token;
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::StatusOr<IssuedToken> Accounts::CreateApiToken(const Principal& who,
                                                     const std::string& label) {
  if (who.is_guest()) return absl::PermissionDeniedError("guests cannot create API tokens");
  if (label.size() > 100) return absl::InvalidArgumentError("label longer than 100");
  IssuedToken out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    auto token = IssueToken(t, who.account_id, who.role, "api", label, absl::ZeroDuration());
    if (!token.ok()) return token.status();
    out = *token;
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::Status Accounts::RevokeToken(const Principal& who, const std::string& token_id) {
  if (token_id.empty()) return absl::InvalidArgumentError("token_id is required");
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    // Another account's token id is NOT_FOUND, exactly like an unknown one.
    if (t.exec_params(kRevokeToken, token_id, who.account_id).empty()) {
      return absl::NotFoundError("no such active token of yours");
    }
    return absl::OkStatus();
  });
  if (status.ok()) {
    std::lock_guard<std::mutex> lock(cache_mu_);
    for (auto it = token_cache_.begin(); it != token_cache_.end();) {
      it = it->second.principal.token_id == token_id ? token_cache_.erase(it) : std::next(it);
    }
  }
  return status;
}

absl::StatusOr<Principal> Accounts::Authenticate(const std::string& token) {
  if (token.empty() || token.size() > 200) return absl::UnauthenticatedError("invalid token");
  Principal p;
  const std::string hash = TokenHashHex(token);
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(cache_mu_);
    auto it = token_cache_.find(hash);
    if (it != token_cache_.end() && it->second.until > now) return it->second.principal;
  }
  // A single read: no transaction round trips on the path of every call.
  absl::Status status = pool_.WithConnection([&](pqxx::connection& c) -> absl::Status {
    pqxx::nontransaction t(c);
    auto rows = t.exec_params(kAuthenticate, hash);
    if (rows.empty()) return absl::UnauthenticatedError("invalid, expired or revoked token");
    p.token_id = rows[0][0].as<std::string>();
    p.account_id = rows[0][1].as<std::string>();
    p.name = rows[0][2].as<std::string>();
    p.role = rows[0][3].as<std::string>();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  std::lock_guard<std::mutex> lock(cache_mu_);
  if (token_cache_.size() >= kMaxCacheEntries) token_cache_.clear();
  token_cache_[hash] = {p, now + kTokenCacheTtl};
  return p;
}

absl::StatusOr<Principal> Accounts::FindByName(const std::string& name) {
  {
    std::lock_guard<std::mutex> lock(cache_mu_);
    auto it = name_cache_.find(name);
    if (it != name_cache_.end()) return it->second;
  }
  Principal p;
  absl::Status status = pool_.WithConnection([&](pqxx::connection& c) -> absl::Status {
    pqxx::nontransaction t(c);
    auto rows = t.exec_params(kFindByName, name);
    if (rows.empty()) return absl::NotFoundError(absl::StrCat("no account named ", name));
    p.account_id = rows[0][0].as<std::string>();
    p.name = rows[0][1].as<std::string>();
    p.role = rows[0][2].as<std::string>();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  std::lock_guard<std::mutex> lock(cache_mu_);
  if (name_cache_.size() >= kMaxCacheEntries) name_cache_.clear();
  // Callers use only the id and guest-ness, which never change (a later promotion to admin
  // is not seen here; roles are checked through Authenticate).
  name_cache_[name] = p;
  return p;
}

absl::StatusOr<Principal> Accounts::FindById(const std::string& account_id) {
  Principal p;
  absl::Status status = pool_.WithConnection([&](pqxx::connection& c) -> absl::Status {
    pqxx::nontransaction t(c);
    auto rows = t.exec_params(kFindById, account_id);
    if (rows.empty()) return absl::NotFoundError(absl::StrCat("no account ", account_id));
    p.account_id = rows[0][0].as<std::string>();
    p.name = rows[0][1].as<std::string>();
    p.role = rows[0][2].as<std::string>();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return p;
}

absl::Status Accounts::Block(const Principal& who, const std::string& name, bool unblock) {
  auto target = FindByName(name);
  if (!target.ok()) return target.status();
  if (target->account_id == who.account_id) {
    return absl::InvalidArgumentError("you cannot block yourself");
  }
  return pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    t.exec_params(unblock ? kUnblock : kBlock, who.account_id, target->account_id);
    return absl::OkStatus();
  });
}

absl::StatusOr<int64_t> Accounts::Invite(const Principal& who, const std::string& name,
                                         const std::string& note) {
  if (note.size() > 200) return absl::InvalidArgumentError("note longer than 200");
  auto target = FindByName(name);
  if (!target.ok()) return target.status();
  if (target->account_id == who.account_id) {
    return absl::InvalidArgumentError("you cannot invite yourself");
  }
  int64_t id = 0;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    if (!t.exec_params(kIsBlocked, target->account_id, who.account_id).empty()) {
      return absl::PermissionDeniedError(absl::StrCat(name, " does not accept your invitations"));
    }
    if (!t.exec_params(kIsBlocked, who.account_id, target->account_id).empty()) {
      return absl::PermissionDeniedError(
          absl::StrCat("you blocked ", name, "; unblock them to invite them"));
    }
    id = t.exec_params1(kInsertInvitation, who.account_id, target->account_id, note)[0]
             .as<int64_t>();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return id;
}

absl::StatusOr<std::vector<Accounts::Invitation>> Accounts::Invitations(const Principal& who,
                                                                        int limit) {
  if (limit <= 0 || limit > 1000) limit = 100;
  std::vector<Invitation> out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    out.clear();
    for (const auto& r : t.exec_params(kInvitationsFor, who.account_id, limit)) {
      out.push_back({r[0].as<int64_t>(), r[1].as<std::string>(), r[2].as<std::string>(),
                     absl::FromUnixMicros(r[3].as<int64_t>())});
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::Status Accounts::BootstrapAdmin(const std::string& name, const std::string& password) {
  if (auto s = ValidateName(name); !s.ok()) return s;
  auto existing = FindByName(name);
  if (existing.ok()) {
    return pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
      if (t.exec_params(kPromoteAdmin, name).empty()) {
        return absl::FailedPreconditionError(absl::StrCat(name, " cannot be made admin"));
      }
      return absl::OkStatus();
    });
  }
  if (!absl::IsNotFound(existing.status())) return existing.status();
  if (auto s = ValidatePassword(password); !s.ok()) return s;
  auto hash = hasher_.Hash(password);
  if (!hash.ok()) return hash.status();
  return pool_.Transact([&](pqxx::transaction_base& t) -> absl::Status {
    std::string id = "u_" + RandomHex(8);
    auto rows = t.exec_params(kInsertAccount, id, name, *hash, kAdmin, name);
    if (rows.empty()) {
      // Created by a racing start: promote it.
      t.exec_params(kPromoteAdmin, name);
      return absl::OkStatus();
    }
    ledger::Ledger::OpenUserAccount(t, id);
    return absl::OkStatus();
  });
}

}  // namespace arena::accounts
