// The gRPC adapter of the `arena` service's accounts and ledger RPCs. It knows who is calling
// (bearer token or service credential), who may do what, and how to translate messages; the
// work itself is done by accounts::Accounts and ledger::Ledger.
//
// Handlers use the callback API and hand their blocking work (PostgreSQL, argon2id) to
// worker threads: password work to a small queue of its own, so a flood of sign-ins never
// delays ledger calls.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "arena/v1/arena.grpc.pb.h"
#include "clients/service_clients.h"
#include "common/work_queue.h"
#include "services/arena/accounts.h"
#include "services/arena/clues.h"
#include "services/arena/league_runner.h"
#include "services/arena/ledger.h"
#include "services/arena/model_catalogue.h"
#include "services/arena/ranked_play.h"
#include "services/arena/seat_driver.h"
#include "services/arena/seating.h"
#include "services/common/rate_limit.h"
#include "services/common/service_auth.h"

namespace arena::service {

using clients::ServiceClients;

using common::WorkQueue;

// What the table, league and history RPCs work with. Every pointer is null when arena runs
// without the other services' addresses (then those RPCs answer UNAVAILABLE after checking
// the caller and the request).
struct PlayDeps {
  common::PgPool* pool = nullptr;
  ServiceClients* clients = nullptr;
  SeatDriver* driver = nullptr;
  LeagueRunner* leagues = nullptr;
  ModelCatalogue* catalogue = nullptr;
  ClueMaker* clues = nullptr;    // shared with the seat driver (model seats get clues too)
  RankedPlay* ranked = nullptr;  // ranked chess (null without a database)
};

// Quotas at the edge (docs/security.md): token buckets, refused with RESOURCE_EXHAUSTED
// before any password hashing, database or search work.
struct Quotas {
  common::RateLimiter::Limit signups_per_address{10, 10.0 / 3600};   // 10, then 10 an hour
  common::RateLimiter::Limit guests_per_address{30, 60.0 / 3600};    // 30, then 60 an hour
  common::RateLimiter::Limit signins_per_address{30, 1};             // 30, then 1 a second
  common::RateLimiter::Limit failed_signins_per_name{10, 1.0 / 60};  // 10, then 1 a minute
  common::RateLimiter::Limit tables_per_caller{20, 10.0 / 60};       // 20, then 10 a minute
  common::RateLimiter::Limit clues_per_seat{3, 12.0 / 60};           // 3, then 12 a minute
  // The clue searches running at once, for everyone, are bounded by ClueMaker (clues.h).
};

class ArenaServiceImpl final : public arena::v1::ArenaService::CallbackService {
 public:
  ArenaServiceImpl(accounts::Accounts& accounts, ledger::Ledger& ledger,
                   common::ServiceAuthenticator services, int workers, PlayDeps play = {},
                   Quotas quotas = {});

  using Ctx = grpc::CallbackServerContext;
  using Reactor = grpc::ServerUnaryReactor;

  Reactor* SignUp(Ctx*, const v1::SignUpRequest*, v1::SessionToken*) override;
  Reactor* SignIn(Ctx*, const v1::SignInRequest*, v1::SessionToken*) override;
  Reactor* GuestToken(Ctx*, const v1::GuestTokenRequest*, v1::SessionToken*) override;
  Reactor* CreateToken(Ctx*, const v1::CreateTokenRequest*, v1::SessionToken*) override;
  Reactor* RevokeToken(Ctx*, const v1::RevokeTokenRequest*, v1::RevokeTokenResponse*) override;
  Reactor* Block(Ctx*, const v1::BlockRequest*, v1::BlockResponse*) override;
  Reactor* Invite(Ctx*, const v1::InviteRequest*, v1::InviteResponse*) override;
  Reactor* ListInvitations(Ctx*, const v1::ListInvitationsRequest*,
                           v1::ListInvitationsResponse*) override;
  Reactor* WhoAmI(Ctx*, const v1::WhoAmIRequest*, v1::WhoAmIResponse*) override;

