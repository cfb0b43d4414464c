#include "services/arena/ranked_play.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/grpc_util.h"
#include "common/log.h"
#include "common/proto_json.h"
#include "google/protobuf/util/time_util.h"
#include "services/arena/people_record.h"
#include "services/arena/ranked/matchmaker.h"
#include "services/arena/ranked/settlement.h"

namespace arena::service {
namespace {

using ranked::TimeControl;

constexpr char kEngineGame[] = "chess";
constexpr char kCaller[] = "service:arena";

// Open pairings: the ones to start, the ones whose table has ended, and the ones whose table
// still waits for a player past the show-up window. Oldest first.
constexpr char kOpenWork[] =
    "SELECT p.pairing_id, p.state, p.city_id, p.time_control, p.stake, p.fee_bps, "
    "  p.player_a, p.player_b, coalesce(p.game_id, ''), p.hold_a, p.hold_b, "
    "  coalesce(p.white, ''), coalesce(d.state, ''), coalesce(d.result_json, ''), "
    "  coalesce(d.created_at < now() - $1 * interval '1 microsecond' "
    "    AND EXISTS (SELECT 1 FROM arena.table_seats s "
    "                WHERE s.game_id = d.game_id AND NOT s.filled), false) "
    "FROM arena.ranked_pairings p "
    "LEFT JOIN arena.driven_tables d ON d.game_id = p.game_id "
    "WHERE p.state IN ('paired', 'playing') "
    "ORDER BY p.pairing_id LIMIT 500";

constexpr char kAccountName[] = "SELECT name FROM arena.accounts WHERE account_id = $1";

// How many times each of the pair has had white against the other (for alternating colours).
constexpr char kWhitesOfPair[] =
    "SELECT count(*) FILTER (WHERE white = player_a), count(*) FILTER (WHERE white = player_b) "
    "FROM arena.ranked_pairings WHERE player_a = $1 AND player_b = $2 AND white IS NOT NULL";

constexpr char kMarkPlaying[] =
    "UPDATE arena.ranked_pairings SET state = 'playing', game_id = $2, hold_a = $3, hold_b = $4, "
    "  white = $5 WHERE pairing_id = $1 AND state = 'paired'";

constexpr char kMarkEnded[] =
    "UPDATE arena.ranked_pairings SET state = $2, result = $3, end_reason = $4, payout_a = $5, "
    "  payout_b = $6, fee = $7, ended_at = clock_timestamp() "
    "WHERE pairing_id = $1 AND state IN ('paired', 'playing')";

constexpr char kOpenPairingOf[] =
    "SELECT p.pairing_id, p.state, p.city_id, p.time_control, p.stake, p.fee_bps, "
    "  coalesce(p.game_id, ''), coalesce(p.white, ''), "
    "  CASE WHEN p.player_a = $1 THEN p.rating_a ELSE p.rating_b END, "
    "  CASE WHEN p.player_a = $1 THEN p.rating_b ELSE p.rating_a END, o.name "
    "FROM arena.ranked_pairings p "
    "JOIN arena.accounts o ON o.account_id = "
    "  CASE WHEN p.player_a = $1 THEN p.player_b ELSE p.player_a END "
    "WHERE (p.player_a = $1 OR p.player_b = $1) AND p.state IN ('paired', 'playing') "
    "ORDER BY p.pairing_id DESC LIMIT 1";

constexpr char kGamesOf[] =
    "SELECT p.pairing_id, p.city_id, p.time_control, coalesce(p.game_id, ''), "
    "  coalesce(p.white, ''), o.name, "
    "  CASE WHEN p.player_a = $1 THEN p.rating_a ELSE p.rating_b END, "
    "  CASE WHEN p.player_a = $1 THEN p.rating_b ELSE p.rating_a END, "
    "  p.state, coalesce(p.result, ''), p.end_reason, p.stake, "
    "  CASE WHEN p.player_a = $1 THEN p.payout_a ELSE p.payout_b END, p.fee, "
    "  (extract(epoch FROM p.paired_at) * 1000000)::bigint, "
    "  coalesce((extract(epoch FROM p.ended_at) * 1000000)::bigint, 0), "
    "  coalesce(g.rating_after, 0), coalesce(g.rated, false) "
    "FROM arena.ranked_pairings p "
    "JOIN arena.accounts o ON o.account_id = "
    "  CASE WHEN p.player_a = $1 THEN p.player_b ELSE p.player_a END "
    "LEFT JOIN arena.account_games g ON g.game_id = p.game_id AND g.account_id = $1 "
    "WHERE p.player_a = $1 OR p.player_b = $1 "
    "ORDER BY p.paired_at DESC, p.pairing_id DESC LIMIT $2";

constexpr char kInsertAudit[] =
    "INSERT INTO arena.audit_log (actor_id, action, target_id, reason, detail_json) "
    "VALUES ($1, $2, $3, $4, $5)";

void MicrosTo(int64_t us, google::protobuf::Timestamp* out) {
  *out = google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(us);
}

int64_t ParseHold(const std::string& text) {
  int64_t id = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return 0;
    id = id * 10 + (c - '0');
  }
  return id;
}

// Keys of every ledger call a pairing makes: one per (pairing, step, player), scoped to arena.
std::string Key(int64_t pairing_id, const std::string& step, const std::string& who) {
  return absl::StrCat("ranked:", pairing_id, ":", step, ":", who);
}

}  // namespace

