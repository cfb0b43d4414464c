#include "services/arena/seating.h"

#include "absl/strings/str_cat.h"
#include "common/grpc_util.h"
#include "common/proto_json.h"
#include "google/protobuf/util/time_util.h"
#include "services/arena/people_record.h"

namespace arena::service {
namespace {

// --- Named statements ----------------------------------------------------------------------

constexpr char kLockTable[] =
    "SELECT coalesce(owner_account, ''), state, settings_json, engine_game "
    "FROM driven_tables WHERE game_id = $1 FOR UPDATE";
constexpr char kSeat[] =
    "SELECT kind, spec_json, filled FROM table_seats WHERE game_id = $1 AND seat = $2";
constexpr char kExpireInvitations[] =
    "UPDATE invitations SET state = 'expired' "
    "WHERE game_id = $1 AND state = 'pending' AND expires_at <= now()";
constexpr char kReservation[] =
    "SELECT i.invitation_id, i.invitee_id, a.name, "
    "       extract(epoch FROM i.expires_at)::bigint "
    "FROM invitations i JOIN accounts a ON a.account_id = i.invitee_id "
    "WHERE i.game_id = $1 AND i.seat = $2 AND i.state = 'pending'";
constexpr char kAcceptInvitation[] =
    "UPDATE invitations SET state = 'accepted', answered_at = now() WHERE invitation_id = $1";
// The first block, either way, between $1 and the table's host or anyone seated at it:
// (the other account's name, whether $1 is the blocker).
constexpr char kBlockAtTable[] =
    "WITH people AS ("
    "  SELECT owner_account AS account_id FROM driven_tables "
    "  WHERE game_id = $2 AND owner_account IS NOT NULL "
    "  UNION SELECT owner_account FROM table_seats "
    "  WHERE game_id = $2 AND filled AND kind IN ('human', 'guest') "
    "    AND owner_account IS NOT NULL) "
    "SELECT a.name, b.blocker_id = $1 FROM people p "
    "JOIN blocks b ON (b.blocker_id = p.account_id AND b.blocked_id = $1) "
    "              OR (b.blocker_id = $1 AND b.blocked_id = p.account_id) "
    "JOIN accounts a ON a.account_id = p.account_id "
    "WHERE p.account_id <> $1 ORDER BY a.name LIMIT 1";
constexpr char kBlockBetween[] =
    "SELECT blocker_id = $1 FROM blocks "
    "WHERE (blocker_id = $1 AND blocked_id = $2) OR (blocker_id = $2 AND blocked_id = $1) "
    "LIMIT 1";
constexpr char kDisplayName[] =
    "SELECT coalesce(nullif(display_name, ''), name) FROM accounts WHERE account_id = $1";
constexpr char kBindSeat[] =
    "UPDATE table_seats SET filled = true, kind = $3, owner_account = $4, holder_name = $5, "
    "participant = $6, spec_json = $7 WHERE game_id = $1 AND seat = $2";
constexpr char kInsertSeatInvitation[] =
    "INSERT INTO invitations (inviter_id, invitee_id, note, game_id, seat, expires_at) "
    "VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6)) "
    "RETURNING invitation_id, extract(epoch FROM expires_at)::bigint";
constexpr char kInvitationForAnswer[] =
    "SELECT game_id, seat, state, expires_at <= now() FROM invitations "
    "WHERE invitation_id = $1 AND invitee_id = $2 FOR UPDATE";
constexpr char kDeclineInvitation[] =
    "UPDATE invitations SET state = 'declined', answered_at = now() WHERE invitation_id = $1";
// Columns of an Invitation, expired ones read as expired.
constexpr char kInvitationColumns[] =
    "SELECT i.invitation_id, f.name, i.note, extract(epoch FROM i.created_at)::bigint, t.name, "
    "       coalesce(i.game_id, ''), coalesce(i.seat, 0), "
    "       CASE WHEN i.state = 'pending' AND i.expires_at <= now() THEN 'expired' "
    "            ELSE i.state END, "
    "       coalesce(extract(epoch FROM i.expires_at)::bigint, 0), "
    "       coalesce(extract(epoch FROM i.answered_at)::bigint, 0), "
    "       coalesce(d.engine_game, '') "
    "FROM invitations i JOIN accounts f ON f.account_id = i.inviter_id "
    "JOIN accounts t ON t.account_id = i.invitee_id "
    "LEFT JOIN driven_tables d ON d.game_id = i.game_id ";
constexpr char kInvitationsTo[] =
    "WHERE i.invitee_id = $1 AND ($2 OR (i.state = 'pending' AND "
    "  (i.expires_at IS NULL OR i.expires_at > now()))) "
    "AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = i.invitee_id AND "
    "  b.blocked_id = i.inviter_id) OR (b.blocker_id = i.inviter_id AND "
    "  b.blocked_id = i.invitee_id)) "
    "ORDER BY i.invitation_id DESC LIMIT $3";
constexpr char kInvitationsFrom[] =
    "WHERE i.inviter_id = $1 AND ($2::boolean OR true) ORDER BY i.invitation_id DESC LIMIT $3";
constexpr char kInvitationById[] = "WHERE i.invitation_id = $1";
constexpr char kDescribeSeats[] =
    "SELECT s.seat, s.kind, s.participant, s.holder_name, s.filled, "
    "       coalesce(s.owner_account, ''), s.spec_json, coalesce(r.name, '') "
    "FROM table_seats s LEFT JOIN invitations i ON i.game_id = s.game_id AND i.seat = s.seat "
    "  AND i.state = 'pending' AND i.expires_at > now() "
    "LEFT JOIN accounts r ON r.account_id = i.invitee_id "
    "WHERE s.game_id = $1 ORDER BY s.seat";

void SetSeconds(int64_t seconds, google::protobuf::Timestamp* out) {
  out->set_seconds(seconds);
  out->set_nanos(0);
}

v1::InvitationState StateOfWord(const std::string& w) {
  if (w == "pending") return v1::INVITATION_STATE_PENDING;
  if (w == "accepted") return v1::INVITATION_STATE_ACCEPTED;
  if (w == "declined") return v1::INVITATION_STATE_DECLINED;
  if (w == "expired") return v1::INVITATION_STATE_EXPIRED;
  return v1::INVITATION_STATE_UNSPECIFIED;
}

v1::Invitation InvitationOfRow(const pqxx::row& r) {
  v1::Invitation out;
  out.set_invitation_id(r[0].as<int64_t>());
  out.set_from_name(r[1].as<std::string>());
  out.set_note(r[2].as<std::string>());
  SetSeconds(r[3].as<int64_t>(), out.mutable_at());
  out.set_to_name(r[4].as<std::string>());
  out.set_game_id(r[5].as<std::string>());
  out.set_seat(r[6].as<int>());
  out.set_state(StateOfWord(r[7].as<std::string>()));
  if (int64_t e = r[8].as<int64_t>(); e > 0) SetSeconds(e, out.mutable_expires_at());
  if (int64_t a = r[9].as<int64_t>(); a > 0) SetSeconds(a, out.mutable_answered_at());
  out.set_engine_game(r[10].as<std::string>());
  return out;
}

v1::SeatKind SeatKindOfWord(const std::string& w) {
  if (w == "human") return v1::SEAT_KIND_HUMAN;
  if (w == "guest") return v1::SEAT_KIND_GUEST;
  if (w == "bot") return v1::SEAT_KIND_BOT;
  if (w == "model") return v1::SEAT_KIND_MODEL;
  return v1::SEAT_KIND_UNSPECIFIED;
}

std::string ExpiryText(int64_t unix_seconds) {
  return absl::FormatTime("%Y-%m-%d %H:%M:%S UTC", absl::FromUnixSeconds(unix_seconds),
                          absl::UTCTimeZone());
}

// PERMISSION_DENIED when `account` blocked, or was blocked by, the table's host or anyone
// seated at it; the message says who and which way.
absl::Status CheckBlocksAtTable(pqxx::transaction_base& txn, const std::string& account,
                                const std::string& game_id, const std::string& who) {
  pqxx::result r = txn.exec_params(kBlockAtTable, account, game_id);
  if (r.empty()) return absl::OkStatus();
  const std::string other = r[0][0].as<std::string>();
  if (r[0][1].as<bool>()) {
    return absl::PermissionDeniedError(absl::StrCat(
        who, " blocked ", other, ", who hosts or sits at this table; unblock them to sit here"));
  }
  return absl::PermissionDeniedError(
      absl::StrCat(other, ", who hosts or sits at this table, has blocked ", who));
}

}  // namespace

Seating::Seating(common::PgPool& pool, clients::ServiceClients* clients)
    : pool_(pool), clients_(clients) {}

absl::StatusOr<v1::ArenaJoinTableResponse> Seating::Join(const accounts::Principal& who,
                                                         const v1::ArenaJoinTableRequest& req) {
  if (req.game_id().empty()) return absl::InvalidArgumentError("game_id is required");
  if (clients_ == nullptr) {
    return absl::UnavailableError("arena runs without --game_state_addr: no tables");
  }
  if (req.seat_seed().size() > 256) {
    return absl::InvalidArgumentError("seat_seed longer than 256 bytes");
  }
  v1::ArenaJoinTableResponse resp;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result table = txn.exec_params(kLockTable, req.game_id());
    if (table.empty()) {
      return absl::NotFoundError(absl::StrCat("arena made no table ", req.game_id()));
    }
    if (table[0][1].as<std::string>() != "active") {
      return absl::FailedPreconditionError("the table is closed");
    }
    pqxx::result seat = txn.exec_params(kSeat, req.game_id(), req.seat());
    if (seat.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("the table has no seat ", req.seat()));
    }
    const std::string kind = seat[0][0].as<std::string>();
    if (kind == "bot" || kind == "model") {
      return absl::InvalidArgumentError(
          absl::StrCat("seat ", req.seat(), " is a ", kind, " seat: arena plays it"));
    }
    if (seat[0][2].as<bool>()) {
      return absl::FailedPreconditionError(absl::StrCat("seat ", req.seat(), " is taken"));
    }
    v1::SeatSpec spec;
    common::ProtoFromJson(seat[0][1].as<std::string>(), &spec);
    if (!spec.account_id().empty() && spec.account_id() != who.account_id) {
      return absl::PermissionDeniedError(
          absl::StrCat("seat ", req.seat(), " is kept for another account"));
    }
    if (kind == "human" && who.is_guest()) {
      return absl::PermissionDeniedError(absl::StrCat(
          "seat ", req.seat(), " is for a signed-in account; sign up or sign in to take it"));
    }
    txn.exec_params(kExpireInvitations, req.game_id());
    pqxx::result reserved = txn.exec_params(kReservation, req.game_id(), req.seat());
    if (!reserved.empty()) {
      if (reserved[0][1].as<std::string>() != who.account_id) {
        return absl::PermissionDeniedError(
            absl::StrCat("seat ", req.seat(), " is reserved for ", reserved[0][2].as<std::string>(),
                         " (an invitation) until ", ExpiryText(reserved[0][3].as<int64_t>())));
      }
      txn.exec_params(kAcceptInvitation, reserved[0][0].as<int64_t>());
    }
    const std::string shown_as = who.is_guest() ? "a guest" : who.name;
    if (absl::Status s = CheckBlocksAtTable(txn, who.account_id, req.game_id(), shown_as);
        !s.ok()) {
      return s;
    }
    pqxx::result names = txn.exec_params(kDisplayName, who.account_id);
    const std::string display = names.empty() ? who.name : names[0][0].as<std::string>();

