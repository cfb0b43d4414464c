// ArenaService: people at tables. Who may call what:
//   JoinTable: a guest or a signed-in account (no token: UNAUTHENTICATED).
//   AnswerInvitation: the invitee (a member; guests cannot be invited).
//   GetAccountRecord: anyone signed in; another account's record lists its games at public
//   tables only (the account itself and admins see every game).
#include "services/arena/arena_service.h"
#include "services/arena/people_record.h"

namespace arena::service {

ArenaServiceImpl::Reactor* ArenaServiceImpl::JoinTable(Ctx* ctx,
                                                       const v1::ArenaJoinTableRequest* req,
                                                       v1::ArenaJoinTableResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Caller(*ctx);
    if (!p.ok()) return p.status();
    if (seating_ == nullptr) return absl::UnavailableError("arena runs without a database");
    auto joined = seating_->Join(*p, *req);
    if (!joined.ok()) return joined.status();
    *resp = *std::move(joined);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::AnswerInvitation(
    Ctx* ctx, const v1::AnswerInvitationRequest* req, v1::AnswerInvitationResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Member(*ctx);
    if (!p.ok()) return p.status();
    if (seating_ == nullptr) return absl::UnavailableError("arena runs without a database");
    auto answered = seating_->Answer(*p, *req);
    if (!answered.ok()) return answered.status();
    *resp = *std::move(answered);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::GetAccountRecord(Ctx* ctx,
                                                              const v1::AccountRecordRequest* req,
                                                              v1::AccountRecord* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Caller(*ctx);
    if (!p.ok()) return p.status();
    if (play_.pool == nullptr) return absl::UnavailableError("arena runs without a database");
    accounts::Principal target = *p;
    if (!req->name().empty()) {
      auto found = accounts::LooksLikeAccountId(req->name()) ? accounts_.FindById(req->name())
                                                             : accounts_.FindByName(req->name());
      if (!found.ok()) return found.status();
      target = *found;
    }
    if (target.is_guest() && target.account_id != p->account_id) {
      return absl::NotFoundError("guests keep no record");
    }
    const bool all = target.account_id == p->account_id || p->is_admin();
    const int limit = req->limit() <= 0 ? 50 : std::min(req->limit(), 500);
    // One snapshot for the ratings and the games: under read committed each statement sees
    // its own, and a game recorded between them would show without the rating it moved.
    return play_.pool->Transact(
        [&](pqxx::transaction_base& txn) -> absl::Status {
          auto record = LoadAccountRecord(txn, target.account_id, all, limit);
          if (!record.ok()) return record.status();
          *resp = *std::move(record);
          resp->set_name(target.name);
          return absl::OkStatus();
        },
        common::Isolation::kRepeatableRead);
  });
}

}  // namespace arena::service
