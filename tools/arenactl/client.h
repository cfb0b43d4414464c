// What every arenactl command that talks to `arena` shares: the connection flags, a client that
// calls with a deadline and the bearer token and reports failures the same way, credit amounts
// in text, and reading a value from a file.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/time/time.h"
#include "arena/v1/arena.grpc.pb.h"
#include "common/grpc_util.h"
#include "google/protobuf/timestamp.pb.h"
#include "grpcpp/grpcpp.h"

ABSL_DECLARE_FLAG(std::string, arena_addr);
ABSL_DECLARE_FLAG(std::string, game_state_addr);
ABSL_DECLARE_FLAG(int, timeout_ms);
ABSL_DECLARE_FLAG(std::string, token);
ABSL_DECLARE_FLAG(std::string, token_file);
ABSL_DECLARE_FLAG(int, limit);
ABSL_DECLARE_FLAG(std::string, game);

namespace arena::arenactl {

// A command's positional arguments, after the command's own name.
using Args = std::vector<std::string>;

using Stub = v1::ArenaService::Stub;

// "UNAVAILABLE", "NOT_FOUND", ... for a gRPC status code.
std::string StatusName(grpc::StatusCode code);

// Prints "arenactl: CODE: message" to stderr.
void PrintRpcError(const grpc::Status& status);

// A client of `arena` at --arena_addr. Each call has the --timeout_ms deadline and, unless told
// otherwise, the bearer token of --token or --token_file.
class ArenaClient {
 public:
  ArenaClient();

  // Calls `method`; on failure returns the status without printing it.
  template <typename Req, typename Resp, typename Method>
  grpc::Status Try(Method method, const Req& req, Resp* resp, bool with_token = true) {
    grpc::ClientContext ctx;
    Prepare(ctx, with_token);
    return ((*stub_).*method)(&ctx, req, resp);
  }

  // Calls `method`; on failure prints the status code name and message and returns false.
  template <typename Req, typename Resp, typename Method>
  bool Call(Method method, const Req& req, Resp* resp, bool with_token = true) {
    grpc::Status s = Try(method, req, resp, with_token);
    if (!s.ok()) PrintRpcError(s);
    return s.ok();
  }

 private:
  void Prepare(grpc::ClientContext& ctx, bool with_token) const;
  std::unique_ptr<Stub> stub_;
};

// The bearer token: --token, else the contents of the token file (TokenFilePath()), else
// empty.
std::string Token();

// "~/x" -> "$HOME/x"; anything else unchanged.
std::string ExpandHome(const std::string& path);

// Where arenactl keeps what it remembers between commands: $XDG_CONFIG_HOME/arenactl, else
// $HOME/.config/arenactl; "" when neither variable is set.
std::string ConfigDir();

// The token file: --token_file (or ARENA_TOKEN_FILE), "~/" expanded; else ConfigDir()/token.
std::string TokenFilePath();

// Whether `path` can be written (its directory is created, mode 0700, when missing): checked
// before the server is asked for a secret that would otherwise be lost. On false, *why says why.
bool CheckWritable(const std::string& path, std::string* why);

// Writes `text` and a line break to `path` with mode 0600, atomically (a temporary file, then
// rename). False (and *why) when it cannot.
bool WriteSecretFile(const std::string& path, const std::string& text, std::string* why);

// The file where `table create` or `play` keeps the credential of `seat` at `game_id`:
// ConfigDir()/seats/GAME_ID.SEAT.
std::string SeatCredentialPath(const std::string& game_id, int seat);

// Micro-credits as credits with six decimals: 12500000 -> "12.500000".
std::string Credits(int64_t micro);

// "12.5" -> 12500000 (at most six decimals, an optional leading '-'). False on anything else.
bool ParseCredits(const std::string& text, int64_t* micro);

// "2024-05-01 12:00:00" (UTC).
std::string FormatTime(const google::protobuf::Timestamp& t);

// The file's contents without trailing line breaks; empty when it cannot be read.
std::string ReadFileTrimmed(const std::string& path);

// Prints "usage: arenactl WHAT" to stderr and returns 2, the exit code of bad usage.
int Usage(const char* what);

}  // namespace arena::arenactl
