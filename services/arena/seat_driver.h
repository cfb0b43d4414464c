// SeatDriver: arena plays the bot and model seats of the tables it created.
//
// For every driven game one thread follows the game-state stream (WatchGame: a snapshot, then
// every event). Whenever a bot or model seat owes an action (move, pass, dart aim, placement,
// penalty choice) the driver asks arena-bot or arena-llm-gateway, with a budget inside the
// seat's clock, and submits the answer with the action number it expects, so a retry can
// never be applied twice. The stream breaking (a game-state restart) only makes it reconnect.
//
// Model turns are durable: an `ai_turns` row per action number records the ledger hold, the
// answer and its cost before the move is submitted, so a driver that restarts resumes the turn
// (settles, then submits the recorded answer) rather than asking and paying twice. Donated
// credits are reserved at the turn's worst case (the cost cap) before the gateway call and
// settled at the real cost after; a call whose outcome was lost with the process is charged at
// its worst case, as the gateway charges an unknown outcome.
//
// Failures follow the table's AiPolicy: a model without a legal answer forfeits the turn (or
// resigns, "lose-game"); provider faults are re-asked `provider_retries` times, then the turn is
// forfeited or (league games) the game voided. A seat that forfeits `forfeits_before_resign`
// turns in a row resigns, so a table of failing models cannot pass turns for ever. A lost per-game
// key (gateway restart) pauses the seat: its turns follow the clock until the owner supplies the
// key again. At a table with clues on, a model's prompt carries the clue a person would get.
//
// Several arena replicas may drive at once (services/arena/driver_leases.h): a replica follows
// a game only while it holds the table's lease, claims tables nobody holds on a lease thread,
// and fences every write that records or pays for a turn with the epoch it claimed. A game
// whose lease another replica took is dropped here at once; its turn in flight is resumed by
// the new driver from the `ai_turns` row, as after a restart.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arena/v1/arena.pb.h"
#include "clients/service_clients.h"
#include "services/arena/clues.h"
#include "services/arena/driver_leases.h"
#include "services/arena/ledger.h"
#include "services/arena/move_judge.h"
#include "services/common/pg_pool.h"

namespace arena::service {

using clients::ServiceClients;

// "bot:<level>", "model:<id>", "user:<account id>" or "guest".
std::string ParticipantName(const v1::SeatSpec& spec);

// INVALID_ARGUMENT unless a bot seat names one of our levels 1..MaxLevel(seats) or, in chess
// with two seats, a Stockfish level (stockfish_elo in bots/chess/stockfish_player.h's range).
absl::Status CheckBotSeat(const v1::SeatSpec& spec, const std::string& engine_game, int seats);

// The seat as game-state records it: a Stockfish seat carries level 1 there (game-state knows
// only our levels; arena plays the seat by its stockfish_elo).
v1::SeatSpec GameStateSeat(const v1::SeatSpec& spec);

// The AiPolicy with defaults filled in; INVALID_ARGUMENT for unknown words. `league` decides
// the provider-fault default ("void" in leagues, "forfeit-turn" elsewhere; "void" is refused
// outside leagues).
absl::StatusOr<v1::AiPolicy> NormalizePolicy(const v1::AiPolicy& in, bool league);

struct DrivenSeat {
  int seat = 0;
  v1::SeatSpec spec;
  std::string participant;
  std::string owner_account;
  std::string key_handle;          // own-key model seats
  std::string key_state = "none";  // "none", "registered", "needed"
  bool filled = false;             // a person's seat arena joined (services/arena/seating.h)
  std::string holder_name;         // who sits there, as the table shows them
  bool ai() const { return spec.kind() == v1::SEAT_KIND_BOT || spec.kind() == v1::SEAT_KIND_MODEL; }
};

struct DrivenTable {
  std::string game_id;
  std::string owner_account;  // empty for league games
  std::optional<int64_t> league_id;
  int slot = -1;
  std::string engine_game;
  v1::TableSettings settings;
  v1::AiPolicy policy;
  std::vector<DrivenSeat> seats;  // every seat, in table order
  bool active = true;             // Load: the row says the game is still being driven
};

struct SeatDriverOptions {
  absl::Duration bot_time_cap = absl::Seconds(5);          // when the clock does not bind
  absl::Duration answer_margin = absl::Milliseconds(300);  // left for the answer to travel
  absl::Duration gateway_timeout = absl::Seconds(120);
  absl::Duration hold_timeout = absl::Minutes(10);  // longer than any turn it covers
  absl::Duration retry_backoff = absl::Milliseconds(200);
  // Move-cap adjudication (services/arena/adjudication.h): the search's time and the margin.
  absl::Duration adjudication_time = absl::Seconds(2);
  int adjudication_margin_cp = 400;
  // Leases (services/arena/driver_leases.h): who this replica is, how long a claim lasts, how
  // often held leases are renewed and orphans looked for, and how many tables one pass claims
  // (so replicas starting together share the tables).
  DriverLeaseOptions lease;
  absl::Duration lease_renew = absl::Seconds(2);
  int claim_batch = 32;
};

class SeatDriver {
 public:
  // `clues` (may be null: model seats then get no clues) makes the clues of model seats at
  // tables with clues on, the same way a person's are made (services/arena/clues.h).
  // `judge` (may be null: model moves then stay unjudged) gets every applied model move.
  SeatDriver(ServiceClients& clients, common::PgPool& pool, ledger::Ledger& ledger,
             SeatDriverOptions options, ClueMaker* clues = nullptr, MoveJudge* judge = nullptr);
  ~SeatDriver();

