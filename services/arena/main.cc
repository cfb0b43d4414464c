// arena: the front door and conductor. Accounts, the credit ledger, seating AI at tables,
// driving their turns, leagues and ratings. Postgres schema `arena`.
#include <atomic>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "arena/v1/arena.grpc.pb.h"
#include "common/config.h"
#include "common/flags.h"
#include "common/log.h"
#include "services/arena/accounts.h"
#include "services/arena/arena_service.h"
#include "services/arena/fair_play_runner.h"
#include "services/arena/ledger.h"
#include "services/common/db_flags.h"
#include "services/common/server.h"
#include "services/common/startup.h"

ABSL_FLAG(std::string, bootstrap_admin, "",
          "At start, make this account an admin, creating it with the password in "
          "--admin_password_file when it does not exist (see docs/ledger.md).");
ABSL_FLAG(std::string, admin_password_file, "", "File holding the bootstrap admin's password.");
ABSL_FLAG(std::string, password_cost, "interactive",
          "argon2id cost: interactive (production) or minimum (tests only).");
ABSL_FLAG(int, hold_sweep_ms, 1000, "How often the sweeper expires overdue holds.");
ABSL_FLAG(int, ledger_workers, 32, "Worker threads for account and ledger calls.");
ABSL_FLAG(std::string, game_state_addr, "",
          "arena-game-state address; with --bot_addr and --gateway_addr it enables tables, "
          "seat drivers and leagues.");
ABSL_FLAG(std::string, bot_addr, "", "arena-bot address.");
ABSL_FLAG(std::string, gateway_addr, "", "arena-llm-gateway address.");
ABSL_FLAG(int, clue_level, 4, "The bot level that suggests moves at tables with clues on.");
ABSL_FLAG(int, bot_time_cap_ms, 5000, "The most a bot seat may think when its clock allows more.");
ABSL_FLAG(int, league_tick_ms, 250, "How often the league loop looks for work.");
ABSL_FLAG(int, ranked_tick_ms, 1000,
          "How often the ranked loop pairs every queue, starts new games and settles ended ones");
ABSL_FLAG(int, fair_play_depth, 12,
          "Depth of the reference engine (Stockfish) in the fair-play check of every settled "
          "ranked game, 1..30; 0 turns the check off");
ABSL_FLAG(int, fair_play_book_plies, 16,
          "Fair-play check: the opening plies left out (everyone plays known moves there)");
ABSL_FLAG(int, fair_play_min_moves, 20,
          "Fair-play check: the fewest analysed moves of a player that can raise a flag");
ABSL_FLAG(int, ranked_show_up_s, 60,
          "A ranked table whose players have not both sat down this long after it was made is "
          "voided (the pairing ends aborted; no stake moves)");
// Quotas (docs/security.md): token buckets; BURST at once, then RATE.
ABSL_FLAG(double, signup_burst, 10, "Sign-ups one address may make at once.");
ABSL_FLAG(double, signups_per_hour, 10, "Sign-ups an address regains an hour.");
ABSL_FLAG(double, guest_burst, 30, "Guest tokens one address may take at once.");
ABSL_FLAG(double, guests_per_hour, 60, "Guest tokens an address regains an hour.");
ABSL_FLAG(double, signin_burst, 30, "Sign-in attempts one address may make at once.");
ABSL_FLAG(double, signins_per_second, 1, "Sign-in attempts an address regains a second.");
ABSL_FLAG(double, failed_signin_burst, 10, "Failed sign-ins one name may take at once.");
ABSL_FLAG(double, failed_signins_per_minute, 1, "Failed sign-ins a name regains a minute.");
ABSL_FLAG(double, table_burst, 20, "Tables one caller (account or address) may create at once.");
ABSL_FLAG(double, tables_per_minute, 10, "Tables a caller regains a minute.");
ABSL_FLAG(double, clue_burst, 3, "Clues one seat may ask at once.");
ABSL_FLAG(double, clues_per_minute, 12, "Clues a seat regains a minute.");
ABSL_FLAG(int, max_concurrent_clues, 4, "Clue searches running at once, for everyone.");
// Several replicas (issue 27 item 2; docs/operations.md, "Scaling").
ABSL_FLAG(std::string, replica_id, "",
          "This replica's name in the leases of driven tables (default: a random arena-… name at "
          "every start).");
ABSL_FLAG(bool, sole_replica, true,
          "No other arena replica shares the database: at start take every table being driven, "
          "even one a killed predecessor still holds. Set false when running several.");
