// `arenactl demo`: sets a table of guest seats on arena-game-state and has arena-bot play every
// seat until the game ends, so a fresh deployment has a game anyone can watch
// (`arenactl watch GAME`). `arenactl watch`: follows a game's live stream and redraws the board.
#pragma once

#include <string>

#include "absl/time/time.h"
#include "arena/v1/game_state.pb.h"

namespace arena::arenactl {

struct DemoOptions {
  std::string game_state_addr;
  std::string bot_addr;
  std::string secrets_dir;  // where the arena service's credential is read for arena-bot
  std::string game;         // engine id; scripts/up names the showcase game
  std::string variant;
  int level = 2;
  int move_delay_ms = 300;  // pause between moves so watchers can follow
  int max_actions = 400;
  absl::Duration timeout = absl::Seconds(10);
};

int RunDemo(const DemoOptions& options);
struct WatchOptions {
  bool once = false;         // draw the current position and exit
  bool coordinates = false;  // label the board's rows with their first and last cells
  int seat = -1;             // turn the board to this engine seat's edge (-1: the first)
};
// One frame of `arenactl watch`: the board from the game's board view, the seats with their
// names, players and clocks, whose turn it is, the last event and the result. Plain text.
std::string WatchFrame(const v1::GameView& view, const WatchOptions& options,
                       const std::string& last);
int RunWatch(const std::string& game_state_addr, const std::string& game_id,
             const WatchOptions& options);

}  // namespace arena::arenactl
