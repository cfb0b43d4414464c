#include "tools/arenactl/client.h"

#include <fstream>
#include <sstream>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"

ABSL_FLAG(std::string, arena_addr, "127.0.0.1:7100", "arena address.");
ABSL_FLAG(int, timeout_ms, 3000, "Deadline of each call.");
ABSL_FLAG(std::string, token, "", "Bearer token (prefer --token_file).");
ABSL_FLAG(std::string, token_file, "",
          "File with the bearer token; signup and signin write it (mode 0600).");
ABSL_FLAG(int, limit, 50, "Rows to show (history, audit, league list, matches).");
ABSL_FLAG(std::string, game, "",
          "Engine game id, as `arena-engine games` lists them (league create/run; a filter of "
          "matches).");

namespace arena::arenactl {

std::string StatusName(grpc::StatusCode code) {
  // gRPC and absl share the numbering of status codes.
  return absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
}

void PrintRpcError(const grpc::Status& status) {
  std::fprintf(stderr, "arenactl: %s: %s\n", StatusName(status.error_code()).c_str(),
               status.error_message().c_str());
}

ArenaClient::ArenaClient()
    : stub_(v1::ArenaService::NewStub(common::MakeChannel(absl::GetFlag(FLAGS_arena_addr)))) {}

void ArenaClient::Prepare(grpc::ClientContext& ctx, bool with_token) const {
  common::SetDeadline(ctx, absl::Milliseconds(absl::GetFlag(FLAGS_timeout_ms)));
  if (with_token) {
    std::string token = Token();
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
  }
}

std::string Token() {
  std::string token = absl::GetFlag(FLAGS_token);
  if (token.empty() && !absl::GetFlag(FLAGS_token_file).empty()) {
    token = ReadFileTrimmed(absl::GetFlag(FLAGS_token_file));
  }
  return token;
}

std::string Credits(int64_t micro) {
  const char* sign = micro < 0 ? "-" : "";
  uint64_t m = micro < 0 ? static_cast<uint64_t>(-(micro + 1)) + 1 : static_cast<uint64_t>(micro);
  return absl::StrFormat("%s%d.%06d", sign, m / 1000000, m % 1000000);
}

bool ParseCredits(const std::string& text, int64_t* micro) {
  std::string s = text;
  bool negative = !s.empty() && s[0] == '-';
  if (negative) s = s.substr(1);
  size_t dot = s.find('.');
  std::string whole = dot == std::string::npos ? s : s.substr(0, dot);
  std::string frac = dot == std::string::npos ? "" : s.substr(dot + 1);
  if (whole.empty() || frac.size() > 6) return false;
  for (char c : whole + frac) {
    if (c < '0' || c > '9') return false;
  }
  int64_t w = 0;
  if (!absl::SimpleAtoi(whole, &w) || w > 9'000'000'000'000LL) return false;
  frac.resize(6, '0');
  int64_t f = 0;
  if (!absl::SimpleAtoi(frac, &f)) return false;
  *micro = (w * 1000000 + f) * (negative ? -1 : 1);
  return true;
}

std::string FormatTime(const google::protobuf::Timestamp& t) {
  return absl::FormatTime("%Y-%m-%d %H:%M:%S", absl::FromUnixSeconds(t.seconds()),
                          absl::UTCTimeZone());
}

std::string ReadFileTrimmed(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

int Usage(const char* what) {
  std::fprintf(stderr, "usage: arenactl %s\n", what);
  return 2;
}

}  // namespace arena::arenactl
