#include "services/game_state/game_service.h"

#include <algorithm>
#include <deque>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/time_util.h"
#include "services/common/log.h"
#include "services/game_state/dart_path.h"
#include "services/game_state/pgn_export.h"

namespace arena::game_state {

using common::LogError;
using common::LogInfo;
using engine::kChanceSeat;
using engine::SeatEvent;

namespace {

std::string StatusWord(v1::GameStatus s) {
  switch (s) {
    case v1::GAME_STATUS_WAITING:
      return "waiting";
    case v1::GAME_STATUS_ACTIVE:
      return "active";
    case v1::GAME_STATUS_FINISHED:
      return "finished";
    case v1::GAME_STATUS_ABORTED:
      return "aborted";
    default:
      return "voided";
  }
}

v1::GameStatus StatusFromWord(const std::string& w) {
  if (w == "waiting") return v1::GAME_STATUS_WAITING;
  if (w == "active") return v1::GAME_STATUS_ACTIVE;
  if (w == "finished") return v1::GAME_STATUS_FINISHED;
  if (w == "aborted") return v1::GAME_STATUS_ABORTED;
  return v1::GAME_STATUS_VOIDED;
}

std::string ToJson(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, opts);
  return out;
}

template <typename M>
bool FromJson(const std::string& json, M* m) {
  return google::protobuf::util::JsonStringToMessage(json, m).ok();
}

bool IsTerminalStatus(v1::GameStatus s) {
  return s == v1::GAME_STATUS_FINISHED || s == v1::GAME_STATUS_ABORTED ||
         s == v1::GAME_STATUS_VOIDED;
}

// Clock bounds (docs/security.md): a bank or a per-move allowance of at most a week, an
// increment of at most an hour, so no sum of them can overflow and no table is held forever.
constexpr int64_t kMaxClockMs = int64_t{7} * 24 * 3600 * 1000;
constexpr int64_t kMaxIncrementMs = int64_t{3600} * 1000;
constexpr int64_t kMaxMoveCap = 100000;

absl::Status CheckClock(const v1::ClockSettings& c) {
  if (c.initial_ms() < 0 || c.increment_ms() < 0 || c.per_move_ms() < 0) {
    return absl::InvalidArgumentError("clock values must not be negative");
  }
  if (c.initial_ms() > kMaxClockMs || c.per_move_ms() > kMaxClockMs) {
    return absl::InvalidArgumentError(
        absl::StrCat("clock.initial_ms and clock.per_move_ms are at most ", kMaxClockMs));
  }
  if (c.increment_ms() > kMaxIncrementMs) {
    return absl::InvalidArgumentError(
        absl::StrCat("clock.increment_ms is at most ", kMaxIncrementMs));
  }
  if (c.per_move_ms() > 0 && (c.initial_ms() > 0 || c.increment_ms() > 0)) {
    return absl::InvalidArgumentError("a clock is either per-move or Fischer, not both");
  }
  return absl::OkStatus();
}

// 0: none; 1: per-move; 2: Fischer (as Game::PerMoveClock and Game::FischerClock read it).
int ClockKind(const v1::ClockSettings& c) {
  if (c.per_move_ms() > 0) return 1;
  return c.initial_ms() > 0 ? 2 : 0;
}

bool IsSeatEventKind(int kind) {
  return kind == v1::ACTION_KIND_RESIGN || kind == v1::ACTION_KIND_OFFER_DRAW ||
         kind == v1::ACTION_KIND_ACCEPT_DRAW || kind == v1::ACTION_KIND_DECLINE_DRAW;
}

SeatEvent SeatEventOf(int kind) {
  switch (kind) {
    case v1::ACTION_KIND_RESIGN:
      return SeatEvent::kResign;
    case v1::ACTION_KIND_OFFER_DRAW:
      return SeatEvent::kOfferDraw;
    case v1::ACTION_KIND_ACCEPT_DRAW:
      return SeatEvent::kAcceptDraw;
    default:
      return SeatEvent::kDeclineDraw;
  }
}

// A forfeit is the clock's timeout asked for by arena: the engine gets kTimeout, the turn ends.
bool IsForfeit(int kind) {
  return kind == v1::ACTION_KIND_FORFEIT_TURN;
}

// The events after which a game never changes again (watch streams end with them).
bool IsFinalEvent(const std::string& type) {
  return type == "ended" || type == "aborted" || type == "voided";
}

bool TurnEnding(int kind) {
  return kind == v1::ACTION_KIND_MOVE || kind == v1::ACTION_KIND_PASS;
}

std::string WithPrefix(const std::string& text, const std::string& prefix) {
  return absl::StartsWith(text, prefix) ? text : prefix + text;
}

}  // namespace

std::string EngineGameId(const v1::TableSettings& settings) {
  if (!settings.engine_game().empty()) return settings.engine_game();
  std::string name = v1::GameKind_Name(settings.game());
  if (absl::StartsWith(name, "GAME_KIND_")) name = name.substr(10);
  for (char& c : name) c = c == '_' ? '-' : static_cast<char>(std::tolower(c));
  return name;
}

const std::string& WatchMessage::Wire() const {
  std::call_once(serialised_, [this] { event_.SerializeToString(&wire_); });
  return wire_;
}

// --- In-memory game ------------------------------------------------------------------------

struct SeatState {
  v1::SeatSpec spec;
  bool filled = false;
  std::string credential_hash;
  std::string seed;
  int64_t remaining_ms = 0;  // Fischer: the bank; per-move: what is left of this turn's allowance
  int turns = 0;             // completed turns (ranked: the first one is untimed)
  int presence = 0;          // open WatchGame streams holding this seat's credential
  absl::Time absent_since = absl::InfinitePast();
  int64_t rtt_us = -1;
  std::map<int64_t, absl::Time> pings;
};

struct Watcher {
  EventSink* sink = nullptr;
  int64_t after_seq = -1;
  int seat = -1;
  int delay_moves = 0;
  std::deque<SharedMessage> held;
  int held_moves = 0;
  bool closed = false;
};

bool IsMoveEvent(const v1::GameEvent& e) {
  return e.type() == "action" || e.type() == "timeout";
}

// Releases held events to the sink: an event goes once `delay_moves` moves follow it (all of
// them when the game is over).
void DrainHeld(Watcher& w, bool final_event) {
  while (!w.held.empty()) {
    const auto& front = w.held.front();
    bool move = IsMoveEvent(front->event());
    int after = w.held_moves - (move ? 1 : 0);
    if (!final_event && after < w.delay_moves) break;
    if (move) w.held_moves--;
    w.sink->Push(front);
    w.held.pop_front();
  }
}

struct ActionRecord {
  int seat = 0;
  int kind = 0;
  std::string text;
  int64_t seq = 0;
};

struct GameStateCore::Game {
  std::mutex mu;
  std::string id;
  v1::TableSettings settings;
  std::string engine_id;
  const engine::Game* engine_game = nullptr;
  engine::Variant variant;
  std::string host_hash;
  bool is_public = true;
  bool protected_game = false;
  FairDraw draw;
  uint64_t draw_counter = 0;
  std::string last_aim;  // the latest "aim q,r": where the next landing's scatter starts
  std::string commitment;
  std::vector<SeatState> seats;
  int leader = -1;
  std::unique_ptr<engine::State> state;
  v1::GameStatus status = v1::GAME_STATUS_WAITING;
  std::optional<v1::Outcome> service_outcome;  // aborts, move caps, disconnects
  bool deleted = false;
  int64_t next_seq = 0;
  int64_t next_action = 0;
  int64_t moves_played = 0;
  std::map<int64_t, ActionRecord> actions;
  // Clock of the turn in progress.
  int turn_seat = -1;
  absl::Time turn_started;
  absl::Time deadline = absl::InfiniteFuture();
  std::string deadline_kind;
  uint64_t clock_gen = 0;
  TimerQueue::TimerId clock_timer = 0;
  uint64_t presence_gen = 0;
  TimerQueue::TimerId presence_timer = 0;
  // Watchers and the committed events they read (lock order: mu, then watch_mu).
  std::mutex watch_mu;
  std::atomic<int64_t> committed_seq{-1};  // the last event known durable
  int64_t end_seq = -1;                    // the event that ended the game (reveals the seed)
  std::vector<SharedMessage> committed;
  std::map<uint64_t, Watcher> watchers;

  int n() const { return static_cast<int>(seats.size()); }
  int EngineSeat(int table_seat) const { return (table_seat - leader + n()) % n(); }
  int TableSeat(int engine_seat) const { return (leader + engine_seat) % n(); }
  int Mover() const {
    if (!state || status != v1::GAME_STATUS_ACTIVE) return engine::kTerminalSeat;
    int e = state->ToMove();
    return e < 0 ? e : TableSeat(e);
  }
  bool FischerClock() const {
    return settings.clock().per_move_ms() <= 0 && settings.clock().initial_ms() > 0;
  }
  bool PerMoveClock() const { return settings.clock().per_move_ms() > 0; }
  bool Ranked() const { return settings.clock().ranked(); }
  int64_t Credit(const SeatState& s, absl::Duration cap) const {
    if (s.rtt_us < 0) return 0;
    return std::min<int64_t>(s.rtt_us / 2, absl::ToInt64Microseconds(cap));
  }
};

namespace {

v1::Outcome OutcomeOf(const GameStateCore::Game& g);

}  // namespace

// --- Construction, recovery -----------------------------------------------------------------

