// `arenactl table`, `supply-key` and `clue`: a table's AI seats as `arena` drives them, giving a
// model seat its per-game key again after the gateway lost it, and asking for a clue. Secrets
// (keys, seat credentials) come from files only, never from the command line, and are never
// printed.
#pragma once

#include "tools/arenactl/client.h"

namespace arena::arenactl {

// table GAME
int TableCommand(const Args& args);
// supply-key GAME SEAT --key_file=F
int SupplyKeyCommand(const Args& args);
// clue GAME SEAT --seat_credential_file=F
int ClueCommand(const Args& args);

}  // namespace arena::arenactl
