// End to end, as a person at a terminal: `arenactl signup` keeps the token in the default
// place, `arenactl table create` seats the person, a mock model and a bot at a three-seat
// Chestonia chess table with a move cap, `arenactl play` (in a pseudo-terminal) plays the
// person's seat to the end by typing the first legal action it lists each turn, and
// `arenactl watch` in a second pseudo-terminal shows the players' names and kinds, their clocks
// and the model's reasoning. Only arenactl's text is read: what a person would see.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/arena_client.h"
#include "tests/support/server_process.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace arena::testing {
namespace {

using ::testing::HasSubstr;

constexpr char kPlatformKey[] = "plat-SECRET-ctl-5e1a";
constexpr char kClear[] = "\033[H\033[2J";

std::string WriteFile(const std::string& dir, const std::string& name, const std::string& text) {
  std::string path = dir + "/" + name;
  std::ofstream(path) << text << "\n";
  return path;
}

// A child process on a pseudo-terminal, as a terminal emulator runs it.
class PtyProcess {
 public:
  PtyProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env) {
    winsize size{};
    size.ws_row = 60;
    size.ws_col = 140;
    pid_ = forkpty(&master_, nullptr, nullptr, &size);
    if (pid_ == 0) {
      for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    if (master_ >= 0) fcntl(master_, F_SETFL, fcntl(master_, F_GETFL) | O_NONBLOCK);
  }
  ~PtyProcess() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) close(master_);
  }
  bool ok() const { return pid_ > 0 && master_ >= 0; }
  int fd() const { return master_; }
  // Reads what the child has written so far.
  void Drain() {
    char buf[4096];
    while (true) {
      ssize_t n = read(master_, buf, sizeof buf);
      if (n <= 0) break;
      output_.append(buf, static_cast<size_t>(n));
    }
    // The terminal turns each "\n" into "\r\n" (onlcr); read the lines as the program wrote them.
    output_ = absl::StrReplaceAll(output_, {{"\r\n", "\n"}});
  }
  void Type(const std::string& text) { (void)!write(master_, text.data(), text.size()); }
  const std::string& output() const { return output_; }
  // What is on the screen now: everything after the last clear-screen code.
  std::string Screen() const {
    size_t at = output_.rfind(kClear);
    return at == std::string::npos ? output_ : output_.substr(at + sizeof kClear - 1);
  }
  std::optional<int> ExitCode() {
    if (exited_) return code_;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
    exited_ = true;
    code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return code_;
  }

 private:
  pid_t pid_ = -1;
  int master_ = -1;
  std::string output_;
  bool exited_ = false;
  int code_ = -1;
};

// The first action of the "legal: ..." line of a screen; "" when it lists none.
std::string FirstLegal(const std::string& screen) {
  for (absl::string_view line : absl::StrSplit(screen, '\n')) {
    if (!absl::ConsumePrefix(&line, "legal: ")) continue;
    absl::ConsumePrefix(&line, "");
    if (size_t eg = line.find(", e.g. "); eg != absl::string_view::npos) {
      line.remove_prefix(eg + 7);
    }
    std::vector<std::string> actions = absl::StrSplit(line, "  ", absl::SkipWhitespace());
    if (!actions.empty()) return std::string(absl::StripAsciiWhitespace(actions[0]));
  }
  return "";
}

// The id of `table create`'s line "game ID"; "" when there is none (std::regex trips GCC 12's
// -Wmaybe-uninitialized).
std::string GameIdOf(const std::string& out) {
  const std::string line_start = out.rfind("game ", 0) == 0 ? "game " : "\ngame ";
  const size_t at = out.find(line_start);
  if (at == std::string::npos) return "";
  const size_t id_at = at + line_start.size();
  return out.substr(id_at, out.find_first_of(" \n", id_at) - id_at);
}

