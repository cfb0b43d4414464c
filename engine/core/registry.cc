// Finding a game by id. The list itself (AllGames) is generated from ARENA_GAMES in
// engine/CMakeLists.txt.
#include "engine/core/game.h"

namespace arena::engine {

const Game* FindGame(std::string_view id) {
  for (const Game* game : AllGames()) {
    if (game->Id() == id) return game;
  }
  return nullptr;
}

}  // namespace arena::engine