struct RankedPlay::Open {
  int64_t pairing_id = 0;
  std::string state, city_id, time_control;
  int64_t stake = 0;
  int fee_bps = 0;
  std::string player_a, player_b, game_id, hold_a, hold_b, white;
  std::string table_state, result_json;
  bool no_show = false;
};

std::string RankedRatingName(TimeControl tc) {
  v1::ClockSettings clock;
  clock.set_initial_ms(ranked::InitialMs(tc));
  clock.set_increment_ms(ranked::IncrementMs(tc));
  clock.set_ranked(true);
  return TimeControlName(clock);
}

RankedPlay::RankedPlay(common::PgPool& pool, ledger::Ledger& ledger,
                       clients::ServiceClients* clients, SeatDriver* driver,
                       RankedPlayOptions options)
    : pool_(pool),
      ledger_(ledger),
      clients_(clients),
      driver_(driver),
      options_(options),
      store_(pool) {}

RankedPlay::~RankedPlay() {
  Stop();
}

void RankedPlay::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] { Run(); });
}

void RankedPlay::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void RankedPlay::Wake() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    wake_ = true;
  }
  cv_.notify_all();
}

void RankedPlay::Run() {
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait_for(lock, absl::ToChronoMilliseconds(options_.tick),
                   [this] { return wake_ || stopping_; });
      if (stopping_) return;
      wake_ = false;
    }
    if (absl::Status s = Tick(absl::Now()); !s.ok()) {
      common::LogWarning("ranked tick failed; trying again next tick",
                         {{"error", std::string(s.message())}});
    }
  }
}

