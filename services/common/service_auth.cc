#include "services/common/service_auth.h"

#include <sodium.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace arena::common {
namespace {

std::string SecretPath(const std::string& dir, std::string_view service) {
  return absl::StrCat(dir, "/", std::string(service), ".secret");
}

absl::StatusOr<std::string> ReadSecret(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("service secret file missing: ", path));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string secret(absl::StripAsciiWhitespace(ss.str()));
  if (secret.size() < 32) {
    return absl::FailedPreconditionError(absl::StrCat("service secret too short in ", path));
  }
  return secret;
}

std::string_view MetadataValue(const grpc::ServerContextBase& context, std::string_view key) {
  const auto& md = context.client_metadata();
  auto it = md.find(grpc::string_ref(key.data(), key.size()));
  if (it == md.end()) return {};
  return std::string_view(it->second.data(), it->second.size());
}

}  // namespace

absl::Status EnsureServiceSecrets(const std::string& dir) {
  if (sodium_init() < 0) return absl::InternalError("libsodium failed to initialise");
  ::mkdir(dir.c_str(), 0700);
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat("cannot create secrets dir ", dir));
  }
  for (std::string_view service : kKnownServices) {
    std::string path = SecretPath(dir, service);
    if (::stat(path.c_str(), &st) == 0) continue;
    unsigned char raw[32];
    randombytes_buf(raw, sizeof raw);
    char hex[65];
    sodium_bin2hex(hex, sizeof hex, raw, sizeof raw);
    sodium_memzero(raw, sizeof raw);
    std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::trunc);
      out << hex << "\n";
      if (!out) return absl::InternalError(absl::StrCat("cannot write ", tmp));
    }
    ::chmod(tmp.c_str(), 0600);
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      return absl::InternalError(absl::StrCat("cannot create ", path));
    }
    sodium_memzero(hex, sizeof hex);
  }
  return absl::OkStatus();
}

absl::StatusOr<ServiceIdentity> ServiceIdentity::Load(const std::string& dir,
                                                      std::string_view service) {
  auto secret = ReadSecret(SecretPath(dir, service));
  if (!secret.ok()) return secret.status();
  ServiceIdentity id;
  id.service_ = std::string(service);
  id.secret_ = *std::move(secret);
  return id;
}

void ServiceIdentity::Attach(grpc::ClientContext& context) const {
  if (service_.empty()) return;
  context.AddMetadata(kServiceNameHeader, service_);
  context.AddMetadata(kServiceCredentialHeader, secret_);
}

absl::StatusOr<ServiceAuthenticator> ServiceAuthenticator::Load(
    const std::string& dir, const std::vector<std::string>& trusted) {
  ServiceAuthenticator auth;
  for (const std::string& service : trusted) {
    auto secret = ReadSecret(SecretPath(dir, service));
    if (!secret.ok()) return secret.status();
    auth.secrets_[service] = *std::move(secret);
  }
  return auth;
}

absl::StatusOr<ServiceCaller> ServiceAuthenticator::Identify(
    const grpc::ServerContextBase& context) const {
  std::string_view name = MetadataValue(context, kServiceNameHeader);
  std::string_view credential = MetadataValue(context, kServiceCredentialHeader);
  if (name.empty() && credential.empty()) return ServiceCaller{};
  auto it = secrets_.find(name);
  bool ok = it != secrets_.end() && it->second.size() == credential.size() &&
            sodium_memcmp(it->second.data(), credential.data(), credential.size()) == 0;
  if (!ok) return absl::UnauthenticatedError("invalid service credential");
  return ServiceCaller{true, std::string(name)};
}

absl::Status ServiceAuthenticator::Require(const grpc::ServerContextBase& context,
                                           const std::vector<std::string>& allowed) const {
  auto caller = Identify(context);
  if (!caller.ok()) return caller.status();
  if (!caller->authenticated) {
    return absl::UnauthenticatedError("this call needs a service credential");
  }
  for (const std::string& a : allowed) {
    if (a == caller->service) return absl::OkStatus();
  }
  return absl::PermissionDeniedError(
      absl::StrCat("service '", caller->service, "' may not make this call"));
}

}  // namespace arena::common
