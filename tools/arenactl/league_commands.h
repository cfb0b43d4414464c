// `arenactl league ...`, `standings` and `leaderboard`: create and steer leagues of bots and
// models on `arena`, follow one live, and read the standings and the ratings they feed.
#pragma once

#include "tools/arenactl/client.h"

namespace arena::arenactl {

// league create|run [flags] | league start|pause|resume|cancel|progress ID | league list
int LeagueCommand(const Args& args);
// standings ID
int StandingsCommand(const Args& args);
// leaderboard GAME
int LeaderboardCommand(const Args& args);

}  // namespace arena::arenactl
