// The list of every game the engine offers. A new game adds its include and one line below.
#include "engine/core/game.h"

#ifdef ARENA_HAS_GAME_chess
#include "engine/chess/chess_game.h"
#endif
#ifdef ARENA_HAS_GAME_chestonia_chess
#include "engine/chestonia_chess/chestonia_chess_game.h"
#endif

namespace arena::engine {

std::vector<const Game*> AllGames() {
  std::vector<const Game*> games;
#ifdef ARENA_HAS_GAME_chess
  games.push_back(&chess::ChessGame::Instance());
#endif
#ifdef ARENA_HAS_GAME_chestonia_chess
  games.push_back(&chestonia_chess::ChestoniaChessGame::Instance());
#endif
  return games;
}

const Game* FindGame(std::string_view id) {
  for (const Game* game : AllGames()) {
    if (game->Id() == id) return game;
  }
  return nullptr;
}

}  // namespace arena::engine
