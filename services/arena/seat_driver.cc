#include "services/arena/seat_driver.h"

#include <algorithm>
#include <condition_variable>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "bots/core/game_bot.h"
#include "bots/core/levels.h"
#include "common/log.h"
#include "common/proto_json.h"
#include "common/proto_words.h"
#include "engine/core/game.h"
#include "nlohmann/json.hpp"
#include "services/arena/adjudication.h"
#include "services/arena/people_record.h"
#include "services/common/metrics.h"
#include "services/common/text_check.h"

namespace arena::service {
namespace {

constexpr char kArenaCaller[] = "service:arena";
constexpr size_t kMaxAnnotationBytes = 2000;

bool Terminal(v1::GameStatus s) {
  return s == v1::GAME_STATUS_FINISHED || s == v1::GAME_STATUS_ABORTED ||
         s == v1::GAME_STATUS_VOIDED;
}

std::string StateWord(v1::GameStatus s) {
  switch (s) {
    case v1::GAME_STATUS_FINISHED:
      return "finished";
    case v1::GAME_STATUS_ABORTED:
      return "aborted";
    case v1::GAME_STATUS_VOIDED:
      return "voided";
    default:
      return "active";
  }
}

std::string KindWord(v1::SeatKind k) {
  switch (k) {
    case v1::SEAT_KIND_HUMAN:
      return "human";
    case v1::SEAT_KIND_BOT:
      return "bot";
    case v1::SEAT_KIND_MODEL:
      return "model";
    default:
      return "guest";
  }
}

uint64_t Mix(const std::string& s, uint64_t n) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a, then n
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h ^ (n * 0x9E3779B97F4A7C15ull);
}

// A model turn as the ai_turns row has it.
struct TurnRow {
  bool exists = false;
  std::string state;
  int tries = 0;
  int64_t hold_id = 0, hold_amount = 0;
  int action_kind = 0;
  std::string action_text, reasoning, outcome;
  int64_t cost = 0, tokens = 0, latency_ms = 0;
  int illegal = 0, unparsable = 0;
  nlohmann::json attempts = nlohmann::json::array();
};

}  // namespace

std::string ParticipantName(const v1::SeatSpec& spec) {
  switch (spec.kind()) {
    case v1::SEAT_KIND_BOT:
      if (spec.stockfish_elo() > 0) return absl::StrCat("stockfish:", spec.stockfish_elo());
      return absl::StrCat("bot:", spec.bot_level());
    case v1::SEAT_KIND_MODEL:
      return "model:" + spec.model_id();
    case v1::SEAT_KIND_HUMAN:
      return "user:" + spec.account_id();
    default:
      return "guest";
  }
}

absl::Status CheckBotSeat(const v1::SeatSpec& s, const std::string& engine_game, int seats) {
  if (s.stockfish_elo() != 0) {
    const bots::EloRange range = bots::ReferenceEloRange(engine_game);
    if (range.max == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("this game has no Stockfish levels (stockfish_elo); they play chess only"));
    }
    if (s.stockfish_elo() < range.min || s.stockfish_elo() > range.max) {
      return absl::InvalidArgumentError(
          absl::StrCat("stockfish_elo is a UCI_Elo in ", range.min, "..", range.max));
    }
    return absl::OkStatus();
  }
  const int top = bots::MaxLevel(engine_game, seats);
  if (s.bot_level() < 1 || s.bot_level() > top) {
    return absl::InvalidArgumentError(absl::StrCat("a bot seat of ", engine_game, " at ", seats,
                                                   " seats needs a level 1..", top));
  }
  return absl::OkStatus();
}

v1::SeatSpec GameStateSeat(const v1::SeatSpec& spec) {
  v1::SeatSpec out = spec;
  if (out.kind() == v1::SEAT_KIND_BOT && out.stockfish_elo() != 0 && out.bot_level() == 0) {
    out.set_bot_level(1);
  }
  return out;
}