// The move list of a screen (what changes when anyone acts).
std::string MovesOf(const std::string& screen) {
  size_t at = screen.find("\nmoves:\n");
  if (at == std::string::npos) return "";
  size_t end = screen.find("\n\n", at + 8);
  return screen.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

class ArenactlE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.ok());
    dir_ = MakeTempDir("arenactl-e2e");
    const std::string mock_port_file = dir_ + "/mock.port";
    mock_ = std::make_unique<Subprocess>(
        std::vector<std::string>{ARENA_MOCK_ABACUS_BIN, "--port=0", "--port_file=" + mock_port_file,
                                 std::string("--keys=") + kPlatformKey + ":1000000000"});
    const int mock_port = WaitForPortFile(mock_port_file, absl::Seconds(30));
    ASSERT_GT(mock_port, 0);
    game_state_ = std::make_unique<ServerProcess>(
        ARENA_GAME_STATE_BIN,
        std::vector<std::string>{"--database_url=" + db_.url(), "--log_level=warning"});
    bot_ = std::make_unique<ServerProcess>(ARENA_BOT_BIN,
                                           std::vector<std::string>{"--log_level=warning"});
    gateway_ = std::make_unique<ServerProcess>(
        ARENA_GATEWAY_BIN,
        std::vector<std::string>{
            "--abacus_base_url=http://127.0.0.1:" + std::to_string(mock_port) + "/v1",
            "--abacus_api_key_file=" + WriteFile(dir_, "platform.key", kPlatformKey),
            "--log_level=warning"});
    ASSERT_TRUE(game_state_->ok() && bot_->ok() && gateway_->ok());
    std::vector<std::string> flags = ArenaFlags(db_.url());
    flags.push_back("--game_state_addr=" + game_state_->address());
    flags.push_back("--bot_addr=" + bot_->address());
    flags.push_back("--gateway_addr=" + gateway_->address());
    flags.push_back("--bot_time_cap_ms=300");
    arena_ = std::make_unique<ServerProcess>(ARENA_ARENA_BIN, flags);
    ASSERT_TRUE(arena_->ok());
    // Every arenactl finds the servers through the environment, as `source .arena/run/env`
    // sets it, and keeps its token and seats under its own config home.
    env_ = {{"ARENA_ARENA_ADDR", arena_->address()},
            {"ARENA_GAME_STATE_ADDR", game_state_->address()},
            {"XDG_CONFIG_HOME", dir_ + "/config"},
            {"ARENA_TIMEOUT_MS", "10000"},
            {"TERM", "xterm"}};
  }

  // Runs arenactl to its end with the environment of the person at the terminal.
  int Ctl(const std::vector<std::string>& args, std::string* out = nullptr,
          const std::map<std::string, std::string>& extra_env = {}) {
    const std::string out_path = dir_ + "/ctl.out";
    std::string command = std::string(ARENACTL_BIN);
    for (const std::string& a : args) command += " '" + a + "'";
    std::map<std::string, std::string> env = env_;
    for (const auto& [k, v] : extra_env) env[k] = v;
    Subprocess p({"/bin/sh", "-c", command + " > " + out_path}, env);
    auto code = p.Wait(absl::Seconds(60));
    std::ifstream in(out_path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (out != nullptr) *out = text + p.Stderr();
    return code.value_or(-1);
  }

  TestDatabase db_;
  std::string dir_;
  std::unique_ptr<Subprocess> mock_;
  std::unique_ptr<ServerProcess> game_state_, bot_, gateway_, arena_;
  std::map<std::string, std::string> env_;
};