GameStateCore::GameStateCore(EventStore* store, CredentialHasher hasher, CoreOptions options)
    : store_(store), hasher_(std::move(hasher)), options_(options) {
  timers_.Schedule(absl::Now() + options_.keepalive, [this] { Keepalive(); });
}

GameStateCore::~GameStateCore() {
  Shutdown();
}

void GameStateCore::Shutdown() {
  if (shutting_down_.exchange(true)) return;
  timers_.Stop();
  std::vector<std::shared_ptr<Game>> all;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    for (auto& [id, g] : games_) all.push_back(g);
  }
  for (auto& g : all) {
    std::lock_guard<std::mutex> lock(g->watch_mu);
    for (auto& [h, w] : g->watchers) {
      if (!w.closed) w.sink->Close(absl::UnavailableError("server shutting down"));
      w.closed = true;
    }
  }
}

absl::Status GameStateCore::Recover() {
  auto ids = store_->UnfinishedGameIds();
  if (!ids.ok()) return ids.status();
  for (const std::string& id : *ids) {
    auto g = Load(id);
    if (!g.ok()) {
      LogError("game not recovered",
               {{"game_id", id}, {"error", std::string(g.status().message())}});
    }
  }
  LogInfo("games recovered", {{"count", ids->size()}});
  return absl::OkStatus();
}

std::shared_ptr<GameStateCore::Game> GameStateCore::Find(const std::string& game_id) {
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    auto it = games_.find(game_id);
    if (it != games_.end()) return it->second->deleted ? nullptr : it->second;
  }
  auto loaded = Load(game_id);
  return loaded.ok() ? *loaded : nullptr;
}

namespace {

v1::GameEvent ToProto(const StoredEvent& e) {
  v1::GameEvent ev;
  ev.set_sequence(e.seq);
  *ev.mutable_at() =
      google::protobuf::util::TimeUtil::MicrosecondsToTimestamp(absl::ToUnixMicros(e.at));
  ev.set_type(e.type);
  ev.set_seat(e.seat);
  ev.set_action(e.action);
  if (auto it = e.payload.find("annotation"); it != e.payload.end()) {
    ev.set_annotation(it->get<std::string>());
  }
  ev.set_detail_json(e.payload.dump());
  ev.set_action_number(e.action_number);
  return ev;
}

SharedMessage Share(v1::GameEvent event) {
  return std::make_shared<const WatchMessage>(std::move(event));
}

}  // namespace

absl::StatusOr<std::shared_ptr<GameStateCore::Game>> GameStateCore::Load(
    const std::string& game_id) {
  auto stored = store_->LoadGame(game_id);
  if (!stored.ok()) return stored.status();
  auto g = std::make_shared<Game>();
  g->id = game_id;
  if (!FromJson(stored->settings_json, &g->settings)) {
    return absl::DataLossError("stored settings do not parse");
  }
  g->engine_id = stored->game_kind;
  g->engine_game = engine::FindGame(g->engine_id);
  if (g->engine_game == nullptr) return absl::DataLossError("game kind no longer served");
  auto variant = engine::Variant::Parse(stored->variant);
  if (!variant.ok()) return variant.status();
  g->variant = *variant;
  g->host_hash = stored->host_hash;
  g->is_public = stored->is_public;
  g->protected_game = stored->protected_game;
  g->commitment = stored->seed_commitment;
  std::vector<std::string> seeds;
  for (const StoredSeat& s : stored->seats) {
    SeatState seat;
    FromJson(s.spec_json, &seat.spec);
    seat.filled = s.filled;
    seat.credential_hash = s.credential_hash;
    seat.seed = s.seat_seed;
    seeds.push_back(s.seat_seed);
    g->seats.push_back(std::move(seat));
  }
  g->draw = FairDraw(stored->secret_seed, seeds);
  g->status = StatusFromWord(stored->status);
  if (g->status == v1::GAME_STATUS_ACTIVE || g->status == v1::GAME_STATUS_WAITING) {
    g->status = v1::GAME_STATUS_WAITING;  // replay decides
  }
  v1::GameStatus stored_status = StatusFromWord(stored->status);

  // Replay every event through the engine.
  for (const StoredEvent& e : stored->events) {
    const nlohmann::json& p = e.payload;
    absl::Status s;
    if (e.type == "leader") {
      g->leader = p["leader"].get<int>();
      g->draw_counter = std::max<uint64_t>(g->draw_counter, p.value("counter", -1) + 1);
      auto state = g->engine_game->NewInitialState(g->variant);
      if (!state.ok()) return state.status();
      g->state = *std::move(state);
      g->status = v1::GAME_STATUS_ACTIVE;
      for (auto& seat : g->seats) {
        seat.remaining_ms = g->FischerClock() ? g->settings.clock().initial_ms() : 0;
      }
    } else if (e.type == "action") {
      int kind = p["kind"].get<int>();
      int es = g->EngineSeat(e.seat);
      if (IsForfeit(kind)) {
        s = g->state->ApplySeatEvent(es, SeatEvent::kTimeout);
        g->seats[e.seat].turns++;  // a turn, not a move: the move cap does not count it
      } else {
        s = IsSeatEventKind(kind) ? g->state->ApplySeatEvent(es, SeatEventOf(kind))
                                  : g->state->Apply(e.action);
      }
      g->next_action = e.action_number + 1;
      if (absl::StartsWith(e.action, "aim ")) g->last_aim = e.action;
      g->actions[e.action_number] = ActionRecord{e.seat, kind, e.action, e.seq};
      if (TurnEnding(kind)) {
        g->seats[e.seat].turns++;
        g->moves_played++;
      }
    } else if (e.type == "chance") {
      s = g->state->Apply(e.action);
      g->draw_counter = std::max<uint64_t>(g->draw_counter, p["counter"].get<uint64_t>() + 1);
    } else if (e.type == "timeout") {
      s = g->state->ApplySeatEvent(g->EngineSeat(e.seat), SeatEvent::kTimeout);
      g->seats[e.seat].turns++;
    } else if (e.type == "disconnect") {
      s = g->state->ApplySeatEvent(g->EngineSeat(e.seat), SeatEvent::kResign);
    } else if (e.type == "settings") {
      v1::TableSettings settings;
      if (FromJson(p["settings"].dump(), &settings)) g->settings = settings;
      if (p.contains("variant")) {
        auto v = engine::Variant::Parse(p["variant"].get<std::string>());
        if (v.ok()) g->variant = *v;
        if (g->state && p.value("restart_state", false)) {
          auto st = g->engine_game->NewInitialState(g->variant);
          if (st.ok()) g->state = *std::move(st);
        }
      }
    } else if (IsFinalEvent(e.type)) {
      g->status = e.type == "ended"     ? v1::GAME_STATUS_FINISHED
                  : e.type == "aborted" ? v1::GAME_STATUS_ABORTED
                                        : v1::GAME_STATUS_VOIDED;
      if (p.contains("service_outcome")) {
        v1::Outcome o;
        if (FromJson(p["service_outcome"].dump(), &o)) g->service_outcome = o;
      }
    }
    if (!s.ok()) {
      return absl::DataLossError(absl::StrCat("replay of event ", e.seq, " failed: ", s.message()));
    }
    if (p.contains("clocks")) {
      const auto& clocks = p["clocks"];
      for (size_t i = 0; i < clocks.size() && i < g->seats.size(); ++i) {
        g->seats[i].remaining_ms = clocks[i].get<int64_t>();
      }
    }
    g->next_seq = e.seq + 1;
    g->committed.push_back(Share(ToProto(e)));
    g->committed_seq = e.seq;
  }
  if (IsTerminalStatus(stored_status)) g->status = stored_status;

  // Re-arm the clock: the side to move gets its stored time plus a grace period.
  absl::Time now = absl::Now();
  g->turn_seat = g->Mover();
  g->turn_started = now + options_.restart_grace;
  if (g->turn_seat >= 0 && g->PerMoveClock()) {
    // The per-move allowance restarts for the interrupted turn.
    g->seats[g->turn_seat].remaining_ms = g->settings.clock().per_move_ms();
  }
  std::shared_ptr<Game> result;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    auto [it, inserted] = games_.emplace(game_id, g);
    if (!inserted) return it->second;  // another thread loaded it first
    result = g;
  }
  {
    std::lock_guard<std::mutex> lock(g->mu);
    ArmTimers(g);
  }
  return result;
}

// --- Events and commits ----------------------------------------------------------------------

StoredEvent GameStateCore::NewEvent(Game& g, std::string type, int seat) {
  StoredEvent e;
  e.game_id = g.id;
  e.seq = g.next_seq++;
  e.at = absl::Now();
  e.type = std::move(type);
  e.seat = seat;
  return e;
}

nlohmann::json GameStateCore::ClockReadings(const Game& g) const {
  nlohmann::json clocks = nlohmann::json::array();
  for (const SeatState& s : g.seats) clocks.push_back(s.remaining_ms);
  return clocks;
}

