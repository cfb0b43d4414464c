// Service-to-service authentication.
//
// Each service has a per-deployment secret (created by scripts/up under .arena/secrets/, one
// file per service, mounted as a Kubernetes secret later). A calling service sends its name
// and secret in gRPC metadata (`x-arena-service`, `x-arena-credential`); the receiving
// service checks the pair against the secrets of the callers it trusts, in constant time.
// Credentials travel only in metadata, never in messages or logs.
//
// gRPC 1.51's C++ server interceptors cannot end a call with a status, so the check is a
// shared function every handler calls first (the callback API makes that one line).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "grpcpp/client_context.h"
#include "grpcpp/server_context.h"

namespace arena::common {

inline constexpr char kServiceNameHeader[] = "x-arena-service";
inline constexpr char kServiceCredentialHeader[] = "x-arena-credential";

// The service names that may hold credentials.
inline constexpr std::string_view kKnownServices[] = {"arena", "arena-game-state", "arena-bot",
                                                      "arena-llm-gateway", "arena-web"};

// Creates the secrets directory and one secret per known service where missing (mode 0600).
absl::Status EnsureServiceSecrets(const std::string& dir);

// This process's own identity, attached to every outgoing call.
class ServiceIdentity {
 public:
  ServiceIdentity() = default;
  // Reads `<dir>/<service>.secret`.
  static absl::StatusOr<ServiceIdentity> Load(const std::string& dir, std::string_view service);
  void Attach(grpc::ClientContext& context) const;
  const std::string& service() const { return service_; }

 private:
  std::string service_;
  std::string secret_;
};

// Who is calling, as far as service credentials tell.
struct ServiceCaller {
  bool authenticated = false;  // a valid service credential was presented
  std::string service;         // its name when authenticated
};

class ServiceAuthenticator {
 public:
  ServiceAuthenticator() = default;
  // Trusts the services named in `trusted`, reading their secrets from `dir`.
  static absl::StatusOr<ServiceAuthenticator> Load(const std::string& dir,
                                                   const std::vector<std::string>& trusted);

  // No service headers: an unauthenticated caller (users, spectators). Headers present but
  // wrong, or naming a service this one does not trust: UNAUTHENTICATED.
  absl::StatusOr<ServiceCaller> Identify(const grpc::ServerContextBase& context) const;
  // Identify, then require one of `allowed`: PERMISSION_DENIED for another service,
  // UNAUTHENTICATED for none.
  absl::Status Require(const grpc::ServerContextBase& context,
                       const std::vector<std::string>& allowed) const;

 private:
  std::map<std::string, std::string, std::less<>> secrets_;
};

}  // namespace arena::common