    // Only arena may join a person's seat on game-state.
    v1::JoinTableRequest join;
    join.set_game_id(req.game_id());
    join.set_seat(req.seat());
    join.set_display_name(display);
    join.set_seat_seed(req.seat_seed());
    if (!who.is_guest()) join.set_account_id(who.account_id);
    v1::JoinTableResponse joined;
    grpc::ClientContext ctx;
    clients_->Prepare(ctx, absl::Seconds(10));
    grpc::Status js = clients_->game_state().JoinTable(&ctx, join, &joined);
    if (!js.ok()) return common::FromGrpc(js);

    spec.set_display_name(display);
    if (!who.is_guest()) {
      spec.set_kind(v1::SEAT_KIND_HUMAN);
      spec.set_account_id(who.account_id);
    }
    txn.exec_params(kBindSeat, req.game_id(), req.seat(), who.is_guest() ? "guest" : "human",
                    who.account_id, display, ParticipantName(spec), common::ProtoToJson(spec));
    resp.set_game_id(req.game_id());
    resp.set_seat(req.seat());
    resp.set_seat_credential(joined.seat_credential());
    resp.set_display_name(display);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return resp;
}

absl::StatusOr<v1::InviteResponse> Seating::InviteToSeat(const accounts::Principal& who,
                                                         const accounts::Principal& invitee,
                                                         const v1::InviteRequest& req) {
  absl::Duration ttl =
      req.ttl_seconds() == 0 ? kDefaultInvitationTtl : absl::Seconds(req.ttl_seconds());
  if (ttl < kMinInvitationTtl || ttl > kMaxInvitationTtl) {
    return absl::InvalidArgumentError(absl::StrCat("ttl_seconds is ",
                                                   absl::ToInt64Seconds(kMinInvitationTtl), "..",
                                                   absl::ToInt64Seconds(kMaxInvitationTtl)));
  }
  if (invitee.account_id == who.account_id) {
    return absl::InvalidArgumentError("you cannot invite yourself");
  }
  v1::InviteResponse resp;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result table = txn.exec_params(kLockTable, req.game_id());
    if (table.empty()) {
      return absl::NotFoundError(absl::StrCat("arena made no table ", req.game_id()));
    }
    if (table[0][0].as<std::string>() != who.account_id) {
      return absl::PermissionDeniedError("only the table's host invites to its seats");
    }
    if (table[0][1].as<std::string>() != "active") {
      return absl::FailedPreconditionError("the table is closed");
    }
    pqxx::result seat = txn.exec_params(kSeat, req.game_id(), req.seat());
    if (seat.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("the table has no seat ", req.seat()));
    }
    const std::string kind = seat[0][0].as<std::string>();
    if (kind == "bot" || kind == "model") {
      return absl::InvalidArgumentError(
          absl::StrCat("seat ", req.seat(), " is a ", kind, " seat: nobody can be invited to it"));
    }
    if (seat[0][2].as<bool>()) {
      return absl::FailedPreconditionError(absl::StrCat("seat ", req.seat(), " is taken"));
    }
    v1::SeatSpec spec;
    common::ProtoFromJson(seat[0][1].as<std::string>(), &spec);
    if (!spec.account_id().empty() && spec.account_id() != invitee.account_id) {
      return absl::FailedPreconditionError(
          absl::StrCat("seat ", req.seat(), " is kept for another account"));
    }
    txn.exec_params(kExpireInvitations, req.game_id());
    pqxx::result reserved = txn.exec_params(kReservation, req.game_id(), req.seat());
    if (!reserved.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "seat ", req.seat(), " is already reserved for ", reserved[0][2].as<std::string>()));
    }
    pqxx::result between = txn.exec_params(kBlockBetween, who.account_id, invitee.account_id);
    if (!between.empty()) {
      return absl::PermissionDeniedError(
          between[0][0].as<bool>()
              ? absl::StrCat("you blocked ", invitee.name, "; unblock them to invite them")
              : absl::StrCat(invitee.name, " does not accept your invitations"));
    }
    if (absl::Status s = CheckBlocksAtTable(txn, invitee.account_id, req.game_id(), invitee.name);
        !s.ok()) {
      return s;
    }
    pqxx::row r =
        txn.exec_params1(kInsertSeatInvitation, who.account_id, invitee.account_id, req.note(),
                         req.game_id(), req.seat(), absl::ToInt64Seconds(ttl));
    resp.set_invitation_id(r[0].as<int64_t>());
    SetSeconds(r[1].as<int64_t>(), resp.mutable_expires_at());
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return resp;
}

