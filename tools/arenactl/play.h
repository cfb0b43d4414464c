// `arenactl play GAME`: a person plays a seat from the terminal. It sits at the seat whose
// credential `table create` (or an earlier `play`) kept, or takes an open seat; then it draws
// the board from that seat's edge, lists the legal actions at beginner tables, reads actions
// and the words resign, draw, accept, decline, clue, moves CELL, coords, help and quit, and
// follows the game's stream (with presence: it answers the server's pings) to the end. The
// game is never named here: the phase says what is owed and common/proto_words how to send it.
#pragma once

#include <string>

namespace arena::arenactl {

struct PlayOptions {
  bool coordinates = false;
  int seat = -1;                // the table seat to play (-1: yours, else the first open one)
  std::string credential_file;  // a seat credential kept elsewhere
  std::string display_name;     // the name shown at an open seat (default: your account's)
};

int RunPlay(const std::string& game_id, const PlayOptions& options);

}  // namespace arena::arenactl
