// arena-llm-gateway: asks language models for moves through Abacus.AI RouteLLM. Holds per-game
// keys only in memory; the process is made undumpable before anything else happens.
#include "arena/v1/gateway.grpc.pb.h"
#include "services/common/config.h"
#include "services/common/flags.h"
#include "services/common/server.h"
#include "services/common/startup.h"

int main(int argc, char** argv) {
  using namespace arena::common;
  CheckOrDie(MakeProcessUndumpable());
  BlockShutdownSignals();
  InitConfig(argc, argv, "arena-llm-gateway: language models take their turns");
  ServerOptions options = ServerOptionsFromFlags("arena-llm-gateway");

  // The RPCs arrive with the gateway issue; until then they answer UNIMPLEMENTED.
  arena::v1::ModelGatewayService::CallbackService service;
  options.services = {&service};
  CheckOrDie(RunServer(options));
  return 0;
}
