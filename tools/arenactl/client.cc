#include "tools/arenactl/client.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"

ABSL_FLAG(std::string, arena_addr, "127.0.0.1:7100", "arena address.");
ABSL_FLAG(std::string, game_state_addr, "127.0.0.1:7101", "arena-game-state address.");
ABSL_FLAG(int, timeout_ms, 3000, "Deadline of each call.");
ABSL_FLAG(std::string, token, "", "Bearer token (prefer --token_file).");
ABSL_FLAG(std::string, token_file, "",
          "File with the bearer token (default ~/.config/arenactl/token); signup, signin and "
          "guest write it (mode 0600).");
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
  if (token.empty()) {
    const std::string file = TokenFilePath();
    if (!file.empty()) token = ReadFileTrimmed(file);
  }
  return token;
}

std::string ExpandHome(const std::string& path) {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') return path;
  if (path == "~") return home;
  if (path.rfind("~/", 0) == 0) return std::string(home) + path.substr(1);
  return path;
}

std::string ConfigDir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && *xdg == '/') return std::string(xdg) + "/arenactl";
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') return std::string(home) + "/.config/arenactl";
  return "";
}

std::string TokenFilePath() {
  const std::string flag = absl::GetFlag(FLAGS_token_file);
  if (!flag.empty()) return ExpandHome(flag);
  const std::string dir = ConfigDir();
  return dir.empty() ? "" : dir + "/token";
}

namespace {

// Creates every missing directory of `dir` with mode 0700.
bool MakeDirs(const std::string& dir, std::string* why) {
  if (dir.empty()) return true;
  struct stat st;
  if (::stat(dir.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return true;
    *why = dir + " is not a directory";
    return false;
  }
  const size_t slash = dir.find_last_of('/');
  if (slash != std::string::npos && slash > 0 && !MakeDirs(dir.substr(0, slash), why)) {
    return false;
  }
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    *why = absl::StrFormat("cannot create %s: %s", dir, std::strerror(errno));
    return false;
  }
  return true;
}

std::string DirOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

bool CheckWritable(const std::string& path, std::string* why) {
  if (path.empty()) {
    *why = "no token file: set --token_file (HOME is not set)";
    return false;
  }
  if (!MakeDirs(DirOf(path), why)) return false;
  // The file is written as path + ".tmp" and renamed: both must be possible.
  const std::string probe = path + ".tmp";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) {
    *why = absl::StrFormat("cannot write %s: %s", path, std::strerror(errno));
    return false;
  }
  ::close(fd);
  ::unlink(probe.c_str());
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    *why = path + " is a directory";
    return false;
  }
  return true;
}

bool WriteSecretFile(const std::string& path, const std::string& text, std::string* why) {
  if (!CheckWritable(path, why)) return false;
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) {
    *why = absl::StrFormat("cannot write %s: %s", path, std::strerror(errno));
    return false;
  }
  const std::string line = text + "\n";
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  const bool closed = ::close(fd) == 0;
  if (!written || !closed || std::rename(tmp.c_str(), path.c_str()) != 0) {
    *why = absl::StrFormat("cannot write %s: %s", path, std::strerror(errno));
    ::unlink(tmp.c_str());
    return false;
  }
  return true;
}

std::string SeatCredentialPath(const std::string& game_id, int seat) {
  const std::string dir = ConfigDir();
  if (dir.empty()) return "";
  return absl::StrFormat("%s/seats/%s.%d", dir, game_id, seat);
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