void GameStateCore::Commit(const std::shared_ptr<Game>& g, std::vector<StoredEvent> events,
                           std::vector<std::function<void(pqxx::transaction_base&)>> statements,
                           std::function<void(absl::Status)> done) {
  // Build what watchers will see now, under the game lock, so settings snapshots are exact.
  std::vector<SharedMessage> protos;
  for (const StoredEvent& e : events) {
    v1::GameEvent ev = ToProto(e);
    if (e.type == "settings" || e.type == "leader")
      *ev.mutable_snapshot() = View(*g, false, nullptr);
    protos.push_back(Share(std::move(ev)));
  }
  WriteItem item;
  item.game_id = g->id;
  item.statements = std::move(statements);
  item.events = std::move(events);
  std::weak_ptr<Game> weak = g;
  item.done = [this, weak, protos = std::move(protos), done = std::move(done)](absl::Status s) {
    std::shared_ptr<Game> game = weak.lock();
    if (game) {
      if (s.ok()) {
        std::lock_guard<std::mutex> lock(game->watch_mu);
        for (const auto& ev : protos) {
          game->committed.push_back(ev);
          game->committed_seq = ev->event().sequence();
          bool final_event = IsFinalEvent(ev->event().type());
          bool move = IsMoveEvent(ev->event());
          for (auto& [h, w] : game->watchers) {
            if (w.closed || ev->event().sequence() <= w.after_seq) continue;
            w.held.push_back(ev);
            if (move) w.held_moves++;
            DrainHeld(w, final_event);
            if (final_event) {
              w.sink->Close(absl::OkStatus());
              w.closed = true;
            }
          }
        }
      } else {
        // The in-memory game is ahead of the log: drop it; the next call reloads it.
        {
          std::lock_guard<std::mutex> lock(games_mu_);
          auto it = games_.find(game->id);
          if (it != games_.end() && it->second == game) games_.erase(it);
        }
        std::lock_guard<std::mutex> lock(game->watch_mu);
        for (auto& [h, w] : game->watchers) {
          if (!w.closed) w.sink->Close(absl::UnavailableError("game reloading"));
          w.closed = true;
        }
      }
    }
    if (done)
      done(s.ok() ? s : absl::UnavailableError(absl::StrCat("not committed: ", s.message())));
  };
  store_->Enqueue(std::move(item));
}

// --- Starting, applying, resolving chance -----------------------------------------------------

void GameStateCore::StartGame(Game& g, std::vector<StoredEvent>& events,
                              std::optional<int> fixed_leader) {
  std::vector<std::string> seeds;
  for (const SeatState& s : g.seats) seeds.push_back(s.seed);
  g.draw = FairDraw(g.draw.seed(), seeds);
  StoredEvent e = NewEvent(g, "leader", -1);
  if (fixed_leader) {
    g.leader = *fixed_leader;
    e.payload = {{"leader", g.leader}, {"fixed", true}};
  } else {
    uint64_t counter = g.draw_counter++;
    DrawBytes b = g.draw.Draw("leader", counter);
    double u = UniformFromBytes(b);
    g.leader = PickUniform(g.n(), u);
    e.payload = {
        {"leader", g.leader},
        {"fixed", false},
        {"purpose", "leader"},
        {"counter", counter},
        {"bytes", ToHex(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()))},
        {"u", u}};
  }
  e.seat = g.leader;
  auto state = g.engine_game->NewInitialState(g.variant);
  g.state = *std::move(state);  // validated at creation
  g.status = v1::GAME_STATUS_ACTIVE;
  for (auto& seat : g.seats) {
    seat.remaining_ms = g.FischerClock() ? g.settings.clock().initial_ms() : 0;
  }
  nlohmann::json order = nlohmann::json::array();
  for (int i = 0; i < g.n(); ++i) order.push_back(g.TableSeat(i));
  e.payload["engine_order"] = order;
  e.payload["seed_commitment"] = g.commitment;
  e.payload["clocks"] = ClockReadings(g);
  events.push_back(std::move(e));
  (void)ApplyAndResolve(g, events);
}

absl::Status GameStateCore::ApplyAndResolve(Game& g, std::vector<StoredEvent>& events) {
  int guard = 0;
  while (g.state && !g.state->IsTerminal() && g.state->ToMove() == kChanceSeat && guard++ < 64) {
    std::vector<engine::ChanceOutcome> outcomes = g.state->ChanceOutcomes();
    if (outcomes.empty()) return absl::InternalError("chance node without outcomes");
    uint64_t counter = g.draw_counter++;
    DrawBytes b = g.draw.Draw("chance", counter);
    double u = UniformFromBytes(b);
    int index = PickByInverseCdf(outcomes, u);
    std::string path = "inverse-cdf";
    if (auto landing = DartLandingAction(outcomes, g.last_aim, b)) {
      path = "hex-dart";
      for (size_t i = 0; i < outcomes.size(); ++i) {
        if (outcomes[i].action == *landing) index = static_cast<int>(i);
      }
    }
    absl::Status s = g.state->Apply(outcomes[index].action);
    if (!s.ok()) return s;
    StoredEvent e = NewEvent(g, "chance", -1);
    e.action = outcomes[index].action;
    e.payload = {
        {"purpose", "chance"},
        {"counter", counter},
        {"bytes", ToHex(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()))},
        {"u", u},
        {"index", index},
        {"probability", outcomes[index].probability},
        {"path", path}};
    events.push_back(std::move(e));
  }
  return absl::OkStatus();
}

void GameStateCore::AfterChange(Game& g, std::vector<StoredEvent>& events) {
  absl::Time now = absl::Now();
  if (g.status == v1::GAME_STATUS_ACTIVE && g.settings.move_cap() > 0 &&
      g.moves_played >= g.settings.move_cap() && !g.state->IsTerminal()) {
    v1::Outcome o;
    o.set_status(v1::GAME_STATUS_FINISHED);
    o.set_reason("move-cap");
    o.set_result_text(g.n() == 2 ? "1/2-1/2" : "draw");
    for (int i = 0; i < g.n(); ++i) o.add_ranks(0);
    g.service_outcome = o;
  }
  if (g.status == v1::GAME_STATUS_ACTIVE && (g.state->IsTerminal() || g.service_outcome)) {
    g.status = v1::GAME_STATUS_FINISHED;
    StoredEvent e = NewEvent(g, "ended", -1);
    g.end_seq = e.seq;
    v1::Outcome o = OutcomeOf(g);
    e.payload = {{"outcome", nlohmann::json::parse(ToJson(o))},
                 {"revealed_seed", ToHex(g.draw.seed())},
                 {"clocks", ClockReadings(g)}};
    if (g.service_outcome)
      e.payload["service_outcome"] = nlohmann::json::parse(ToJson(*g.service_outcome));
    events.push_back(std::move(e));
  }
  int mover = g.Mover();
  if (mover != g.turn_seat) {
    g.turn_seat = mover;
    g.turn_started = now;
    if (mover >= 0 && g.PerMoveClock())
      g.seats[mover].remaining_ms = g.settings.clock().per_move_ms();
  }
}

void GameStateCore::ArmTimers(const std::shared_ptr<Game>& gp) {
  Game& g = *gp;
  if (g.clock_timer) timers_.Cancel(g.clock_timer);
  if (g.presence_timer) timers_.Cancel(g.presence_timer);
  g.clock_timer = g.presence_timer = 0;
  uint64_t gen = ++g.clock_gen;
  uint64_t pgen = ++g.presence_gen;
  g.deadline = absl::InfiniteFuture();
  g.deadline_kind.clear();
  if (g.status != v1::GAME_STATUS_ACTIVE || g.turn_seat < 0 || shutting_down_) return;
  SeatState& s = g.seats[g.turn_seat];
  if (g.Ranked() && s.turns == 0) {
    g.deadline = g.turn_started + options_.first_move_abort;
    g.deadline_kind = "abort";
  } else if (g.FischerClock() || g.PerMoveClock()) {
    g.deadline = g.turn_started + absl::Milliseconds(s.remaining_ms) +
                 absl::Microseconds(g.Credit(s, options_.delay_credit_cap));
    g.deadline_kind = "timeout";
  }
  std::string id = g.id;
  if (g.deadline != absl::InfiniteFuture()) {
    g.clock_timer = timers_.Schedule(g.deadline, [this, id, gen] { OnClockTimer(id, gen); });
  }
  bool person = s.spec.kind() == v1::SEAT_KIND_HUMAN || s.spec.kind() == v1::SEAT_KIND_GUEST;
  if (g.Ranked() && person && s.presence == 0 && s.turns > 0) {
    absl::Time when = std::max(g.turn_started, s.absent_since) + options_.disconnect_loss;
    g.presence_timer = timers_.Schedule(when, [this, id, pgen] { OnPresenceTimer(id, pgen); });
  }
}

void GameStateCore::OnClockTimer(const std::string& game_id, uint64_t generation) {
  std::shared_ptr<Game> gp;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    auto it = games_.find(game_id);
    if (it == games_.end()) return;
    gp = it->second;
  }
  Game& g = *gp;
  std::lock_guard<std::mutex> lock(g.mu);
  if (generation != g.clock_gen || g.status != v1::GAME_STATUS_ACTIVE || g.turn_seat < 0) return;
  std::vector<StoredEvent> events;
  std::vector<std::function<void(pqxx::transaction_base&)>> statements;
  int seat = g.turn_seat;
  if (g.deadline_kind == "abort") {
    g.status = v1::GAME_STATUS_ABORTED;
    v1::Outcome o;
    o.set_status(v1::GAME_STATUS_ABORTED);
    o.set_reason("first-move-abort");
    o.set_result_text("aborted");
    g.service_outcome = o;
    StoredEvent e = NewEvent(g, "aborted", seat);
    g.end_seq = e.seq;
    e.payload = {{"reason", "first-move-abort"},
                 {"revealed_seed", ToHex(g.draw.seed())},
                 {"service_outcome", nlohmann::json::parse(ToJson(o))}};
    events.push_back(std::move(e));
    statements.push_back(EventStore::SetStatus(g.id, "aborted", true));
  } else {
    g.seats[seat].remaining_ms = 0;
    absl::Status s = g.state->ApplySeatEvent(g.EngineSeat(seat), SeatEvent::kTimeout);
    if (!s.ok()) {
      LogError("timeout refused by engine",
               {{"game_id", g.id}, {"error", std::string(s.message())}});
      return;
    }
    g.seats[seat].turns++;
    StoredEvent e = NewEvent(g, "timeout", seat);
    e.payload = {{"clocks", ClockReadings(g)}};
    events.push_back(std::move(e));
    (void)ApplyAndResolve(g, events);
    g.turn_seat = -1;  // the timed-out turn is over even if the same seat moves again
    AfterChange(g, events);
    if (g.status == v1::GAME_STATUS_FINISHED) {
      statements.push_back(EventStore::SetStatus(g.id, "finished", true));
    }
  }
  ArmTimers(gp);
  Commit(gp, std::move(events), std::move(statements), nullptr);
}

