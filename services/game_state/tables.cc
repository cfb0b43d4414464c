// Tables and seats: who may act or watch, creating and joining tables, host controls, voiding.
#include "services/game_state/live_game.h"
#include "services/game_state/variant_change.h"

namespace arena::game_state {

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
  std::string engine_id = common::EngineGameIdOf(in);
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
  bool privileged = req.has_fixed_leader() || in.rated() || !in.league_id().empty() || c.ranked();
  if (privileged && !caller.arena) {
    return done(caller.other_service.empty()
                    ? absl::UnauthenticatedError(
                          "a fixed leader, rated, ranked or league table needs the arena "
                          "service credential")
                    : absl::PermissionDeniedError(
                          "only arena may create fixed-leader, rated, ranked or league tables"));
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
  g.lease_epoch = store_->FirstEpoch();  // the create item inserts the lease
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
  std::vector<RowChange> changes;
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
  changes.push_back(InsertGameRow{row});
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
    changes.push_back(UpsertSeatRow{g.id, ss});
    g.seats.push_back(std::move(seat));
  }
  std::lock_guard<std::mutex> lock(g.mu);
  std::vector<StoredEvent> events;
  StoredEvent e = NewEvent(g, "created", -1);
  e.payload = {{"engine_game", engine_id},
               {"variant", variant.ToString()},
               {"seed_commitment", g.commitment}};
  // A fixed leader holds whenever the game starts: now, or when the last seat is joined.
  if (req.has_fixed_leader()) {
    g.fixed_leader = req.fixed_leader();
    e.payload["fixed_leader"] = req.fixed_leader();
  }
  events.push_back(std::move(e));
  if (all_filled) {
    StartGame(g, events, g.fixed_leader);
    AfterChange(g, events);
    changes.push_back(
        SetStatusRow{g.id, g.status == v1::GAME_STATUS_ACTIVE ? "active" : "finished", false});
  }
  {
    std::lock_guard<std::mutex> glock(games_mu_);
    games_[g.id] = gp;
  }
  ArmTimers(gp);
  bool keyed = !key.empty();
  Commit(gp, std::move(events), std::move(changes),
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
  // Every seat is taken through arena, which checks blocks, invitations and guests and binds
  // the seat to the person: nobody else may join one here, whatever credential they hold.
  if (!caller.arena) {
    return done(absl::PermissionDeniedError(
        "seats are taken through arena (ArenaService.JoinTable), which checks blocks, "
        "invitations and guests; game-state joins seats for arena only"));
  }
  auto found = Find(req.game_id());
  if (!found.ok()) return done(found.status());
  std::shared_ptr<Game> gp = *std::move(found);
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
  std::string credential = CredentialHasher::NewCredential();
  seat.filled = true;
  seat.credential_hash = hasher_.Hash(credential);
  seat.seed = req.seat_seed();
  if (!req.display_name().empty()) seat.spec.set_display_name(req.display_name());
  if (!req.account_id().empty()) {  // arena seats an account: the seat is that person's
    seat.spec.set_kind(v1::SEAT_KIND_HUMAN);
    seat.spec.set_account_id(req.account_id());
  }
  std::vector<RowChange> changes;
  changes.push_back(
      UpsertSeatRow{g.id, StoredSeat{req.seat(), v1::SeatKind_Name(seat.spec.kind()),
                                     ToJson(seat.spec), seat.credential_hash, seat.seed, true}});
  std::vector<StoredEvent> events;
  StoredEvent e = NewEvent(g, "joined", req.seat());
  e.payload = {{"display_name", seat.spec.display_name()}, {"seat_seed", seat.seed}};
  events.push_back(std::move(e));
  bool all =
      std::all_of(g.seats.begin(), g.seats.end(), [](const SeatState& s) { return s.filled; });
  if (all) {
    StartGame(g, events, g.fixed_leader);
    AfterChange(g, events);
    changes.push_back(
        SetStatusRow{g.id, g.status == v1::GAME_STATUS_ACTIVE ? "active" : "finished", false});
  }
  ArmTimers(gp);
  v1::JoinTableResponse resp;
  resp.set_seat_credential(credential);
  Commit(gp, std::move(events), std::move(changes), [done, resp](absl::Status s) {
    if (!s.ok()) return done(s);
    done(resp);
  });
}

// --- Host controls ---------------------------------------------------------------------------

void GameStateCore::UpdateSettings(const Caller& caller, const v1::UpdateSettingsRequest& req,
                                   Done<v1::GameView> done) {
  auto found = Find(req.game_id());
  if (!found.ok()) return done(found.status());
  std::shared_ptr<Game> gp = *std::move(found);
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
  std::optional<engine::Variant> pending;
  if (in.has_variant()) {
    engine::Variant v;
    for (const auto& [k, val] : in.variant().options()) v.Set(k, val);
    // The leader the draw told the engine stays; under way, keys the host leaves out keep
    // their values (only board and darts may change then).
    const bool under_way = g.state && g.next_action > 0;
    for (const auto& [k, val] : g.variant.options()) {
      if (!v.Has(k) && (k == "first" || under_way)) v.Set(k, val);
    }
    if (absl::Status s = v.CheckKeys(g.engine_game->VariantKeys()); !s.ok()) return done(s);
    auto st = g.engine_game->NewInitialState(v);
    if (!st.ok()) return done(absl::InvalidArgumentError(st.status().message()));
    if ((*st)->NumSeats() != g.n())
      return done(absl::InvalidArgumentError("a variant cannot change the number of seats"));
    if (g.state && g.next_action > 0) {
      // Under way: the change waits for the next turn (ApplyPendingVariant); it is tried on
      // the position now, so a change the game cannot take is refused here.
      auto st = ChangeVariantMidGame(*g.engine_game, *g.state, g.variant, v);
      if (!st.ok()) return done(st.status());
      pending = v;
    } else {
      variant = v;
      *next.mutable_variant() = in.variant();
      restart_state = g.state != nullptr;
    }
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
  // Clues are the whole table's from creation: one player with them would be another game.
  if (req.has_clues() && req.clues() != g.settings.clues()) {
    return done(absl::FailedPreconditionError(
        "clues are decided for the whole table when the game is made"));
  }
  g.settings = next;
  g.variant = variant;
  if (pending) g.pending_variant = *pending;
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
  if (pending) e.payload["pending_variant"] = pending->ToString();
  events.push_back(std::move(e));
  if (restart_state) (void)ApplyAndResolve(g, events);
  std::vector<RowChange> changes;
  changes.push_back(SetSettingsRow{g.id, variant.ToString(), ToJson(next)});
  ArmTimers(gp);
  v1::GameView view = View(g, false, nullptr);
  Commit(gp, std::move(events), std::move(changes), [done, view](absl::Status s) {
    if (!s.ok()) return done(s);
    done(view);
  });
}

bool GameStateCore::ApplyPendingVariant(Game& g, std::vector<StoredEvent>& events) {
  if (!g.pending_variant || !g.state || g.status != v1::GAME_STATUS_ACTIVE) return false;
  engine::Variant to = *std::move(g.pending_variant);
  g.pending_variant.reset();
  auto next = ChangeVariantMidGame(*g.engine_game, *g.state, g.variant, to);
  if (!next.ok()) {  // checked when the host asked; the position since cannot refuse it
    LogError("board change not applied",
             {{"game_id", g.id}, {"error", std::string(next.status().message())}});
    return false;
  }
  g.state = *std::move(next);
  g.variant = to;
  v1::VariantOptions options;
  for (const auto& [k, v] : to.options()) (*options.mutable_options())[k] = v;
  *g.settings.mutable_variant() = options;
  StoredEvent e = NewEvent(g, "settings", -1);
  e.payload = {{"settings", nlohmann::json::parse(ToJson(g.settings))},
               {"variant", to.ToString()},
               {"applied_variant", to.ToString()},
               {"restart_state", false},
               {"clocks", ClockReadings(g)}};
  events.push_back(std::move(e));
  return true;
}

void GameStateCore::DeleteGame(const Caller& caller, const v1::DeleteGameRequest& req,
                               Done<v1::DeleteGameResponse> done) {
  auto found = Find(req.game_id());
  if (!found.ok()) return done(found.status());
  std::shared_ptr<Game> gp = *std::move(found);
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
  item.lease_epoch = g.lease_epoch;
  item.changes.push_back(DeleteGameRows{id});
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

// --- Voiding (arena: league and ranked games)
// -----------------------------------------------------------

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
  auto found = Find(req.game_id());
  if (!found.ok()) return done(found.status());
  std::shared_ptr<Game> gp = *std::move(found);
  Game& g = *gp;
  std::lock_guard<std::mutex> lock(g.mu);
  if (!caller.arena) {
    bool known =
        SeatOfCredential(g, caller.seat_credential) >= 0 ||
        (!caller.host_credential.empty() && hasher_.Matches(caller.host_credential, g.host_hash));
    if (known) return done(absl::PermissionDeniedError("only arena may void a game"));
    return done(absl::UnauthenticatedError("voiding a game needs the arena service credential"));
  }
  // League games (a provider fault) and ranked games (a player who never sat down: arena's
  // ranked loop, docs/ranked.md) can be voided; nothing else.
  if (g.settings.league_id().empty() && !g.Ranked())
    return done(absl::FailedPreconditionError("only league and ranked games can be voided"));
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
  std::vector<RowChange> changes;
  changes.push_back(SetStatusRow{g.id, "voided", true});
  ArmTimers(gp);  // cancels: the game is no longer active
  v1::GameView view = View(g, false, nullptr);
  // The view is taken before the commit, when the seed is not yet shown; it is revealed in the
  // reply only once the "voided" event is durable.
  std::string seed = ToHex(g.draw.seed());
  Commit(gp, std::move(events), std::move(changes), [done, view, seed](absl::Status s) mutable {
    if (!s.ok()) return done(s);
    view.set_revealed_seed(seed);
    done(view);
  });
}

}  // namespace arena::game_state