absl::StatusOr<v1::AiPolicy> NormalizePolicy(const v1::AiPolicy& in, bool league) {
  v1::AiPolicy p = in;
  if (p.illegal_move().empty()) p.set_illegal_move("forfeit-turn");
  if (p.illegal_move() != "forfeit-turn" && p.illegal_move() != "lose-game") {
    return absl::InvalidArgumentError("illegal_move policy must be forfeit-turn or lose-game");
  }
  if (p.provider_fault().empty()) p.set_provider_fault(league ? "void" : "forfeit-turn");
  if (p.provider_fault() != "forfeit-turn" && p.provider_fault() != "void") {
    return absl::InvalidArgumentError("provider_fault policy must be forfeit-turn or void");
  }
  if (p.provider_fault() == "void" && !league) {
    return absl::InvalidArgumentError("only league games can be voided on provider faults");
  }
  if (p.max_reprompts() < 0 || p.max_reprompts() > 10) {
    return absl::InvalidArgumentError("max_reprompts must be within 0..10");
  }
  if (p.max_reprompts() == 0) p.set_max_reprompts(3);
  if (p.turn_cost_cap_microcredits() < 0) {
    return absl::InvalidArgumentError("turn_cost_cap_microcredits must not be negative");
  }
  if (p.turn_cost_cap_microcredits() == 0) p.set_turn_cost_cap_microcredits(50'000);
  if (p.provider_retries() < 0 || p.provider_retries() > 5) {
    return absl::InvalidArgumentError("provider_retries must be within 0..5");
  }
  if (p.forfeits_before_resign() < 0 || p.forfeits_before_resign() > 1000) {
    return absl::InvalidArgumentError("forfeits_before_resign must be within 0..1000");
  }
  if (p.forfeits_before_resign() == 0) p.set_forfeits_before_resign(5);
  if (p.min_bot_turn_ms() < 0 || p.min_bot_turn_ms() > 10'000) {
    return absl::InvalidArgumentError("min_bot_turn_ms must be within 0..10000");
  }
  return p;
}

// --- One followed game -------------------------------------------------------------------

namespace {

// Registers a long call so Stop() can cancel it (a model call may take minutes).
class TrackedCall {
 public:
  TrackedCall(std::mutex& mu, grpc::ClientContext*& slot, grpc::ClientContext* ctx,
              const std::atomic<bool>& stopping)
      : mu_(mu), slot_(slot) {
    std::lock_guard<std::mutex> lock(mu_);
    slot_ = ctx;
    if (stopping) ctx->TryCancel();
  }
  ~TrackedCall() {
    std::lock_guard<std::mutex> lock(mu_);
    slot_ = nullptr;
  }

 private:
  std::mutex& mu_;
  grpc::ClientContext*& slot_;
};

}  // namespace

struct SeatDriver::Follow {
  DrivenTable table;
  std::mutex mu;
  std::condition_variable cv;
  grpc::ClientContext* stream_ctx = nullptr;  // guarded by mu, cancelled by Stop()
  grpc::ClientContext* call_ctx = nullptr;    // a bot or gateway call under way, likewise
  bool wake = false;                          // guarded by mu
  int64_t done_through = -1;                  // the highest action number this driver saw applied
  // The game's actions so far, for model prompts: loaded once from GetRecord after each
  // (re)connect, then extended from the stream's events.
  std::vector<std::string> history;
  int64_t history_seq = -1;       // the last event `history` includes; -1: load it
  int64_t epoch = 0;              // the lease epoch this replica claimed the table at
  std::atomic<bool> lost{false};  // another replica took the lease: stop
};

SeatDriver::SeatDriver(ServiceClients& clients, common::PgPool& pool, ledger::Ledger& ledger,
                       SeatDriverOptions options, ClueMaker* clues, MoveJudge* judge)
    : clients_(clients),
      pool_(pool),
      ledger_(ledger),
      options_(options),
      clues_(clues),
      judge_(judge),
      leases_(pool, options.lease) {
  common::MetricsRegistry::Global().GaugeFunction(
      "arena_driven_tables", "Tables whose AI seats this arena replica drives now.",
      [this] { return static_cast<double>(FollowedGames()); });
}

SeatDriver::~SeatDriver() {
  common::MetricsRegistry::Global().GaugeFunction("arena_driven_tables", "", nullptr);
  Stop();
}

namespace {

// Lease moves as /metrics shows them: tables this replica claimed (new, orphaned, or a dead
// replica's) and lost to another replica.
common::Counter& LeaseEvents(const char* what) {
  static common::Family<common::Counter>& events = common::MetricsRegistry::Global().Counters(
      "arena_driver_leases_total",
      "Driven-table leases this replica claimed or lost to another replica, by event.", {"event"});
  return events.With({what});
}

}  // namespace

void SeatDriver::SetOnGameEnd(std::function<void(const std::string&)> fn) {
  on_end_ = std::move(fn);
}

void SeatDriver::Record(pqxx::transaction_base& txn, const DrivenTable& t) {
  txn.exec_params(
      "INSERT INTO driven_tables (game_id, owner_account, league_id, slot, engine_game, "
      "settings_json, policy_json) VALUES ($1, NULLIF($2, ''), $3, $4, $5, $6, $7) "
      "ON CONFLICT (game_id) DO NOTHING",
      t.game_id, t.owner_account, t.league_id,
      t.slot >= 0 ? std::optional<int>(t.slot) : std::nullopt, t.engine_game,
      common::ProtoToJson(t.settings), common::ProtoToJson(t.policy));
  for (const DrivenSeat& s : t.seats) {
    txn.exec_params(
        "INSERT INTO table_seats (game_id, seat, kind, participant, spec_json, owner_account, "
        "key_handle, key_state, filled, holder_name) "
        "VALUES ($1, $2, $3, $4, $5, NULLIF($6, ''), $7, $8, $9, $10) "
        "ON CONFLICT (game_id, seat) DO NOTHING",
        t.game_id, s.seat, KindWord(s.spec.kind()), s.participant, common::ProtoToJson(s.spec),
        s.owner_account, s.key_handle, s.key_state, s.filled, s.holder_name);
  }
}

absl::StatusOr<DrivenTable> SeatDriver::Load(const std::string& game_id) {
  DrivenTable t;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result r = txn.exec_params(
        "SELECT coalesce(owner_account, ''), league_id, coalesce(slot, -1), engine_game, "
        "settings_json, policy_json, state = 'active' FROM driven_tables WHERE game_id = $1",
        game_id);
    if (r.empty()) return absl::NotFoundError("arena does not drive that game");
    t.game_id = game_id;
    t.owner_account = r[0][0].as<std::string>();
    if (!r[0][1].is_null()) t.league_id = r[0][1].as<int64_t>();
    t.slot = r[0][2].as<int>();
    t.engine_game = r[0][3].as<std::string>();
    common::ProtoFromJson(r[0][4].as<std::string>(), &t.settings);
    common::ProtoFromJson(r[0][5].as<std::string>(), &t.policy);
    t.active = r[0][6].as<bool>();
    pqxx::result seats = txn.exec_params(
        "SELECT seat, participant, spec_json, coalesce(owner_account, ''), key_handle, "
        "key_state, filled, holder_name FROM table_seats WHERE game_id = $1 ORDER BY seat",
        game_id);
    for (const auto& row : seats) {
      DrivenSeat d;
      d.seat = row[0].as<int>();
      d.participant = row[1].as<std::string>();
      common::ProtoFromJson(row[2].as<std::string>(), &d.spec);
      d.owner_account = row[3].as<std::string>();
      d.key_handle = row[4].as<std::string>();
      d.key_state = row[5].as<std::string>();
      d.filled = row[6].as<bool>();
      d.holder_name = row[7].as<std::string>();
      t.seats.push_back(std::move(d));
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return t;
}

void SeatDriver::Drive(const std::string& game_id) {
  Claim(game_id, /*within_share=*/false);
}

void SeatDriver::Offer(const std::string& game_id) {
  Claim(game_id, /*within_share=*/true);
}

void SeatDriver::Claim(const std::string& game_id, bool within_share) {
  if (stopping_) return;
  JoinFinished();
  std::lock_guard<std::mutex> claiming(claim_mu_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (follows_.count(game_id)) return;
  }
  auto epoch = leases_.Claim(game_id, within_share);
  if (!epoch.ok()) {
    // The lease thread claims it on a later pass.
    common::LogWarning("cannot claim game; retried by the lease thread",
                       {{"game_id", game_id}, {"error", std::string(epoch.status().message())}});
    return;
  }
  if (!epoch->has_value()) return;  // ended, another replica drives it, or ours is full
  LeaseEvents("claimed").Add();
  FollowClaimed(game_id, **epoch);
}

void SeatDriver::FollowClaimed(const std::string& game_id, int64_t epoch) {
  auto table = Load(game_id);
  if (!table.ok()) {
    common::LogError("cannot drive game",
                     {{"game_id", game_id}, {"error", std::string(table.status().message())}});
    return;
  }
  if (!table->active) return;  // ended already: nothing to drive, its end was recorded
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_ || follows_.count(game_id)) return;
  auto f = std::make_shared<Follow>();
  f->table = *std::move(table);
  f->epoch = epoch;
  follows_[game_id] = f;
  // The thread hands itself to finished_ when its game ends (it cannot join itself); the next
  // Drive or Stop joins it, so a long-running arena keeps nothing per finished game.
  running_[game_id] = std::thread([this, f] {
    Run(f);
    std::lock_guard<std::mutex> done(mu_);
    auto it = follows_.find(f->table.game_id);
    if (it != follows_.end() && it->second == f) follows_.erase(it);
    auto t = running_.find(f->table.game_id);
    if (t != running_.end()) {
      finished_.push_back(std::move(t->second));
      running_.erase(t);
    }
  });
}

void SeatDriver::JoinFinished() {
  std::vector<std::thread> done;
  {
    std::lock_guard<std::mutex> lock(mu_);
    done.swap(finished_);
  }
  for (std::thread& t : done) t.join();
}

size_t SeatDriver::FollowedGames() {
  std::lock_guard<std::mutex> lock(mu_);
  return follows_.size();
}

absl::Status SeatDriver::ResumeAll() {
  // A sole replica takes every active table now; replicas take a batch each pass.
  absl::Status s = LeasePass();
  if (!s.ok()) return s;
  common::LogInfo("seat drivers resumed", {{"games", FollowedGames()},
                                           {"replica_id", leases_.replica_id()},
                                           {"sole_replica", leases_.options().sole_replica}});
  std::lock_guard<std::mutex> lock(mu_);
  if (!lease_thread_.joinable() && !stopping_) {
    lease_thread_ = std::thread([this] { LeaseLoop(); });
  }
  return absl::OkStatus();
}

bool SeatDriver::Halted(const Follow& f) const {
  return stopping_ || f.lost;
}

void SeatDriver::Lose(Follow& f) {
  if (f.lost.exchange(true)) return;
  LeaseEvents("lost").Add();
  common::LogInfo("lease lost: another arena replica drives this game now",
                  {{"game_id", f.table.game_id}, {"epoch", f.epoch}});
  std::lock_guard<std::mutex> lock(f.mu);
  if (f.stream_ctx != nullptr) f.stream_ctx->TryCancel();
  if (f.call_ctx != nullptr) f.call_ctx->TryCancel();
  f.cv.notify_all();
}

absl::Status SeatDriver::LeasePass() {
  JoinFinished();
  std::lock_guard<std::mutex> claiming(claim_mu_);
  std::vector<HeldLease> held;
  std::vector<std::string> needing_keys;
  std::map<std::string, std::shared_ptr<Follow>> follows;
  {
    std::lock_guard<std::mutex> lock(mu_);
    follows = follows_;
  }
  for (const auto& [id, f] : follows) {
    if (f->lost) continue;
    held.emplace_back(id, f->epoch);
    std::lock_guard<std::mutex> flock(f->mu);
    for (const DrivenSeat& d : f->table.seats) {
      if (d.key_state == "needed") {
        needing_keys.push_back(id);
        break;
      }
    }
  }
  // Renew first: a lease of ours that expired while the database was away is renewed, not
  // claimed again under a new epoch.
  if (absl::Status alive = leases_.Heartbeat(); !alive.ok()) return alive;
  auto lost = leases_.Renew(held);
  if (!lost.ok()) return lost.status();
  for (const std::string& id : *lost) Lose(*follows[id]);
  if (stopping_) return absl::OkStatus();
  // A sole replica resumes every table at once (their clocks run); replicas claim a batch per
  // pass, up to their share.
  auto claimed = leases_.ClaimOrphans(
      leases_.options().sole_replica ? std::numeric_limits<int>::max() : options_.claim_batch,
      held);
  if (!claimed.ok()) return claimed.status();
  for (const auto& [id, epoch] : *claimed) {
    common::LogInfo("driving a game no replica held", {{"game_id", id}, {"epoch", epoch}});
    LeaseEvents("claimed").Add();
    FollowClaimed(id, epoch);
  }
  // A key re-supplied through another replica (KeyRegistered there): the seat plays again.
  if (needing_keys.empty()) return absl::OkStatus();
  nlohmann::json ids(needing_keys);
  return pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    for (const auto& row : txn.exec_params(
             "SELECT game_id, seat, key_handle FROM table_seats WHERE key_state = 'registered' "
             "AND game_id IN (SELECT jsonb_array_elements_text($1::jsonb))",
             ids.dump())) {
      auto it = follows.find(row[0].as<std::string>());
      if (it == follows.end()) continue;
      Follow& f = *it->second;
      std::lock_guard<std::mutex> flock(f.mu);
      const int seat = row[1].as<int>();
      if (seat < 0 || seat >= static_cast<int>(f.table.seats.size())) continue;
      DrivenSeat& d = f.table.seats[seat];
      if (d.key_state != "needed") continue;
      d.key_handle = row[2].as<std::string>();
      d.key_state = "registered";
      f.wake = true;
      f.cv.notify_all();
    }
    return absl::OkStatus();
  });
}