  // Records a table arena created (in the caller's transaction).
  static void Record(pqxx::transaction_base& txn, const DrivenTable& table);

  // Starts following a recorded game: claims its lease (no-op when it is already followed here,
  // or another live replica drives it).
  void Drive(const std::string& game_id);
  // Drives the table here if this replica has room in its fair share of the tables in play;
  // otherwise leaves it to the other replicas' lease passes (within --driver_lease_renew_ms).
  // For tables nobody waits on at once (league games), so replicas share them.
  void Offer(const std::string& game_id);
  // At start: claims and follows the active tables nobody drives (all of them for a sole
  // replica), then starts the lease thread, which renews what this replica holds and claims
  // tables other replicas left.
  absl::Status ResumeAll();
  // Stops every driver thread (their turns in flight are finished or abandoned safely) and
  // releases the leases, so another replica takes the tables over at once.
  void Stop();
  // Called on a driver thread once a driven game has ended and its row says so.
  void SetOnGameEnd(std::function<void(const std::string& game_id)> fn);

  absl::StatusOr<DrivenTable> Load(const std::string& game_id);
  // A re-supplied key was registered: the seat plays again.
  absl::Status KeyRegistered(const std::string& game_id, int seat, const std::string& handle);
  // What the driver did for each AI seat of a game.
  absl::StatusOr<v1::ArenaTable> Describe(const std::string& game_id);

  const SeatDriverOptions& options() const { return options_; }
  const std::string& replica_id() const { return leases_.replica_id(); }
  // Games followed now (a finished game's entry and thread are released when it ends).
  size_t FollowedGames();

 private:
  struct Follow;  // one followed game
  void Claim(const std::string& game_id, bool within_share);
  // Follows a game this replica has just claimed at `epoch` (claim_mu_ held).
  void FollowClaimed(const std::string& game_id, int64_t epoch);
  // One pass of the lease thread: renew, drop what was lost, claim orphans, pick up keys
  // registered through another replica.
  absl::Status LeasePass();
  void LeaseLoop();
  // The lease of a followed game was taken: stop driving it here.
  void Lose(Follow& f);
  bool Halted(const Follow& f) const;
  void Run(std::shared_ptr<Follow> f);
  void MaybeAct(Follow& f, const v1::GameView& view);
  void BotTurn(Follow& f, const v1::GameView& view, const DrivenSeat& seat);
  void ModelTurn(Follow& f, const v1::GameView& view, const DrivenSeat& seat);
  // The clue for a model seat's turn at a table with clues on; nothing (and no search) at a
  // table without, and nothing when the clue cannot be had in time (the turn goes on).
  std::optional<Clue> ModelClue(Follow& f, const v1::GameView& view, const DrivenSeat& seat);
  // Submits an action for `seat`; true when it was applied (now or by an earlier try).
  bool Submit(Follow& f, const v1::GameView& view, int seat, v1::ActionKind kind,
              const std::string& text, const std::string& annotation);
  void VoidGame(Follow& f, const std::string& reason);
  int ForfeitsInARow(const std::string& game_id, int seat);
  void Finish(Follow& f, const v1::GameView& view);
  std::optional<int> FinalEvaluation(Follow& f, const v1::GameView& view);
  absl::StatusOr<v1::GameView> GetView(const std::string& game_id);
  absl::Duration TimeLeft(const v1::GameView& view) const;
  // Joins the threads of games that have ended.
  void JoinFinished();

  ServiceClients& clients_;
  common::PgPool& pool_;
  ledger::Ledger& ledger_;
  const SeatDriverOptions options_;
  ClueMaker* const clues_;
  MoveJudge* const judge_;
  std::function<void(const std::string&)> on_end_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Follow>> follows_;
  std::map<std::string, std::thread> running_;  // one per followed game
  std::vector<std::thread> finished_;           // ended, not yet joined
  std::atomic<bool> stopping_{false};
  DriverLeases leases_;
  std::mutex claim_mu_;  // one claim at a time in this process (two would bump the epoch twice)
  std::thread lease_thread_;
  std::condition_variable lease_cv_;  // with mu_: wakes the lease thread to stop
};

}  // namespace arena::service