void GameStateCore::OnPresenceTimer(const std::string& game_id, uint64_t generation) {
  std::shared_ptr<Game> gp;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    auto it = games_.find(game_id);
    if (it == games_.end()) return;
    gp = it->second;
  }
  Game& g = *gp;
  std::lock_guard<std::mutex> lock(g.mu);
  if (generation != g.presence_gen || g.status != v1::GAME_STATUS_ACTIVE || g.turn_seat < 0) return;
  int seat = g.turn_seat;
  std::vector<StoredEvent> events;
  absl::Status s = g.state->ApplySeatEvent(g.EngineSeat(seat), SeatEvent::kResign);
  if (!s.ok()) return;
  StoredEvent e = NewEvent(g, "disconnect", seat);
  e.payload = {{"reason", "disconnected while to move"}, {"clocks", ClockReadings(g)}};
  events.push_back(std::move(e));
  (void)ApplyAndResolve(g, events);
  AfterChange(g, events);
  std::vector<std::function<void(pqxx::transaction_base&)>> statements;
  if (g.status == v1::GAME_STATUS_FINISHED) {
    statements.push_back(EventStore::SetStatus(g.id, "finished", true));
  }
  ArmTimers(gp);
  Commit(gp, std::move(events), std::move(statements), nullptr);
}

// --- Access -------------------------------------------------------------------------------

int GameStateCore::SeatOfCredential(const Game& g, const std::string& credential) const {
  if (credential.empty()) return -1;
  for (int i = 0; i < g.n(); ++i) {
    if (g.seats[i].filled && hasher_.Matches(credential, g.seats[i].credential_hash)) return i;
  }
  return -1;
}

bool GameStateCore::MayWatch(const Game& g, const Caller& caller, int* seat) const {
  *seat = SeatOfCredential(g, caller.seat_credential);
  if (g.is_public || caller.arena) return true;
  if (*seat >= 0) return true;
  return hasher_.Matches(caller.host_credential, g.host_hash);
}

// --- CreateTable / JoinTable -----------------------------------------------------------------

void GameStateCore::CreateTable(const Caller& caller, const v1::CreateTableRequest& req,
                                Done<v1::CreateTableResponse> done) {
  const v1::TableSettings& in = req.settings();
  std::string engine_id = EngineGameId(in);
  const engine::Game* game = engine::FindGame(engine_id);
  if (game == nullptr)
    return done(absl::InvalidArgumentError(absl::StrCat("unknown game '", engine_id, "'")));
  engine::Variant variant;
  for (const auto& [k, v] : in.variant().options()) variant.Set(k, v);
  if (absl::Status s = variant.CheckKeys(game->VariantKeys()); !s.ok()) return done(s);
  auto state = game->NewInitialState(variant);
  if (!state.ok()) return done(absl::InvalidArgumentError(state.status().message()));
  int n = (*state)->NumSeats();
  if (req.seats_size() != n) {
    return done(absl::InvalidArgumentError(
        absl::StrCat("this game needs ", n, " seats, got ", req.seats_size())));
  }
  bool has_model = false;
  for (const v1::SeatSpec& s : req.seats()) {
    if (s.kind() == v1::SEAT_KIND_UNSPECIFIED)
      return done(absl::InvalidArgumentError("every seat needs a kind"));
    if (!v1::SeatKind_IsValid(s.kind()))
      return done(absl::InvalidArgumentError("unknown seat kind"));
    // A seat named for an account is made (and joined) by arena only, which knows accounts.
    if (!s.account_id().empty() && !caller.arena) {
      return done(caller.other_service.empty()
                      ? absl::UnauthenticatedError(
                            "a seat for an account needs the arena service credential")
                      : absl::PermissionDeniedError("only arena may seat an account"));
    }
    if (s.kind() == v1::SEAT_KIND_MODEL) {
      has_model = true;
      if (s.model_id().empty())
        return done(absl::InvalidArgumentError("a model seat needs a model_id"));
    }
    if (s.kind() == v1::SEAT_KIND_BOT && (s.bot_level() < 1 || s.bot_level() > 10)) {
      return done(absl::InvalidArgumentError("a bot seat needs a level 1..10"));
    }
  }
  const v1::ClockSettings& c = in.clock();
  if (absl::Status s = CheckClock(c); !s.ok()) return done(s);
  if (in.move_cap() < 0 || in.move_cap() > kMaxMoveCap) {
    return done(absl::InvalidArgumentError(absl::StrCat("move_cap is 0..", kMaxMoveCap)));
  }
  bool privileged = req.has_fixed_leader() || in.rated() || !in.league_id().empty();
  if (privileged && !caller.arena) {
    return done(
        caller.other_service.empty()
            ? absl::UnauthenticatedError(
                  "a fixed leader, rated or league table needs the arena service credential")
            : absl::PermissionDeniedError(
                  "only arena may create fixed-leader, rated or league tables"));
  }
  if (req.has_fixed_leader() && (req.fixed_leader() < 0 || req.fixed_leader() >= n)) {
    return done(absl::InvalidArgumentError("fixed_leader is not a seat of this table"));
  }

  // Idempotency: keys belong to the calling service. An anonymous caller has no identity to
  // scope a key by (its host credential does not exist yet), so its keys are refused rather
  // than shared with every other anonymous caller.
  const std::string& key = req.idempotency_key();
  std::pair<std::string, std::string> scope_key;
  std::string game_id = CredentialHasher::NewCredential().substr(0, 20);
  if (!key.empty()) {
    if (key.size() > options_.max_idempotency_key_bytes) {
      return done(absl::InvalidArgumentError(absl::StrCat(
          "idempotency_key longer than ", options_.max_idempotency_key_bytes, " bytes")));
    }
    if (!caller.arena && caller.other_service.empty()) {
      return done(absl::UnauthenticatedError(
          "an idempotency_key needs a service credential: keys are scoped to the caller"));
    }
    scope_key = {caller.arena ? "arena" : caller.other_service, key};
    std::unique_lock<std::mutex> keyed_lock(keyed_mu_);
    auto it = keyed_creates_.find(scope_key);
    if (it != keyed_creates_.end()) {  // the first create is in flight: answer with it
      it->second.waiters.push_back(std::move(done));
      return;
    }
    auto existing = store_->GameOfIdempotencyKey(scope_key.first, scope_key.second);
    if (!existing.ok()) {
      keyed_lock.unlock();
      return done(absl::UnavailableError(existing.status().message()));
    }
    if (!existing->empty()) {
      keyed_lock.unlock();
      v1::CreateTableResponse first;  // no credentials: they were shown once
      first.set_game_id(*existing);
      return done(first);
    }
    keyed_creates_[scope_key].game_id = game_id;
  }

  auto gp = std::make_shared<Game>();
  Game& g = *gp;
  g.id = game_id;
  g.settings = in;
  if (g.settings.level() == v1::TABLE_LEVEL_UNSPECIFIED)
    g.settings.set_level(v1::TABLE_LEVEL_BEGINNER);
  g.settings.set_engine_game(engine_id);
  if (has_model) g.settings.set_is_public(true);
  g.engine_id = engine_id;
  g.engine_game = game;
  g.variant = variant;
  g.is_public = g.settings.is_public();
  g.protected_game = in.rated() || !in.league_id().empty() || c.ranked();
  std::string host = CredentialHasher::NewCredential();
  g.host_hash = hasher_.Hash(host);
  g.draw = FairDraw(FairDraw::NewSecretSeed(), std::vector<std::string>(n));
  g.commitment = FairDraw::Commitment(g.draw.seed());

  v1::CreateTableResponse resp;
  resp.set_game_id(g.id);
  resp.set_host_credential(host);
  std::vector<std::function<void(pqxx::transaction_base&)>> statements;
  StoredGame row;
  row.game_id = g.id;
  row.game_kind = engine_id;
  row.variant = variant.ToString();
  row.settings_json = ToJson(g.settings);
  row.status = "waiting";
  row.secret_seed = g.draw.seed();
  row.seed_commitment = g.commitment;
  row.host_hash = g.host_hash;
  row.is_public = g.is_public;
  row.protected_game = g.protected_game;
  row.idempotency_scope = scope_key.first;
  row.idempotency_key = scope_key.second;
  statements.push_back(EventStore::InsertGame(row));
  bool all_filled = true;
  for (int i = 0; i < n; ++i) {
    SeatState seat;
    seat.spec = req.seats(i);
    std::string credential;  // none for bot and model seats: only arena acts for them
    if (seat.spec.kind() == v1::SEAT_KIND_BOT || seat.spec.kind() == v1::SEAT_KIND_MODEL) {
      seat.filled = true;
    } else {
      all_filled = false;
    }
    resp.add_seat_credentials(credential);
    StoredSeat ss{i,
                  v1::SeatKind_Name(seat.spec.kind()),
                  ToJson(seat.spec),
                  seat.credential_hash,
                  "",
                  seat.filled};
    statements.push_back(EventStore::UpsertSeat(g.id, ss));
    g.seats.push_back(std::move(seat));
  }
  std::lock_guard<std::mutex> lock(g.mu);
  std::vector<StoredEvent> events;
  StoredEvent e = NewEvent(g, "created", -1);
  e.payload = {{"engine_game", engine_id},
               {"variant", variant.ToString()},
               {"seed_commitment", g.commitment}};
  events.push_back(std::move(e));
  if (all_filled) {
    std::optional<int> fixed;
    if (req.has_fixed_leader()) fixed = req.fixed_leader();
    StartGame(g, events, fixed);
    AfterChange(g, events);
    statements.push_back(EventStore::SetStatus(
        g.id, g.status == v1::GAME_STATUS_ACTIVE ? "active" : "finished", false));
  }
  {
    std::lock_guard<std::mutex> glock(games_mu_);
    games_[g.id] = gp;
  }
  ArmTimers(gp);
  bool keyed = !key.empty();
  Commit(gp, std::move(events), std::move(statements),
         [this, done, resp, keyed, scope_key](absl::Status s) {
           if (keyed) {
             v1::CreateTableResponse repeat;
             repeat.set_game_id(resp.game_id());
             FinishKeyedCreate(scope_key, s.ok() ? absl::StatusOr<v1::CreateTableResponse>(repeat)
                                                 : absl::StatusOr<v1::CreateTableResponse>(s));
           }
           if (!s.ok()) return done(s);
           done(resp);
         });
}

