// `arenactl demo`: sets a table of guest seats on arena-game-state and has arena-bot play every
// seat until the game ends, so a fresh deployment has a game anyone can watch
// (`arenactl watch GAME`). `arenactl watch`: follows a game's live stream and redraws the board.
#pragma once

#include <string>

#include "absl/time/time.h"

namespace arena::arenactl {

struct DemoOptions {
  std::string game_state_addr;
  std::string bot_addr;
  std::string secrets_dir;  // where the arena service's credential is read for arena-bot
  std::string game = "chestonia-chess";
  std::string variant = "players=3,darts=on";
  int level = 2;
  int move_delay_ms = 300;  // pause between moves so watchers can follow
  int max_actions = 400;
  absl::Duration timeout = absl::Seconds(10);
};

int RunDemo(const DemoOptions& options);
int RunWatch(const std::string& game_state_addr, const std::string& game_id, bool once);

}  // namespace arena::arenactl
