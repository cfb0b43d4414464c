// What arena-web promises every response and every forwarded call, in one place: the strict
// security headers (a CSP without inline script, no CORS), how a gRPC status becomes an HTTP
// status and a JSON error body, and which request headers are passed on to arena and
// game-state as gRPC metadata. Nothing here decides who may do what: arena and game-state
// check the forwarded bearer token and credentials exactly as they do for gRPC callers.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "grpcpp/support/status.h"

namespace arena::web {

// The headers every response carries, static files, API answers and streams alike. No
// Access-Control-Allow-* header is ever sent: the API is same-origin only.
const std::vector<std::pair<std::string, std::string>>& SecurityHeaders();

// The Content-Security-Policy value: scripts, styles, images and connections from this origin
// only; no inline script or style, no framing, no plugins.
std::string_view ContentSecurityPolicy();

// The HTTP status for a gRPC status code (the Google API mapping: INVALID_ARGUMENT 400,
// UNAUTHENTICATED 401, PERMISSION_DENIED 403, NOT_FOUND 404, RESOURCE_EXHAUSTED 429, ...).
unsigned HttpStatusFor(grpc::StatusCode code);

// The JSON error body: {"code":"PERMISSION_DENIED","message":"..."}.
std::string ErrorJson(grpc::StatusCode code, std::string_view message);
std::string_view StatusCodeName(grpc::StatusCode code);

// A request header passed on as gRPC metadata. Only these three: a client can never send
// service metadata (x-arena-service, x-arena-credential) through the edge.
struct ForwardedHeader {
  std::string_view http_name;  // as the browser sends it (case-insensitive)
  std::string_view metadata;   // the gRPC metadata key
};
inline constexpr ForwardedHeader kForwardedHeaders[] = {
    {"authorization", "authorization"},
    {"x-arena-seat-credential", "x-arena-seat-credential"},
    {"x-arena-host-credential", "x-arena-host-credential"},
};

// True when a forwarded header's value may go on as metadata: printable ASCII only, at most
// 1024 bytes (gRPC refuses other metadata values; the edge refuses them first, with 400).
bool ValidMetadataValue(std::string_view value);

}  // namespace arena::web
