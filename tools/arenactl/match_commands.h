// `arenactl matches`, `export`, `model-stats` and `models`: the match history `arena` keeps
// of every table it seated AI at, one game's full record, how each model has played, and the
// models the gateway can reach.
#pragma once

#include "tools/arenactl/client.h"

namespace arena::arenactl {

// matches [--league=ID] [--participant=P] [--game=GAME] [--state=S] [--limit=N]
int MatchesCommand(const Args& args);
// export GAME [--pgn]
int ExportCommand(const Args& args);
// model-stats [MODEL]
int ModelStatsCommand(const Args& args);
// models: the models the gateway can reach, with prices and context sizes
int ModelsCommand(const Args& args);

}  // namespace arena::arenactl