void GameStateCore::FinishKeyedCreate(const std::pair<std::string, std::string>& scope_key,
                                      const absl::StatusOr<v1::CreateTableResponse>& result) {
  std::vector<Done<v1::CreateTableResponse>> waiters;
  {
    // Committed (or failed): from now on the row in game.games answers, or a retry creates.
    std::lock_guard<std::mutex> lock(keyed_mu_);
    auto it = keyed_creates_.find(scope_key);
    if (it == keyed_creates_.end()) return;
    waiters = std::move(it->second.waiters);
    keyed_creates_.erase(it);
  }
  for (auto& w : waiters) w(result);
}

void GameStateCore::JoinTable(const Caller& caller, const v1::JoinTableRequest& req,
                              Done<v1::JoinTableResponse> done) {
  std::shared_ptr<Game> gp = Find(req.game_id());
  if (!gp) return done(absl::NotFoundError("no such game"));
  Game& g = *gp;
  std::lock_guard<std::mutex> lock(g.mu);
  if (g.status != v1::GAME_STATUS_WAITING)
    return done(absl::FailedPreconditionError("the table is not open"));
  if (req.seat() < 0 || req.seat() >= g.n())
    return done(absl::InvalidArgumentError("no such seat"));
  if (req.seat_seed().size() > 256)
    return done(absl::InvalidArgumentError("seat_seed longer than 256 bytes"));
  if (req.display_name().size() > 100)
    return done(absl::InvalidArgumentError("display_name too long"));
  SeatState& seat = g.seats[req.seat()];
  if (seat.filled) return done(absl::FailedPreconditionError("seat already taken"));
  if (!seat.spec.account_id().empty() && !caller.arena) {
    return done(absl::PermissionDeniedError(
        "this seat is for one account; its holder takes it through arena"));
  }
  std::string credential = CredentialHasher::NewCredential();
  seat.filled = true;
  seat.credential_hash = hasher_.Hash(credential);
  seat.seed = req.seat_seed();
  if (!req.display_name().empty()) seat.spec.set_display_name(req.display_name());
  std::vector<std::function<void(pqxx::transaction_base&)>> statements;
  statements.push_back(EventStore::UpsertSeat(
      g.id, StoredSeat{req.seat(), v1::SeatKind_Name(seat.spec.kind()), ToJson(seat.spec),
                       seat.credential_hash, seat.seed, true}));
  std::vector<StoredEvent> events;
  StoredEvent e = NewEvent(g, "joined", req.seat());
  e.payload = {{"display_name", seat.spec.display_name()}, {"seat_seed", seat.seed}};
  events.push_back(std::move(e));
  bool all =
      std::all_of(g.seats.begin(), g.seats.end(), [](const SeatState& s) { return s.filled; });
  if (all) {
    StartGame(g, events, std::nullopt);
    AfterChange(g, events);
    statements.push_back(EventStore::SetStatus(
        g.id, g.status == v1::GAME_STATUS_ACTIVE ? "active" : "finished", false));
  }
  ArmTimers(gp);
  v1::JoinTableResponse resp;
  resp.set_seat_credential(credential);
  Commit(gp, std::move(events), std::move(statements), [done, resp](absl::Status s) {
    if (!s.ok()) return done(s);
    done(resp);
  });
}

// --- SubmitAction -----------------------------------------------------------------------------

