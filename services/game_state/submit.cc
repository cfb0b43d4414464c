// A seat's action: who may act, retries by action number, the engine's verdict, the clock.
#include "services/game_state/live_game.h"

namespace arena::game_state {

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
  auto found = Find(req.game_id());
  if (!found.ok()) return done(found.status());
  std::shared_ptr<Game> gp = *std::move(found);
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
  bool ends_turn = false;
  engine::ActionFacts facts = NoFacts();
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
    text = common::EngineTextOf(static_cast<v1::ActionKind>(kind), std::move(text));
    if (text.empty() || text.find_first_of("\n\r\t") != std::string::npos) {
      return done(absl::InvalidArgumentError("action text is empty or malformed"));
    }
    if (!is_mover) return done(absl::FailedPreconditionError("not your turn"));
    const std::string_view want = common::PhaseOfKind(static_cast<v1::ActionKind>(kind));
    if (!want.empty() && want != phase) {
      return done(absl::FailedPreconditionError(
          absl::StrCat("the seat owes '", phase, "', not '", engine::ToAbsl(want), "'")));
    }
    if (kind == v1::ACTION_KIND_MOVE &&
        (phase == "dart-aim" || phase == "placement" || phase == "penalty")) {
      return done(
          absl::FailedPreconditionError(absl::StrCat("the seat owes '", phase, "', not a move")));
    }
    // The clock: a move that arrives after the seat's time (plus its delay credit) is late.
    if (g.deadline_kind == "timeout" && now > g.deadline) {
      return done(absl::FailedPreconditionError("time ran out"));
    }
    facts = FactsOf(*g.state, text);
    ends_turn = facts.ends_turn;
    applied = g.state->Apply(text);
  }
  if (!applied.ok()) return done(applied);  // nothing changed: no clock, no turn, no number
  g.Note(facts);
  if (IsSeatEventKind(kind)) text = std::string(engine::SeatEventName(SeatEventOf(kind)));
  if (IsForfeit(kind)) text = "forfeit";
  if (kind == v1::ACTION_KIND_DART_AIM) g.last_aim = text;

  // Charge the mover's clock.
  if (is_mover && g.turn_seat == seat) {
    bool first_ranked = g.Ranked() && ss.turns == 0;
    int64_t elapsed_us = absl::ToInt64Microseconds(now - g.turn_started);
    if (elapsed_us < 0) elapsed_us = 0;  // within the restart grace
    int64_t credit = ends_turn ? g.Credit(ss, options_.delay_credit_cap) : 0;
    int64_t charged_ms = std::max<int64_t>(0, elapsed_us - credit) / 1000;
    if (!first_ranked && (g.FischerClock() || g.PerMoveClock())) {
      ss.remaining_ms = std::max<int64_t>(0, ss.remaining_ms - charged_ms);
      g.turn_started = now;
    }
    if (ends_turn) {
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
  std::vector<RowChange> changes;
  // The turn is over: a host's board or darts change takes effect before the next one starts.
  if (g.turn_seat == -1 && ApplyPendingVariant(g, events)) {
    changes.push_back(SetSettingsRow{g.id, g.variant.ToString(), ToJson(g.settings)});
  }
  if (absl::Status s = ApplyAndResolve(g, events); !s.ok()) {
    LogError("chance resolution failed", {{"game_id", g.id}, {"error", std::string(s.message())}});
  }
  AfterChange(g, events);
  if (g.status == v1::GAME_STATUS_FINISHED) changes.push_back(SetStatusRow{g.id, "finished", true});
  ArmTimers(gp);
  v1::SubmitActionResponse resp;
  resp.set_action_number(number);
  resp.set_event_sequence(seq);
  Commit(gp, std::move(events), std::move(changes), [done, resp](absl::Status s) {
    if (!s.ok()) return done(s);
    done(resp);
  });
}

}  // namespace arena::game_state