absl::Status RankedPlay::Tick(absl::Time now) {
  // 1. Pairing passes.
  auto cities = store_.Cities();
  if (!cities.ok()) return cities.status();
  for (const ranked::City& city : *cities) {
    if (!city.active) continue;
    for (TimeControl tc : ranked::kTimeControls) {
      auto pass = store_.PairOnce(city.city_id, tc, now);
      if (!pass.ok()) {
        common::LogWarning("ranked pairing pass failed",
                           {{"city", city.city_id},
                            {"time_control", std::string(ranked::TimeControlName(tc))},
                            {"error", std::string(pass.status().message())}});
        continue;
      }
      for (const ranked::StoredPairing& p : pass->pairings) {
        common::LogInfo(
            "ranked pairing made",
            {{"pairing_id", p.pairing_id}, {"city", city.city_id}, {"window", p.pairing.window}});
      }
    }
  }
  // 2 and 3. Start, settle, void no-shows.
  std::vector<Open> work;
  absl::Status read = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    work.clear();
    for (const pqxx::row& r :
         txn.exec_params(kOpenWork, absl::ToInt64Microseconds(options_.show_up))) {
      Open o;
      o.pairing_id = r[0].as<int64_t>();
      o.state = r[1].as<std::string>();
      o.city_id = r[2].as<std::string>();
      o.time_control = r[3].as<std::string>();
      o.stake = r[4].as<int64_t>();
      o.fee_bps = r[5].as<int>();
      o.player_a = r[6].as<std::string>();
      o.player_b = r[7].as<std::string>();
      o.game_id = r[8].as<std::string>();
      o.hold_a = r[9].as<std::string>();
      o.hold_b = r[10].as<std::string>();
      o.white = r[11].as<std::string>();
      o.table_state = r[12].as<std::string>();
      o.result_json = r[13].as<std::string>();
      o.no_show = r[14].as<bool>();
      work.push_back(std::move(o));
    }
    return absl::OkStatus();
  });
  if (!read.ok()) return read;
  absl::Status first_error;
  for (const Open& o : work) {
    absl::Status s;
    if (o.state == "paired") {
      if (clients_ == nullptr || driver_ == nullptr) continue;  // no game-state: wait
      s = StartGame(o);
    } else if (o.table_state.empty() || o.table_state == "active") {
      if (o.no_show && clients_ != nullptr) {
        // A player never sat down: void the table; its end settles the pairing as aborted.
        grpc::ClientContext c;
        clients_->Prepare(c, absl::Seconds(10));
        v1::VoidGameRequest req;
        req.set_game_id(o.game_id);
        req.set_reason(absl::StrCat("no-show: a player did not sit down within ",
                                    absl::ToInt64Seconds(options_.show_up), " s"));
        v1::GameView view;
        s = common::FromGrpc(clients_->game_state().VoidGame(&c, req, &view));
      }
    } else {
      s = Settle(o);
    }
    if (!s.ok()) {
      common::LogWarning("ranked pairing step failed; retried next tick",
                         {{"pairing_id", o.pairing_id}, {"error", std::string(s.message())}});
      if (first_error.ok()) first_error = s;
    }
  }
  return first_error;
}

