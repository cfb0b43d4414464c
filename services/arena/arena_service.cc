#include "services/arena/arena_service.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/grpc_util.h"
#include "common/log.h"
#include "services/common/text_check.h"

namespace arena::service {
namespace {

using accounts::Principal;

constexpr char kServiceCaller[] = "service:arena";

void SetTime(absl::Time t, google::protobuf::Timestamp* out) {
  int64_t us = absl::ToUnixMicros(t);
  int64_t s = us >= 0 ? us / 1000000 : (us - 999999) / 1000000;
  out->set_seconds(s);
  out->set_nanos(static_cast<int32_t>((us - s * 1000000) * 1000));
}

void FillToken(const accounts::IssuedToken& t, const std::string& name, v1::SessionToken* out) {
  out->set_account_id(t.account_id);
  out->set_token(t.token);
  out->set_role(t.role);
  out->set_token_id(t.token_id);
  out->set_name(name);
}

std::string BearerToken(const grpc::CallbackServerContext& ctx) {
  const auto& md = ctx.client_metadata();
  auto it = md.find("authorization");
  if (it == md.end()) return "";
  std::string value(it->second.data(), it->second.size());
  const std::string prefix = "Bearer ";
  if (value.compare(0, prefix.size(), prefix) != 0) return "";
  return value.substr(prefix.size());
}

// System account short names accepted in requests.
std::string SystemAccount(const std::string& short_name) {
  if (short_name.empty() || short_name == "model_spend") return ledger::kModelSpend;
  if (short_name == "fees") return ledger::kFees;
  if (short_name == "escrow") return ledger::kEscrow;
  if (short_name == "pool") return ledger::kPool;
  return "";
}

}  // namespace

// --- WorkQueue -----------------------------------------------------------------------------

// --- Plumbing ------------------------------------------------------------------------------

ArenaServiceImpl::ArenaServiceImpl(accounts::Accounts& accounts, ledger::Ledger& ledger,
                                   common::ServiceAuthenticator services, int workers,
                                   PlayDeps play, Quotas quotas)
    : accounts_(accounts),
      ledger_(ledger),
      services_(std::move(services)),
      play_(play),
      password_queue_(2, 256),
      queue_(workers, 4096),
      quotas_(quotas),
      signups_per_address_(quotas.signups_per_address),
      guests_per_address_(quotas.guests_per_address),
      signins_per_address_(quotas.signins_per_address),
      failed_signins_per_name_(quotas.failed_signins_per_name),
      tables_per_caller_(quotas.tables_per_caller),
      clues_per_seat_(quotas.clues_per_seat) {
  if (play_.pool != nullptr) seating_ = std::make_unique<Seating>(*play_.pool, play_.clients);
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::Run(Ctx* ctx, const google::protobuf::Message& req,
                                                 WorkQueue& queue,
                                                 std::function<absl::Status()> work) {
  Reactor* reactor = ctx->DefaultReactor();
  if (absl::Status text = common::CheckMessageText(req); !text.ok()) {
    reactor->Finish(common::ToGrpc(text));
    return reactor;
  }
  bool queued = queue.Submit([reactor, work = std::move(work)] {
    absl::Status status = work();
    if (status.code() == absl::StatusCode::kInternal) {
      // The detail (which may quote SQL) goes to the log only.
      common::LogError("internal error", {{"error", std::string(status.message())}});
      status = absl::InternalError("internal error; the server logged the detail");
    }
    reactor->Finish(common::ToGrpc(status));
  });
  if (!queued) {
    reactor->Finish(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, "server busy; retry"));
  }
  return reactor;
}

absl::StatusOr<Principal> ArenaServiceImpl::Caller(const Ctx& ctx) {
  std::string token = BearerToken(ctx);
  if (token.empty()) {
    return absl::UnauthenticatedError("sign in: authorization: Bearer <token> is missing");
  }
  return accounts_.Authenticate(token);
}

absl::StatusOr<Principal> ArenaServiceImpl::Member(const Ctx& ctx) {
  auto p = Caller(ctx);
  if (!p.ok()) return p.status();
  if (p->is_guest()) return absl::PermissionDeniedError("guests cannot do this; sign up");
  return p;
}

absl::StatusOr<Principal> ArenaServiceImpl::Admin(const Ctx& ctx) {
  auto p = Caller(ctx);
  if (!p.ok()) return p.status();
  if (!p->is_admin()) return absl::PermissionDeniedError("admins only");
  return p;
}

absl::Status ArenaServiceImpl::InternalOnly(const Ctx& ctx) {
  auto service = services_.Identify(ctx);
  if (!service.ok()) return service.status();
  if (service->authenticated) return services_.Require(ctx, {"arena"});
  if (!BearerToken(ctx).empty() && Caller(ctx).ok()) {
    return absl::PermissionDeniedError("holds are managed by the arena service only");
  }
  return absl::UnauthenticatedError("this call needs the arena service credential");
}

absl::StatusOr<std::string> ArenaServiceImpl::ResolveMember(const std::string& id_or_name) {
  if (id_or_name.empty()) return absl::InvalidArgumentError("an account is required");
  // Unambiguous: a string shaped like an id is an id, anything else a name (names may not
  // take the shape of ids; see accounts::ValidateName).
  auto p = accounts::LooksLikeAccountId(id_or_name) ? accounts_.FindById(id_or_name)
                                                    : accounts_.FindByName(id_or_name);
  if (!p.ok()) return p.status();
  if (p->is_guest()) return absl::NotFoundError("guests have no credit account");
  return p->account_id;
}

absl::StatusOr<std::string> ArenaServiceImpl::OwnOrAdminTarget(const Principal& p,
                                                               const std::string& requested,
                                                               const char* denied) {
  if (requested.empty()) return p.account_id;
  // The permission is decided on the account the string resolves to, never on the string.
  std::string account;
  if (absl::StartsWith(requested, "system:")) {
    account = requested;
  } else {
    auto id = ResolveMember(requested);
    if (!id.ok()) {
      if (!p.is_admin()) return absl::PermissionDeniedError(denied);  // no probing for names
      return id.status();
    }
    account = *id;
  }
  if (!p.is_admin() && account != p.account_id) return absl::PermissionDeniedError(denied);
  return account;
}

// --- Accounts ------------------------------------------------------------------------------

ArenaServiceImpl::Reactor* ArenaServiceImpl::SignUp(Ctx* ctx, const v1::SignUpRequest* req,
                                                    v1::SessionToken* resp) {
  // Throttled before the password queue: a refused flood costs no hashing and holds no slot.
  const std::string address = common::PeerAddress(*ctx);
  if (absl::Status s = signups_per_address_.Check(address, "too many sign-ups from this address");
      !s.ok()) {
    Reactor* reactor = ctx->DefaultReactor();
    reactor->Finish(common::ToGrpc(s));
    return reactor;
  }
  return Run(ctx, *req, password_queue_, [=, this]() -> absl::Status {
    auto t = accounts_.SignUp(req->name(), req->password());
    if (!t.ok()) return t.status();
    FillToken(*t, req->name(), resp);
    common::LogInfo("signed up", {{"account_id", t->account_id}});
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::SignIn(Ctx* ctx, const v1::SignInRequest* req,
                                                    v1::SessionToken* resp) {
  // Per address (every attempt) and per name (failed attempts only, so a flood aimed at one
  // name slows that name's guessing without locking out its owner for long), both refused
  // before the password queue.
  const std::string address = common::PeerAddress(*ctx);
  absl::Status throttled =
      signins_per_address_.Check(address, "too many sign-in attempts from this address");
  const std::string name_key = req->name().substr(0, 64);  // longer names are refused anyway
  if (throttled.ok() && !failed_signins_per_name_.Has(name_key)) {
    throttled = absl::ResourceExhaustedError(absl::StrCat(
        "too many failed sign-ins for this name; retry in ",
        std::max<int64_t>(1, absl::ToInt64Seconds(failed_signins_per_name_.RetryAfter(name_key))),
        " s"));
  }
  if (!throttled.ok()) {
    Reactor* reactor = ctx->DefaultReactor();
    reactor->Finish(common::ToGrpc(throttled));
    return reactor;
  }
  return Run(ctx, *req, password_queue_, [=, this]() -> absl::Status {
    auto t = accounts_.SignIn(req->name(), req->password());
    if (t.status().code() == absl::StatusCode::kUnauthenticated) {
      failed_signins_per_name_.Charge(name_key);
    }
    if (!t.ok()) return t.status();
    FillToken(*t, req->name(), resp);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::GuestToken(Ctx* ctx, const v1::GuestTokenRequest* req,
                                                        v1::SessionToken* resp) {
  if (absl::Status s = guests_per_address_.Check(common::PeerAddress(*ctx),
                                                 "too many guest tokens from this address");
      !s.ok()) {
    Reactor* reactor = ctx->DefaultReactor();
    reactor->Finish(common::ToGrpc(s));
    return reactor;
  }
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto t = accounts_.Guest(req->display_name());
    if (!t.ok()) return t.status();
    auto p = accounts_.FindById(t->account_id);
    FillToken(*t, p.ok() ? p->name : "", resp);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::CreateToken(Ctx* ctx,
                                                         const v1::CreateTokenRequest* req,
                                                         v1::SessionToken* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Member(*ctx);
    if (!p.ok()) return p.status();
    auto t = accounts_.CreateApiToken(*p, req->label());
    if (!t.ok()) return t.status();
    FillToken(*t, p->name, resp);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::RevokeToken(Ctx* ctx,
                                                         const v1::RevokeTokenRequest* req,
                                                         v1::RevokeTokenResponse*) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Caller(*ctx);
    if (!p.ok()) return p.status();
    return accounts_.RevokeToken(*p, req->token_id());
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::Block(Ctx* ctx, const v1::BlockRequest* req,
                                                   v1::BlockResponse*) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Member(*ctx);
    if (!p.ok()) return p.status();
    return accounts_.Block(*p, req->name(), req->unblock());
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::Invite(Ctx* ctx, const v1::InviteRequest* req,
                                                    v1::InviteResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Member(*ctx);
    if (!p.ok()) return p.status();
    if (!req->game_id().empty()) {  // an invitation that reserves a seat
      if (seating_ == nullptr) return absl::UnavailableError("arena runs without a database");
      auto invitee = accounts_.FindByName(req->name());
      if (!invitee.ok()) return invitee.status();
      auto sent = seating_->InviteToSeat(*p, *invitee, *req);
      if (!sent.ok()) return sent.status();
      *resp = *std::move(sent);
      return absl::OkStatus();
    }
    auto id = accounts_.Invite(*p, req->name(), req->note());
    if (!id.ok()) return id.status();
    resp->set_invitation_id(*id);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::ListInvitations(Ctx* ctx,
                                                             const v1::ListInvitationsRequest* req,
                                                             v1::ListInvitationsResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Member(*ctx);
    if (!p.ok()) return p.status();
    if (seating_ == nullptr) return absl::UnavailableError("arena runs without a database");
    auto list = seating_->List(*p, *req);
    if (!list.ok()) return list.status();
    for (v1::Invitation& i : *list) *resp->add_invitations() = std::move(i);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::WhoAmI(Ctx* ctx, const v1::WhoAmIRequest* req,
                                                    v1::WhoAmIResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Caller(*ctx);
    if (!p.ok()) return p.status();
    resp->set_account_id(p->account_id);
    resp->set_name(p->name);
    resp->set_role(p->role);
    return absl::OkStatus();
  });
}

// --- Ledger --------------------------------------------------------------------------------

ArenaServiceImpl::Reactor* ArenaServiceImpl::GetBalance(Ctx* ctx, const v1::BalanceRequest* req,
                                                        v1::Balance* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Member(*ctx);
    if (!p.ok()) return p.status();
    auto target = OwnOrAdminTarget(*p, req->account_id(), "only admins may see another account");
    if (!target.ok()) return target.status();
    const std::string account = *target;
    auto b = ledger_.Balance(account);
    if (!b.ok()) return b.status();
    resp->set_account_id(account);
    resp->set_available_microcredits(b->available);
    resp->set_held_microcredits(b->held);
    resp->set_posted_microcredits(b->balance);
    resp->set_frozen(b->frozen);
    resp->set_daily_allowance_microcredits(b->daily_allowance);
    resp->set_allowance_used_today_microcredits(b->allowance_used_today);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::GetHistory(Ctx* ctx, const v1::HistoryRequest* req,
                                                        v1::HistoryResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Member(*ctx);
    if (!p.ok()) return p.status();
    auto target =
        OwnOrAdminTarget(*p, req->account_id(), "only admins may see another account's history");
    if (!target.ok()) return target.status();
    const std::string account = *target;
    auto h = ledger_.History(account, req->limit());
    if (!h.ok()) return h.status();
    for (const auto& e : *h) {
      auto* out = resp->add_entries();
      out->set_transfer_id(std::to_string(e.transfer_id));
      out->set_debit_account(e.debit);
      out->set_credit_account(e.credit);
      out->set_amount_microcredits(e.amount);
      out->set_kind(e.kind);
      out->set_memo(e.memo);
      out->set_hold_id(e.hold_id);
      SetTime(e.at, out->mutable_at());
    }
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::Donate(Ctx* ctx, const v1::DonateRequest* req,
                                                    v1::TransferResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Member(*ctx);
    if (!p.ok()) return p.status();
    ledger::TransferRequest r;
    r.debit = p->account_id;
    r.credit = ledger::kPool;
    r.amount = req->amount_microcredits();
    r.kind = "donation";
    r.caller = p->account_id;
    r.idempotency_key = req->idempotency_key();
    auto out = ledger_.Transfer(r);
    if (!out.ok()) return out.status();
    resp->set_transfer_id(std::to_string(out->transfer_id));
    resp->set_replayed(out->replayed);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::SendCredits(Ctx* ctx,
                                                         const v1::SendCreditsRequest* req,
                                                         v1::TransferResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Member(*ctx);
    if (!p.ok()) return p.status();
    auto to = ResolveMember(req->to_name());
    if (!to.ok()) return to.status();
    ledger::TransferRequest r;
    r.debit = p->account_id;
    r.credit = *to;
    r.amount = req->amount_microcredits();
    r.kind = "gift";
    r.memo = req->memo();
    r.caller = p->account_id;
    r.idempotency_key = req->idempotency_key();
    auto out = ledger_.Transfer(r);
    if (!out.ok()) return out.status();
    resp->set_transfer_id(std::to_string(out->transfer_id));
    resp->set_replayed(out->replayed);
    return absl::OkStatus();
  });
}

// --- Admin ---------------------------------------------------------------------------------

ArenaServiceImpl::Reactor* ArenaServiceImpl::AdminGrant(Ctx* ctx, const v1::AdminGrantRequest* req,
                                                        v1::TransferResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Admin(*ctx);
    if (!p.ok()) return p.status();
    auto to = ResolveMember(req->account_id());
    if (!to.ok()) return to.status();
    ledger::TransferRequest r;
    r.debit = ledger::kIssuance;
    r.credit = *to;
    r.amount = req->amount_microcredits();
    r.kind = "grant";
    r.memo = req->reason();
    r.caller = p->account_id;
    r.idempotency_key = req->idempotency_key();
    r.audit = ledger::AuditEntry{p->account_id, "grant", *to, req->reason()};
    auto out = ledger_.Transfer(r);
    if (!out.ok()) return out.status();
    resp->set_transfer_id(std::to_string(out->transfer_id));
    resp->set_replayed(out->replayed);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::AdminAdjust(Ctx* ctx,
                                                         const v1::AdminAdjustRequest* req,
                                                         v1::TransferResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Admin(*ctx);
    if (!p.ok()) return p.status();
    auto who = ResolveMember(req->account_id());
    if (!who.ok()) return who.status();
    int64_t delta = req->delta_microcredits();
    if (delta == 0) return absl::InvalidArgumentError("delta must not be zero");
    ledger::TransferRequest r;
    r.debit = delta > 0 ? ledger::kIssuance : *who;
    r.credit = delta > 0 ? *who : ledger::kIssuance;
    r.amount = delta > 0 ? delta : -delta;
    r.kind = "adjust";
    r.memo = req->reason();
    r.caller = p->account_id;
    r.idempotency_key = req->idempotency_key();
    r.allow_frozen_debit = true;
    r.audit = ledger::AuditEntry{p->account_id, "adjust", *who, req->reason()};
    auto out = ledger_.Transfer(r);
    if (!out.ok()) return out.status();
    resp->set_transfer_id(std::to_string(out->transfer_id));
    resp->set_replayed(out->replayed);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::AdminFreeze(Ctx* ctx,
                                                         const v1::AdminFreezeRequest* req,
                                                         v1::AdminFreezeResponse*) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Admin(*ctx);
    if (!p.ok()) return p.status();
    auto who = ResolveMember(req->account_id());
    if (!who.ok()) return who.status();
    return ledger_.SetFrozen(
        *who, req->freeze(),
        ledger::AuditEntry{p->account_id, req->freeze() ? "freeze" : "unfreeze", *who,
                           req->reason()});
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::AdminSetAllowance(Ctx* ctx,
                                                               const v1::SetAllowanceRequest* req,
                                                               v1::SetAllowanceResponse*) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Admin(*ctx);
    if (!p.ok()) return p.status();
    auto who = ResolveMember(req->account_id());
    if (!who.ok()) return who.status();
    return ledger_.SetDailyAllowance(
        *who, req->daily_microcredits(),
        ledger::AuditEntry{p->account_id, "allowance", *who, req->reason()});
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::AdminAudit(Ctx* ctx, const v1::AuditRequest* req,
                                                        v1::AuditResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    auto p = Admin(*ctx);
    if (!p.ok()) return p.status();
    std::string target;
    if (!req->account_id().empty()) {
      auto who = ResolveMember(req->account_id());
      if (!who.ok()) return who.status();
      target = *who;
    }
    auto records = ledger_.Audit(target, req->limit());
    if (!records.ok()) return records.status();
    for (const auto& a : *records) {
      auto* out = resp->add_records();
      out->set_actor(a.actor);
      out->set_action(a.action);
      out->set_target(a.target);
      out->set_reason(a.reason);
      out->set_detail_json(a.detail_json);
      SetTime(a.at, out->mutable_at());
    }
    return absl::OkStatus();
  });
}

// --- Holds (the arena service only) --------------------------------------------------------

ArenaServiceImpl::Reactor* ArenaServiceImpl::ReserveHold(Ctx* ctx,
                                                         const v1::ReserveHoldRequest* req,
                                                         v1::HoldResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    if (auto s = InternalOnly(*ctx); !s.ok()) return s;
    auto user = ResolveMember(req->account_id());
    if (!user.ok()) return user.status();
    std::string credit = SystemAccount(req->credit_account());
    if (credit.empty()) {
      auto other = ResolveMember(req->credit_account());
      if (!other.ok()) return other.status();
      credit = *other;
    }
    absl::Duration timeout =
        req->timeout_ms() > 0 ? absl::Milliseconds(req->timeout_ms()) : absl::Minutes(5);
    absl::StatusOr<ledger::HoldResult> out;
    if (req->from_pool()) {
      if (credit != ledger::kModelSpend) {
        return absl::InvalidArgumentError("pool credits pay only for model spend");
      }
      out = ledger_.ReserveFromPool(*user, req->amount_microcredits(), timeout, req->memo(),
                                    kServiceCaller, req->idempotency_key());
    } else {
      ledger::ReserveRequest r;
      r.debit = *user;
      r.credit = credit;
      r.amount = req->amount_microcredits();
      r.timeout = timeout;
      r.memo = req->memo();
      r.caller = kServiceCaller;
      r.idempotency_key = req->idempotency_key();
      out = ledger_.Reserve(r);
    }
    if (!out.ok()) return out.status();
    resp->set_hold_id(out->hold_id);
    SetTime(out->expires_at, resp->mutable_expires_at());
    resp->set_replayed(out->replayed);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::PostHold(Ctx* ctx, const v1::PostHoldRequest* req,
                                                      v1::TransferResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    if (auto s = InternalOnly(*ctx); !s.ok()) return s;
    auto out = ledger_.Post(req->hold_id(), req->amount_microcredits(), kServiceCaller,
                            req->idempotency_key());
    if (!out.ok()) return out.status();
    resp->set_transfer_id(out->transfer_id == 0 ? "" : std::to_string(out->transfer_id));
    resp->set_replayed(out->replayed);
    return absl::OkStatus();
  });
}

ArenaServiceImpl::Reactor* ArenaServiceImpl::VoidHold(Ctx* ctx, const v1::VoidHoldRequest* req,
                                                      v1::VoidHoldResponse* resp) {
  return Run(ctx, *req, queue_, [=, this]() -> absl::Status {
    if (auto s = InternalOnly(*ctx); !s.ok()) return s;
    auto out = ledger_.Void(req->hold_id(), kServiceCaller, req->idempotency_key());
    if (!out.ok()) return out.status();
    resp->set_replayed(*out);
    return absl::OkStatus();
  });
}

}  // namespace arena::service