void GameStateCore::SubmitAction(const Caller& caller, const v1::SubmitActionRequest& req,
                                 Done<v1::SubmitActionResponse> done) {
  if (req.kind() == v1::ACTION_KIND_UNSPECIFIED || !v1::ActionKind_IsValid(req.kind())) {
    return done(absl::InvalidArgumentError("action kind missing"));
  }
  if (req.annotation().size() > options_.max_annotation_bytes) {
    return done(absl::InvalidArgumentError(
        absl::StrCat("annotation longer than ", options_.max_annotation_bytes, " bytes")));
  }
  if (req.move().text().size() > 200)
    return done(absl::InvalidArgumentError("action text too long"));
  std::shared_ptr<Game> gp = Find(req.game_id());
  if (!gp) return done(absl::NotFoundError("no such game"));
  Game& g = *gp;
  std::unique_lock<std::mutex> lock(g.mu);
  if (req.seat() < 0 || req.seat() >= g.n())
    return done(absl::InvalidArgumentError("no such seat"));
  const int seat = req.seat();
  SeatState& ss = g.seats[seat];
  // Who may act: the seat's credential holder, or arena for bot and model seats.
  bool ai_seat = ss.spec.kind() == v1::SEAT_KIND_BOT || ss.spec.kind() == v1::SEAT_KIND_MODEL;
  if (IsForfeit(req.kind()) && !(caller.arena && ai_seat)) {
    // Forfeiting is arena's policy for the seats it drives; a person's seat resigns or lets
    // its clock run instead.
    bool known =
        caller.arena || !caller.other_service.empty() ||
        SeatOfCredential(g, caller.seat_credential) >= 0 ||
        (!caller.host_credential.empty() && hasher_.Matches(caller.host_credential, g.host_hash));
    if (known) {
      return done(absl::PermissionDeniedError(
          "only arena may forfeit a turn, and only for a bot or model seat"));
    }
    return done(absl::UnauthenticatedError("forfeiting a turn needs the arena service credential"));
  }
  if (!(caller.arena && ai_seat)) {
    if (caller.seat_credential.empty()) {
      if (!caller.other_service.empty() || caller.arena) {
        return done(absl::PermissionDeniedError(
            "services other than arena, and arena for people's seats, cannot act for a seat"));
      }
      return done(absl::UnauthenticatedError("missing x-arena-seat-credential"));
    }
    if (!ss.filled || !hasher_.Matches(caller.seat_credential, ss.credential_hash)) {
      int other = SeatOfCredential(g, caller.seat_credential);
      if (other >= 0)
        return done(absl::PermissionDeniedError("that credential holds another seat"));
      return done(absl::UnauthenticatedError("seat credential not recognised"));
    }
  }
  // Action numbers make retries safe.
  if (req.expected_action_number() < g.next_action) {
    auto it = g.actions.find(req.expected_action_number());
    std::string text = req.move().text();
    if (it != g.actions.end() && it->second.seat == seat && it->second.kind == req.kind() &&
        (it->second.text == text || absl::EndsWith(it->second.text, " " + text) ||
         IsSeatEventKind(req.kind()) || IsForfeit(req.kind()) ||
         req.kind() == v1::ACTION_KIND_PLACEMENT_SKIP ||
         (req.kind() == v1::ACTION_KIND_PASS && text.empty()))) {
      v1::SubmitActionResponse resp;
      resp.set_action_number(req.expected_action_number());
      resp.set_event_sequence(it->second.seq);
      resp.set_duplicate(true);
      return done(resp);
    }
    return done(
        absl::FailedPreconditionError(absl::StrCat("action number ", req.expected_action_number(),
                                                   " was already used; next is ", g.next_action)));
  }
  if (req.expected_action_number() > g.next_action) {
    return done(
        absl::FailedPreconditionError(absl::StrCat("expected action number is ", g.next_action)));
  }
  if (g.status != v1::GAME_STATUS_ACTIVE) {
    return done(absl::FailedPreconditionError(absl::StrCat("the game is ", StatusWord(g.status))));
  }

  absl::Time now = absl::Now();
  int kind = req.kind();
  std::string text = req.move().text();
  absl::Status applied;
  bool is_mover = g.Mover() == seat;
  if (IsSeatEventKind(kind)) {
    applied = g.state->ApplySeatEvent(g.EngineSeat(seat), SeatEventOf(kind));
  } else if (IsForfeit(kind)) {
    // Exactly the clock's timeout (Chestonia: the turn passes; chess: the timeout rule), so it
    // is accepted even just after the flag fell: the result is the same either way.
    if (!is_mover) return done(absl::FailedPreconditionError("not your turn"));
    applied = g.state->ApplySeatEvent(g.EngineSeat(seat), SeatEvent::kTimeout);
  } else {
    std::string phase = g.state->Phase();
    switch (kind) {
      case v1::ACTION_KIND_PASS:
        if (text.empty()) text = "pass";
        break;
      case v1::ACTION_KIND_DART_AIM:
        text = WithPrefix(text, "aim ");
        break;
      case v1::ACTION_KIND_PLACEMENT:
        text = WithPrefix(text, "place ");
        break;
      case v1::ACTION_KIND_PLACEMENT_SKIP:
        text = "skip";
        break;
      case v1::ACTION_KIND_PENALTY_CHOICE:
        text = WithPrefix(text, "penalty ");
        break;
      default:
        break;
    }
    if (text.empty() || text.find_first_of("\n\r\t") != std::string::npos) {
      return done(absl::InvalidArgumentError("action text is empty or malformed"));
    }
    if (!is_mover) return done(absl::FailedPreconditionError("not your turn"));
    static const std::map<int, std::string> kPhaseOf = {
        {v1::ACTION_KIND_DART_AIM, "dart-aim"},
        {v1::ACTION_KIND_PLACEMENT, "placement"},
        {v1::ACTION_KIND_PLACEMENT_SKIP, "placement"},
        {v1::ACTION_KIND_PENALTY_CHOICE, "penalty"}};
    auto want = kPhaseOf.find(kind);
    if (want != kPhaseOf.end() && want->second != phase) {
      return done(absl::FailedPreconditionError(
          absl::StrCat("the seat owes '", phase, "', not '", want->second, "'")));
    }
    for (const auto& [k, p] : kPhaseOf) {
      if (kind == v1::ACTION_KIND_MOVE && p == phase) {
        return done(
            absl::FailedPreconditionError(absl::StrCat("the seat owes '", phase, "', not a move")));
      }
    }
    // The clock: a move that arrives after the seat's time (plus its delay credit) is late.
    if (g.deadline_kind == "timeout" && now > g.deadline) {
      return done(absl::FailedPreconditionError("time ran out"));
    }
    applied = g.state->Apply(text);
  }
  if (!applied.ok()) return done(applied);  // nothing changed: no clock, no turn, no number
  if (IsSeatEventKind(kind)) text = std::string(engine::SeatEventName(SeatEventOf(kind)));
  if (IsForfeit(kind)) text = "forfeit";
  if (kind == v1::ACTION_KIND_DART_AIM) g.last_aim = text;

  // Charge the mover's clock.
  if (is_mover && g.turn_seat == seat) {
    bool first_ranked = g.Ranked() && ss.turns == 0;
    int64_t elapsed_us = absl::ToInt64Microseconds(now - g.turn_started);
    if (elapsed_us < 0) elapsed_us = 0;  // within the restart grace
    int64_t credit = TurnEnding(kind) ? g.Credit(ss, options_.delay_credit_cap) : 0;
    int64_t charged_ms = std::max<int64_t>(0, elapsed_us - credit) / 1000;
    if (!first_ranked && (g.FischerClock() || g.PerMoveClock())) {
      ss.remaining_ms = std::max<int64_t>(0, ss.remaining_ms - charged_ms);
      g.turn_started = now;
    }
    if (TurnEnding(kind)) {
      if (g.FischerClock() && !first_ranked) ss.remaining_ms += g.settings.clock().increment_ms();
      ss.turns++;
      g.moves_played++;
      g.turn_seat = -1;  // a new turn starts, even for the same seat
    }
  }
  if (IsForfeit(kind)) {
    // Like a timeout: a turn, not a move (the move cap does not count it); the turn is over
    // even if the same seat moves again.
    ss.turns++;
    g.turn_seat = -1;
  }
  std::vector<StoredEvent> events;
  StoredEvent e = NewEvent(g, "action", seat);
  int64_t number = g.next_action++;
  e.action = text;
  e.action_number = number;
  e.payload = {{"kind", kind}, {"clocks", ClockReadings(g)}, {"phase_after", g.state->Phase()}};
  if (!req.annotation().empty()) e.payload["annotation"] = req.annotation();
  int64_t seq = e.seq;
  events.push_back(std::move(e));
  g.actions[number] = ActionRecord{seat, kind, text, seq};
  if (absl::Status s = ApplyAndResolve(g, events); !s.ok()) {
    LogError("chance resolution failed", {{"game_id", g.id}, {"error", std::string(s.message())}});
  }
  AfterChange(g, events);
  std::vector<std::function<void(pqxx::transaction_base&)>> statements;
  if (g.status == v1::GAME_STATUS_FINISHED)
    statements.push_back(EventStore::SetStatus(g.id, "finished", true));
  ArmTimers(gp);
  v1::SubmitActionResponse resp;
  resp.set_action_number(number);
  resp.set_event_sequence(seq);
  Commit(gp, std::move(events), std::move(statements), [done, resp](absl::Status s) {
    if (!s.ok()) return done(s);
    done(resp);
  });
}

// --- Views --------------------------------------------------------------------------------

namespace {

v1::Outcome OutcomeOf(const GameStateCore::Game& g) {
  if (g.service_outcome) return *g.service_outcome;
  v1::Outcome o;
  if (!g.state) return o;
  engine::Outcome eo = g.state->GetOutcome();
  if (!eo.finished()) return o;
  o.set_status(v1::GAME_STATUS_FINISHED);
  for (int w : eo.winners) o.add_winners(g.TableSeat(w));
  std::vector<int> ranks(g.n(), 0);
  for (size_t e = 0; e < eo.ranks.size() && e < ranks.size(); ++e)
    ranks[g.TableSeat(static_cast<int>(e))] = eo.ranks[e];
  for (int r : ranks) o.add_ranks(r);
  o.set_reason(eo.reason);
  o.set_result_text(eo.ResultText());
  return o;
}

}  // namespace

v1::GameView GameStateCore::View(const Game& g, bool with_legal, const v1::Cell* piece) const {
  v1::GameView v;
  v.set_game_id(g.id);
  *v.mutable_settings() = g.settings;
  v.set_status(g.status);
  absl::Time now = absl::Now();
  for (int i = 0; i < g.n(); ++i) {
    const SeatState& s = g.seats[i];
    v1::SeatView* sv = v.add_seats();
    sv->set_seat(i);
    *sv->mutable_spec() = s.spec;
    sv->set_filled(s.filled);
    sv->set_in_game(s.filled && g.status == v1::GAME_STATUS_ACTIVE);
    int64_t remaining = s.remaining_ms;
    if (i == g.turn_seat && g.status == v1::GAME_STATUS_ACTIVE &&
        (g.FischerClock() || g.PerMoveClock()) && !(g.Ranked() && s.turns == 0) &&
        now > g.turn_started) {
      remaining = std::max<int64_t>(0, remaining - absl::ToInt64Milliseconds(now - g.turn_started));
    }
    sv->set_clock_remaining_ms(remaining);
    sv->set_engine_seat(g.leader >= 0 ? g.EngineSeat(i) : -1);
    sv->set_seat_seed(s.seed);
    sv->set_present(s.presence > 0);
  }
  v.set_leader(g.leader);
  v.set_to_move(g.Mover());
  v.set_action_number(g.next_action);
  v.set_seed_commitment(g.commitment);
  v.set_engine_game(g.engine_id);
  v.set_variant_text(g.variant.ToString());
  v.set_last_sequence(g.next_seq - 1);
  if (g.deadline != absl::InfiniteFuture())
    v.set_turn_deadline_unix_ms(absl::ToUnixMillis(g.deadline));
  if (g.state) {
    v.set_phase(g.status == v1::GAME_STATUS_ACTIVE ? g.state->Phase() : "finished");
    v.set_position(g.state->PublicSerialize());
    v.set_rendering(g.state->Render(engine::RenderOptions{}));
    bool beginner = g.settings.level() != v1::TABLE_LEVEL_ADVANCED;
    if (with_legal && beginner && g.status == v1::GAME_STATUS_ACTIVE) {
      std::string hex_prefix, algebraic_prefix;
      if (piece != nullptr) {
        hex_prefix = absl::StrCat(piece->q(), ",", piece->r(), ":");
        algebraic_prefix =
            std::string(1, static_cast<char>('a' + piece->q())) + std::to_string(piece->r() + 1);
      }
      for (const std::string& m : g.state->LegalActions()) {
        if (piece == nullptr || absl::StartsWith(m, hex_prefix) ||
            absl::StartsWith(m, algebraic_prefix)) {
          v.add_legal_moves(m);
        }
      }
    }
  } else {
    // A table voided before it filled has no engine state; it is over all the same.
    v.set_phase(IsTerminalStatus(g.status) ? "finished" : "waiting");
  }
  *v.mutable_outcome() = OutcomeOf(g);
  // The seed is revealed only once the event that ended the game is durable: a game whose
  // final batch failed is reloaded and goes on, and must not have shown its seed.
  if (IsTerminalStatus(g.status) && g.committed_seq >= g.end_seq)
    v.set_revealed_seed(ToHex(g.draw.seed()));
  return v;
}

