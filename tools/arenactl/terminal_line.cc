#include "tools/arenactl/terminal_line.h"

#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>

namespace arena::arenactl {
namespace {

// The mode to restore when a signal ends the program mid-line.
termios g_saved{};
int g_fd = -1;

void RestoreAndExit(int sig) {
  if (g_fd >= 0) ::tcsetattr(g_fd, TCSANOW, &g_saved);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

TerminalLine::TerminalLine(int fd) : fd_(fd) {
  if (::isatty(fd) == 0 || ::tcgetattr(fd, &saved_) != 0) return;
  termios raw = saved_;
  raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  if (::tcsetattr(fd, TCSANOW, &raw) != 0) return;
  raw_ = true;
  g_saved = saved_;
  g_fd = fd;
  ::signal(SIGINT, RestoreAndExit);
  ::signal(SIGTERM, RestoreAndExit);
}

TerminalLine::~TerminalLine() {
  if (!raw_) return;
  ::tcsetattr(fd_, TCSANOW, &saved_);
  g_fd = -1;
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
}

std::vector<std::string> TerminalLine::Read(bool* closed) {
  std::vector<std::string> lines;
  char buf[256];
  const ssize_t n = ::read(fd_, buf, sizeof buf);
  if (n <= 0) {
    *closed = true;
    return lines;
  }
  for (ssize_t i = 0; i < n; ++i) {
    const char c = buf[i];
    if (c == '\n' || c == '\r') {
      lines.push_back(pending_);
      pending_.clear();
    } else if (raw_ && (c == 0x7f || c == 0x08)) {
      if (!pending_.empty()) pending_.pop_back();
    } else if (raw_ && c == 0x15) {  // Ctrl-U
      pending_.clear();
    } else if (raw_ && c == 0x04) {  // Ctrl-D
      if (pending_.empty()) *closed = true;
    } else if (static_cast<unsigned char>(c) >= 0x20 || c == '\t') {
      pending_ += c == '\t' ? ' ' : c;
    }
  }
  return lines;
}

}  // namespace arena::arenactl