  Reactor* GetBalance(Ctx*, const v1::BalanceRequest*, v1::Balance*) override;
  Reactor* GetHistory(Ctx*, const v1::HistoryRequest*, v1::HistoryResponse*) override;
  Reactor* Donate(Ctx*, const v1::DonateRequest*, v1::TransferResponse*) override;
  Reactor* SendCredits(Ctx*, const v1::SendCreditsRequest*, v1::TransferResponse*) override;

  Reactor* AdminGrant(Ctx*, const v1::AdminGrantRequest*, v1::TransferResponse*) override;
  Reactor* AdminAdjust(Ctx*, const v1::AdminAdjustRequest*, v1::TransferResponse*) override;
  Reactor* AdminFreeze(Ctx*, const v1::AdminFreezeRequest*, v1::AdminFreezeResponse*) override;
  Reactor* AdminSetAllowance(Ctx*, const v1::SetAllowanceRequest*,
                             v1::SetAllowanceResponse*) override;
  Reactor* AdminAudit(Ctx*, const v1::AuditRequest*, v1::AuditResponse*) override;

  Reactor* ReserveHold(Ctx*, const v1::ReserveHoldRequest*, v1::HoldResponse*) override;
  Reactor* PostHold(Ctx*, const v1::PostHoldRequest*, v1::TransferResponse*) override;
  Reactor* VoidHold(Ctx*, const v1::VoidHoldRequest*, v1::VoidHoldResponse*) override;

  // Tables, leagues, ratings and history (play_rpcs.cc).
  Reactor* CreateTable(Ctx*, const v1::ArenaCreateTableRequest*,
                       v1::ArenaCreateTableResponse*) override;
  Reactor* GetTable(Ctx*, const v1::TableRef*, v1::ArenaTable*) override;
  Reactor* SupplyKey(Ctx*, const v1::SupplyKeyRequest*, v1::SupplyKeyResponse*) override;
  Reactor* GetClue(Ctx*, const v1::ClueRequest*, v1::ClueResponse*) override;

  // People at tables: seats, invitations that seat, the account record (people_rpcs.cc).
  Reactor* JoinTable(Ctx*, const v1::ArenaJoinTableRequest*, v1::ArenaJoinTableResponse*) override;
  Reactor* AnswerInvitation(Ctx*, const v1::AnswerInvitationRequest*,
                            v1::AnswerInvitationResponse*) override;
  Reactor* GetAccountRecord(Ctx*, const v1::AccountRecordRequest*, v1::AccountRecord*) override;
  Reactor* CreateLeague(Ctx*, const v1::CreateLeagueRequest*, v1::League*) override;
  Reactor* StartLeague(Ctx*, const v1::LeagueRef*, v1::League*) override;
  Reactor* PauseLeague(Ctx*, const v1::LeagueRef*, v1::League*) override;
  Reactor* ResumeLeague(Ctx*, const v1::LeagueRef*, v1::League*) override;
  Reactor* CancelLeague(Ctx*, const v1::LeagueRef*, v1::League*) override;
  Reactor* ListLeagues(Ctx*, const v1::ListLeaguesRequest*, v1::ListLeaguesResponse*) override;
  Reactor* GetStandings(Ctx*, const v1::LeagueRef*, v1::StandingsResponse*) override;
  Reactor* GetLeaderboard(Ctx*, const v1::LeaderboardRequest*, v1::LeaderboardResponse*) override;
  Reactor* ListMatches(Ctx*, const v1::ListMatchesRequest*, v1::ListMatchesResponse*) override;
  Reactor* ExportGame(Ctx*, const v1::ExportGameRequest*, v1::ExportGameResponse*) override;
  Reactor* GetModelStats(Ctx*, const v1::ModelStatsRequest*, v1::ModelStatsResponse*) override;
  Reactor* ListModels(Ctx*, const v1::ArenaListModelsRequest*,
                      v1::ArenaListModelsResponse*) override;