void SeatDriver::LeaseLoop() {
  while (!stopping_) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      lease_cv_.wait_for(lock, absl::ToChronoMilliseconds(options_.lease_renew),
                         [&] { return stopping_.load(); });
    }
    if (stopping_) return;
    absl::Status s = LeasePass();
    if (!s.ok()) {
      common::LogWarning("lease pass failed; retried", {{"error", std::string(s.message())}});
    }
  }
}

void SeatDriver::Stop() {
  if (stopping_.exchange(true)) return;
  std::vector<std::thread> threads;
  std::vector<HeldLease> held;
  {
    std::lock_guard<std::mutex> lock(mu_);
    lease_cv_.notify_all();
    if (lease_thread_.joinable()) threads.push_back(std::move(lease_thread_));
    for (auto& [id, f] : follows_) {
      if (!f->lost) held.emplace_back(id, f->epoch);
    }
    for (auto& [id, f] : follows_) {
      std::lock_guard<std::mutex> flock(f->mu);
      if (f->stream_ctx != nullptr) f->stream_ctx->TryCancel();
      if (f->call_ctx != nullptr) f->call_ctx->TryCancel();
      f->cv.notify_all();
    }
    for (auto& [id, t] : running_) threads.push_back(std::move(t));
    running_.clear();
    for (auto& t : finished_) threads.push_back(std::move(t));
    finished_.clear();
  }
  for (auto& t : threads) t.join();
  // Every turn here has stopped: another replica may take the tables over now.
  absl::Status released = leases_.Release(held);
  if (!released.ok()) {
    common::LogWarning("leases not released; they expire",
                       {{"error", std::string(released.message())}});
  }
}

