// RankedPlay: staked games of ranked chess, from the queue to the settled pot (issue 26).
//
// One loop per arena process. Every tick it
//   1. runs a pairing pass over every active city's three queues (RankedStore::PairOnce: any
//      number of replicas may run passes at once; each queue is paired by one at a time);
//   2. starts every pairing that has no game yet: holds both stakes into system:escrow (ledger
//      holds), makes a ranked chess table on game-state with both seats kept for the two
//      accounts, records it as a driven table (so arena follows it to its end and rates it), and
//      marks the pairing `playing`. A player who cannot cover the stake (balance, frozen
//      account) aborts the pairing: the other hold is voided and the pair may meet again;
//   3. settles every `playing` pairing whose table has ended: a decisive game posts both holds
//      into escrow and pays the winner the pot minus the fee and the fee to system:fees; a
//      draw posts both and refunds each stake; an aborted or voided game voids both holds.
//
// Every step is idempotent and restartable: ledger calls carry keys derived from the pairing
// ("ranked:<id>:..."), the table is made with an idempotency key on game-state, and the
// pairing's state changes last, guarded by its previous state. A crash anywhere leaves a
// pairing in `paired` or `playing`, and the next tick of any replica finishes the step without
// moving any money twice. Nothing about a pairing lives only in memory.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arena/v1/arena.pb.h"
#include "clients/service_clients.h"
#include "services/arena/accounts.h"
#include "services/arena/ledger.h"
#include "services/arena/ranked/fair_play_store.h"
#include "services/arena/ranked/ranked_store.h"
#include "services/arena/seat_driver.h"
#include "services/common/pg_pool.h"

namespace arena::service {

struct RankedPlayOptions {
  absl::Duration tick = absl::Seconds(1);
  // Longer than any staked game can last (docs/ranked.md): the ledger's longest hold.
  absl::Duration stake_hold = absl::Hours(24);
  // A ranked table whose two seats are not both taken this long after it was made is voided
  // (a player who never sat down); the pairing ends aborted and nobody's stake moves.
  absl::Duration show_up = absl::Seconds(60);
};

// The rating name of a staked time control: chess at "3+2 ranked" (people_record.h).
std::string RankedRatingName(ranked::TimeControl tc);

class RankedPlay {
 public:
  // `clients` and `driver` may be null (arena without game-state): the queue RPCs still work,
  // pairings are made, and games start once arena runs with game-state.
  RankedPlay(common::PgPool& pool, ledger::Ledger& ledger, clients::ServiceClients* clients,
             SeatDriver* driver, RankedPlayOptions options = {});
  ~RankedPlay();

  // Starts the loop's thread; Stop() ends it (also done by the destructor).
  void Start();
  void Stop();
  // Runs the next tick now (a ranked table ended, someone joined).
  void Wake();
  // Called (on the loop's thread) after a game has been settled as finished: the fair-play
  // check has work. Set before Start().
  void SetOnSettled(std::function<void()> f) { on_settled_ = std::move(f); }

  // One tick at `now` (what the loop runs; tests call it directly).
  absl::Status Tick(absl::Time now);

  // --- What the RPCs call ---
  // `who` is a signed-in member (the caller checks). Joins the queue with the member's rating
  // at that time control. FAILED_PRECONDITION when the balance cannot cover the city's stake.
  absl::StatusOr<v1::RankedStatus> Join(const accounts::Principal& who, const std::string& city_id,
                                        const std::string& time_control);
  absl::StatusOr<v1::RankedStatus> Leave(const std::string& account_id);
  absl::StatusOr<v1::RankedStatus> Status(const std::string& account_id);
  absl::StatusOr<v1::RankedGamesResponse> Games(const std::string& account_id, int limit);
  absl::Status PutCity(const accounts::Principal& admin, const v1::City& city,
                       const std::string& reason);
  absl::StatusOr<v1::ListCitiesResponse> Cities();
  // Fair play (fair_play_review.cc): the flags in `state` ("open", "dismissed", "actioned",
  // "all"), and an admin's decision on one, with the refund and the block it asks for.
  absl::StatusOr<v1::ListFairPlayFlagsResponse> FairPlayFlags(const std::string& state, int limit);
  absl::StatusOr<v1::FairPlayFlag> ReviewFairPlayFlag(const accounts::Principal& admin,
                                                      const v1::ReviewFairPlayFlagRequest& req);

  ranked::RankedStore& store() { return store_; }

 private:
  struct Open;  // an open pairing as the loop reads it
  absl::Status StartGame(const Open& p);
  absl::Status Settle(const Open& p);
  // The flag as the RPCs show it: the report with its game's pairing and the accounts.
  absl::StatusOr<v1::FairPlayFlag> FlagOf(const ranked::StoredFairPlayReport& report);
  void Run();

  common::PgPool& pool_;
  ledger::Ledger& ledger_;
  clients::ServiceClients* clients_;
  SeatDriver* driver_;
  const RankedPlayOptions options_;
  ranked::RankedStore store_;
  std::function<void()> on_settled_;

  std::mutex mu_;
  std::condition_variable cv_;
  bool wake_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace arena::service