ABSL_FLAG(int, driver_lease_ttl_ms, 10000,
          "How long a replica's claim on a driven table lasts without renewal; another replica "
          "takes over a dead one's tables after this.");
ABSL_FLAG(int, driver_lease_renew_ms, 2000,
          "How often a replica renews its leases and looks for tables nobody drives.");
ABSL_FLAG(int, model_catalogue_ttl_s, 600,
          "How long the gateway's model list is cached before it is fetched again.");

namespace arena::migrations {
const std::vector<arena::common::Migration>& ArenaMigrations();
}

namespace {

std::string ReadPasswordFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    arena::common::DieAtStartup(
        absl::InvalidArgumentError("--admin_password_file cannot be read: " + path));
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

// Expires overdue holds in the background until stopped.
class HoldSweeper {
 public:
  HoldSweeper(arena::ledger::Ledger& ledger, absl::Duration every)
      : ledger_(ledger), every_(every), thread_([this] { Loop(); }) {}
  ~HoldSweeper() { Stop(); }
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return;
      stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!stopping_) {
      lock.unlock();
      auto n = ledger_.ExpireOverdueHolds();
      if (!n.ok()) {
        arena::common::LogWarning("hold sweep failed",
                                  {{"error", std::string(n.status().message())}});
      } else if (*n > 0) {
        arena::common::LogInfo("holds expired", {{"count", *n}});
      }
      lock.lock();
      cv_.wait_for(lock, absl::ToChronoMilliseconds(every_), [&] { return stopping_; });
    }
  }
  arena::ledger::Ledger& ledger_;
  absl::Duration every_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace arena::common;
  BlockShutdownSignals();
  InitConfig(argc, argv, "arena: accounts, credits, tables, leagues and ratings");
  ServerOptions options = ServerOptionsFromFlags("arena");
  CheckOrDie(MakeProcessUndumpable());

  std::string cost = absl::GetFlag(FLAGS_password_cost);
  if (cost != "interactive" && cost != "minimum") {
    DieAtStartup(absl::InvalidArgumentError("--password_cost must be interactive or minimum"));
  }
  int workers = absl::GetFlag(FLAGS_ledger_workers);
  if (workers < 1 || workers > 512) {
    DieAtStartup(absl::InvalidArgumentError("--ledger_workers must be within 1..512"));
  }
  int sweep_ms = absl::GetFlag(FLAGS_hold_sweep_ms);
  if (sweep_ms < 10) DieAtStartup(absl::InvalidArgumentError("--hold_sweep_ms must be >= 10"));

  // Migrations first: --migrate_only needs nothing else.
  auto pool = OpenDatabaseOrDie("arena", arena::migrations::ArenaMigrations());
  const std::string secrets_dir = absl::GetFlag(FLAGS_secrets_dir);
  std::string token_key = ValueOrDie(arena::accounts::Accounts::LoadOrCreateTokenKey(secrets_dir));
  // Every known service's credential is recognised, so that another service calling a hold
  // RPC is told PERMISSION_DENIED (known, not allowed) rather than UNAUTHENTICATED; only
  // "arena" is allowed anything (ArenaServiceImpl::InternalOnly).
  std::vector<std::string> known(std::begin(arena::common::kKnownServices),
                                 std::end(arena::common::kKnownServices));
  auto services = ValueOrDie(ServiceAuthenticator::Load(secrets_dir, known));

  arena::accounts::PasswordHasher hasher(cost == "interactive"
                                             ? arena::accounts::PasswordHasher::Cost::kInteractive
                                             : arena::accounts::PasswordHasher::Cost::kMinimum);
  arena::accounts::Accounts accounts(*pool, std::move(token_key), hasher);
  arena::ledger::Ledger ledger(*pool);

  std::string admin = absl::GetFlag(FLAGS_bootstrap_admin);
  if (!admin.empty()) {
    std::string file = absl::GetFlag(FLAGS_admin_password_file);
    std::string password = file.empty() ? "" : ReadPasswordFile(file);
    CheckOrDie(accounts.BootstrapAdmin(admin, password));
    LogInfo("bootstrap admin ready", {{"name", admin}});
  }

  HoldSweeper sweeper(ledger, absl::Milliseconds(sweep_ms));

  // Tables, seat drivers and leagues need the other services.
  arena::clients::ServiceAddresses addresses{absl::GetFlag(FLAGS_game_state_addr),
                                             absl::GetFlag(FLAGS_bot_addr),
                                             absl::GetFlag(FLAGS_gateway_addr)};
  std::unique_ptr<arena::clients::ServiceClients> clients;
  std::unique_ptr<arena::service::ClueMaker> clues;  // outlives the driver, which uses it
  std::unique_ptr<arena::service::MoveJudge> judge;  // outlives the driver too
  std::unique_ptr<arena::service::SeatDriver> driver;
  std::unique_ptr<arena::service::LeagueRunner> leagues;
  std::unique_ptr<arena::service::ModelCatalogue> catalogue;
  std::unique_ptr<arena::service::RankedPlay> ranked;
  std::unique_ptr<arena::service::FairPlayRunner> fair_play;
  arena::service::PlayDeps play;
  play.pool = pool.get();
  const int clue_level = absl::GetFlag(FLAGS_clue_level);
  if (clue_level < 1 || clue_level > 8) {
    DieAtStartup(absl::InvalidArgumentError("--clue_level must be within 1..8"));
  }
  const int max_concurrent_clues = absl::GetFlag(FLAGS_max_concurrent_clues);
  if (max_concurrent_clues < 1) {
    DieAtStartup(absl::InvalidArgumentError("--max_concurrent_clues must be >= 1"));
  }
  const int bot_cap_ms = absl::GetFlag(FLAGS_bot_time_cap_ms);
  const int tick_ms = absl::GetFlag(FLAGS_league_tick_ms);
  if (bot_cap_ms < 10) DieAtStartup(absl::InvalidArgumentError("--bot_time_cap_ms must be >= 10"));
  if (tick_ms < 10) DieAtStartup(absl::InvalidArgumentError("--league_tick_ms must be >= 10"));
  const int ranked_tick_ms = absl::GetFlag(FLAGS_ranked_tick_ms);
  if (ranked_tick_ms < 10) {
    DieAtStartup(absl::InvalidArgumentError("--ranked_tick_ms must be >= 10"));
  }
  arena::service::RankedPlayOptions ranked_options;
  ranked_options.tick = absl::Milliseconds(ranked_tick_ms);
  ranked_options.show_up = absl::Seconds(absl::GetFlag(FLAGS_ranked_show_up_s));
  if (ranked_options.show_up < absl::Seconds(1)) {
    DieAtStartup(absl::InvalidArgumentError("--ranked_show_up_s must be >= 1"));
  }
  arena::service::FairPlayRunnerOptions fair_play_options;
  const int fair_play_depth = absl::GetFlag(FLAGS_fair_play_depth);
  fair_play_options.check.depth = fair_play_depth;
  fair_play_options.check.book_plies = absl::GetFlag(FLAGS_fair_play_book_plies);
  fair_play_options.check.limits.min_moves = absl::GetFlag(FLAGS_fair_play_min_moves);
  if (fair_play_depth < 0 || fair_play_depth > 30 || fair_play_options.check.book_plies < 0 ||
      fair_play_options.check.limits.min_moves < 1) {
    DieAtStartup(absl::InvalidArgumentError(
        "--fair_play_depth is 0..30, --fair_play_book_plies >= 0, --fair_play_min_moves >= 1"));
  }
  const int catalogue_ttl_s = absl::GetFlag(FLAGS_model_catalogue_ttl_s);
  if (catalogue_ttl_s < 0) {
    DieAtStartup(absl::InvalidArgumentError("--model_catalogue_ttl_s must not be negative"));
  }
  const int given =
      !addresses.game_state.empty() + !addresses.bot.empty() + !addresses.gateway.empty();
  if (given != 0 && given != 3) {
    DieAtStartup(
        absl::InvalidArgumentError("--game_state_addr, --bot_addr and --gateway_addr go together"));
  }
  if (given == 3) {
    auto identity = ValueOrDie(ServiceIdentity::Load(secrets_dir, "arena"));
    clients = std::make_unique<arena::clients::ServiceClients>(addresses, std::move(identity));
    arena::service::SeatDriverOptions driver_options;
    driver_options.bot_time_cap = absl::Milliseconds(bot_cap_ms);
    driver_options.lease.replica_id = absl::GetFlag(FLAGS_replica_id);
    driver_options.lease.sole_replica = absl::GetFlag(FLAGS_sole_replica);
    driver_options.lease.ttl = absl::Milliseconds(absl::GetFlag(FLAGS_driver_lease_ttl_ms));
    driver_options.lease_renew = absl::Milliseconds(absl::GetFlag(FLAGS_driver_lease_renew_ms));
    if (driver_options.lease_renew < absl::Milliseconds(10) ||
        driver_options.lease.ttl < 2 * driver_options.lease_renew) {
      DieAtStartup(absl::InvalidArgumentError(
          "--driver_lease_renew_ms must be >= 10 and --driver_lease_ttl_ms at least twice it"));
    }
    // People's clues (GetClue) and model seats' (the driver) share one bound on searches.
    clues = std::make_unique<arena::service::ClueMaker>(*clients, clue_level, max_concurrent_clues);
    judge = std::make_unique<arena::service::MoveJudge>(*clients, *pool);
    driver = std::make_unique<arena::service::SeatDriver>(*clients, *pool, ledger, driver_options,
                                                          clues.get(), judge.get());
    // Made before the driver resumes any game: a game's end wakes it.
    ranked = std::make_unique<arena::service::RankedPlay>(*pool, ledger, clients.get(),
                                                          driver.get(), ranked_options);
    leagues = std::make_unique<arena::service::LeagueRunner>(*clients, *pool, *driver,
                                                             absl::Milliseconds(tick_ms));
    driver->SetOnGameEnd([&leagues, &ranked](const std::string&) {
      leagues->Wake();
      ranked->Wake();
    });
    if (fair_play_depth > 0) {
      fair_play =
          std::make_unique<arena::service::FairPlayRunner>(*pool, *clients, fair_play_options);
      ranked->SetOnSettled([&fair_play] { fair_play->Wake(); });
    } else {
      LogWarning("--fair_play_depth=0: ranked games are not checked for engine use");
    }
    arena::service::ServiceClients* gateway_clients = clients.get();
    catalogue = std::make_unique<arena::service::ModelCatalogue>(
        [gateway_clients]() -> absl::StatusOr<std::vector<arena::v1::ModelInfo>> {
          grpc::ClientContext ctx;
          gateway_clients->Prepare(ctx, absl::Seconds(20));
          arena::v1::ListModelsResponse listed;
          grpc::Status s =
              gateway_clients->gateway().ListModels(&ctx, arena::v1::ListModelsRequest(), &listed);
          if (!s.ok()) return arena::common::FromGrpc(s);
          return std::vector<arena::v1::ModelInfo>(listed.models().begin(), listed.models().end());
        },
        absl::Seconds(catalogue_ttl_s));
    play.catalogue = catalogue.get();
    play.clients = clients.get();
    play.clues = clues.get();
    play.driver = driver.get();
    play.leagues = leagues.get();
    CheckOrDie(driver->ResumeAll());
    leagues->Start();
  } else {
    LogWarning("no --game_state_addr/--bot_addr/--gateway_addr: tables and leagues are off");
  }
  // Ranked chess: without the other services the queue still works; games need them.
  if (!ranked) {
    ranked = std::make_unique<arena::service::RankedPlay>(*pool, ledger, nullptr, nullptr,
                                                          ranked_options);
  }
  play.ranked = ranked.get();
  ranked->Start();
  if (fair_play) fair_play->Start();

  arena::service::Quotas quotas;
  quotas.signups_per_address = {absl::GetFlag(FLAGS_signup_burst),
                                absl::GetFlag(FLAGS_signups_per_hour) / 3600};
  quotas.guests_per_address = {absl::GetFlag(FLAGS_guest_burst),
                               absl::GetFlag(FLAGS_guests_per_hour) / 3600};
  quotas.signins_per_address = {absl::GetFlag(FLAGS_signin_burst),
                                absl::GetFlag(FLAGS_signins_per_second)};
  quotas.failed_signins_per_name = {absl::GetFlag(FLAGS_failed_signin_burst),
                                    absl::GetFlag(FLAGS_failed_signins_per_minute) / 60};
  quotas.tables_per_caller = {absl::GetFlag(FLAGS_table_burst),
                              absl::GetFlag(FLAGS_tables_per_minute) / 60};
  quotas.clues_per_seat = {absl::GetFlag(FLAGS_clue_burst),
                           absl::GetFlag(FLAGS_clues_per_minute) / 60};
  for (const auto* l :
       {&quotas.signups_per_address, &quotas.guests_per_address, &quotas.signins_per_address,
        &quotas.failed_signins_per_name, &quotas.tables_per_caller, &quotas.clues_per_seat}) {
    if (l->burst < 1 || l->per_second < 0) {
      DieAtStartup(absl::InvalidArgumentError("quota bursts must be >= 1 and rates >= 0"));
    }
  }
  arena::service::ArenaServiceImpl service(accounts, ledger, std::move(services), workers, play,
                                           quotas);
  options.services = {&service};
  options.on_shutdown = [&] {
    if (fair_play) fair_play->Stop();
    if (ranked) ranked->Stop();
    if (leagues) leagues->Stop();
    if (driver) driver->Stop();
    sweeper.Stop();
  };
  CheckOrDie(RunServer(options));
  return 0;
}