absl::Status RankedPlay::StartGame(const Open& p) {
  auto tc = ranked::ParseTimeControl(p.time_control);
  if (!tc) return absl::InternalError(absl::StrCat("pairing has time control ", p.time_control));

  // Names and colours.
  std::string name_a, name_b, white;
  absl::Status read = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result a = txn.exec_params(kAccountName, p.player_a);
    pqxx::result b = txn.exec_params(kAccountName, p.player_b);
    if (a.empty() || b.empty()) return absl::InternalError("a paired account is gone");
    name_a = a[0][0].as<std::string>();
    name_b = b[0][0].as<std::string>();
    pqxx::result w = txn.exec_params(kWhitesOfPair, p.player_a, p.player_b);
    const int64_t whites_a = w[0][0].as<int64_t>(), whites_b = w[0][1].as<int64_t>();
    // Colours alternate within a pair: whoever has had white less often against the other
    // gets it; the first game of a pair goes by the pairing id's parity.
    bool a_white = whites_a != whites_b ? whites_a < whites_b : p.pairing_id % 2 == 0;
    white = a_white ? p.player_a : p.player_b;
    return absl::OkStatus();
  });
  if (!read.ok()) return read;

  // Both stakes held into escrow. A player who cannot cover theirs aborts the pairing.
  std::string holds[2];
  const std::string* players[2] = {&p.player_a, &p.player_b};
  const std::string* names[2] = {&name_a, &name_b};
  for (int i = 0; i < 2; ++i) {
    ledger::ReserveRequest r;
    r.debit = *players[i];
    r.credit = ledger::kEscrow;
    r.amount = p.stake;
    r.timeout = options_.stake_hold;
    r.memo = absl::StrCat("ranked game ", p.pairing_id, ": stake (", p.city_id, ", ",
                          p.time_control, ")");
    r.caller = kCaller;
    r.idempotency_key = Key(p.pairing_id, "stake", *players[i]);
    auto hold = ledger_.Reserve(r);
    if (hold.ok()) {
      holds[i] = absl::StrCat(hold->hold_id);
      continue;
    }
    if (hold.status().code() != absl::StatusCode::kFailedPrecondition) return hold.status();
    // Cannot cover the stake (or frozen): release the other's hold, end the pairing.
    for (int j = 0; j < i; ++j) {
      auto voided =
          ledger_.Void(ParseHold(holds[j]), kCaller, Key(p.pairing_id, "void", *players[j]));
      if (!voided.ok() && voided.status().code() != absl::StatusCode::kFailedPrecondition) {
        return voided.status();
      }
    }
    common::LogInfo("ranked pairing aborted: stake not covered",
                    {{"pairing_id", p.pairing_id}, {"player", *players[i]}});
    return pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
      txn.exec_params(kMarkEnded, p.pairing_id, "aborted", "aborted",
                      absl::StrCat("stake-not-covered: ", *names[i]), 0, 0, 0);
      return absl::OkStatus();
    });
  }

  // The table: ranked chess clock, both seats kept for the two accounts. The key makes a
  // repeat (after a crash) find the same game.
  const bool a_white = white == p.player_a;
  v1::CreateTableRequest create;
  v1::TableSettings* st = create.mutable_settings();
  st->set_engine_game(kEngineGame);
  st->mutable_clock()->set_initial_ms(ranked::InitialMs(*tc));
  st->mutable_clock()->set_increment_ms(ranked::IncrementMs(*tc));
  st->mutable_clock()->set_ranked(true);
  st->set_is_public(true);
  st->set_rated(true);
  create.set_idempotency_key(absl::StrCat("ranked-", p.pairing_id));
  std::vector<DrivenSeat> seats;
  for (int seat = 0; seat < 2; ++seat) {
    const bool is_a = (seat == 0) == a_white;
    DrivenSeat d;
    d.seat = seat;
    d.spec.set_kind(v1::SEAT_KIND_HUMAN);
    d.spec.set_account_id(is_a ? p.player_a : p.player_b);
    d.spec.set_display_name(is_a ? name_a : name_b);
    d.participant = ParticipantName(d.spec);
    *create.add_seats() = d.spec;
    seats.push_back(std::move(d));
  }
  v1::CreateTableResponse created;
  {
    grpc::ClientContext c;
    clients_->Prepare(c, absl::Seconds(10));
    grpc::Status s = clients_->game_state().CreateTable(&c, create, &created);
    if (!s.ok()) return common::FromGrpc(s);
  }
  DrivenTable table;
  table.game_id = created.game_id();
  table.engine_game = kEngineGame;
  table.settings = create.settings();
  table.seats = std::move(seats);
  bool marked = false;
  absl::Status recorded = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    SeatDriver::Record(txn, table);
    marked = txn.exec_params(kMarkPlaying, p.pairing_id, table.game_id, holds[0], holds[1], white)
                 .affected_rows() == 1;
    return absl::OkStatus();
  });
  if (!recorded.ok()) return recorded;
  driver_->Drive(table.game_id);
  if (marked) {
    common::LogInfo("ranked game started",
                    {{"pairing_id", p.pairing_id}, {"game_id", table.game_id}, {"white", white}});
  }
  return absl::OkStatus();
}