absl::StatusOr<v1::AnswerInvitationResponse> Seating::Answer(
    const accounts::Principal& who, const v1::AnswerInvitationRequest& req) {
  std::string game_id;
  int seat = 0;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result r = txn.exec_params(kInvitationForAnswer, req.invitation_id(), who.account_id);
    if (r.empty()) return absl::NotFoundError("no such invitation to you");
    const std::string state = r[0][2].as<std::string>();
    if (state == "pending" && !r[0][3].is_null() && r[0][3].as<bool>()) {
      return absl::FailedPreconditionError("the invitation has expired");
    }
    if (state != "pending") {
      return absl::FailedPreconditionError(absl::StrCat("the invitation is ", state));
    }
    if (r[0][0].is_null() || !req.accept()) {
      txn.exec_params(req.accept() ? kAcceptInvitation : kDeclineInvitation, req.invitation_id());
      return absl::OkStatus();
    }
    game_id = r[0][0].as<std::string>();
    seat = r[0][1].as<int>();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  v1::AnswerInvitationResponse resp;
  if (!game_id.empty()) {
    v1::ArenaJoinTableRequest join;
    join.set_game_id(game_id);
    join.set_seat(seat);
    join.set_seat_seed(req.seat_seed());
    auto joined = Join(who, join);
    if (!joined.ok()) return joined.status();
    resp.set_seat_credential(joined->seat_credential());
  }
  absl::Status read = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result r =
        txn.exec_params(std::string(kInvitationColumns) + kInvitationById, req.invitation_id());
    if (!r.empty()) *resp.mutable_invitation() = InvitationOfRow(r[0]);
    return absl::OkStatus();
  });
  if (!read.ok()) return read;
  return resp;
}