absl::StatusOr<v1::GameView> GameStateCore::GetGame(const Caller& caller,
                                                    const v1::GetGameRequest& req) {
  std::shared_ptr<Game> gp = Find(req.game_id());
  if (!gp) return absl::NotFoundError("no such game");
  std::lock_guard<std::mutex> lock(gp->mu);
  int seat;
  if (!MayWatch(*gp, caller, &seat))
    return absl::PermissionDeniedError("a private game: seat or host credential needed");
  v1::GameView view = View(*gp, true, req.has_piece() ? &req.piece() : nullptr);
  // Which seat the caller's credential holds, so arena can check a clue request's credential.
  if (seat >= 0) view.set_viewer_seat(seat);
  return view;
}

absl::StatusOr<v1::ListGamesResponse> GameStateCore::ListGames(const v1::ListGamesRequest& req) {
  if (req.limit() < 0) return absl::InvalidArgumentError("limit must not be negative");
  int limit = req.limit() == 0 ? 100 : std::min(req.limit(), 1000);
  std::vector<std::shared_ptr<Game>> all;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    for (auto& [id, g] : games_) all.push_back(g);
  }
  v1::ListGamesResponse resp;
  for (auto& g : all) {
    if (resp.games_size() >= limit) break;
    std::lock_guard<std::mutex> lock(g->mu);
    if (g->deleted || !g->is_public) continue;
    if (IsTerminalStatus(g->status) && !req.include_finished()) continue;
    v1::GameView v = View(*g, false, nullptr);
    v.clear_rendering();
    *resp.add_games() = std::move(v);
  }
  return resp;
}

absl::StatusOr<v1::GameRecord> GameStateCore::GetRecord(const Caller& caller,
                                                        const v1::GetRecordRequest& req) {
  std::shared_ptr<Game> gp = Find(req.game_id());
  if (!gp) return absl::NotFoundError("no such game");
  Game& g = *gp;
  std::lock_guard<std::mutex> lock(g.mu);
  int seat;
  if (!MayWatch(g, caller, &seat))
    return absl::PermissionDeniedError("a private game: seat or host credential needed");
  v1::GameRecord rec;
  *rec.mutable_final_view() = View(g, false, nullptr);
  {
    std::lock_guard<std::mutex> wlock(g.watch_mu);
    for (const auto& ev : g.committed) {
      v1::GameEvent* out = rec.add_events();
      *out = ev->event();
      out->clear_snapshot();
    }
  }
  for (const SeatState& s : g.seats) rec.add_seat_seeds(s.seed);
  rec.set_draw_path(
      "hmac-sha256(seed, seat seeds || purpose || 0 || be64 counter); u = (be64(bytes[0..8]) >> "
      "11) "
      "* 2^-53; leader = floor(u * seats); dart landings = engine/hex/dart.h scatter of the 32 "
      "bytes "
      "from the aim; other chance nodes = inverse CDF over ChanceOutcomes()");
  if (g.state) {
    // Chess: PGN with the mover's clock after each move, from the action events' readings.
    std::vector<std::optional<int64_t>> clocks;
    bool timed = g.FischerClock() || g.PerMoveClock();
    for (const auto& ev : rec.events()) {
      if (ev.type() != "action" || ev.action().empty()) continue;
      auto p = nlohmann::json::parse(ev.detail_json(), nullptr, false);
      if (p.is_discarded() || p.value("kind", 0) != v1::ACTION_KIND_MOVE) continue;
      if (timed && p.contains("clocks") && ev.seat() >= 0 &&
          ev.seat() < static_cast<int>(p["clocks"].size())) {
        clocks.push_back(p["clocks"][ev.seat()].get<int64_t>() / 1000);
      } else {
        clocks.push_back(std::nullopt);
      }
    }
    std::vector<std::pair<std::string, std::string>> tags = {
        {"Event", "Chestonia Arena"}, {"Site", "arena-game-state"}, {"Round", g.id}};
    if (g.n() == 2 && g.leader >= 0) {
      auto name = [&](int seat) {
        const v1::SeatSpec& spec = g.seats[seat].spec;
        if (!spec.display_name().empty()) return spec.display_name();
        if (!spec.model_id().empty()) return spec.model_id();
        return absl::StrCat("seat ", seat);
      };
      tags.push_back({"White", name(g.TableSeat(0))});
      tags.push_back({"Black", name(g.TableSeat(1))});
    }
    // The service's move cap is a draw (see AfterChange); the engine never ended the game, so
    // its own result would be "*".
    std::optional<std::string> result;
    if (g.service_outcome && g.service_outcome->reason() == "move-cap")
      result = g.service_outcome->result_text();
    rec.set_pgn(ExportPgnIfChess(*g.state, std::move(tags), std::move(clocks), result));
  }
  return rec;
}

// --- Host controls ---------------------------------------------------------------------------

void GameStateCore::UpdateSettings(const Caller& caller, const v1::UpdateSettingsRequest& req,
                                   Done<v1::GameView> done) {
  std::shared_ptr<Game> gp = Find(req.game_id());
  if (!gp) return done(absl::NotFoundError("no such game"));
  Game& g = *gp;
  std::lock_guard<std::mutex> lock(g.mu);
  if (caller.host_credential.empty())
    return done(absl::UnauthenticatedError("missing x-arena-host-credential"));
  if (!hasher_.Matches(caller.host_credential, g.host_hash))
    return done(absl::PermissionDeniedError("not the host of this game"));
  if (IsTerminalStatus(g.status)) return done(absl::FailedPreconditionError("the game is over"));
  if (g.protected_game)
    return done(absl::FailedPreconditionError("rated and league games keep their settings"));
  const v1::TableSettings& in = req.settings();
  v1::TableSettings next = g.settings;
  engine::Variant variant = g.variant;
  bool restart_state = false;
  if (in.has_variant()) {
    engine::Variant v;
    for (const auto& [k, val] : in.variant().options()) v.Set(k, val);
    if (absl::Status s = v.CheckKeys(g.engine_game->VariantKeys()); !s.ok()) return done(s);
    auto st = g.engine_game->NewInitialState(v);
    if (!st.ok()) return done(absl::InvalidArgumentError(st.status().message()));
    if ((*st)->NumSeats() != g.n())
      return done(absl::InvalidArgumentError("a variant cannot change the number of seats"));
    if (g.state && g.next_action > 0) {
      return done(
          absl::FailedPreconditionError("board and darts can change only before the first action"));
    }
    variant = v;
    *next.mutable_variant() = in.variant();
    restart_state = g.state != nullptr;
  }
  if (in.has_clock()) {
    const auto& c = in.clock();
    if (c.ranked()) {
      return done(absl::InvalidArgumentError("ranked clocks are set by arena at creation"));
    }
    if (absl::Status s = CheckClock(c); !s.ok()) return done(s);
    // Once the game runs, a change takes effect from the next turn and never takes time
    // already given: the kind of clock stays, the banks and the turn under way are kept.
    if (g.status == v1::GAME_STATUS_ACTIVE && ClockKind(c) != ClockKind(g.settings.clock())) {
      return done(absl::FailedPreconditionError(
          "the kind of clock (none, per-move, Fischer) can change only before the game starts"));
    }
    *next.mutable_clock() = c;
  }
  if (in.level() != v1::TABLE_LEVEL_UNSPECIFIED) next.set_level(in.level());
  if (req.has_clues()) next.set_clues(req.clues());
  g.settings = next;
  g.variant = variant;
  if (restart_state) g.state = *g.engine_game->NewInitialState(variant);
  if (in.has_clock() && g.status != v1::GAME_STATUS_ACTIVE) {
    for (SeatState& s : g.seats) {
      s.remaining_ms = g.FischerClock() ? next.clock().initial_ms()
                                        : (g.PerMoveClock() ? next.clock().per_move_ms() : 0);
    }
    g.turn_started = absl::Now();
  }
  std::vector<StoredEvent> events;
  StoredEvent e = NewEvent(g, "settings", -1);
  e.payload = {{"settings", nlohmann::json::parse(ToJson(next))},
               {"variant", variant.ToString()},
               {"restart_state", restart_state},
               {"clocks", ClockReadings(g)}};
  events.push_back(std::move(e));
  if (restart_state) (void)ApplyAndResolve(g, events);
  std::vector<std::function<void(pqxx::transaction_base&)>> statements;
  statements.push_back(EventStore::SetSettings(g.id, variant.ToString(), ToJson(next)));
  ArmTimers(gp);
  v1::GameView view = View(g, false, nullptr);
  Commit(gp, std::move(events), std::move(statements), [done, view](absl::Status s) {
    if (!s.ok()) return done(s);
    done(view);
  });
}

void GameStateCore::DeleteGame(const Caller& caller, const v1::DeleteGameRequest& req,
                               Done<v1::DeleteGameResponse> done) {
  std::shared_ptr<Game> gp = Find(req.game_id());
  if (!gp) return done(absl::NotFoundError("no such game"));
  Game& g = *gp;
  std::lock_guard<std::mutex> lock(g.mu);
  if (caller.host_credential.empty())
    return done(absl::UnauthenticatedError("missing x-arena-host-credential"));
  if (!hasher_.Matches(caller.host_credential, g.host_hash))
    return done(absl::PermissionDeniedError("not the host of this game"));
  if (g.protected_game)
    return done(absl::FailedPreconditionError("rated and league games cannot be deleted"));
  g.deleted = true;
  g.status = v1::GAME_STATUS_VOIDED;
  ArmTimers(gp);  // cancels
  std::string id = g.id;
  WriteItem item;
  item.game_id = id;
  item.statements.push_back(EventStore::DeleteGame(id));
  item.done = [this, gp, id, done](absl::Status s) {
    if (!s.ok()) return done(absl::UnavailableError(s.message()));
    {
      std::lock_guard<std::mutex> lock(games_mu_);
      games_.erase(id);
    }
    if (auto game = gp) {
      std::lock_guard<std::mutex> wlock(game->watch_mu);
      game->committed.clear();
      for (auto& [h, w] : game->watchers) {
        if (!w.closed) w.sink->Close(absl::NotFoundError("the game was deleted"));
        w.closed = true;
      }
    }
    done(v1::DeleteGameResponse());
  };
  store_->Enqueue(std::move(item));
}