absl::Status RankedPlay::Settle(const Open& p) {
  // How the table ended.
  ranked::StakedGameEnd end = ranked::StakedGameEnd::kAborted;
  std::string result = "aborted", reason = p.table_state;
  if (p.table_state == "finished") {
    v1::Outcome outcome;
    common::ProtoFromJson(p.result_json, &outcome);
    reason = outcome.reason();
    if (outcome.ranks_size() == 2) {
      const bool a_white = p.white == p.player_a;
      const int white_rank = outcome.ranks(0), black_rank = outcome.ranks(1);
      if (white_rank == black_rank) {
        end = ranked::StakedGameEnd::kDraw;
        result = "draw";
      } else {
        const bool white_won = white_rank < black_rank;
        result = white_won ? "white" : "black";
        end = white_won == a_white ? ranked::StakedGameEnd::kFirstWins
                                   : ranked::StakedGameEnd::kSecondWins;
      }
    }
  } else {
    v1::Outcome outcome;
    if (!p.result_json.empty()) common::ProtoFromJson(p.result_json, &outcome);
    if (!outcome.reason().empty()) reason = outcome.reason();
  }
  const int64_t hold_ids[2] = {ParseHold(p.hold_a), ParseHold(p.hold_b)};
  const std::string* players[2] = {&p.player_a, &p.player_b};
  int64_t paid[3] = {0, 0, 0};  // a, b, fees

  if (end == ranked::StakedGameEnd::kAborted) {
    // Nobody played for money: release both holds; nothing moves.
    for (int i = 0; i < 2; ++i) {
      auto voided = ledger_.Void(hold_ids[i], kCaller, Key(p.pairing_id, "void", *players[i]));
      if (!voided.ok() && voided.status().code() != absl::StatusCode::kFailedPrecondition) {
        return voided.status();
      }
    }
  } else {
    auto settlement = ranked::Settle(p.stake, p.fee_bps, end);
    if (!settlement.ok()) return settlement.status();
    // Both stakes into escrow: post the holds in full.
    for (int i = 0; i < 2; ++i) {
      auto posted =
          ledger_.Post(hold_ids[i], p.stake, kCaller, Key(p.pairing_id, "post", *players[i]));
      if (posted.ok()) continue;
      if (posted.status().code() != absl::StatusCode::kFailedPrecondition) return posted.status();
      // The hold is no longer open: posted by an earlier try (fine), or expired (arena was
      // down longer than a hold lives): take the stake directly, under its own key.
      auto hold = ledger_.GetHold(hold_ids[i]);
      if (!hold.ok()) return hold.status();
      if (hold->state == "posted" && hold->posted_amount == p.stake) continue;
      ledger::TransferRequest t;
      t.debit = *players[i];
      t.credit = ledger::kEscrow;
      t.amount = p.stake;
      t.kind = "ranked_stake";
      t.memo = absl::StrCat("ranked game ", p.pairing_id, ": stake (the hold had expired)");
      t.caller = kCaller;
      t.idempotency_key = Key(p.pairing_id, "late-stake", *players[i]);
      auto taken = ledger_.Transfer(t);
      if (!taken.ok()) return taken.status();
    }
    // The pot out of escrow.
    int n = 0;
    for (const ranked::EscrowPayout& out : settlement->payouts) {
      ledger::TransferRequest t;
      t.debit = ledger::kEscrow;
      t.amount = out.amount;
      t.caller = kCaller;
      int slot = 2;
      if (out.to == ranked::Payee::kFees) {
        t.credit = ledger::kFees;
        t.kind = "fee";
        t.memo = absl::StrCat("ranked game ", p.pairing_id, ": fee");
      } else {
        slot = out.to == ranked::Payee::kFirst ? 0 : 1;
        t.credit = *players[slot];
        t.kind = end == ranked::StakedGameEnd::kDraw ? "ranked_refund" : "ranked_winnings";
        t.memo = absl::StrCat(
            "ranked game ", p.pairing_id,
            end == ranked::StakedGameEnd::kDraw ? ": draw, stake back" : ": the pot less the fee");
      }
      t.idempotency_key = Key(p.pairing_id, absl::StrCat("pay", n++), t.credit);
      auto done = ledger_.Transfer(t);
      if (!done.ok()) return done.status();
      paid[slot] += out.amount;
    }
  }
  bool marked = false;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    marked = txn.exec_params(kMarkEnded, p.pairing_id,
                             end == ranked::StakedGameEnd::kAborted ? "aborted" : "finished",
                             result, reason, paid[0], paid[1], paid[2])
                 .affected_rows() == 1;
    return absl::OkStatus();
  });
  if (s.ok() && marked && end != ranked::StakedGameEnd::kAborted && on_settled_) on_settled_();
  if (s.ok() && marked) {
    common::LogInfo("ranked game settled", {{"pairing_id", p.pairing_id},
                                            {"game_id", p.game_id},
                                            {"result", result},
                                            {"fee", paid[2]}});
  }
  return s;
}

