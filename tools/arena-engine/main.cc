// arena-engine: a command-line driver over the engine facade, for every registered game.
//
//   arena-engine perft  [--game ID] [--variant k=v,...] [--fen TEXT] --depth N [--divide]
//   arena-engine moves  [--game ID] [--variant ...] [--fen TEXT]
//   arena-engine play   [--game ID] [--variant ...] [--fen TEXT] --moves "a b c"
//                       (--moves "e2e4; aim 0,0; ..." when actions contain spaces)
//   arena-engine render [--game ID] [--variant ...] [--fen TEXT] [--moves ...] [--coords]
//                       [--perspective N]
//   arena-engine games
//
// --fen (alias --position) is any text Game::Parse accepts: a serialized state or the game's
// own position notation. Errors go to stderr; exit code 2 for usage, 1 for bad input.
//
// --moves lists actions in the engine's text. With a ';' in it, ';' separates the actions and
// each may contain spaces ("aim 0,0; place Q 1,2"); otherwise words are separated by spaces,
// and a word the position refuses on its own is joined with the next ones (up to
// kMaxWordsPerAction) until the position takes them: "e2e4 aim 0,0" is two actions.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/core/game.h"

namespace arena::engine {
namespace {

constexpr int kUsageError = 2;
constexpr int kInputError = 1;
// The most words one action's text has ("place Q 1,2" has three).
constexpr size_t kMaxWordsPerAction = 4;

constexpr char kUsage[] =
    "usage: arena-engine <perft|moves|play|render|games> [--game ID] [--variant k=v,...]\n"
    "                    [--fen TEXT | --position TEXT] [--depth N] [--divide]\n"
    "                    [--moves \"a b c\" | --moves \"a; aim 0,0; c\"] [--coords]\n"
    "                    [--perspective N]\n";

struct Options {
  std::string command;
  std::string game;  // empty: the first game of the engine's list
  std::string variant;
  std::string fen;
  bool has_fen = false;
  int depth = -1;
  bool divide = false;
  std::string moves;
  bool coords = false;
  int perspective = 0;
};

int Usage(const std::string& message) {
  std::cerr << "arena-engine: " << message << "\n" << kUsage;
  return kUsageError;
}

int InputError(const std::string& message) {
  std::cerr << "arena-engine: " << message << "\n";
  return kInputError;
}

// Parses argv into `opts`; returns 0 or the exit code of a usage error.
int ParseArgs(int argc, char** argv, Options& opts) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return Usage("no command given");
  opts.command = args[0];
  static const std::map<std::string, std::string> kAliases = {{"--position", "--fen"}};
  for (size_t i = 1; i < args.size(); ++i) {
    std::string flag = args[i], value;
    bool has_value = false;
    if (size_t eq = flag.find('='); flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
      has_value = true;
    }
    if (auto it = kAliases.find(flag); it != kAliases.end()) flag = it->second;
    const bool boolean = flag == "--divide" || flag == "--coords";
    if (boolean) {
      if (has_value) return Usage(flag + " takes no value");
      (flag == "--divide" ? opts.divide : opts.coords) = true;
      continue;
    }
    static const std::vector<std::string> kValued = {"--game",  "--variant", "--fen",
                                                     "--depth", "--moves",   "--perspective"};
    if (std::find(kValued.begin(), kValued.end(), flag) == kValued.end()) {
      return Usage("unknown argument '" + args[i] + "'");
    }
    if (!has_value) {
      if (i + 1 >= args.size()) return Usage(flag + " needs a value");
      value = args[++i];
    }
    if (flag == "--game") {
      opts.game = value;
    } else if (flag == "--variant") {
      opts.variant = value;
    } else if (flag == "--fen") {
      opts.fen = value;
      opts.has_fen = true;
    } else if (flag == "--moves") {
      opts.moves = value;
    } else if (flag == "--depth") {
      if (!absl::SimpleAtoi(value, &opts.depth) || opts.depth < 0 || opts.depth > 64) {
        return Usage("--depth needs a number from 0 to 64, got '" + value + "'");
      }
    } else if (flag == "--perspective") {
      if (!absl::SimpleAtoi(value, &opts.perspective) || opts.perspective < 0) {
        return Usage("--perspective needs a seat number, got '" + value + "'");
      }
    }
  }
  return 0;
}

std::string StatusLine(const State& state) {
  Outcome outcome = state.GetOutcome();
  if (!outcome.finished()) return "ongoing";
  return outcome.ResultText() + " " + outcome.reason;
}

// Applies --moves to `state` (see the top of this file); on a refused action reports it with
// its number and returns kInputError.
int ApplyMoves(const std::string& moves, State& state) {
  int index = 0;
  auto refused = [&](const std::string& action, const absl::Status& s) {
    return InputError("move " + std::to_string(index) + " '" + action +
                      "': " + std::string(s.message()));
  };
  if (moves.find(';') != std::string::npos) {
    for (absl::string_view part : absl::StrSplit(moves, ';', absl::SkipWhitespace())) {
      ++index;
      const std::string action(absl::StripAsciiWhitespace(part));
      if (absl::Status s = state.Apply(action); !s.ok()) return refused(action, s);
    }
    return 0;
  }
  std::vector<std::string> words = absl::StrSplit(moves, ' ', absl::SkipEmpty());
  for (size_t i = 0; i < words.size();) {
    ++index;
    absl::Status first;
    size_t taken = 0;
    std::string action;
    // A refused Apply changes nothing, so each longer reading is tried on the same state.
    for (size_t n = 1; n <= kMaxWordsPerAction && i + n <= words.size(); ++n) {
      action = absl::StrJoin(words.begin() + i, words.begin() + i + n, " ");
      absl::Status s = state.Apply(action);
      if (s.ok()) {
        taken = n;
        break;
      }
      if (n == 1) first = s;
    }
    if (taken == 0) return refused(words[i], first);
    i += taken;
  }
  return 0;
}

int Run(int argc, char** argv) {
  Options opts;
  if (int code = ParseArgs(argc, argv, opts)) return code;

  if (opts.command == "games") {
    for (const Game* game : AllGames()) {
      std::vector<std::string> keys = game->VariantKeys();
      std::cout << game->Id() << "\t" << game->DisplayName() << "\tvariant keys: "
                << (keys.empty() ? std::string("(none)") : absl::StrJoin(keys, ",")) << "\n";
    }
    return 0;
  }
  if (opts.command != "perft" && opts.command != "moves" && opts.command != "play" &&
      opts.command != "render") {
    return Usage("unknown command '" + opts.command + "'");
  }
  if (opts.command == "perft" && opts.depth < 0) return Usage("perft needs --depth N");

  if (opts.game.empty()) opts.game = std::string(AllGames().front()->Id());
  const Game* game = FindGame(opts.game);
  if (!game) return InputError("unknown game '" + opts.game + "' (see 'arena-engine games')");
  auto variant = Variant::Parse(opts.variant);
  if (!variant.ok()) return InputError(std::string(variant.status().message()));
  auto state = opts.has_fen ? game->Parse(opts.fen, *variant) : game->NewInitialState(*variant);
  if (!state.ok()) return InputError(std::string(state.status().message()));

  if (int code = ApplyMoves(opts.moves, **state)) return code;

  State& st = **state;
  if (opts.command == "perft") {
    if (opts.divide && opts.depth >= 1) {
      uint64_t total = 0;
      for (const auto& [action, count] : st.PerftDivide(opts.depth)) {
        std::cout << action << ": " << count << "\n";
        total += count;
      }
      std::cout << "\n" << total << "\n";
    } else {
      std::cout << st.Perft(opts.depth) << "\n";
    }
  } else if (opts.command == "moves") {
    for (const std::string& action : st.LegalActions()) std::cout << action << "\n";
  } else if (opts.command == "play") {
    std::cout << st.PositionText() << "\n" << StatusLine(st) << "\n";
  } else {  // render
    if (opts.perspective >= st.NumSeats()) {
      return Usage("--perspective must be below the seat count " + std::to_string(st.NumSeats()));
    }
    RenderOptions render;
    render.coordinates = opts.coords;
    render.perspective = opts.perspective;
    std::cout << st.Render(render);
  }
  std::cout.flush();
  return std::cout ? 0 : kInputError;
}

}  // namespace
}  // namespace arena::engine

int main(int argc, char** argv) {
  return arena::engine::Run(argc, argv);
}