// --- Voiding (arena, league games) -----------------------------------------------------------

void GameStateCore::VoidGame(const Caller& caller, const v1::VoidGameRequest& req,
                             Done<v1::GameView> done) {
  if (req.reason().size() > options_.max_void_reason_bytes) {
    return done(absl::InvalidArgumentError(
        absl::StrCat("reason longer than ", options_.max_void_reason_bytes, " bytes")));
  }
  if (req.reason().find_first_of("\n\r") != std::string::npos)
    return done(absl::InvalidArgumentError("reason must be one line"));
  if (!caller.arena && !caller.other_service.empty())
    return done(absl::PermissionDeniedError("only arena may void a game"));
  std::shared_ptr<Game> gp = Find(req.game_id());
  if (!gp) return done(absl::NotFoundError("no such game"));
  Game& g = *gp;
  std::lock_guard<std::mutex> lock(g.mu);
  if (!caller.arena) {
    bool known =
        SeatOfCredential(g, caller.seat_credential) >= 0 ||
        (!caller.host_credential.empty() && hasher_.Matches(caller.host_credential, g.host_hash));
    if (known) return done(absl::PermissionDeniedError("only arena may void a game"));
    return done(absl::UnauthenticatedError("voiding a game needs the arena service credential"));
  }
  if (g.settings.league_id().empty())
    return done(absl::FailedPreconditionError("only league games can be voided"));
  // A retry of a void that went through: the same view, no second event (arena may not know
  // whether its first call committed).
  if (g.status == v1::GAME_STATUS_VOIDED) return done(View(g, false, nullptr));
  if (IsTerminalStatus(g.status)) {
    return done(absl::FailedPreconditionError(absl::StrCat("the game is ", StatusWord(g.status))));
  }
  std::string reason = req.reason().empty() ? "voided" : req.reason();
  v1::Outcome o;
  o.set_status(v1::GAME_STATUS_VOIDED);
  o.set_reason(reason);
  o.set_result_text("voided");
  g.status = v1::GAME_STATUS_VOIDED;
  g.service_outcome = o;
  std::vector<StoredEvent> events;
  StoredEvent e = NewEvent(g, "voided", -1);
  g.end_seq = e.seq;
  e.payload = {{"reason", reason},
               {"revealed_seed", ToHex(g.draw.seed())},
               {"service_outcome", nlohmann::json::parse(ToJson(o))},
               {"clocks", ClockReadings(g)}};
  events.push_back(std::move(e));
  std::vector<std::function<void(pqxx::transaction_base&)>> statements;
  statements.push_back(EventStore::SetStatus(g.id, "voided", true));
  ArmTimers(gp);  // cancels: the game is no longer active
  v1::GameView view = View(g, false, nullptr);
  // The view is taken before the commit, when the seed is not yet shown; it is revealed in the
  // reply only once the "voided" event is durable.
  std::string seed = ToHex(g.draw.seed());
  Commit(gp, std::move(events), std::move(statements), [done, view, seed](absl::Status s) mutable {
    if (!s.ok()) return done(s);
    view.set_revealed_seed(seed);
    done(view);
  });
}

// --- Watching, presence, pings ---------------------------------------------------------------

absl::StatusOr<uint64_t> GameStateCore::Watch(const Caller& caller, const v1::WatchGameRequest& req,
                                              EventSink* sink) {
  if (req.from_sequence() < 0 || req.delay_moves() < 0 || req.delay_moves() > 1000) {
    return absl::InvalidArgumentError(
        "from_sequence and delay_moves must be small non-negative numbers");
  }
  std::shared_ptr<Game> gp = Find(req.game_id());
  if (!gp) return absl::NotFoundError("no such game");
  Game& g = *gp;
  std::lock_guard<std::mutex> lock(g.mu);
  Caller c = caller;
  if (c.seat_credential.empty()) c.seat_credential = req.seat_credential();
  int seat;
  if (!MayWatch(g, c, &seat))
    return absl::PermissionDeniedError("a private game: seat or host credential needed");
  uint64_t handle = next_watch_++;
  std::lock_guard<std::mutex> wlock(g.watch_mu);
  Watcher w;
  w.sink = sink;
  w.seat = seat;
  w.delay_moves = req.delay_moves();
  if (req.from_sequence() == 0 && req.delay_moves() == 0) {
    v1::GameEvent snap;
    snap.set_type("snapshot");
    snap.set_sequence(g.next_seq - 1);
    snap.set_seat(seat);
    *snap.mutable_snapshot() = View(g, true, nullptr);
    sink->Push(Share(std::move(snap)));
    w.after_seq = g.next_seq - 1;
  } else {
    if (req.delay_moves() > 0) {
      v1::GameEvent snap;
      snap.set_type("snapshot");
      snap.set_sequence(-1);
      v1::GameView v = View(g, false, nullptr);
      v.clear_position();
      v.clear_rendering();
      v.clear_legal_moves();
      *snap.mutable_snapshot() = v;
      sink->Push(Share(std::move(snap)));
    }
    for (const auto& ev : g.committed) {
      if (ev->event().sequence() < req.from_sequence()) continue;
      w.held.push_back(ev);
      if (IsMoveEvent(ev->event())) w.held_moves++;
    }
    w.after_seq = g.committed.empty() ? -1 : g.committed.back()->event().sequence();
    DrainHeld(w, IsTerminalStatus(g.status));
  }
  if (IsTerminalStatus(g.status)) {
    sink->Close(absl::OkStatus());
    w.closed = true;
  }
  g.watchers.emplace(handle, std::move(w));
  if (seat >= 0) {
    g.seats[seat].presence++;
    ArmTimers(gp);
  }
  return handle;
}

void GameStateCore::Unwatch(const std::string& game_id, uint64_t handle) {
  std::shared_ptr<Game> gp;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    auto it = games_.find(game_id);
    if (it == games_.end()) return;
    gp = it->second;
  }
  std::lock_guard<std::mutex> lock(gp->mu);
  int seat = -1;
  {
    std::lock_guard<std::mutex> wlock(gp->watch_mu);
    auto it = gp->watchers.find(handle);
    if (it == gp->watchers.end()) return;
    seat = it->second.seat;
    gp->watchers.erase(it);
  }
  if (seat >= 0) {
    SeatState& s = gp->seats[seat];
    if (--s.presence == 0) s.absent_since = absl::Now();
    ArmTimers(gp);
  }
}

void GameStateCore::Keepalive() {
  if (shutting_down_) return;
  std::vector<std::shared_ptr<Game>> all;
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    for (auto& [id, g] : games_) all.push_back(g);
  }
  absl::Time now = absl::Now();
  for (auto& g : all) {
    std::lock_guard<std::mutex> lock(g->mu);
    std::lock_guard<std::mutex> wlock(g->watch_mu);
    if (g->watchers.empty()) continue;
    v1::GameEvent keepalive_event;
    keepalive_event.set_type("keepalive");
    keepalive_event.set_sequence(g->committed.empty() ? -1
                                                      : g->committed.back()->event().sequence());
    SharedMessage keepalive = Share(keepalive_event);
    for (auto& [h, w] : g->watchers) {
      if (w.closed) continue;
      if (w.seat >= 0) {
        int64_t id = next_ping_++;
        v1::GameEvent ping = keepalive_event;
        ping.set_type("ping");
        ping.set_ping_id(id);
        ping.set_seat(w.seat);
        auto& pings = g->seats[w.seat].pings;
        pings[id] = now;
        while (pings.size() > 16) pings.erase(pings.begin());
        w.sink->Push(Share(std::move(ping)));
      } else {
        w.sink->Push(keepalive);
      }
    }
  }
  timers_.Schedule(absl::Now() + options_.keepalive, [this] { Keepalive(); });
}

absl::Status GameStateCore::Pong(const Caller& caller, const v1::PongRequest& req) {
  std::shared_ptr<Game> gp = Find(req.game_id());
  if (!gp) return absl::NotFoundError("no such game");
  std::lock_guard<std::mutex> lock(gp->mu);
  if (req.seat() < 0 || req.seat() >= gp->n()) return absl::InvalidArgumentError("no such seat");
  SeatState& s = gp->seats[req.seat()];
  if (caller.seat_credential.empty())
    return absl::UnauthenticatedError("missing x-arena-seat-credential");
  if (!hasher_.Matches(caller.seat_credential, s.credential_hash))
    return absl::PermissionDeniedError("not this seat's credential");
  auto it = s.pings.find(req.ping_id());
  if (it == s.pings.end()) return absl::NotFoundError("unknown or expired ping");
  s.rtt_us = absl::ToInt64Microseconds(absl::Now() - it->second);
  s.pings.erase(s.pings.begin(), std::next(it));
  return absl::OkStatus();
}

}  // namespace arena::game_state