// --- The RPCs' work ------------------------------------------------------------------------

absl::StatusOr<v1::RankedStatus> RankedPlay::Join(const accounts::Principal& who,
                                                  const std::string& city_id,
                                                  const std::string& time_control) {
  auto tc = ranked::ParseTimeControl(time_control);
  if (!tc) {
    return absl::InvalidArgumentError(absl::StrCat(
        "time_control '", time_control, "' is not staked: 3+2, 5+0 or 10+0 (no bullet)"));
  }
  if (city_id.empty()) return absl::InvalidArgumentError("city_id is required");
  auto cities = store_.Cities();
  if (!cities.ok()) return cities.status();
  auto city = std::find_if(cities->begin(), cities->end(),
                           [&](const ranked::City& c) { return c.city_id == city_id; });
  if (city == cities->end()) return absl::NotFoundError(absl::StrCat("no city '", city_id, "'"));
  // The stake must be there now (it is held when the game starts; a player who spent it
  // meanwhile aborts that pairing).
  auto balance = ledger_.Balance(who.account_id);
  if (!balance.ok()) return balance.status();
  if (balance->frozen) return absl::FailedPreconditionError("your account is frozen");
  if (balance->available < city->stake) {
    return absl::FailedPreconditionError(absl::StrCat("the stake in ", city->name, " is ",
                                                      city->stake, " micro-credits; you have ",
                                                      balance->available, " available"));
  }
  double rating = 1500;
  absl::Status read = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    rating = PersonRatingOf(txn, who.account_id, kEngineGame, RankedRatingName(*tc)).rating();
    return absl::OkStatus();
  });
  if (!read.ok()) return read;
  auto joined = store_.Join(who.account_id, city_id, *tc, rating, absl::Now());
  if (!joined.ok()) return joined.status();
  Wake();
  return Status(who.account_id);
}

absl::StatusOr<v1::RankedStatus> RankedPlay::Leave(const std::string& account_id) {
  auto left = store_.Leave(account_id);
  if (!left.ok()) return left.status();
  auto status = Status(account_id);
  if (status.ok()) status->set_left(*left);
  return status;
}