TEST_F(ArenactlE2eTest, APersonPlaysAModelAndABotFromTheTerminalWhileAnotherWatches) {
  // The admin funds the pool that pays the model seat; the player gets an allowance from it.
  const std::string admin_token = dir_ + "/admin.token";
  std::string out;
  ASSERT_EQ(
      Ctl({"signin", kAdminName, "--password_file=" + WriteFile(dir_, "admin.pw", kAdminPassword),
           "--token_file=" + admin_token},
          &out),
      0)
      << out;
  ASSERT_EQ(
      Ctl({"signup", "tess", "--password_file=" + WriteFile(dir_, "tess.pw", "tess-pass-1")}, &out),
      0)
      << out;
  // The token went to the default place, so no later command names it.
  EXPECT_THAT(out, HasSubstr("token stored in " + dir_ + "/config/arenactl/token"));
  const std::map<std::string, std::string> as_admin = {{"ARENA_TOKEN_FILE", admin_token}};
  ASSERT_EQ(Ctl({"whoami"}, &out, as_admin), 0) << out;
  ASSERT_EQ(Ctl({"grant", kAdminName, "20", "--reason=pool"}, &out, as_admin), 0) << out;
  ASSERT_EQ(Ctl({"donate", "10"}, &out, as_admin), 0) << out;
  ASSERT_EQ(Ctl({"allowance", "tess", "5", "--reason=a model seat"}, &out, as_admin), 0) << out;
  ASSERT_EQ(Ctl({"whoami"}, &out), 0) << out;
  EXPECT_THAT(out, HasSubstr("tess"));

  // Bad seats are usage errors that say what exists, and create nothing.
  EXPECT_EQ(Ctl({"table", "create", "chestonia-chess", "--variant=players=3", "--seat=me",
                 "--seat=robot:2", "--seat=bot:1"},
                &out),
            2);
  EXPECT_THAT(out, HasSubstr("me, open, bot:LEVEL"));
  EXPECT_EQ(Ctl({"table", "create", "chestonia-chess", "--variant=players=3", "--seat=me",
                 "--seat=bot:1"},
                &out),
            2);
  EXPECT_THAT(out, HasSubstr("has 3 seats"));
  EXPECT_EQ(Ctl({"table", "create", "chestonia-chez", "--seat=me"}, &out), 2);
  EXPECT_THAT(out, HasSubstr("chestonia-chess"));

  ASSERT_EQ(Ctl({"table", "create", "chestonia-chess", "--variant=players=3", "--seat=me",
                 "--seat=model:mock-competent", "--seat=bot:1", "--move_cap=9",
                 "--per_move_ms=120000", "--turn_cost_cap=0.05"},
                &out),
            0)
      << out;
  const std::string game = GameIdOf(out);
  ASSERT_FALSE(game.empty()) << out;
  EXPECT_THAT(out, HasSubstr("arenactl watch " + game));
  EXPECT_THAT(out, HasSubstr("arenactl play " + game));

  auto argv = [&](const std::vector<std::string>& args) {
    std::vector<std::string> v = {ARENACTL_BIN};
    v.insert(v.end(), args.begin(), args.end());
    return v;
  };
  std::map<std::string, std::string> env = env_;
  PtyProcess watch(argv({"watch", game}), env);
  PtyProcess play(argv({"play", game, "--coords"}), env);
  ASSERT_TRUE(watch.ok() && play.ok());

  // Play: each time the screen offers a turn with a move list not seen before, type the first
  // legal action.
  const absl::Time deadline = absl::Now() + absl::Minutes(5);
  std::string acted_on = "-";
  int typed = 0;
  std::optional<int> play_code;
  while (absl::Now() < deadline) {
    pollfd fds[2] = {{play.fd(), POLLIN, 0}, {watch.fd(), POLLIN, 0}};
    poll(fds, 2, 200);
    play.Drain();
    watch.Drain();
    play_code = play.ExitCode();
    if (play_code.has_value()) break;
    const std::string screen = play.Screen();
    if (screen.find("your turn") == std::string::npos) continue;
    const std::string moves = MovesOf(screen);
    if (moves == acted_on && screen.find("refused:") == std::string::npos) continue;
    const std::string action = FirstLegal(screen);
    if (action.empty()) continue;
    acted_on = moves;
    play.Type(action + "\n");
    ++typed;
  }
  ASSERT_TRUE(play_code.has_value()) << "play did not end; its screen:\n" << play.Screen();
  EXPECT_EQ(*play_code, 0) << play.output();
  EXPECT_GE(typed, 2) << play.output();
  const std::string final_screen = play.Screen();
  EXPECT_THAT(final_screen, HasSubstr("result:")) << final_screen;
  EXPECT_THAT(final_screen, HasSubstr("tess (person)"));

  // The watcher's terminal saw the names and kinds, the clocks and the model's reasoning, and
  // ends with the game.
  for (int i = 0; i < 100 && !watch.ExitCode().has_value(); ++i) {
    watch.Drain();
    absl::SleepFor(absl::Milliseconds(100));
  }
  watch.Drain();
  EXPECT_EQ(watch.ExitCode().value_or(-1), 0);
  const std::string& seen = watch.output();
  EXPECT_THAT(seen, HasSubstr("tess (person)"));
  EXPECT_THAT(seen, HasSubstr("(model mock-competent)"));
  EXPECT_THAT(seen, HasSubstr("(bot level 1)"));
  EXPECT_THAT(seen, ::testing::ContainsRegex("  [0-9]+:[0-5][0-9]\n")) << "no clock";
  EXPECT_THAT(seen, HasSubstr("reasoning: It develops my position and keeps my king safe."));
  EXPECT_THAT(seen, HasSubstr("attempt"));
  EXPECT_THAT(watch.Screen(), HasSubstr("result:"));

  // Into a file, watch writes plain text: the finished game once, without terminal codes.
  ASSERT_EQ(Ctl({"watch", game, "--once"}, &out), 0) << out;
  EXPECT_EQ(out.find('\033'), std::string::npos);
  EXPECT_THAT(out, HasSubstr("result:"));
  EXPECT_THAT(out, HasSubstr("reasoning: "));
}