absl::StatusOr<std::vector<v1::Invitation>> Seating::List(const accounts::Principal& who,
                                                          const v1::ListInvitationsRequest& req) {
  int limit = req.limit() <= 0 || req.limit() > 1000 ? 100 : req.limit();
  std::vector<v1::Invitation> out;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    out.clear();
    std::string sql =
        std::string(kInvitationColumns) + (req.sent() ? kInvitationsFrom : kInvitationsTo);
    for (const auto& r : txn.exec_params(sql, who.account_id, req.include_answered(), limit)) {
      out.push_back(InvitationOfRow(r));
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

absl::Status Seating::DescribeSeats(const std::string& game_id, v1::ArenaTable* out) {
  return pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    out->clear_seats();
    pqxx::result owner = txn.exec_params(
        "SELECT coalesce(a.name, ''), d.settings_json, d.engine_game FROM driven_tables d "
        "LEFT JOIN accounts a ON a.account_id = d.owner_account WHERE d.game_id = $1",
        game_id);
    if (owner.empty()) return absl::OkStatus();
    out->set_owner_name(owner[0][0].as<std::string>());
    v1::TableSettings settings;
    common::ProtoFromJson(owner[0][1].as<std::string>(), &settings);
    const std::string tc = TimeControlName(settings.clock());
    const std::string engine_game = owner[0][2].as<std::string>();
    out->set_time_control(tc);
    for (const auto& r : txn.exec_params(kDescribeSeats, game_id)) {
      v1::TableSeat* s = out->add_seats();
      s->set_seat(r[0].as<int>());
      s->set_kind(SeatKindOfWord(r[1].as<std::string>()));
      s->set_participant(r[2].as<std::string>());
      s->set_filled(r[4].as<bool>() || s->kind() == v1::SEAT_KIND_BOT ||
                    s->kind() == v1::SEAT_KIND_MODEL);
      v1::SeatSpec spec;
      common::ProtoFromJson(r[6].as<std::string>(), &spec);
      std::string name = r[3].as<std::string>();
      if (name.empty()) name = spec.display_name();
      s->set_name(name);
      s->set_label(name);
      const std::string reserved_for = r[7].as<std::string>();
      if (!reserved_for.empty() && !s->filled()) {
        s->set_reserved(true);
        s->set_reserved_for(reserved_for);
      }
      const std::string account = r[5].as<std::string>();
      if (s->kind() == v1::SEAT_KIND_HUMAN && s->filled() && !account.empty()) {
        *s->mutable_rating() = PersonRatingOf(txn, account, engine_game, tc);
        s->set_label(absl::StrCat(name, " (", s->rating().label(), ")"));
      }
    }
    return absl::OkStatus();
  });
}

}  // namespace arena::service
