// `arenactl matches`, `export` and `model-stats`: the match history `arena` keeps of every
// table it seated AI at, one game's full record, and how each model has played.
#pragma once

#include "tools/arenactl/client.h"

namespace arena::arenactl {

// matches [--league=ID] [--participant=P] [--game=GAME] [--state=S] [--limit=N]
int MatchesCommand(const Args& args);
// export GAME [--pgn]
int ExportCommand(const Args& args);
// model-stats [MODEL]
int ModelStatsCommand(const Args& args);

}  // namespace arena::arenactl