// In a game of three, a seat that resigns is out while the other two play on: `play` says so
// and ends (it used to wait on a seat that could no longer act).
TEST_F(ArenactlE2eTest, PlayEndsWhenItsSeatIsOutWhileTheOthersPlayOn) {
  std::string out;
  ASSERT_EQ(
      Ctl({"signup", "ruth", "--password_file=" + WriteFile(dir_, "ruth.pw", "ruth-pass-1")}, &out),
      0)
      << out;
  ASSERT_EQ(Ctl({"table", "create", "chestonia-chess", "--variant=players=3", "--seat=me",
                 "--seat=bot:1", "--seat=bot:1", "--move_cap=30", "--per_move_ms=60000"},
                &out),
            0)
      << out;
  const std::string game = GameIdOf(out);
  ASSERT_FALSE(game.empty()) << out;
  PtyProcess play({ARENACTL_BIN, "play", game}, env_);
  ASSERT_TRUE(play.ok());
  const absl::Time deadline = absl::Now() + absl::Minutes(2);
  bool resigned = false;
  std::optional<int> code;
  while (absl::Now() < deadline && !code.has_value()) {
    pollfd fd = {play.fd(), POLLIN, 0};
    poll(&fd, 1, 200);
    play.Drain();
    code = play.ExitCode();
    if (!resigned && play.Screen().find("your turn") != std::string::npos) {
      play.Type("resign\n");
      resigned = true;
    }
  }
  play.Drain();
  ASSERT_TRUE(code.has_value()) << "play did not end once its seat was out:\n" << play.Screen();
  EXPECT_EQ(*code, 0) << play.output();
  EXPECT_THAT(play.Screen(), HasSubstr("your seat is out of " + game));
  // play says "out" only while the game is still on; the game's record reads as usual.
  ASSERT_EQ(Ctl({"watch", game, "--once"}, &out), 0) << out;
  EXPECT_THAT(out, ::testing::AnyOf(HasSubstr("to act: "), HasSubstr("result: ")));
}

}  // namespace
}  // namespace arena::testing
