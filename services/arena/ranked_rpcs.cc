// The RPCs of ranked chess (issue 26; docs/ranked.md). The work is RankedPlay's
// (services/arena/ranked_play.h); this file is who may do what.
//
//   ListCities: anyone. AdminPutCity: admins, with a reason (audit log).
//   JoinRankedQueue, LeaveRankedQueue, GetRankedStatus: signed-in members (guests hold no
//   credits, so they cannot stake). ListRankedGames: one's own; another's for admins only.
//   AdminListFairPlayFlags, AdminReviewFairPlayFlag: admins; a review needs a reason.
#include "services/arena/arena_service.h"
#include "services/arena/ranked_play.h"

namespace arena::service {
namespace {

absl::Status RankedAvailable(const RankedPlay* ranked) {
  if (ranked == nullptr) return absl::UnavailableError("arena runs without a database");
  return absl::OkStatus();
}

}  // namespace

ArenaServiceImpl::Reactor* ArenaServiceImpl::AdminPutCity(Ctx* ctx,
                                                          const v1::AdminPutCityRequest* req,
                                                          v1::City* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto admin = Admin(*ctx);
    if (!admin.ok()) return admin.status();
    if (absl::Status s = RankedAvailable(play_.ranked); !s.ok()) return s;
    if (absl::Status s = play_.ranked->PutCity(*admin, req->city(), req->reason()); !s.ok()) {
      return s;
    }
    *resp = req->city();
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::ListCities(Ctx* ctx, const v1::ListCitiesRequest* req,
                                                        v1::ListCitiesResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    if (absl::Status s = RankedAvailable(play_.ranked); !s.ok()) return s;
    auto cities = play_.ranked->Cities();
    if (!cities.ok()) return cities.status();
    *resp = *std::move(cities);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::JoinRankedQueue(Ctx* ctx,
                                                             const v1::JoinRankedQueueRequest* req,
                                                             v1::RankedStatus* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto who = Member(*ctx);
    if (!who.ok()) return who.status();
    if (absl::Status s = RankedAvailable(play_.ranked); !s.ok()) return s;
    auto status = play_.ranked->Join(*who, req->city_id(), req->time_control());
    if (!status.ok()) return status.status();
    *resp = *std::move(status);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::LeaveRankedQueue(
    Ctx* ctx, const v1::LeaveRankedQueueRequest* req, v1::RankedStatus* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto who = Member(*ctx);
    if (!who.ok()) return who.status();
    if (absl::Status s = RankedAvailable(play_.ranked); !s.ok()) return s;
    auto status = play_.ranked->Leave(who->account_id);
    if (!status.ok()) return status.status();
    *resp = *std::move(status);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::GetRankedStatus(Ctx* ctx,
                                                             const v1::RankedStatusRequest* req,
                                                             v1::RankedStatus* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto who = Member(*ctx);
    if (!who.ok()) return who.status();
    if (absl::Status s = RankedAvailable(play_.ranked); !s.ok()) return s;
    auto status = play_.ranked->Status(who->account_id);
    if (!status.ok()) return status.status();
    *resp = *std::move(status);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::ListRankedGames(Ctx* ctx,
                                                             const v1::RankedGamesRequest* req,
                                                             v1::RankedGamesResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto who = Member(*ctx);
    if (!who.ok()) return who.status();
    if (req->limit() < 0 || req->limit() > 200) {
      return absl::InvalidArgumentError("limit is 1..200 (0: 50)");
    }
    if (absl::Status s = RankedAvailable(play_.ranked); !s.ok()) return s;
    std::string account = who->account_id;
    if (!req->account().empty()) {
      auto target = ResolveMember(req->account());
      if (!target.ok()) return target.status();
      if (*target != who->account_id && !who->is_admin()) {
        return absl::PermissionDeniedError("only admins read another player's ranked games");
      }
      account = *target;
    }
    auto games = play_.ranked->Games(account, req->limit() == 0 ? 50 : req->limit());
    if (!games.ok()) return games.status();
    *resp = *std::move(games);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::AdminListFairPlayFlags(
    Ctx* ctx, const v1::ListFairPlayFlagsRequest* req, v1::ListFairPlayFlagsResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto admin = Admin(*ctx);
    if (!admin.ok()) return admin.status();
    if (absl::Status s = RankedAvailable(play_.ranked); !s.ok()) return s;
    auto flags = play_.ranked->FairPlayFlags(req->state(), req->limit());
    if (!flags.ok()) return flags.status();
    *resp = *std::move(flags);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::AdminReviewFairPlayFlag(
    Ctx* ctx, const v1::ReviewFairPlayFlagRequest* req, v1::FairPlayFlag* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto admin = Admin(*ctx);
    if (!admin.ok()) return admin.status();
    if (absl::Status s = RankedAvailable(play_.ranked); !s.ok()) return s;
    auto flag = play_.ranked->ReviewFairPlayFlag(*admin, *req);
    if (!flag.ok()) return flag.status();
    *resp = *std::move(flag);
    return absl::OkStatus();
  });
}

}  // namespace arena::service
