// The in-memory game of arena-game-state and the small helpers its parts share. Internal to
// the service: game_service.cc (construction, recovery, commits), replay.cc (a game rebuilt
// from its event log), chance.cc (start and chance draws), clocks.cc (move caps, timers),
// tables.cc (creation, seats, host controls, voiding), submit.cc (seat actions), views.cc
// (views, lists, records) and watch.cc (streams, presence, pings) all define GameStateCore
// members over these types.
#pragma once

#include "services/game_state/game_service.h"

#include <algorithm>
#include <cctype>
#include <deque>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/board_view_proto.h"
#include "common/log.h"
#include "common/proto_words.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/time_util.h"
#include "services/chance/dart_path.h"

namespace arena::game_state {

using common::LogError;
using common::LogInfo;
using common::LogWarning;
using engine::kChanceSeat;
using engine::SeatEvent;

inline std::string StatusWord(v1::GameStatus s) {
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

inline v1::GameStatus StatusFromWord(const std::string& w) {
  if (w == "waiting") return v1::GAME_STATUS_WAITING;
  if (w == "active") return v1::GAME_STATUS_ACTIVE;
  if (w == "finished") return v1::GAME_STATUS_FINISHED;
  if (w == "aborted") return v1::GAME_STATUS_ABORTED;
  return v1::GAME_STATUS_VOIDED;
}

inline std::string ToJson(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, opts);
  return out;
}

template <typename M>
inline bool FromJson(const std::string& json, M* m) {
  return google::protobuf::util::JsonStringToMessage(json, m).ok();
}

inline bool IsTerminalStatus(v1::GameStatus s) {
  return s == v1::GAME_STATUS_FINISHED || s == v1::GAME_STATUS_ABORTED ||
         s == v1::GAME_STATUS_VOIDED;
}

// Clock bounds (docs/security.md): a bank or a per-move allowance of at most a week, an
// increment of at most an hour, so no sum of them can overflow and no table is held forever.
constexpr int64_t kMaxClockMs = int64_t{7} * 24 * 3600 * 1000;
constexpr int64_t kMaxIncrementMs = int64_t{3600} * 1000;
constexpr int64_t kMaxMoveCap = 100000;

inline absl::Status CheckClock(const v1::ClockSettings& c) {
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
inline int ClockKind(const v1::ClockSettings& c) {
  if (c.per_move_ms() > 0) return 1;
  return c.initial_ms() > 0 ? 2 : 0;
}

inline bool IsSeatEventKind(int kind) {
  return kind == v1::ACTION_KIND_RESIGN || kind == v1::ACTION_KIND_OFFER_DRAW ||
         kind == v1::ACTION_KIND_ACCEPT_DRAW || kind == v1::ACTION_KIND_DECLINE_DRAW;
}

inline SeatEvent SeatEventOf(int kind) {
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
inline bool IsForfeit(int kind) {
  return kind == v1::ACTION_KIND_FORFEIT_TURN;
}

// The events after which a game never changes again (watch streams end with them).
inline bool IsFinalEvent(const std::string& type) {
  return type == "ended" || type == "aborted" || type == "voided";
}

// What a board action is, as the engine describes it before it is applied: whether it
// completes the acting seat's turn (Fischer increment, turn count, move cap: a dart aim or a
// placement is part of a turn, a checkers chain is one action however many hops it makes) and
// which cells it touches (the board view's last action and dart). Empty facts for text the
// engine cannot describe (Apply refuses it then).
inline engine::ActionFacts NoFacts() {
  engine::ActionFacts none;
  none.kind.clear();
  return none;
}

inline engine::ActionFacts FactsOf(const engine::State& state, const std::string& action) {
  absl::StatusOr<engine::ActionFacts> facts = state.DescribeAction(action);
  if (!facts.ok()) return NoFacts();
  return *std::move(facts);
}

// Whether the game's variant names the seat that leads (its `first` key).
inline bool TakesFirstKey(const engine::Game& game) {
  const std::vector<std::string> keys = game.VariantKeys();
  return std::find(keys.begin(), keys.end(), "first") != keys.end();
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

inline bool IsMoveEvent(const v1::GameEvent& e) {
  return e.type() == "action" || e.type() == "timeout";
}

// Releases held events to the sink: an event goes once `delay_moves` moves follow it (all of
// them when the game is over).
inline void DrainHeld(Watcher& w, bool final_event) {
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
  // The epoch of this replica's lease on the game, set before the game is shared and never
  // changed: every write carries it (0: a log without leases).
  int64_t lease_epoch = 0;
  v1::TableSettings settings;
  std::string engine_id;
  const engine::Game* engine_game = nullptr;
  engine::Variant variant;
  // A host's board or darts change under way, applied when the turn passes.
  std::optional<engine::Variant> pending_variant;
  std::string host_hash;
  bool is_public = true;
  bool protected_game = false;
  FairDraw draw;
  uint64_t draw_counter = 0;
  std::string last_aim;  // the latest "aim q,r": where the next landing's scatter starts
  // What the board view shows of the history: the last move's cells, the latest dart.
  std::vector<std::string> last_move_cells;
  std::string shown_aim;
  std::string shown_landing;

  // Records an applied action for the board view.
  void Note(const engine::ActionFacts& facts) {
    if (facts.kind == engine::kActionMove) {
      last_move_cells = facts.cells;
    } else if (facts.kind == engine::kActionDartAim && !facts.cells.empty()) {
      shown_aim = facts.cells.front();
      shown_landing.clear();
    } else if (facts.kind == engine::kActionDartLanding) {
      shown_landing = facts.cells.empty() ? "miss" : facts.cells.front();
    }
  }
  std::string commitment;
  std::vector<SeatState> seats;
  int leader = -1;
  // Table seats out of the game (their army frozen): each was told in an "eliminated" event.
  std::vector<bool> out;
  bool Out(int table_seat) const {
    return table_seat >= 0 && table_seat < static_cast<int>(out.size()) && out[table_seat];
  }
  // CreateTable.fixed_leader, kept until the last seat is filled (in the "created" event).
  std::optional<int> fixed_leader;
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
  // Table seat i is engine seat (i - rotation) mod n. Games with a `first` key keep every seat
  // its colour and edge (rotation 0: the leader is told to the engine); others make the leader
  // the engine's first seat (rotation = leader).
  int rotation = 0;
  int EngineSeat(int table_seat) const { return (table_seat - rotation + n()) % n(); }
  int TableSeat(int engine_seat) const { return (rotation + engine_seat) % n(); }
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

// UNAVAILABLE: another live replica holds the game's lease; its address rides along as a
// payload (OwnerAddressOf) when the lease names one.
absl::Status OwnedElsewhere(const std::string& game_id, const LeaseClaim& claim);

// The outcome a view shows (the service's own when it ended the game).
v1::Outcome OutcomeOf(const GameStateCore::Game& g);

inline v1::GameEvent ToProto(const StoredEvent& e) {
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

inline SharedMessage Share(v1::GameEvent event) {
  return std::make_shared<const WatchMessage>(std::move(event));
}

}  // namespace arena::game_state
