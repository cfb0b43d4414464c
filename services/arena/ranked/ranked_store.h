// The durable side of ranked matchmaking: cities, the queue per city and time control, and
// the pairings made from it, in PostgreSQL schema `arena` (deploy/sql/arena/0007_ranked.sql).
//
// The queue is rows, not memory, so a restart of arena loses nobody's place. A player waits in
// at most one queue (the primary key of arena.ranked_queue is the player) and is never both
// waiting and in an open pairing (Join refuses; see Join for why the check cannot race).
//
// PairOnce is one transaction per queue: it takes the queue's advisory transaction lock, locks
// the queue's rows, runs the pure Matchmaker (matchmaker.h) on them, and deletes the paired
// entries in the same statements that insert the pairing rows. A crash before the commit
// changes nothing; after it, both are durable. So nobody is paired twice, nobody is dropped,
// and any number of arena replicas may call PairOnce on the same queue at once: the one that
// holds the queue's lock pairs it; the others skip it for that pass (docs/ranked.md).
//
// Times are the caller's clock (absl::Time), stored as given: the windows widen with the
// arena's clock, and tests drive a simulated one. Every method is one short READ COMMITTED
// transaction; errors are statuses chosen by what the caller should do next.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/arena/ranked/matchmaker.h"
#include "services/arena/ranked/time_control.h"
#include "services/common/pg_pool.h"

namespace arena::ranked {

// A city: one stake pool, admin-managed. `city_id` is the short name people type
// ("tallinn": a lowercase letter, then 1..31 of a-z 0-9 -); `name` is for display.
struct City {
  std::string city_id;
  std::string name;
  int64_t stake = 0;  // micro-credits each player stakes, 1..kMaxStake
  int fee_bps = 0;    // the winner's fee, basis points of the pot, 0..kMaxFeeBasisPoints
  bool active = true;
};

struct JoinResult {
  absl::Time joined_at;  // when the player's wait began (the original time on a repeat)
  bool newly_queued = false;
};

// A pairing as stored: the two entries as the matchmaker paired them, and the money terms of
// the city when it was made.
struct StoredPairing {
  int64_t pairing_id = 0;
  Pairing pairing;
  int64_t stake = 0;
  int fee_bps = 0;
  absl::Time paired_at;
};

struct PairOnceResult {
  // True when another transaction (another replica) was pairing this queue: nothing was done
  // and the caller simply tries again on its next tick.
  bool skipped = false;
  std::vector<StoredPairing> pairings;
};

// How a pairing's game ended, for EndPairing. kAborted pairings do not count toward the daily
// cap (nobody played for money); kFinished ones do.
enum class PairingEnd { kFinished, kAborted };

class RankedStore {
 public:
  explicit RankedStore(common::PgPool& pool) : pool_(pool) {}

  // --- Cities (admin) ---

  // Creates the city or replaces its name, stake, fee and active flag. Pairings already made
  // keep their own stake and fee. INVALID_ARGUMENT for a bad id, name, stake or fee.
  // `also` (an audit row, say) runs in the same transaction.
  using AlsoInTxn = std::function<void(pqxx::transaction_base&)>;
  absl::Status PutCity(const City& city, const AlsoInTxn& also = {});
  // Every city, by id.
  absl::StatusOr<std::vector<City>> Cities();

  // --- The queue ---

  // Puts `player_id` in the queue of (city, time control) with their current `rating`, as of
  // `now`. Idempotent: joining the queue one already waits in changes nothing and answers the
  // original join time. NOT_FOUND for an unknown city or account; FAILED_PRECONDITION for an
  // inactive city, a guest account (guests hold no credits), a player waiting in another
  // queue (leave it first) or one whose ranked game is still open; INVALID_ARGUMENT for a
  // rating that is not a finite number.
  absl::StatusOr<JoinResult> Join(const std::string& player_id, const std::string& city_id,
                                  TimeControl time_control, double rating, absl::Time now);

  // Takes `player_id` out of whatever queue they wait in. Instant and idempotent: true when an
  // entry was removed, false when there was none (never queued, already left, or already
  // paired: a pairing pass that holds the entry finishes first).
  absl::StatusOr<bool> Leave(const std::string& player_id);

  // The entry of a waiting player, if any (for "searching… widened to ±N").
  absl::StatusOr<std::optional<QueueEntry>> EntryOf(const std::string& player_id);

  // Everyone waiting in one queue, longest wait first (then by player id).
  absl::StatusOr<std::vector<QueueEntry>> Waiting(const std::string& city_id,
                                                  TimeControl time_control);

  // One pairing pass over one queue at `now` (see the top of this file). An inactive city
  // pairs nobody; an unknown one is NOT_FOUND.
  absl::StatusOr<PairOnceResult> PairOnce(const std::string& city_id, TimeControl time_control,
                                          absl::Time now);

  // --- Pairings ---

  // Ends an open pairing (paired or playing). Idempotent for the same end; FAILED_PRECONDITION
  // when it already ended the other way, NOT_FOUND for an unknown id. Ending a pairing is what
  // lets its players join a queue again.
  absl::Status EndPairing(int64_t pairing_id, PairingEnd end);

  // How many money games (pairings not aborted) `a` and `b` have had in the UTC day of `now`.
  absl::StatusOr<int> MoneyGamesToday(const std::string& a, const std::string& b, absl::Time now);

 private:
  common::PgPool& pool_;
};

// The start of the UTC day `t` falls in: the daily cap counts from there.
absl::Time UtcDayStart(absl::Time t);

}  // namespace arena::ranked
