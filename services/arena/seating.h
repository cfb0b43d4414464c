// Seating: people at the tables arena made (issue 17).
//
// Every table goes through arena. A person takes an open seat as a guest or as a signed-in
// account; arena checks, under a lock on the table's row, that
//   * the seat is a person's seat, open, and not reserved for someone else's pending
//     invitation (the invitee taking it accepts the invitation);
//   * nobody the person blocked, and nobody who blocked the person, hosts the table or sits at
//     it (PERMISSION_DENIED naming who);
// then joins the seat on game-state (only arena may) and binds it to the account in
// `table_seats` (owner_account, holder_name, participant). The credential game-state issued is
// the only one it accepts for the seat's actions.
//
// Invitations with a table reserve one open seat of a table the inviter hosts until the
// invitee accepts (and is seated), declines, or the invitation expires (then the seat is open
// again). Blocks refuse an invitation both ways.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arena/v1/arena.pb.h"
#include "clients/service_clients.h"
#include "services/arena/accounts.h"
#include "services/common/pg_pool.h"

namespace arena::service {

// Invitations live at most this long, and at least kMinInvitationTtl; the default is an hour.
inline constexpr absl::Duration kMinInvitationTtl = absl::Seconds(1);
inline constexpr absl::Duration kMaxInvitationTtl = absl::Hours(24 * 7);
inline constexpr absl::Duration kDefaultInvitationTtl = absl::Hours(1);

class Seating {
 public:
  // `clients` is null when arena runs without the other services: Join then answers
  // UNAVAILABLE (invitations without a table and lists still work).
  Seating(common::PgPool& pool, clients::ServiceClients* clients);

  // Seats `who` (a guest or a member) at `req.seat` of `req.game_id`. NOT_FOUND for a table
  // arena did not make; INVALID_ARGUMENT for no such seat or an AI seat; FAILED_PRECONDITION
  // for a closed table or a taken seat; PERMISSION_DENIED for a seat reserved for or named for
  // someone else, a guest at an account's seat, or a block either way with the host or anyone
  // seated.
  absl::StatusOr<v1::ArenaJoinTableResponse> Join(const accounts::Principal& who,
                                                  const v1::ArenaJoinTableRequest& req);

  // An invitation reserving `req.seat` of `req.game_id` for `invitee`. `who` must host the
  // table; the seat must be open and unreserved; blocks either way between `who` and
  // `invitee`, or between `invitee` and anyone seated, are PERMISSION_DENIED.
  absl::StatusOr<v1::InviteResponse> InviteToSeat(const accounts::Principal& who,
                                                  const accounts::Principal& invitee,
                                                  const v1::InviteRequest& req);

  // The invitee accepts (seated as by Join) or declines. NOT_FOUND for another's invitation;
  // FAILED_PRECONDITION once answered or expired.
  absl::StatusOr<v1::AnswerInvitationResponse> Answer(const accounts::Principal& who,
                                                      const v1::AnswerInvitationRequest& req);

  // Invitations to `who` (pending only unless include_answered) or sent by `who` (all).
  // Invitations from or to an account blocked either way are not shown to the invitee.
  absl::StatusOr<std::vector<v1::Invitation>> List(const accounts::Principal& who,
                                                   const v1::ListInvitationsRequest& req);

  // Every seat of a table arena made, with who holds it (and their rating), reservations.
  absl::Status DescribeSeats(const std::string& game_id, v1::ArenaTable* out);

 private:
  common::PgPool& pool_;
  clients::ServiceClients* clients_;
};

}  // namespace arena::service