absl::Status SeatDriver::KeyRegistered(const std::string& game_id, int seat,
                                       const std::string& handle) {
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result r = txn.exec_params(
        "UPDATE table_seats SET key_handle = $3, key_state = 'registered' "
        "WHERE game_id = $1 AND seat = $2",
        game_id, seat, handle);
    if (r.affected_rows() == 0) return absl::NotFoundError("no such seat");
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = follows_.find(game_id);
  if (it != follows_.end()) {
    std::lock_guard<std::mutex> flock(it->second->mu);
    for (DrivenSeat& d : it->second->table.seats) {
      if (d.seat == seat) {
        d.key_handle = handle;
        d.key_state = "registered";
      }
    }
    it->second->wake = true;
    it->second->cv.notify_all();
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::ArenaTable> SeatDriver::Describe(const std::string& game_id) {
  auto t = Load(game_id);
  if (!t.ok()) return t.status();
  v1::ArenaTable out;
  out.set_game_id(game_id);
  if (t->league_id) out.set_league_id(std::to_string(*t->league_id));
  out.set_owner_account(t->owner_account);
  out.set_engine_game(t->engine_game);
  *out.mutable_policy() = t->policy;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result r = txn.exec_params("SELECT state FROM driven_tables WHERE game_id = $1", game_id);
    if (!r.empty()) out.set_state(r[0][0].as<std::string>());
    for (const DrivenSeat& d : t->seats) {
      if (!d.ai()) continue;
      v1::AiSeatStatus* a = out.add_ai_seats();
      a->set_seat(d.seat);
      *a->mutable_spec() = d.spec;
      a->set_participant(d.participant);
      const v1::AiSeatState state = out.state() != "active"   ? v1::AI_SEAT_STATE_DONE
                                    : d.key_state == "needed" ? v1::AI_SEAT_STATE_KEY_NEEDED
                                                              : v1::AI_SEAT_STATE_DRIVING;
      a->set_seat_state(state);
      a->set_state(state == v1::AI_SEAT_STATE_DONE         ? "done"
                   : state == v1::AI_SEAT_STATE_KEY_NEEDED ? "key-needed"
                                                           : "driving");
      pqxx::result c = txn.exec_params(
          "SELECT count(*), count(*) FILTER (WHERE action_kind = $3), coalesce(sum(cost), 0) "
          "FROM ai_turns WHERE game_id = $1 AND seat = $2",
          game_id, d.seat, static_cast<int>(v1::ACTION_KIND_FORFEIT_TURN));
      a->set_turns(c[0][0].as<int64_t>());
      a->set_forfeits(c[0][1].as<int64_t>());
      a->set_cost_microcredits(c[0][2].as<int64_t>());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

// --- Following a game ------------------------------------------------------------------

absl::StatusOr<v1::GameView> SeatDriver::GetView(const std::string& game_id) {
  grpc::ClientContext ctx;
  clients_.Prepare(ctx, absl::Seconds(10));
  v1::GetGameRequest req;
  req.set_game_id(game_id);
  v1::GameView view;
  grpc::Status s = clients_.game_state().GetGame(&ctx, req, &view);
  if (!s.ok()) return common::FromGrpc(s);
  return view;
}

absl::Duration SeatDriver::TimeLeft(const v1::GameView& view) const {
  if (view.turn_deadline_unix_ms() <= 0) return absl::InfiniteDuration();
  return absl::FromUnixMillis(view.turn_deadline_unix_ms()) - absl::Now() - options_.answer_margin;
}

void SeatDriver::Run(std::shared_ptr<Follow> f) {
  const std::string& id = f->table.game_id;
  absl::Duration backoff = options_.retry_backoff;
  std::string owner_address;  // a game-state replica that redirected the stream, if any
  std::unique_ptr<v1::GameStateService::Stub> owner;
  while (!Halted(*f)) {
    grpc::ClientContext ctx;
    clients_.Attach(ctx);
    {
      std::lock_guard<std::mutex> lock(f->mu);
      if (Halted(*f)) return;
      f->stream_ctx = &ctx;
    }
    v1::WatchGameRequest req;
    req.set_game_id(id);
    // Unary calls reach the game's owner through any game-state replica (it forwards); a stream
    // is redirected, so it is opened on the owner itself once a replica named it.
    auto stream = owner ? owner->WatchGame(&ctx, req) : clients_.game_state().WatchGame(&ctx, req);
    v1::GameEvent ev;
    bool finished = false;
    while (!Halted(*f) && stream->Read(&ev)) {
      backoff = options_.retry_backoff;
      if (ev.type() == "ping") continue;  // pings are for people's own streams
      v1::GameView view;
      if (ev.has_snapshot()) {
        view = ev.snapshot();
        f->history_seq = -1;  // events before the snapshot are not on this stream
      } else {
        if (f->history_seq >= 0 && ev.sequence() > f->history_seq) {
          if (ev.type() == "action" || ev.type() == "chance") f->history.push_back(ev.action());
          f->history_seq = ev.sequence();
        }
        auto v = GetView(id);
        if (!v.ok()) continue;
        view = *std::move(v);
      }
      if (Terminal(view.status())) {
        Finish(*f, view);
        finished = true;
        ctx.TryCancel();
        break;
      }
      MaybeAct(*f, view);
    }
    grpc::Status s = stream->Finish();
    {
      std::lock_guard<std::mutex> lock(f->mu);
      f->stream_ctx = nullptr;
    }
    if (finished || Halted(*f)) return;
    if (std::optional<std::string> to = clients::RedirectedTo(s)) {
      if (*to != owner_address) {
        owner_address = *to;
        owner = v1::GameStateService::NewStub(common::MakeChannel(owner_address));
        continue;  // at once: the game is live elsewhere
      }
    } else if (owner) {
      owner.reset();  // the owner went away: ask any replica again
      owner_address.clear();
    }
    if (s.error_code() == grpc::StatusCode::NOT_FOUND) {
      // The host deleted the game: nothing is left to drive.
      v1::GameView gone;
      gone.set_game_id(id);
      gone.set_status(v1::GAME_STATUS_VOIDED);
      gone.mutable_outcome()->set_status(v1::GAME_STATUS_VOIDED);
      gone.mutable_outcome()->set_reason("deleted");
      Finish(*f, gone);
      return;
    }
    common::LogInfo("game stream lost; reconnecting",
                    {{"game_id", id}, {"error", s.error_message()}});
    std::unique_lock<std::mutex> lock(f->mu);
    f->cv.wait_for(lock, absl::ToChronoMilliseconds(backoff), [&] { return Halted(*f); });
    backoff = std::min(backoff * 2, absl::Seconds(2));
  }
}

void SeatDriver::MaybeAct(Follow& f, const v1::GameView& view) {
  if (view.status() != v1::GAME_STATUS_ACTIVE || view.phase() == "chance") return;
  const int seat = view.to_move();
  if (seat < 0 || seat >= static_cast<int>(f.table.seats.size())) return;
  if (view.action_number() <= f.done_through) return;  // our answer is applied already
  DrivenSeat d;
  {
    std::lock_guard<std::mutex> lock(f.mu);
    d = f.table.seats[seat];
    f.wake = false;
  }
  if (d.spec.kind() == v1::SEAT_KIND_BOT) BotTurn(f, view, d);
  if (d.spec.kind() == v1::SEAT_KIND_MODEL) ModelTurn(f, view, d);
}

bool SeatDriver::Submit(Follow& f, const v1::GameView& view, int seat, v1::ActionKind kind,
                        const std::string& text, const std::string& annotation) {
  for (int attempt = 0; attempt < 20 && !Halted(f); ++attempt) {
    v1::SubmitActionRequest req =
        clients::SeatAction(f.table.game_id, seat, text, view.action_number(),
                            common::SanitizeText(annotation, {kMaxAnnotationBytes, true}));
    req.set_kind(kind);  // a forfeit is not an engine action: the caller names the kind
    v1::SubmitActionResponse resp;
    grpc::Status s = clients::GameStateClient::SubmitOn(
        clients_.game_state(), req, clients_.AsService(), absl::Seconds(10), &resp);
    if (s.ok()) {
      f.done_through = std::max(f.done_through, resp.action_number());
      return true;
    }
    if (s.error_code() == grpc::StatusCode::UNAVAILABLE ||
        s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
      // Game-state may be restarting: the same number makes the retry safe.
      absl::SleepFor(options_.retry_backoff * (attempt + 1));
      continue;
    }
    // The game moved on (the clock, another action) or refused the action: the next view
    // decides what is owed now.
    common::LogWarning("action not applied", {{"game_id", f.table.game_id},
                                              {"seat", seat},
                                              {"action", text},
                                              {"code", static_cast<int>(s.error_code())},
                                              {"error", s.error_message()}});
    return false;
  }
  return false;
}

namespace {

// AI turns as /metrics shows them (docs/operations.md): one per turn answered, by kind ("bot",
// "model") and outcome (the model turn's recorded outcome: "ok", "illegal", "provider",
// "unfunded", ...), and what model turns cost the ledger or a player's own key.
void RecordAiTurn(const char* kind, const std::string& outcome, int64_t cost_microcredits) {
  static common::Family<common::Counter>& turns = common::MetricsRegistry::Global().Counters(
      "arena_ai_turns_total", "AI turns answered, by kind (bot, model) and outcome.",
      {"kind", "outcome"});
  static common::Counter& spend =
      common::MetricsRegistry::Global()
          .Counters("arena_model_spend_microcredits_total",
                    "Micro-credits model turns cost (donated credits, an account's, or a key's).")
          .Get();
  turns.With({kind, outcome}).Add();
  if (cost_microcredits > 0) spend.Add(static_cast<double>(cost_microcredits));
}

}  // namespace

void SeatDriver::BotTurn(Follow& f, const v1::GameView& view, const DrivenSeat& d) {
  const int engine_seat = view.seats(d.seat).engine_seat();
  // The table's pace: the answer waits until the turn has lasted min_bot_turn_ms, within the
  // clock (TimeLeft keeps the margin the answer needs to arrive).
  const absl::Time paced_until =
      absl::Now() + std::min(absl::Milliseconds(f.table.policy.min_bot_turn_ms()), TimeLeft(view));
  for (int attempt = 0; !Halted(f); ++attempt) {
    absl::Duration cap = std::min(options_.bot_time_cap, TimeLeft(view));
    if (cap < absl::Milliseconds(20)) return;  // the clock will end this turn
    v1::ChooseMoveRequest ask;
    ask.set_engine_game(f.table.engine_game);
    *ask.mutable_variant() = view.settings().variant();
    ask.set_position(view.position());
    ask.set_seat(engine_seat);
    // Tables and leagues refuse levels above the game's top (bots/core/levels.h); a seat made
    // before its game's scale shrank (three seats stopped at 4, then each game got the levels its
    // ladder earns) plays the top level instead of being refused every turn.
    ask.set_level(
        std::min(d.spec.bot_level(), bots::MaxLevel(f.table.engine_game, view.seats_size())));
    ask.set_stockfish_elo(d.spec.stockfish_elo());
    ask.set_seed(Mix(f.table.game_id, static_cast<uint64_t>(view.last_sequence())));
    ask.set_time_cap_ms(absl::ToInt64Milliseconds(cap));
    v1::ChooseMoveResponse answer;
    grpc::ClientContext ctx;
    clients_.Prepare(ctx, cap + absl::Seconds(2));
    grpc::Status s;
    {
      TrackedCall tracked(f.mu, f.call_ctx, &ctx, stopping_);
      s = clients_.bot().ChooseMove(&ctx, ask, &answer);
    }
    if (Halted(f)) return;
    if (s.ok()) {
      while (!Halted(f) && absl::Now() < paced_until) {
        absl::SleepFor(std::min(paced_until - absl::Now(), absl::Milliseconds(100)));
      }
      if (Halted(f)) return;
      const std::string& move = answer.move().text();
      RecordAiTurn("bot", "ok", 0);
      if (!Submit(f, view, d.seat, common::ActionKindOfText(move), move, "")) {
        auto now = GetView(f.table.game_id);
        // The bot's answer was refused while the turn is still ours: give the turn up rather
        // than stall the table.
        if (now.ok() && now->action_number() == view.action_number() && now->to_move() == d.seat &&
            now->last_sequence() == view.last_sequence()) {
          common::LogError("bot move refused; forfeiting the turn",
                           {{"game_id", f.table.game_id}, {"move", move}});
          Submit(f, view, d.seat, v1::ACTION_KIND_FORFEIT_TURN, "", "");
        }
      }
      return;
    }
    if (s.error_code() == grpc::StatusCode::INVALID_ARGUMENT ||
        s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
      common::LogError("bot refused the position",
                       {{"game_id", f.table.game_id}, {"error", s.error_message()}});
      return;
    }
    // arena-bot unreachable or restarting: try again while the clock allows.
    common::LogWarning("bot unavailable; retrying",
                       {{"game_id", f.table.game_id}, {"error", s.error_message()}});
    absl::SleepFor(std::min(options_.retry_backoff * (attempt + 1), absl::Seconds(2)));
  }
}

// --- Model turns ---------------------------------------------------------------------------

namespace {

// The typed cause of a refused gateway call (its GatewayRefusal details), if it gave one.
v1::TurnFailure RefusalOf(const grpc::Status& s) {
  v1::GatewayRefusal refusal;
  if (s.ok() || s.error_details().empty() || !refusal.ParseFromString(s.error_details())) {
    return v1::TURN_FAILURE_UNSPECIFIED;
  }
  return refusal.failure();
}

absl::StatusOr<TurnRow> LoadTurn(common::PgPool& pool, const std::string& game_id, int64_t seq) {
  TurnRow t;
  absl::Status s = pool.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result r = txn.exec_params(
        "SELECT state, tries, hold_id, hold_amount, action_kind, action_text, reasoning, "
        "outcome, cost, tokens, latency_ms, illegal, unparsable, attempts_json "
        "FROM ai_turns WHERE game_id = $1 AND turn_seq = $2",
        game_id, seq);
    t = TurnRow();
    if (r.empty()) return absl::OkStatus();
    t.exists = true;
    t.state = r[0][0].as<std::string>();
    t.tries = r[0][1].as<int>();
    t.hold_id = r[0][2].as<int64_t>();
    t.hold_amount = r[0][3].as<int64_t>();
    t.action_kind = r[0][4].as<int>();
    t.action_text = r[0][5].as<std::string>();
    t.reasoning = r[0][6].as<std::string>();
    t.outcome = r[0][7].as<std::string>();
    t.cost = r[0][8].as<int64_t>();
    t.tokens = r[0][9].as<int64_t>();
    t.latency_ms = r[0][10].as<int64_t>();
    t.illegal = r[0][11].as<int>();
    t.unparsable = r[0][12].as<int>();
    t.attempts = nlohmann::json::parse(r[0][13].as<std::string>(), nullptr, false);
    if (!t.attempts.is_array()) t.attempts = nlohmann::json::array();
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return t;
}

// Records the turn, fenced by the table's lease: FAILED_PRECONDITION (and nothing written) when
// another replica claimed the table since `epoch`.
absl::Status SaveTurn(common::PgPool& pool, const std::string& game_id, int64_t seq,
                      int64_t action_number, const DrivenSeat& d, const TurnRow& t,
                      const std::string& replica, int64_t epoch) {
  return pool.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    if (absl::Status fence = DriverLeases::Fence(txn, game_id, replica, epoch); !fence.ok()) {
      return fence;
    }
    txn.exec_params(
        "INSERT INTO ai_turns (game_id, turn_seq, action_number, seat, participant, state, "
        "tries, hold_id, hold_amount, action_kind, action_text, reasoning, outcome, cost, "
        "tokens, latency_ms, illegal, unparsable, attempts_json) VALUES ($1, $2, $3, $4, $5, "
        "$6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) "
        "ON CONFLICT (game_id, turn_seq) DO UPDATE SET state = EXCLUDED.state, "
        "tries = EXCLUDED.tries, hold_id = EXCLUDED.hold_id, "
        "hold_amount = EXCLUDED.hold_amount, action_kind = EXCLUDED.action_kind, "
        "action_text = EXCLUDED.action_text, reasoning = EXCLUDED.reasoning, "
        "outcome = EXCLUDED.outcome, cost = EXCLUDED.cost, tokens = EXCLUDED.tokens, "
        "latency_ms = EXCLUDED.latency_ms, illegal = EXCLUDED.illegal, "
        "unparsable = EXCLUDED.unparsable, attempts_json = EXCLUDED.attempts_json, "
        "updated_at = now()",
        game_id, seq, action_number, d.seat, d.participant, t.state, t.tries, t.hold_id,
        t.hold_amount, t.action_kind, t.action_text, t.reasoning, t.outcome, t.cost, t.tokens,
        t.latency_ms, t.illegal, t.unparsable, t.attempts.dump());
    return absl::OkStatus();
  });
}

}  // namespace

std::optional<Clue> SeatDriver::ModelClue(Follow& f, const v1::GameView& view,
                                          const DrivenSeat& d) {
  // At a table without clues no clue is made for anyone (ClueMaker refuses one too).
  if (clues_ == nullptr || !view.settings().clues()) return std::nullopt;
  // The search takes from the model's own clock: a person's search time at most, and never
  // more than a quarter of what the clock leaves (the call's deadline another quarter at most).
  const absl::Duration left = TimeLeft(view);
  const absl::Duration search = std::min(kClueSearchTime, left / 4);
  if (search < absl::Milliseconds(100)) return std::nullopt;  // too little time for a clue
  grpc::ClientContext ctx;
  clients_.Prepare(ctx, search + std::min(absl::Seconds(2), left / 4));
  absl::StatusOr<Clue> clue;
  {
    TrackedCall tracked(f.mu, f.call_ctx, &ctx, stopping_);
    // Not the person-facing per-seat rate limit; the bound on searches at once holds.
    clue = clues_->Make(ctx, view, d.seat, search);
  }
  if (!clue.ok()) {
    if (!stopping_) {
      common::LogWarning("no clue for the model's turn; it goes on without one",
                         {{"game_id", f.table.game_id},
                          {"seat", d.seat},
                          {"code", static_cast<int>(clue.status().code())},
                          {"error", std::string(clue.status().message())}});
    }
    return std::nullopt;
  }
  return *std::move(clue);
}

void SeatDriver::ModelTurn(Follow& f, const v1::GameView& view, const DrivenSeat& d) {
  const std::string& game_id = f.table.game_id;
  const int64_t seq = view.last_sequence();
  auto loaded = LoadTurn(pool_, game_id, seq);
  if (!loaded.ok()) return;  // the database is away: the next event or keep-alive retries
  TurnRow t = *std::move(loaded);
  if (t.exists && t.state == "submitted") return;
  const bool own_key = d.spec.funding() == v1::FUNDING_OWN_KEY;
  auto save = [&] {
    absl::Status saved =
        SaveTurn(pool_, game_id, seq, view.action_number(), d, t, leases_.replica_id(), f.epoch);
    if (absl::IsFailedPrecondition(saved)) Lose(f);
    return saved;
  };
  // Posts the hold (at most its amount) and returns what the ledger moved, which is what the
  // turn cost: after a restart the post may have happened already, at another amount.
  auto settle = [&](int64_t amount) -> int64_t {
    if (t.hold_id == 0) return 0;
    auto posted = ledger_.Post(t.hold_id, std::min(amount, t.hold_amount), kArenaCaller,
                               absl::StrCat("post:", t.hold_id));
    if (!posted.ok()) {
      common::LogWarning("hold not posted", {{"game_id", game_id},
                                             {"hold_id", t.hold_id},
                                             {"error", std::string(posted.status().message())}});
    }
    auto hold = ledger_.GetHold(t.hold_id);
    return hold.ok() ? hold->posted_amount : 0;
  };
  auto release = [&] {
    if (t.hold_id == 0) return;
    (void)ledger_.Void(t.hold_id, kArenaCaller, absl::StrCat("void:", t.hold_id));
    t.hold_id = 0;
    t.hold_amount = 0;
  };

  if (!t.exists || t.state == "asked") {
    if (own_key && d.key_state == "needed") return;  // paused until the owner's key returns
    if (t.exists && t.hold_id != 0) {
      // A call was under way when this process stopped: its outcome is unknown, so it is
      // charged at its worst case, as the gateway charges an unknown outcome.
      t.cost += settle(t.hold_amount);
      t.hold_id = 0;
      t.hold_amount = 0;
    }
    const v1::AiPolicy& policy = f.table.policy;
    if (!t.exists && ForfeitsInARow(game_id, d.seat) >= policy.forfeits_before_resign()) {
      t.outcome = "absent";  // forfeited turn after turn: the seat is not playing
      t.action_kind = v1::ACTION_KIND_RESIGN;
      t.state = "answered";
      if (!save().ok()) return;
      return ModelTurn(f, view, d);
    }
    if (f.history_seq < 0) {
      grpc::ClientContext ctx;
      clients_.Prepare(ctx, absl::Seconds(10));
      v1::GetRecordRequest rr;
      rr.set_game_id(game_id);
      v1::GameRecord record;
      if (clients_.game_state().GetRecord(&ctx, rr, &record).ok()) {
        f.history.clear();
        for (const auto& e : record.events()) {
          if (e.type() == "action" || e.type() == "chance") f.history.push_back(e.action());
          f.history_seq = std::max(f.history_seq, e.sequence());
        }
      }
    }
    const std::vector<std::string>& history = f.history;
    // One clue per turn (clue tables only), asked before the first gateway call and kept for
    // every re-ask of the turn; a restarted driver asks for a fresh one.
    const std::optional<Clue> clue = ModelClue(f, view, d);
    bool answered = false;
    int provider_faults = 0;
    while (!answered && !Halted(f)) {
      const int attempt_no = t.tries;  // each gateway call gets a hold of its own
      t.tries++;
      if (!own_key) {
        auto hold = ledger_.ReserveFromPool(
            d.owner_account, policy.turn_cost_cap_microcredits(), options_.hold_timeout,
            absl::StrCat("model turn ", game_id, " seat ", d.seat), kArenaCaller,
            // The epoch keeps each driver's holds its own: a replica that lost the table
            // while reserving cannot void the hold its successor reserves for the same try.
            absl::StrCat("turn:", game_id, ":", seq, ":", attempt_no, ":e", f.epoch));
        if (!hold.ok()) {
          // Nobody can pay for this turn (pool empty, allowance used up, account frozen).
          common::LogWarning(
              "model turn unfunded",
              {{"game_id", game_id}, {"error", std::string(hold.status().message())}});
          t.outcome = "unfunded";
          t.action_kind = v1::ACTION_KIND_FORFEIT_TURN;
          t.state = "answered";
          answered = true;
          break;
        }
        t.hold_id = hold->hold_id;
        t.hold_amount = policy.turn_cost_cap_microcredits();
      }
      t.state = "asked";
      if (!save().ok()) {
        release();
        return;
      }
      v1::ModelTurnRequest ask;
      ask.set_game_id(game_id);
      ask.set_seat(view.seats(d.seat).engine_seat());
      ask.set_key_seat(d.seat);
      ask.set_engine_game(f.table.engine_game);
      *ask.mutable_variant() = view.settings().variant();
      ask.set_position(view.position());
      for (const std::string& h : history) ask.add_history(h);
      ask.set_owed(view.phase());
      ask.set_show_legal_moves(view.settings().level() != v1::TABLE_LEVEL_ADVANCED);
      ask.set_model_id(d.spec.model_id());
      ask.set_key_handle(own_key ? d.key_handle : "");
      ask.set_cost_cap_microcredits(own_key ? 0 : t.hold_amount);
      ask.set_max_reprompts(policy.max_reprompts());
      if (clue.has_value()) {
        ask.set_clue_move(clue->move.text());
        ask.set_clue_level(clue->level);
      }
      absl::Duration budget = std::min(options_.gateway_timeout, TimeLeft(view));
      if (budget < absl::Milliseconds(50)) {
        release();
        (void)save();
        return;  // the clock ends this turn
      }
      v1::ModelTurnResponse resp;
      grpc::ClientContext ctx;
      clients_.Prepare(ctx, budget);
      grpc::Status s;
      {
        TrackedCall tracked(f.mu, f.call_ctx, &ctx, stopping_);
        s = clients_.gateway().ChooseMove(&ctx, ask, &resp);
      }
      // The call's outcome is unknown: a restart (or the new driver) charges its worst case.
      if (Halted(f)) return;
      std::string failure;
      if (!s.ok()) {
        if (RefusalOf(s) == v1::TURN_FAILURE_KEY_NEEDED) {
          failure = common::TurnFailureWord(v1::TURN_FAILURE_KEY_NEEDED);
        } else if (s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED) {
          failure = "cost_cap";  // even the first prompt would cost more than the cap
        } else if (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
          t.cost += settle(t.hold_amount);  // sent, outcome unknown: its worst case
          t.hold_id = 0;
          failure = "provider";
        } else if (s.error_code() == grpc::StatusCode::UNAVAILABLE) {
          failure = "unavailable";  // our gateway is away (restarting): nothing was spent
        } else {
          failure = "provider";
        }
        release();
      } else {
        const int64_t cost = resp.total_cost_microcredits();
        t.cost += own_key ? cost : settle(cost);
        t.hold_id = 0;
        t.hold_amount = 0;
        for (const v1::ModelAttempt& a : resp.attempts()) {
          t.tokens += a.prompt_tokens() + a.completion_tokens();
          t.latency_ms += a.latency_ms();
          if (a.label() == "illegal") t.illegal++;
          if (a.label() == "unparsable" || a.label() == "empty" || a.label() == "truncated")
            t.unparsable++;
          t.attempts.push_back(nlohmann::json::parse(common::ProtoToJson(a), nullptr, false));
        }
        failure = resp.ok() ? "" : common::TurnFailureWord(resp.failure_kind());
        if (!resp.ok() && failure.empty()) failure = "provider";   // a gateway that gave no kind
        if (failure == "auth" && own_key) failure = "key_needed";  // the owner's key is refused
      }
      if (failure.empty()) {
        t.outcome = "ok";
        t.action_text = resp.move().text();
        t.action_kind = common::ActionKindOfText(t.action_text);
        t.reasoning = common::SanitizeText(resp.reasoning(), {kMaxAnnotationBytes, true});
        answered = true;
      } else if (failure == "key_needed") {
        t.outcome = "key_needed";
        (void)save();
        (void)pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
          txn.exec_params(
              "UPDATE table_seats SET key_state = 'needed' WHERE game_id = $1 AND seat = $2",
              game_id, d.seat);
          return absl::OkStatus();
        });
        {
          std::lock_guard<std::mutex> lock(f.mu);
          f.table.seats[d.seat].key_state = "needed";
        }
        common::LogWarning("model seat paused: its key is needed again",
                           {{"game_id", game_id}, {"seat", d.seat}});
        return;
      } else if (failure == "illegal" || failure == "truncated" || failure == "cost_cap") {
        // The model's answers were unusable (truncated: the last one was cut at the length
        // limit): the illegal-move policy, with the outcome saying which.
        t.outcome = failure;
        t.action_kind = policy.illegal_move() == "lose-game" ? v1::ACTION_KIND_RESIGN
                                                             : v1::ACTION_KIND_FORFEIT_TURN;
        answered = true;
      } else if (failure == "unavailable") {
        // Not the provider's fault either: wait for the gateway while the clock allows.
        (void)save();
        absl::SleepFor(std::min(options_.retry_backoff * t.tries, absl::Seconds(2)));
        continue;
      } else {
        // Provider faults: not the model's fault. Ask again, then follow the fault policy.
        t.outcome = "provider";
        if (provider_faults++ < policy.provider_retries()) {
          (void)save();
          absl::SleepFor(options_.retry_backoff * t.tries);
          continue;
        }
        if (policy.provider_fault() == "void" && f.table.league_id) {
          t.state = "submitted";  // nothing will be submitted for this turn
          (void)save();
          VoidGame(f, "provider-fault");
          return;
        }
        t.action_kind = v1::ACTION_KIND_FORFEIT_TURN;
        answered = true;
      }
    }
    if (!answered) return;
    t.state = "answered";
    if (!save().ok()) return;
    RecordAiTurn("model", t.outcome, t.cost);
  }
  // Answered (now or before a restart): submit it once, by its action number.
  if (t.state == "answered") {
    if (Submit(f, view, d.seat, static_cast<v1::ActionKind>(t.action_kind), t.action_text,
               t.reasoning)) {
      t.state = "submitted";
      (void)save();
      if (judge_ != nullptr && t.outcome == "ok" && t.action_kind == v1::ACTION_KIND_MOVE) {
        judge_->Judge({game_id, seq, f.table.engine_game, view.settings().variant(),
                       view.position(), view.seats(d.seat).engine_seat(), t.action_text});
      }
    } else {
      auto now = GetView(game_id);
      if (now.ok() && now->last_sequence() != seq) {
        t.state = "submitted";  // the turn is over (the clock took it); never submit it late
        (void)save();
      }
    }
  }
}

