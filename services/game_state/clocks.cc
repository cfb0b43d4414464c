// After every change: the move cap and the end of a game; the clock and presence timers.
#include "services/game_state/live_game.h"

namespace arena::game_state {

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
  NoteEliminations(g, events);
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

void GameStateCore::NoteEliminations(Game& g, std::vector<StoredEvent>& events) {
  // Only games of three or more go on after someone is out; with two the game ends instead.
  if (!g.state || g.n() <= 2 || g.status != v1::GAME_STATUS_ACTIVE) return;
  g.out.resize(g.n(), false);
  const engine::BoardView board = g.state->Board(0);
  const std::vector<engine::SeatInfo> looks = g.state->Seats();
  for (int engine_seat : board.frozen_seats) {
    const int seat = g.TableSeat(engine_seat);
    if (seat < 0 || seat >= g.n() || g.out[seat]) continue;
    g.out[seat] = true;
    StoredEvent e = NewEvent(g, "eliminated", seat);
    e.payload = {{"engine_seat", engine_seat},
                 {"colour", engine_seat < static_cast<int>(looks.size()) ? looks[engine_seat].name
                                                                         : std::string()}};
    events.push_back(std::move(e));
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
  std::vector<RowChange> changes;
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
    changes.push_back(SetStatusRow{g.id, "aborted", true});
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
    if (ApplyPendingVariant(g, events)) {
      changes.push_back(SetSettingsRow{g.id, g.variant.ToString(), ToJson(g.settings)});
    }
    (void)ApplyAndResolve(g, events);
    g.turn_seat = -1;  // the timed-out turn is over even if the same seat moves again
    AfterChange(g, events);
    if (g.status == v1::GAME_STATUS_FINISHED) {
      changes.push_back(SetStatusRow{g.id, "finished", true});
    }
  }
  ArmTimers(gp);
  Commit(gp, std::move(events), std::move(changes), nullptr);
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
  std::vector<RowChange> changes;
  if (ApplyPendingVariant(g, events)) {
    changes.push_back(SetSettingsRow{g.id, g.variant.ToString(), ToJson(g.settings)});
  }
  (void)ApplyAndResolve(g, events);
  AfterChange(g, events);
  if (g.status == v1::GAME_STATUS_FINISHED) {
    changes.push_back(SetStatusRow{g.id, "finished", true});
  }
  ArmTimers(gp);
  Commit(gp, std::move(events), std::move(changes), nullptr);
}

}  // namespace arena::game_state
