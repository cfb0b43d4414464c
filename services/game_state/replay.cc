// A game rebuilt from its event log: every event replayed through the engine.
#include "services/game_state/live_game.h"
#include "services/game_state/variant_change.h"

namespace arena::game_state {

namespace {

// Holds the per-game load lock; the last holder removes its entry.
class LoadTurn {
 public:
  LoadTurn(std::mutex& map_mu, std::map<std::string, std::shared_ptr<std::mutex>>& map,
           const std::string& game_id)
      : map_mu_(map_mu), map_(map), game_id_(game_id) {
    {
      std::lock_guard<std::mutex> lock(map_mu_);
      std::shared_ptr<std::mutex>& m = map_[game_id_];
      if (!m) m = std::make_shared<std::mutex>();
      mu_ = m;
    }
    mu_->lock();
  }
  ~LoadTurn() {
    mu_->unlock();
    std::lock_guard<std::mutex> lock(map_mu_);
    auto it = map_.find(game_id_);
    mu_.reset();
    if (it != map_.end() && it->second.use_count() == 1) map_.erase(it);
  }
  LoadTurn(const LoadTurn&) = delete;
  LoadTurn& operator=(const LoadTurn&) = delete;

 private:
  std::mutex& map_mu_;
  std::map<std::string, std::shared_ptr<std::mutex>>& map_;
  std::string game_id_;
  std::shared_ptr<std::mutex> mu_;
};

}  // namespace

absl::StatusOr<std::shared_ptr<GameStateCore::Game>> GameStateCore::Load(
    const std::string& game_id) {
  // One load of a game at a time: each takes the lease at a new epoch, and the game loaded
  // must be the one whose epoch is in the log.
  LoadTurn turn(loading_mu_, loading_, game_id);
  {
    std::lock_guard<std::mutex> lock(games_mu_);
    auto it = games_.find(game_id);
    if (it != games_.end()) return it->second;  // loaded while this call waited
  }
  // Own the game first, then read its log: the takeover waits for the old owner's batch in
  // flight and fences the ones after it, so the log read below is the whole of it.
  auto claim = store_->AcquireLease(game_id, options_.sole_replica);
  if (!claim.ok()) {
    if (absl::IsNotFound(claim.status())) return claim.status();
    return absl::UnavailableError(absl::StrCat("game ", game_id, " could not be taken over now (",
                                               claim.status().message(), "); retry"));
  }
  if (!claim->held) return OwnedElsewhere(game_id, *claim);
  auto stored = store_->LoadGame(game_id);
  if (!stored.ok()) return stored.status();
  auto g = std::make_shared<Game>();
  g->id = game_id;
  g->lease_epoch = claim->epoch;
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
    if (e.type == "created") {
      if (p.contains("fixed_leader")) g->fixed_leader = p["fixed_leader"].get<int>();
    } else if (e.type == "leader") {
      g->leader = p["leader"].get<int>();
      g->draw_counter = std::max<uint64_t>(g->draw_counter, p.value("counter", -1) + 1);
      if (p.contains("first")) {  // told to the engine; every seat kept its colour
        g->variant.Set("first", std::to_string(g->leader));
        g->rotation = 0;
      } else {  // the leader became the engine's first seat (and every game before issue 17)
        g->rotation = g->leader;
      }
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
      bool ends_turn = false;
      if (IsForfeit(kind)) {
        s = g->state->ApplySeatEvent(es, SeatEvent::kTimeout);
        g->seats[e.seat].turns++;  // a turn, not a move: the move cap does not count it
      } else if (IsSeatEventKind(kind)) {
        s = g->state->ApplySeatEvent(es, SeatEventOf(kind));
      } else {
        const engine::ActionFacts facts = FactsOf(*g->state, e.action);
        ends_turn = facts.ends_turn;
        s = g->state->Apply(e.action);
        if (s.ok()) g->Note(facts);
      }
      g->next_action = e.action_number + 1;
      if (kind == v1::ACTION_KIND_DART_AIM) g->last_aim = e.action;
      g->actions[e.action_number] = ActionRecord{e.seat, kind, e.action, e.seq};
      if (ends_turn) {
        g->seats[e.seat].turns++;
        g->moves_played++;
      }
    } else if (e.type == "chance") {
      const engine::ActionFacts facts = FactsOf(*g->state, e.action);
      s = g->state->Apply(e.action);
      if (s.ok()) g->Note(facts);
      g->draw_counter = std::max<uint64_t>(g->draw_counter, p["counter"].get<uint64_t>() + 1);
    } else if (e.type == "timeout") {
      s = g->state->ApplySeatEvent(g->EngineSeat(e.seat), SeatEvent::kTimeout);
      g->seats[e.seat].turns++;
    } else if (e.type == "disconnect") {
      s = g->state->ApplySeatEvent(g->EngineSeat(e.seat), SeatEvent::kResign);
    } else if (e.type == "eliminated") {
      g->out.resize(g->seats.size(), false);
      if (e.seat >= 0 && e.seat < static_cast<int>(g->out.size())) g->out[e.seat] = true;
    } else if (e.type == "settings") {
      v1::TableSettings settings;
      if (FromJson(p["settings"].dump(), &settings)) g->settings = settings;
      if (p.contains("pending_variant")) {  // a board change under way: applied later
        auto v = engine::Variant::Parse(p["pending_variant"].get<std::string>());
        if (v.ok()) g->pending_variant = *v;
      }
      if (p.contains("applied_variant") && g->state) {  // the turn passed: it took effect
        auto v = engine::Variant::Parse(p["applied_variant"].get<std::string>());
        if (!v.ok()) return absl::DataLossError("stored variant does not parse");
        auto st = ChangeVariantMidGame(*g->engine_game, *g->state, g->variant, *v);
        if (!st.ok()) {
          return absl::DataLossError(
              absl::StrCat("replay of event ", e.seq, " failed: ", st.status().message()));
        }
        g->state = *std::move(st);
        g->pending_variant.reset();
      }
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

}  // namespace arena::game_state