  // Ranked chess: cities, the queue, one's staked games (ranked_rpcs.cc).
  Reactor* AdminPutCity(Ctx*, const v1::AdminPutCityRequest*, v1::City*) override;
  Reactor* ListCities(Ctx*, const v1::ListCitiesRequest*, v1::ListCitiesResponse*) override;
  Reactor* JoinRankedQueue(Ctx*, const v1::JoinRankedQueueRequest*, v1::RankedStatus*) override;
  Reactor* LeaveRankedQueue(Ctx*, const v1::LeaveRankedQueueRequest*, v1::RankedStatus*) override;
  Reactor* GetRankedStatus(Ctx*, const v1::RankedStatusRequest*, v1::RankedStatus*) override;
  Reactor* ListRankedGames(Ctx*, const v1::RankedGamesRequest*, v1::RankedGamesResponse*) override;
  Reactor* AdminListFairPlayFlags(Ctx*, const v1::ListFairPlayFlagsRequest*,
                                  v1::ListFairPlayFlagsResponse*) override;
  Reactor* AdminReviewFairPlayFlag(Ctx*, const v1::ReviewFairPlayFlagRequest*,
                                   v1::FairPlayFlag*) override;

 private:
  Reactor* LeagueVerb(Ctx* ctx, const v1::LeagueRef* req, v1::League* resp, const char* verb);
  absl::Status CreateTableWork(const Ctx& ctx, const v1::ArenaCreateTableRequest& req,
                               v1::ArenaCreateTableResponse* resp);
  absl::Status ExportGameWork(const Ctx& ctx, const v1::ExportGameRequest& req,
                              v1::ExportGameResponse* resp);
  absl::Status PlayAvailable() const;
  // INVALID_ARGUMENT when a model id is not in the gateway's catalogue (see ModelCatalogue).
  absl::Status CheckModelIds(const std::vector<std::string>& model_ids);

  // Checks every text field of `req` (common::CheckMessageText) before queueing `work`.
  Reactor* Run(Ctx* ctx, const google::protobuf::Message& req, WorkQueue& queue,
               std::function<absl::Status()> work);
  // The bearer token's principal; UNAUTHENTICATED without a valid one.
  absl::StatusOr<accounts::Principal> Caller(const Ctx& ctx);
  // A signed-in player or admin (guests: PERMISSION_DENIED).
  absl::StatusOr<accounts::Principal> Member(const Ctx& ctx);
  absl::StatusOr<accounts::Principal> Admin(const Ctx& ctx);
  // The `arena` service itself; a signed-in user gets PERMISSION_DENIED.
  absl::Status InternalOnly(const Ctx& ctx);
  // The account a balance or history request is about: the caller's own when `requested` is
  // empty; another (or a system account) for admins only, PERMISSION_DENIED `denied` else.
  absl::StatusOr<std::string> OwnOrAdminTarget(const accounts::Principal& p,
                                               const std::string& requested, const char* denied);
  // An account id ("u_...") or name of a member (not a guest) to its account id.
  absl::StatusOr<std::string> ResolveMember(const std::string& id_or_name);

  accounts::Accounts& accounts_;
  ledger::Ledger& ledger_;
  common::ServiceAuthenticator services_;
  PlayDeps play_;
  std::unique_ptr<Seating> seating_;  // null without a database (play_.pool)
  WorkQueue password_queue_;
  WorkQueue queue_;
  Quotas quotas_;
  common::RateLimiter signups_per_address_;
  common::RateLimiter guests_per_address_;
  common::RateLimiter signins_per_address_;
  common::RateLimiter failed_signins_per_name_;
  common::RateLimiter tables_per_caller_;
  common::RateLimiter clues_per_seat_;
};

}  // namespace arena::service