int SeatDriver::ForfeitsInARow(const std::string& game_id, int seat) {
  int n = 0;
  (void)pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    n = 0;
    for (const auto& row :
         txn.exec_params("SELECT action_kind FROM ai_turns WHERE game_id = $1 AND seat = $2 "
                         "ORDER BY turn_seq DESC LIMIT 1000",
                         game_id, seat)) {
      if (row[0].as<int>() != v1::ACTION_KIND_FORFEIT_TURN) break;
      n++;
    }
    return absl::OkStatus();
  });
  return n;
}

void SeatDriver::VoidGame(Follow& f, const std::string& reason) {
  for (int attempt = 0; attempt < 20 && !Halted(f); ++attempt) {
    grpc::ClientContext ctx;
    clients_.Prepare(ctx, absl::Seconds(10));
    v1::VoidGameRequest req;
    req.set_game_id(f.table.game_id);
    req.set_reason(reason);
    v1::GameView view;
    grpc::Status s = clients_.game_state().VoidGame(&ctx, req, &view);
    if (s.ok() || s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) return;
    absl::SleepFor(options_.retry_backoff * (attempt + 1));
  }
}

// The evaluation of the final position by arena-bot at the game's top level, from table seat
// 0's view; nothing when it cannot be had (the game then stays a draw by the cap).
std::optional<int> SeatDriver::FinalEvaluation(Follow& f, const v1::GameView& view) {
  const engine::Game* game = engine::FindGame(f.table.engine_game);
  if (game == nullptr) return std::nullopt;
  engine::Variant variant;
  for (const auto& [k, v] : view.settings().variant().options()) variant.Set(k, v);
  auto state = game->Parse(view.position(), variant);
  if (!state.ok() || (*state)->IsTerminal()) return std::nullopt;
  const int mover = (*state)->ToMove();
  int mover_table_seat = -1;
  for (int i = 0; i < view.seats_size(); ++i) {
    if (view.seats(i).engine_seat() == mover) mover_table_seat = i;
  }
  if (mover_table_seat < 0) return std::nullopt;
  for (int attempt = 0; attempt < 3 && !stopping_; ++attempt) {
    v1::ChooseMoveRequest ask;
    ask.set_engine_game(f.table.engine_game);
    *ask.mutable_variant() = view.settings().variant();
    ask.set_position(view.position());
    ask.set_seat(mover);
    ask.set_level(bots::MaxLevel(f.table.engine_game, view.seats_size()));
    ask.set_seed(Mix(f.table.game_id, static_cast<uint64_t>(view.last_sequence())));
    ask.set_time_cap_ms(absl::ToInt64Milliseconds(options_.adjudication_time));
    v1::ChooseMoveResponse answer;
    grpc::ClientContext ctx;
    clients_.Prepare(ctx, options_.adjudication_time + absl::Seconds(5));
    grpc::Status s;
    {
      TrackedCall tracked(f.mu, f.call_ctx, &ctx, stopping_);
      s = clients_.bot().ChooseMove(&ctx, ask, &answer);
    }
    if (s.ok()) return mover_table_seat == 0 ? answer.score_cp() : -answer.score_cp();
    common::LogError("adjudication: no evaluation",
                     {{"game_id", f.table.game_id}, {"error", s.error_message()}});
    absl::SleepFor(options_.retry_backoff * (attempt + 1));
  }
  return std::nullopt;
}

