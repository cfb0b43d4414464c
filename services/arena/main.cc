// arena: the front door and conductor. Accounts, the credit ledger, seating AI at tables,
// driving their turns, leagues and ratings. Postgres schema `arena`.
#include "arena/v1/arena.grpc.pb.h"
#include "services/common/config.h"
#include "services/common/db_flags.h"
#include "services/common/flags.h"
#include "services/common/server.h"
#include "services/common/startup.h"

namespace arena::migrations {
const std::vector<arena::common::Migration>& ArenaMigrations();
}

int main(int argc, char** argv) {
  using namespace arena::common;
  BlockShutdownSignals();
  InitConfig(argc, argv, "arena: accounts, credits, tables, leagues and ratings");
  ServerOptions options = ServerOptionsFromFlags("arena");
  auto pool = OpenDatabaseOrDie("arena", arena::migrations::ArenaMigrations());

  // The RPCs arrive with the accounts and league issues; until then they answer UNIMPLEMENTED.
  arena::v1::ArenaService::CallbackService service;
  options.services = {&service};
  CheckOrDie(RunServer(options));
  return 0;
}
