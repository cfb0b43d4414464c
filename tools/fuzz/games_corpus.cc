// Writes the games' fuzz corpus (tools/fuzz/corpus/games, read by fuzz_games.cc): for every
// registered game and example variant, the state after 0, 9 and 30 actions of
// fuzz::PlayedState as a "parse" input (its serialization, and once its own position notation
// where that differs), and one of that state's legal actions as an "apply" input.
//
//   fuzz_games_corpus DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "tools/fuzz/fuzz_games.h"

int main(int argc, char** argv) {
  using namespace arena::engine;
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_games_corpus DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::filesystem::create_directories(dir);
  int files = 0;
  auto write = [&](const std::string& name, const std::string& header, const std::string& text) {
    std::ofstream(dir + "/" + name) << header << "\n" << text;
    ++files;
  };
  for (const Game* game : AllGames()) {
    const std::string id(game->Id());
    int index = 0;
    for (const std::string& v : game->ExampleVariants()) {
      auto variant = Variant::Parse(v);
      auto initial = variant.ok() ? game->NewInitialState(*variant) : variant.status();
      if (!initial.ok()) {
        std::fprintf(stderr, "%s %s: %s\n", id.c_str(), v.c_str(),
                     std::string(initial.status().message()).c_str());
        return 1;
      }
      for (int steps : {0, 9, 30}) {
        std::unique_ptr<State> s = arena::fuzz::PlayedState((*initial)->Clone(), steps);
        const std::string name = id + "_v" + std::to_string(index) + "_s" + std::to_string(steps);
        const std::string head = id + " " + (v.empty() ? "-" : v) + " ";
        write(name + "_parse", head + "parse " + std::to_string(steps), s->Serialize());
        if (steps == 9 && s->PositionText() != s->Serialize()) {
          write(name + "_parse_own", head + "parse " + std::to_string(steps), s->PositionText());
        }
        if (s->IsTerminal()) continue;
        std::vector<std::string> actions;
        if (s->ToMove() == kChanceSeat) {
          for (const ChanceOutcome& o : s->ChanceOutcomes()) actions.push_back(o.action);
        } else {
          actions = s->BoundedLegalActions(50);
        }
        if (actions.empty()) continue;
        write(name + "_apply", head + "apply " + std::to_string(steps),
              actions[actions.size() / 2]);
      }
      ++index;
    }
  }
  std::printf("%d files in %s\n", files, dir.c_str());
  return 0;
}
