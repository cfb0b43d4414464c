// arena-bot: search players at levels. Stateless and CPU bound; scale by replicas.
#include "arena/v1/bot.grpc.pb.h"
#include "engine/core/game.h"
#include "services/common/config.h"
#include "services/common/flags.h"
#include "services/common/server.h"
#include "services/common/startup.h"

int main(int argc, char** argv) {
  using namespace arena::common;
  BlockShutdownSignals();
  InitConfig(argc, argv, "arena-bot: search players for every game");
  ServerOptions options = ServerOptionsFromFlags("arena-bot");

  // ChooseMove arrives with the bots issue; until then it answers UNIMPLEMENTED.
  arena::v1::BotService::CallbackService service;
  options.services = {&service};
  for (const arena::engine::Game* g : arena::engine::AllGames()) {
    options.games.emplace_back(g->Id());
  }
  CheckOrDie(RunServer(options));
  return 0;
}