absl::StatusOr<v1::RankedStatus> RankedPlay::Status(const std::string& account_id) {
  v1::RankedStatus out;
  auto entry = store_.EntryOf(account_id);
  if (!entry.ok()) return entry.status();
  if (entry->has_value()) {
    const ranked::QueueEntry& e = **entry;
    const absl::Time now = absl::Now();
    const absl::Duration waited = std::max(absl::ZeroDuration(), now - e.joined_at);
    out.set_state("searching");
    out.set_city_id(e.city_id);
    out.set_time_control(std::string(ranked::TimeControlName(e.time_control)));
    out.set_rating(e.rating);
    out.set_window(ranked::CurrentWindow(e, now));
    out.set_waited_ms(absl::ToInt64Milliseconds(waited));
    if (out.window() < ranked::kMaxWindow) {
      const int64_t step_ms = absl::ToInt64Milliseconds(ranked::kWindowStepEvery);
      out.set_next_widening_ms(step_ms - out.waited_ms() % step_ms);
    }
    return out;
  }
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    out = v1::RankedStatus();
    pqxx::result r = txn.exec_params(kOpenPairingOf, account_id);
    if (r.empty()) {
      out.set_state("idle");
      return absl::OkStatus();
    }
    const pqxx::row& row = r[0];
    const bool playing = row[1].as<std::string>() == "playing";
    out.set_state(playing ? "playing" : "starting");
    out.set_pairing_id(row[0].as<int64_t>());
    out.set_city_id(row[2].as<std::string>());
    out.set_time_control(row[3].as<std::string>());
    out.set_stake_microcredits(row[4].as<int64_t>());
    out.set_fee_bps(row[5].as<int>());
    if (playing) {
      out.set_game_id(row[6].as<std::string>());
      out.set_seat(row[7].as<std::string>() == account_id ? 0 : 1);
    }
    out.set_rating(row[8].as<double>());
    out.set_opponent_rating(row[9].as<double>());
    out.set_opponent(row[10].as<std::string>());
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<v1::RankedGamesResponse> RankedPlay::Games(const std::string& account_id,
                                                          int limit) {
  v1::RankedGamesResponse out;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    out.Clear();
    for (const pqxx::row& r : txn.exec_params(kGamesOf, account_id, limit)) {
      v1::RankedGame* g = out.add_games();
      g->set_pairing_id(r[0].as<int64_t>());
      g->set_city_id(r[1].as<std::string>());
      g->set_time_control(r[2].as<std::string>());
      g->set_game_id(r[3].as<std::string>());
      const std::string white = r[4].as<std::string>();
      if (!white.empty()) g->set_colour(white == account_id ? "white" : "black");
      g->set_opponent(r[5].as<std::string>());
      g->set_rating(r[6].as<double>());
      g->set_opponent_rating(r[7].as<double>());
      g->set_state(r[8].as<std::string>());
      const std::string result = r[9].as<std::string>();
      if (result == "aborted" || result == "draw") {
        g->set_result(result);
      } else if (!result.empty()) {
        g->set_result(result == g->colour() ? "win" : "loss");
      }
      g->set_reason(r[10].as<std::string>());
      g->set_stake_microcredits(r[11].as<int64_t>());
      g->set_payout_microcredits(r[12].as<int64_t>());
      g->set_fee_microcredits(r[13].as<int64_t>());
      MicrosTo(r[14].as<int64_t>(), g->mutable_paired_at());
      if (r[15].as<int64_t>() != 0) MicrosTo(r[15].as<int64_t>(), g->mutable_ended_at());
      if (r[17].as<bool>()) g->set_rating_after(r[16].as<double>());
    }
    for (TimeControl tc : ranked::kTimeControls) {
      *out.add_ratings() = PersonRatingOf(txn, account_id, kEngineGame, RankedRatingName(tc));
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

absl::Status RankedPlay::PutCity(const accounts::Principal& admin, const v1::City& city,
                                 const std::string& reason) {
  if (reason.empty()) return absl::InvalidArgumentError("a reason is required (audit log)");
  ranked::City c;
  c.city_id = city.city_id();
  c.name = city.name();
  c.stake = city.stake_microcredits();
  c.fee_bps = city.fee_bps();
  c.active = city.active();
  return store_.PutCity(c, [&](pqxx::transaction_base& txn) {
    txn.exec_params(kInsertAudit, admin.account_id, "city", "city:" + c.city_id, reason,
                    common::ProtoToJson(city));
  });
}

absl::StatusOr<v1::ListCitiesResponse> RankedPlay::Cities() {
  auto cities = store_.Cities();
  if (!cities.ok()) return cities.status();
  v1::ListCitiesResponse out;
  for (const ranked::City& c : *cities) {
    v1::City* o = out.add_cities();
    o->set_city_id(c.city_id);
    o->set_name(c.name);
    o->set_stake_microcredits(c.stake);
    o->set_fee_bps(c.fee_bps);
    o->set_active(c.active);
  }
  return out;
}

}  // namespace arena::service
