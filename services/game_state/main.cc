// arena-game-state: owns the rules, tables, seats, clocks, dart randomness, the durable event
// log and the spectator streams. Postgres schema `game`.
#include "absl/flags/flag.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "engine/core/game.h"
#include "services/common/config.h"
#include "services/common/db_flags.h"
#include "services/common/flags.h"
#include "services/common/server.h"
#include "services/common/startup.h"

namespace arena::migrations {
const std::vector<arena::common::Migration>& GameMigrations();
}

int main(int argc, char** argv) {
  using namespace arena::common;
  BlockShutdownSignals();
  InitConfig(argc, argv, "arena-game-state: tables, seats, clocks and the durable move log");
  ServerOptions options = ServerOptionsFromFlags("arena-game-state");
  auto pool = OpenDatabaseOrDie("game", arena::migrations::GameMigrations());

  // The RPCs arrive with the game-state issue; until then they answer UNIMPLEMENTED.
  arena::v1::GameStateService::CallbackService service;
  options.services = {&service};
  for (const arena::engine::Game* g : arena::engine::AllGames()) {
    options.games.emplace_back(g->Id());
  }
  CheckOrDie(RunServer(options));
  return 0;
}