void SeatDriver::Finish(Follow& f, const v1::GameView& view) {
  const std::string& game_id = f.table.game_id;
  v1::Outcome outcome = view.outcome();
  // Rated two-seat games stopped by the move cap are decided by a search's evaluation.
  if (f.table.settings.rated() && NeedsAdjudication(outcome, view.seats_size())) {
    if (std::optional<int> cp = FinalEvaluation(f, view)) {
      outcome = AdjudicateMoveCap(outcome, *cp, options_.adjudication_margin_cp);
      common::LogInfo("move cap adjudicated",
                      {{"game_id", game_id}, {"seat0_cp", *cp}, {"result", outcome.result_text()}});
    }
  }
  nlohmann::json result = nlohmann::json::parse(common::ProtoToJson(outcome), nullptr, false);
  // The seats as bound now: people joined after the driver loaded the table.
  absl::StatusOr<DrivenTable> seated = Load(game_id);
  std::vector<int64_t> open_holds;
  bool recorded = false;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    open_holds.clear();
    recorded = false;
    // Fenced: only the replica holding the lease records the end, once.
    pqxx::result ended = txn.exec_params(
        "UPDATE driven_tables SET state = $2, result_json = $3, finished_at = now() "
        "WHERE game_id = $1 AND state = 'active' AND driver = $4 AND driver_epoch = $5",
        game_id, StateWord(view.status()), result.dump(), leases_.replica_id(), f.epoch);
    if (ended.affected_rows() == 0) return absl::OkStatus();
    recorded = true;
    if (seated.ok()) {
      if (absl::Status p = RecordPeopleGame(txn, *seated, view.status(), outcome); !p.ok()) {
        return p;
      }
    }
    for (const auto& row : txn.exec_params(
             "SELECT hold_id FROM ai_turns WHERE game_id = $1 AND hold_id <> 0", game_id)) {
      open_holds.push_back(row[0].as<int64_t>());
    }
    txn.exec_params("UPDATE ai_turns SET hold_id = 0 WHERE game_id = $1 AND hold_id <> 0", game_id);
    return absl::OkStatus();
  });
  if (!s.ok()) {
    common::LogError("game end not recorded",
                     {{"game_id", game_id}, {"error", std::string(s.message())}});
    return;
  }
  if (!recorded) {
    common::LogInfo("game end left to the replica that drives it now", {{"game_id", game_id}});
    return;
  }
  // Holds of turns that never settled (the game ended under them) are released.
  for (int64_t hold : open_holds) {
    (void)ledger_.Void(hold, kArenaCaller, absl::StrCat("void:", hold));
  }
  bool own_keys = std::any_of(f.table.seats.begin(), f.table.seats.end(), [](const DrivenSeat& d) {
    return d.spec.kind() == v1::SEAT_KIND_MODEL && d.spec.funding() == v1::FUNDING_OWN_KEY;
  });
  if (own_keys) {
    grpc::ClientContext ctx;
    clients_.Prepare(ctx, absl::Seconds(5));
    v1::ReleaseKeyRequest req;
    req.set_game_id(game_id);
    v1::ReleaseKeyResponse resp;
    (void)clients_.gateway().ReleaseKey(&ctx, req, &resp);
  }
  common::LogInfo("driven game ended", {{"game_id", game_id},
                                        {"state", StateWord(view.status())},
                                        {"result", outcome.result_text()}});
  if (on_end_) on_end_(game_id);
}

}  // namespace arena::service
