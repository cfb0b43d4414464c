// arena-uci driven through a pipe, as a GUI or match tool would: the handshake, options,
// positions with moves, every way of limiting "go", stop during an infinite search, and a
// mate found from a FEN.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "gtest/gtest.h"

namespace {

class UciProcess {
 public:
  UciProcess() {
    int in[2], out[2];
    EXPECT_EQ(pipe(in), 0);
    EXPECT_EQ(pipe(out), 0);
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      close(in[1]);
      close(out[0]);
      execl(ARENA_UCI_BIN, ARENA_UCI_BIN, nullptr);
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~UciProcess() {
    close(to_);
    if (pid_ > 0) {
      int status = 0;
      for (int i = 0; i < 100 && waitpid(pid_, &status, WNOHANG) == 0; ++i) usleep(20000);
      if (waitpid(pid_, &status, WNOHANG) == 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
      }
    }
    close(from_);
  }
  void Send(const std::string& line) {
    const std::string l = line + "\n";
    ASSERT_EQ(write(to_, l.data(), l.size()), ssize_t(l.size()));
  }
  // Reads lines until one starts with `prefix` (returned) or the timeout passes ("").
  std::string WaitFor(const std::string& prefix, int timeout_ms = 20000) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      size_t nl;
      while ((nl = buffer_.find('\n')) != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        seen_ += line + "\n";
        if (line.rfind(prefix, 0) == 0) return line;
      }
      const int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(
                               end - std::chrono::steady_clock::now())
                               .count());
      if (left <= 0) return "";
      pollfd p{from_, POLLIN, 0};
      if (poll(&p, 1, left) <= 0) return "";
      char buf[4096];
      const ssize_t n = read(from_, buf, sizeof buf);
      if (n <= 0) return "";
      buffer_.append(buf, size_t(n));
    }
  }
  const std::string& seen() const { return seen_; }
  int Wait() {
    int status = 0;
    for (int i = 0; i < 250; ++i) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      usleep(20000);
    }
    return -2;
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string buffer_, seen_;
};

TEST(ArenaUci, HandshakeOptionsAndReady) {
  UciProcess uci;
  uci.Send("uci");
  EXPECT_EQ(uci.WaitFor("id name"), "id name arena-uci");
  EXPECT_NE(uci.WaitFor("uciok"), "");
  EXPECT_NE(uci.seen().find("option name Hash"), std::string::npos);
  EXPECT_NE(uci.seen().find("option name Level"), std::string::npos);
  uci.Send("setoption name Hash value 8");
  uci.Send("setoption name Level value 3");
  uci.Send("isready");
  EXPECT_EQ(uci.WaitFor("readyok"), "readyok");
  uci.Send("quit");
  EXPECT_EQ(uci.Wait(), 0);
}

TEST(ArenaUci, FindsMateFromFenWithDepth) {
  UciProcess uci;
  uci.Send("uci");
  uci.WaitFor("uciok");
  uci.Send("ucinewgame");
  uci.Send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
  uci.Send("go depth 3");
  EXPECT_EQ(uci.WaitFor("bestmove"), "bestmove a1a8");
  EXPECT_NE(uci.seen().find("score mate 1"), std::string::npos) << uci.seen();
}

TEST(ArenaUci, MovesNodesMovetimeAndClock) {
  UciProcess uci;
  uci.Send("uci");
  uci.WaitFor("uciok");
  // After 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? white mates with Qxf7.
  uci.Send("position startpos moves e2e4 e7e5 d1h5 b8c6 f1c4 g8f6");
  uci.Send("go nodes 20000");
  EXPECT_EQ(uci.WaitFor("bestmove"), "bestmove h5f7");
  uci.Send("position startpos moves e2e4");
  const auto t0 = std::chrono::steady_clock::now();
  uci.Send("go movetime 200");
  const std::string best = uci.WaitFor("bestmove");
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  EXPECT_EQ(best.rfind("bestmove ", 0), 0u);
  EXPECT_NE(best, "bestmove 0000");
  EXPECT_GE(ms, 150);
  uci.Send("position startpos");
  uci.Send("go wtime 1000 btime 1000 winc 10 binc 10");
  EXPECT_NE(uci.WaitFor("bestmove"), "");
  uci.Send("quit");
  EXPECT_EQ(uci.Wait(), 0);
}

TEST(ArenaUci, InfiniteUntilStop) {
  UciProcess uci;
  uci.Send("uci");
  uci.WaitFor("uciok");
  uci.Send("position startpos");
  uci.Send("go infinite");
  EXPECT_EQ(uci.WaitFor("bestmove", 300), "");  // still thinking
  uci.Send("stop");
  const std::string best = uci.WaitFor("bestmove");
  EXPECT_EQ(best.rfind("bestmove ", 0), 0u);
  EXPECT_NE(best, "bestmove 0000");
  uci.Send("quit");
  EXPECT_EQ(uci.Wait(), 0);
}

}  // namespace
