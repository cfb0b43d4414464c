// A line of input typed at a terminal while the screen above it changes: the terminal is put
// in non-canonical mode without echo, so the prompt line (with a ticking clock) can be redrawn
// with what was typed so far. Not a terminal: whole lines as they come. The terminal's mode is
// restored on destruction and on SIGINT/SIGTERM.
#pragma once

#include <termios.h>

#include <optional>
#include <string>
#include <vector>

namespace arena::arenactl {

class TerminalLine {
 public:
  explicit TerminalLine(int fd);
  ~TerminalLine();
  TerminalLine(const TerminalLine&) = delete;
  TerminalLine& operator=(const TerminalLine&) = delete;

  bool is_terminal() const { return raw_; }
  int fd() const { return fd_; }
  // Reads what is available (call after poll says so): the lines completed, in order. Sets
  // *closed on end of input (or Ctrl-D on an empty line).
  std::vector<std::string> Read(bool* closed);
  // What has been typed of the current line.
  const std::string& pending() const { return pending_; }

 private:
  int fd_;
  bool raw_ = false;
  termios saved_{};
  std::string pending_;
};

}  // namespace arena::arenactl
