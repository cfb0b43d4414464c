// arena-game-state: owns the rules, tables, seats, clocks, dart randomness, the durable event
// log and the spectator streams. Postgres schema `game`.
#include <sodium.h>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "common/config.h"
#include "common/flags.h"
#include "common/log.h"
#include "engine/core/game.h"
#include "services/common/db_flags.h"
#include "services/common/server.h"
#include "services/common/service_auth.h"
#include "services/common/startup.h"
#include "services/game_state/credentials.h"
#include "services/game_state/game_service.h"
#include "services/game_state/grpc_service.h"
#include "services/game_state/pg_event_log.h"

ABSL_FLAG(int, first_move_abort_ms, 20000,
          "Ranked games: each side's untimed first move must come within this or the game aborts.");
ABSL_FLAG(int, disconnect_loss_ms, 60000,
          "Ranked games: a person gone this long while it is their move loses.");
ABSL_FLAG(int, delay_credit_cap_ms, 1000, "Most network delay credited back per move.");
ABSL_FLAG(int, restart_grace_ms, 10000, "Added to the mover's clock when games are recovered.");
ABSL_FLAG(int, keepalive_ms, 5000, "Interval of keep-alives and pings on watch streams.");
ABSL_FLAG(double, anonymous_table_burst, 20,
          "Tables a caller without a service credential may create at once, per address.");
ABSL_FLAG(double, anonymous_tables_per_minute, 10, "Tables such an address regains a minute.");
ABSL_FLAG(int, watch_streams_per_address, 64,
          "Watch streams open at once per address (callers without a service credential).");
ABSL_FLAG(std::string, replica_id, "",
          "This replica's name in game leases; empty: a random one at every start.");
ABSL_FLAG(std::string, advertise_address, "",
          "host:port other replicas forward calls to; empty: --host and the bound port.");
ABSL_FLAG(int, lease_ttl_ms, 10000,
          "A game's lease lasts this long unless renewed; then another replica may take it.");
ABSL_FLAG(int, lease_renew_ms, 2000, "Interval of lease renewals (and of adopting orphans).");
ABSL_FLAG(bool, sole_replica, true,
          "The only game-state replica on this database: take every game's lease at once, even "
          "one a killed predecessor still holds. Set false when replicas share the database.");

namespace arena::migrations {
const std::vector<arena::common::Migration>& GameMigrations();
}

int main(int argc, char** argv) {
  using namespace arena::common;
  using namespace arena::game_state;
  BlockShutdownSignals();
#ifdef NDEBUG
  // Debian's abseil checks every absl::Mutex (gRPC's locks) for lock-order cycles through one
  // global graph: ~5% of the server's CPU under load, and a lock all threads share. Debug
  // builds keep the check.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
#endif
  InitConfig(argc, argv, "arena-game-state: tables, seats, clocks and the durable move log");
  ServerOptions options = ServerOptionsFromFlags("arena-game-state");
  if (sodium_init() < 0) DieAtStartup(absl::InternalError("libsodium failed to initialise"));
  (void)MakeProcessUndumpable();  // the credential key and secret seeds live in memory
  auto pool = OpenDatabaseOrDie("game", arena::migrations::GameMigrations());

  std::string secrets = absl::GetFlag(FLAGS_secrets_dir);
  std::vector<std::string> services(std::begin(kKnownServices), std::end(kKnownServices));
  auto auth = ValueOrDie(ServiceAuthenticator::Load(secrets, services));
  auto hasher = ValueOrDie(CredentialHasher::LoadOrCreate(secrets));

  CoreOptions core_options;
  core_options.first_move_abort = absl::Milliseconds(absl::GetFlag(FLAGS_first_move_abort_ms));
  core_options.disconnect_loss = absl::Milliseconds(absl::GetFlag(FLAGS_disconnect_loss_ms));
  core_options.delay_credit_cap = absl::Milliseconds(absl::GetFlag(FLAGS_delay_credit_cap_ms));
  core_options.restart_grace = absl::Milliseconds(absl::GetFlag(FLAGS_restart_grace_ms));
  core_options.keepalive = absl::Milliseconds(std::max(10, absl::GetFlag(FLAGS_keepalive_ms)));

  int lease_ttl_ms = absl::GetFlag(FLAGS_lease_ttl_ms);
  int lease_renew_ms = absl::GetFlag(FLAGS_lease_renew_ms);
  if (lease_renew_ms < 10 || lease_ttl_ms <= lease_renew_ms) {
    DieAtStartup(absl::InvalidArgumentError(
        "--lease_renew_ms must be at least 10 and less than --lease_ttl_ms"));
  }
  core_options.lease_renew_every = absl::Milliseconds(lease_renew_ms);
  core_options.sole_replica = absl::GetFlag(FLAGS_sole_replica);
  ReplicaOptions replica;
  replica.replica_id = absl::GetFlag(FLAGS_replica_id);
  replica.address = absl::GetFlag(FLAGS_advertise_address);
  replica.lease_ttl = absl::Milliseconds(lease_ttl_ms);
  if (replica.address.empty() && options.port > 0) {
    replica.address = absl::StrCat(options.host, ":", options.port);
  }

  PgEventLog store(pool.get(), replica);
  LogInfo("replica",
          {{"replica_id", store.replica_id()}, {"sole_replica", core_options.sole_replica}});
  GameStateCore core(&store, std::move(hasher), core_options);
  CheckOrDie(core.Recover());

  EdgeLimits limits;
  limits.tables_per_address = {absl::GetFlag(FLAGS_anonymous_table_burst),
                               absl::GetFlag(FLAGS_anonymous_tables_per_minute) / 60};
  limits.watch_streams_per_address = absl::GetFlag(FLAGS_watch_streams_per_address);
  if (limits.tables_per_address.burst < 1 || limits.tables_per_address.per_second < 0 ||
      limits.watch_streams_per_address < 1) {
    DieAtStartup(absl::InvalidArgumentError(
        "--anonymous_table_burst and --watch_streams_per_address must be >= 1"));
  }
  GameStateGrpc service(&core, std::move(auth), limits);
  options.services = {&service};
  options.on_shutdown = [&core] { core.Shutdown(); };
  options.on_serving = [&store, &options](int port) {
    if (store.advertised_address().empty()) {
      store.SetAdvertisedAddress(absl::StrCat(options.host, ":", port));
    }
  };
  for (const arena::engine::Game* g : arena::engine::AllGames()) {
    options.games.emplace_back(g->Id());
  }
  CheckOrDie(RunServer(options));
  core.Shutdown();
  store.Stop();
  core.ReleaseLeases();  // after the last commit: another replica may take the games at once
  return 0;
}
