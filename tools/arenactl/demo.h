// `arenactl demo`: opens a table of bots through arena, as any guest could, at a pace spectators
// can follow (AiPolicy.min_bot_turn_ms), so a fresh deployment has a game anyone can watch
// (`arenactl watch GAME`); arena plays the seats, the demo follows the game's stream and prints
// each action until the game ends or it has seen max_actions. It holds no service secret.
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
}  // namespace arena::arenactl
