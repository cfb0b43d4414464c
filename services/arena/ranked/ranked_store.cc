#include "services/arena/ranked/ranked_store.h"

#include <cmath>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/arena/ledger.h"
#include "services/arena/ranked/settlement.h"

namespace arena::ranked {

static_assert(kMaxStake == ledger::kMaxAmount, "a stake is one ledger amount");

namespace {

// Times cross the wire as integer microseconds since the Unix epoch ('epoch'::timestamptz +
// $n * interval '1 microsecond' in, extract(epoch ...) * 1000000 out), so nothing is rounded.

// --- Cities ---

constexpr char kPutCity[] =
    "INSERT INTO arena.cities (city_id, name, stake, fee_bps, active) "
    "VALUES ($1, $2, $3, $4, $5) "
    "ON CONFLICT (city_id) DO UPDATE SET name = EXCLUDED.name, stake = EXCLUDED.stake, "
    "  fee_bps = EXCLUDED.fee_bps, active = EXCLUDED.active, updated_at = now()";

constexpr char kCities[] =
    "SELECT city_id, name, stake, fee_bps, active FROM arena.cities ORDER BY city_id";

constexpr char kCityTerms[] = "SELECT stake, fee_bps, active FROM arena.cities WHERE city_id = $1";

// --- The queue ---

constexpr char kAccountRole[] = "SELECT role FROM arena.accounts WHERE account_id = $1";

constexpr char kInsertEntry[] =
    "INSERT INTO arena.ranked_queue (player_id, city_id, time_control, rating, joined_at) "
    "VALUES ($1, $2, $3, $4, ('epoch'::timestamptz + $5 * interval '1 microsecond')) "
    "ON CONFLICT (player_id) DO NOTHING RETURNING player_id";

constexpr char kOpenPairingOf[] =
    "SELECT pairing_id FROM arena.ranked_pairings "
    "WHERE (player_a = $1 OR player_b = $1) AND state IN ('paired', 'playing') LIMIT 1";

constexpr char kEntryOf[] =
    "SELECT player_id, city_id, time_control, rating, "
    "  (extract(epoch FROM joined_at) * 1000000)::bigint "
    "FROM arena.ranked_queue WHERE player_id = $1";

constexpr char kLeave[] = "DELETE FROM arena.ranked_queue WHERE player_id = $1 RETURNING player_id";

constexpr char kWaiting[] =
    "SELECT player_id, city_id, time_control, rating, "
    "  (extract(epoch FROM joined_at) * 1000000)::bigint "
    "FROM arena.ranked_queue WHERE city_id = $1 AND time_control = $2 "
    "ORDER BY joined_at, player_id";

// --- Pairing ---

// One advisory lock per queue, (class, hash of the queue's name), held to the end of the
// transaction. Two queues whose names collide merely take turns.
constexpr int kQueueLockClass = 0x52414e4b;  // "RANK"
constexpr char kTryLockQueue[] =
    "SELECT pg_try_advisory_xact_lock($1::int, hashtext($2 || ' ' || $3))";

// The queue's rows, locked: a Leave of one of them waits for this pass to commit (and then
// finds the entry gone if it was paired).
constexpr char kLockWaiting[] =
    "SELECT player_id, city_id, time_control, rating, "
    "  (extract(epoch FROM joined_at) * 1000000)::bigint "
    "FROM arena.ranked_queue WHERE city_id = $1 AND time_control = $2 "
    "ORDER BY joined_at, player_id FOR UPDATE";

// The day's money games between any two players waiting in the queue: every pairing of the
// pair made in [day start, +1 day) by the pass's clock, except aborted ones.
constexpr char kMoneyGamesInQueue[] =
    "SELECT p.player_a, p.player_b, count(*) FROM arena.ranked_pairings p "
    "WHERE p.state <> 'aborted' "
    "  AND p.paired_at >= 'epoch'::timestamptz + $3 * interval '1 microsecond' "
    "  AND p.paired_at < 'epoch'::timestamptz + $3 * interval '1 microsecond' + interval '24 "
    "hours' "
    "  AND p.player_a IN (SELECT player_id FROM arena.ranked_queue "
    "                     WHERE city_id = $1 AND time_control = $2) "
    "  AND p.player_b IN (SELECT player_id FROM arena.ranked_queue "
    "                     WHERE city_id = $1 AND time_control = $2) "
    "GROUP BY p.player_a, p.player_b";

// Blocks either way between two players waiting in the queue: such a pair is never paired
// (they could not sit at one table: services/arena/seating.h).
constexpr char kBlocksInQueue[] =
    "SELECT b.blocker_id, b.blocked_id FROM arena.blocks b "
    "WHERE b.blocker_id IN (SELECT player_id FROM arena.ranked_queue "
    "                       WHERE city_id = $1 AND time_control = $2) "
    "  AND b.blocked_id IN (SELECT player_id FROM arena.ranked_queue "
    "                       WHERE city_id = $1 AND time_control = $2)";

constexpr char kMoneyGamesOfPair[] =
    "SELECT count(*) FROM arena.ranked_pairings "
    "WHERE player_a = $1 AND player_b = $2 AND state <> 'aborted' "
    "  AND paired_at >= 'epoch'::timestamptz + $3 * interval '1 microsecond' "
    "  AND paired_at < 'epoch'::timestamptz + $3 * interval '1 microsecond' + interval '24 hours'";

// Takes both entries out of the queue and records their pairing, in one statement. The row is
// written only when both entries were still there (they are: the pass holds their locks), so
// a pairing never names somebody who was not waiting.
constexpr char kTakePair[] =
    "WITH taken AS (DELETE FROM arena.ranked_queue "
    "               WHERE player_id IN ($1, $2) AND city_id = $3 AND time_control = $4 "
    "               RETURNING player_id) "
    "INSERT INTO arena.ranked_pairings (city_id, time_control, stake, fee_bps, player_a, "
    "  player_b, rating_a, rating_b, joined_a, joined_b, rating_window, paired_at) "
    "SELECT $3, $4, $5, $6, $1, $2, $7, $8, "
    "  'epoch'::timestamptz + $9 * interval '1 microsecond', "
    "  'epoch'::timestamptz + $10 * interval '1 microsecond', $11, "
    "  'epoch'::timestamptz + $12 * interval '1 microsecond' "
    "WHERE (SELECT count(*) FROM taken) = 2 "
    "RETURNING pairing_id";

constexpr char kEndPairing[] =
    "UPDATE arena.ranked_pairings SET state = $2, ended_at = clock_timestamp() "
    "WHERE pairing_id = $1 AND state IN ('paired', 'playing') RETURNING pairing_id";

constexpr char kPairingState[] = "SELECT state FROM arena.ranked_pairings WHERE pairing_id = $1";

int64_t Micros(absl::Time t) {
  return absl::ToUnixMicros(t);
}

// A queue row as read by kEntryOf, kWaiting and kLockWaiting.
absl::StatusOr<QueueEntry> EntryFromRow(const pqxx::row& row) {
  const std::string tc_name = row[2].as<std::string>();
  std::optional<TimeControl> tc = ParseTimeControl(tc_name);
  if (!tc) return absl::InternalError(absl::StrCat("queue row with time control '", tc_name, "'"));
  return QueueEntry{row[0].as<std::string>(), row[1].as<std::string>(), *tc, row[3].as<double>(),
                    absl::FromUnixMicros(row[4].as<int64_t>())};
}

absl::StatusOr<std::vector<QueueEntry>> EntriesFrom(const pqxx::result& rows) {
  std::vector<QueueEntry> entries;
  entries.reserve(rows.size());
  for (const pqxx::row& row : rows) {
    auto entry = EntryFromRow(row);
    if (!entry.ok()) return entry.status();
    entries.push_back(*std::move(entry));
  }
  return entries;
}

bool ValidCityId(const std::string& id) {
  if (id.size() < 2 || id.size() > 32 || !(id[0] >= 'a' && id[0] <= 'z')) return false;
  for (char c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

// A rating the queue accepts: a finite number the column's check allows.
bool ValidRating(double rating) {
  return std::isfinite(rating) && std::abs(rating) < 1e6;
}

std::string PairKey(const std::string& a, const std::string& b) {
  return a < b ? absl::StrCat(a, "\n", b) : absl::StrCat(b, "\n", a);
}

}  // namespace

absl::Time UtcDayStart(absl::Time t) {
  const absl::TimeZone utc = absl::UTCTimeZone();
  return absl::FromCivil(absl::ToCivilDay(t, utc), utc);
}

absl::Status RankedStore::PutCity(const City& city, const AlsoInTxn& also) {
  if (!ValidCityId(city.city_id)) {
    return absl::InvalidArgumentError(
        "a city id is a lowercase letter then 1..31 of a-z, 0-9 and '-'");
  }
  if (city.name.empty() || city.name.size() > 64) {
    return absl::InvalidArgumentError("a city's name is 1..64 bytes");
  }
  if (city.stake <= 0 || city.stake > kMaxStake) {
    return absl::InvalidArgumentError(absl::StrCat("a stake is 1..", kMaxStake, " micro-credits"));
  }
  if (city.fee_bps < 0 || city.fee_bps > kMaxFeeBasisPoints) {
    return absl::InvalidArgumentError(
        absl::StrCat("a fee is 0..", kMaxFeeBasisPoints, " basis points"));
  }
  return pool_.Transact([&](pqxx::transaction_base& txn) {
    txn.exec_params(kPutCity, city.city_id, city.name, city.stake, city.fee_bps, city.active);
    if (also) also(txn);
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<City>> RankedStore::Cities() {
  std::vector<City> cities;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) {
    cities.clear();
    for (const pqxx::row& row : txn.exec(kCities)) {
      cities.push_back({row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<int64_t>(),
                        row[3].as<int>(), row[4].as<bool>()});
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return cities;
}

absl::StatusOr<JoinResult> RankedStore::Join(const std::string& player_id,
                                             const std::string& city_id, TimeControl time_control,
                                             double rating, absl::Time now) {
  if (!ValidRating(rating)) {
    return absl::InvalidArgumentError("a rating must be a finite number");
  }
  const std::string tc(TimeControlName(time_control));
  JoinResult result;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result city = txn.exec_params(kCityTerms, city_id);
    if (city.empty()) return absl::NotFoundError(absl::StrCat("no city '", city_id, "'"));
    if (!city[0][2].as<bool>()) {
      return absl::FailedPreconditionError(
          absl::StrCat("city '", city_id, "' is closed to ranked play"));
    }
    pqxx::result role = txn.exec_params(kAccountRole, player_id);
    if (role.empty()) return absl::NotFoundError(absl::StrCat("no account '", player_id, "'"));
    if (role[0][0].as<std::string>() == "guest") {
      return absl::FailedPreconditionError("guests cannot play for stakes: sign up first");
    }
    // A conflicting entry may be deleted (left, or paired) between our insert and our read of
    // it; then the insert is simply tried again.
    for (int attempt = 0; attempt < 3; ++attempt) {
      if (!txn.exec_params(kInsertEntry, player_id, city_id, tc, rating, Micros(now)).empty()) {
        // Checked after the insert, in a later statement and so a later snapshot: a pairing
        // pass that held this player's old entry has committed by now (the insert waited for
        // it), so its pairing is seen here and the new entry is refused with the transaction.
        if (!txn.exec_params(kOpenPairingOf, player_id).empty()) {
          return absl::FailedPreconditionError(
              "already in a ranked game: finish it before queueing again");
        }
        result = {now, true};
        return absl::OkStatus();
      }
      pqxx::result existing = txn.exec_params(kEntryOf, player_id);
      if (existing.empty()) continue;
      auto entry = EntryFromRow(existing[0]);
      if (!entry.ok()) return entry.status();
      if (entry->city_id != city_id || entry->time_control != time_control) {
        return absl::FailedPreconditionError(absl::StrCat(
            "already waiting in ", entry->city_id, " ",
            std::string(TimeControlName(entry->time_control)), ": leave that queue first"));
      }
      result = {entry->joined_at, false};
      return absl::OkStatus();
    }
    return absl::AbortedError("the queue kept changing under the join; try again");
  });
  if (!status.ok()) return status;
  return result;
}

absl::StatusOr<bool> RankedStore::Leave(const std::string& player_id) {
  bool removed = false;
  absl::Status status = pool_.SingleStatement([&](pqxx::transaction_base& txn) {
    removed = !txn.exec_params(kLeave, player_id).empty();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return removed;
}

absl::StatusOr<std::optional<QueueEntry>> RankedStore::EntryOf(const std::string& player_id) {
  std::optional<QueueEntry> entry;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    entry.reset();
    pqxx::result rows = txn.exec_params(kEntryOf, player_id);
    if (rows.empty()) return absl::OkStatus();
    auto read = EntryFromRow(rows[0]);
    if (!read.ok()) return read.status();
    entry = *std::move(read);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return entry;
}

absl::StatusOr<std::vector<QueueEntry>> RankedStore::Waiting(const std::string& city_id,
                                                             TimeControl time_control) {
  std::vector<QueueEntry> entries;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    auto read =
        EntriesFrom(txn.exec_params(kWaiting, city_id, std::string(TimeControlName(time_control))));
    if (!read.ok()) return read.status();
    entries = *std::move(read);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return entries;
}

absl::StatusOr<PairOnceResult> RankedStore::PairOnce(const std::string& city_id,
                                                     TimeControl time_control, absl::Time now) {
  const std::string tc(TimeControlName(time_control));
  PairOnceResult result;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    result = PairOnceResult{};
    pqxx::result city = txn.exec_params(kCityTerms, city_id);
    if (city.empty()) return absl::NotFoundError(absl::StrCat("no city '", city_id, "'"));
    const int64_t stake = city[0][0].as<int64_t>();
    const int fee_bps = city[0][1].as<int>();
    if (!city[0][2].as<bool>()) return absl::OkStatus();
    if (!txn.exec_params(kTryLockQueue, kQueueLockClass, city_id, tc)[0][0].as<bool>()) {
      result.skipped = true;
      return absl::OkStatus();
    }
    auto waiting = EntriesFrom(txn.exec_params(kLockWaiting, city_id, tc));
    if (!waiting.ok()) return waiting.status();
    if (waiting->size() < 2) return absl::OkStatus();

    std::map<std::string, int> met;  // PairKey -> money games today
    for (const pqxx::row& row :
         txn.exec_params(kMoneyGamesInQueue, city_id, tc, Micros(UtcDayStart(now)))) {
      met[PairKey(row[0].as<std::string>(), row[1].as<std::string>())] = row[2].as<int>();
    }
    // A pair with a block either way counts as capped: the policy then never pairs it.
    for (const pqxx::row& row : txn.exec_params(kBlocksInQueue, city_id, tc)) {
      met[PairKey(row[0].as<std::string>(), row[1].as<std::string>())] =
          kMaxMoneyGamesPerPairPerDay;
    }
    auto money_games_today = [&met](const std::string& a, const std::string& b) {
      auto it = met.find(PairKey(a, b));
      return it == met.end() ? 0 : it->second;
    };

    for (const Pairing& p : FindPairings(*std::move(waiting), now, money_games_today)) {
      const bool first_is_a = p.first.player_id < p.second.player_id;
      const QueueEntry& a = first_is_a ? p.first : p.second;
      const QueueEntry& b = first_is_a ? p.second : p.first;
      pqxx::result row = txn.exec_params(kTakePair, a.player_id, b.player_id, city_id, tc, stake,
                                         fee_bps, a.rating, b.rating, Micros(a.joined_at),
                                         Micros(b.joined_at), p.window, Micros(now));
      if (row.empty()) {
        // Cannot happen while the pass holds the rows' locks; if it does, pair nobody.
        return absl::AbortedError(absl::StrCat("queue entries of ", a.player_id, " and ",
                                               b.player_id, " vanished during pairing"));
      }
      result.pairings.push_back({row[0][0].as<int64_t>(), p, stake, fee_bps, now});
    }
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return result;
}

absl::Status RankedStore::EndPairing(int64_t pairing_id, PairingEnd end) {
  const std::string state = end == PairingEnd::kFinished ? "finished" : "aborted";
  return pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    if (!txn.exec_params(kEndPairing, pairing_id, state).empty()) return absl::OkStatus();
    pqxx::result row = txn.exec_params(kPairingState, pairing_id);
    if (row.empty()) return absl::NotFoundError(absl::StrCat("no pairing ", pairing_id));
    const std::string now_state = row[0][0].as<std::string>();
    if (now_state == state) return absl::OkStatus();
    return absl::FailedPreconditionError(
        absl::StrCat("pairing ", pairing_id, " already ended: ", now_state));
  });
}

absl::StatusOr<int> RankedStore::MoneyGamesToday(const std::string& a, const std::string& b,
                                                 absl::Time now) {
  int count = 0;
  absl::Status status = pool_.Transact([&](pqxx::transaction_base& txn) {
    const bool in_order = a < b;
    count = txn.exec_params(kMoneyGamesOfPair, in_order ? a : b, in_order ? b : a,
                            Micros(UtcDayStart(now)))[0][0]
                .as<int>();
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return count;
}

}  // namespace arena::ranked
