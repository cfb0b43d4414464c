#include "engine/chess/stockfish_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/core/game.h"

namespace arena::engine::chess {

using engine::ToAbsl;

absl::StatusOr<std::unique_ptr<StockfishProcess>> StockfishProcess::Start(std::string_view path,
                                                                          int threads) {
  std::string program(path);
  if (access(program.c_str(), X_OK) != 0) {
    return absl::NotFoundError(absl::StrCat("no executable engine at '", program, "'"));
  }
  // One socket pair serves as the child's stdin and stdout. A socket (unlike a pipe) lets the
  // parent write with MSG_NOSIGNAL, so a dead engine is an error and not a SIGPIPE.
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    return absl::ErrnoToStatus(errno, "socketpair");
  }
  pid_t pid = fork();
  if (pid < 0) {
    int err = errno;
    close(sv[0]);
    close(sv[1]);
    return absl::ErrnoToStatus(err, "fork");
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    dup2(sv[1], STDIN_FILENO);
    dup2(sv[1], STDOUT_FILENO);
    char* argv[] = {program.data(), nullptr};
    execv(program.c_str(), argv);
    _exit(127);
  }
  close(sv[1]);
  std::unique_ptr<StockfishProcess> process(new StockfishProcess());
  process->pid_ = pid;
  process->fd_ = sv[0];

  if (absl::Status s = process->Send("uci"); !s.ok()) return s;
  auto lines = process->ReadUntil("uciok", std::chrono::seconds(30));
  if (!lines.ok()) {
    return absl::UnavailableError(absl::StrCat(
        "engine '", ToAbsl(path), "' did not answer 'uci': ", lines.status().message()));
  }
  if (absl::Status s = process->Send(absl::StrCat("setoption name Threads value ", threads));
      !s.ok()) {
    return s;
  }
  if (absl::Status s = process->Sync(); !s.ok()) return s;
  return process;
}

StockfishProcess::~StockfishProcess() {
  if (fd_ >= 0) {
    // Ask politely first; the engine exits at once on "quit" unless it is searching.
    static constexpr char kQuit[] = "quit\n";
    [[maybe_unused]] ssize_t n = send(fd_, kQuit, sizeof(kQuit) - 1, MSG_NOSIGNAL);
    close(fd_);
  }
  if (pid_ > 0) {
    int status = 0;
    for (int i = 0; i < 100; ++i) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) return;
      usleep(10000);
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
  }
}

absl::Status StockfishProcess::Send(std::string_view command) {
  std::string line(command);
  line.push_back('\n');
  size_t done = 0;
  while (done < line.size()) {
    ssize_t n = send(fd_, line.data() + done, line.size() - done, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::ErrnoToStatus(errno, "write to engine");
    }
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> StockfishProcess::ReadLine(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    size_t eol = buffer_.find('\n');
    if (eol != std::string::npos) {
      std::string line = buffer_.substr(0, eol);
      buffer_.erase(0, eol + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return absl::DeadlineExceededError("engine did not answer in time");
    pollfd pfd{fd_, POLLIN, 0};
    int ready = poll(&pfd, 1, static_cast<int>(std::min<int64_t>(left.count(), 1 << 30)));
    if (ready < 0) {
      if (errno == EINTR) continue;
      return absl::ErrnoToStatus(errno, "poll");
    }
    if (ready == 0) continue;
    char chunk[65536];
    ssize_t n = read(fd_, chunk, sizeof(chunk));
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::ErrnoToStatus(errno, "read from engine");
    }
    if (n == 0) return absl::UnavailableError("engine closed its output");
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

absl::StatusOr<std::vector<std::string>> StockfishProcess::ReadUntil(
    std::string_view prefix, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<std::string> lines;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    auto line = ReadLine(left);
    if (!line.ok()) return line.status();
    bool done = std::string_view(*line).substr(0, prefix.size()) == prefix;
    lines.push_back(std::move(*line));
    if (done) return lines;
  }
}

absl::Status StockfishProcess::Sync(std::chrono::milliseconds timeout) {
  if (absl::Status s = Send("isready"); !s.ok()) return s;
  return ReadUntil("readyok", timeout).status();
}

absl::StatusOr<EnginePerft> StockfishProcess::Perft(std::string_view fen, int depth,
                                                    std::chrono::milliseconds timeout) {
  std::string position = fen == "startpos" ? std::string("position startpos")
                                           : absl::StrCat("position fen ", ToAbsl(fen));
  return PerftAfter(position, depth, timeout);
}

absl::StatusOr<EnginePerft> StockfishProcess::PerftAfter(std::string_view position_command,
                                                         int depth,
                                                         std::chrono::milliseconds timeout) {
  if (absl::Status s = Send(position_command); !s.ok()) return s;
  if (absl::Status s = Sync(); !s.ok()) return s;
  auto start = std::chrono::steady_clock::now();
  if (absl::Status s = Send(absl::StrCat("go perft ", depth)); !s.ok()) return s;
  auto lines = ReadUntil("Nodes searched:", timeout);
  auto stop = std::chrono::steady_clock::now();
  if (!lines.ok()) return lines.status();
  EnginePerft result;
  result.seconds = std::chrono::duration<double>(stop - start).count();
  for (const std::string& line : *lines) {
    std::string_view text(line);
    if (text.rfind("Nodes searched:", 0) == 0) {
      std::string_view number = text.substr(std::strlen("Nodes searched:"));
      while (!number.empty() && number.front() == ' ') number.remove_prefix(1);
      if (!absl::SimpleAtoi(ToAbsl(number), &result.nodes)) {
        return absl::InternalError(absl::StrCat("cannot read node count from '", line, "'"));
      }
      continue;
    }
    size_t colon = text.find(": ");
    if (colon == std::string_view::npos || colon < 4 || colon > 5) continue;
    uint64_t count = 0;
    if (!absl::SimpleAtoi(ToAbsl(text.substr(colon + 2)), &count)) continue;
    result.divide.emplace_back(std::string(text.substr(0, colon)), count);
  }
  return result;
}

}  // namespace arena::engine::chess
