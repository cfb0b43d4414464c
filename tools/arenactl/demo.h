// `arenactl demo`: opens a table of bots through arena, as any guest could, at a pace spectators
// can follow (AiPolicy.min_bot_turn_ms), so a fresh deployment has a game anyone can watch
// (`arenactl watch GAME`); arena plays the seats, the demo follows the game's stream and prints
// each action until the game ends or it has seen max_actions. It holds no service secret. `arenactl
// watch`: follows a game's live stream and redraws the board.
#pragma once

#include <string>

#include "absl/time/time.h"
#include "arena/v1/game_state.pb.h"

namespace arena::arenactl {

struct DemoOptions {
  std::string arena_addr;
  std::string game_state_addr;  // the game's stream
  std::string token;            // a session token; empty: the demo takes a guest token
  std::string game;             // engine id; scripts/up names the showcase game
  std::string variant;
  int level = 2;
  int move_delay_ms = 300;  // each bot turn lasts at least this long, so watchers can follow
  int max_actions = 400;    // stop following (arena plays on to the end)
  absl::Duration timeout = absl::Seconds(10);
  absl::Duration stall_timeout = absl::Seconds(60);  // no action for this long: a failure
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
