// What callers see: the game view with its board, the public list, the full record.
#include "services/game_state/live_game.h"

namespace arena::game_state {

// --- Views --------------------------------------------------------------------------------

// The most legal moves a view lists, as the bots and the gateway do (bots/core/search_common.h,
// gateway/prompt.h): a Chestonia checkers king can have hundreds of thousands of turns, which
// take seconds to list and make a view larger than gRPC's 4 MB message limit. Every view of a
// beginner table lists them, and the seat driver reads one after every event.
constexpr int kMaxLegalListed = 4096;

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

v1::GameView GameStateCore::View(const Game& g, bool with_legal, const std::string* piece_cell,
                                 int perspective, bool with_board) const {
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
    sv->set_in_game(s.filled && g.status == v1::GAME_STATUS_ACTIVE && !g.Out(i));
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
      for (const std::string& m : piece_cell != nullptr
                                      ? engine::PieceActions(*g.state, *piece_cell)
                                      : g.state->BoundedLegalActions(kMaxLegalListed)) {
        v.add_legal_moves(m);
      }
    }
    if (with_board) {
      engine::BoardView board = g.state->Board(perspective < 0 ? 0 : perspective);
      board.last_action_cells = g.last_move_cells;
      if (board.dart_aim.empty()) board.dart_aim = g.shown_aim;
      board.dart_landing = g.shown_landing;
      *v.mutable_board() = common::ToProto(board);
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
  auto found = Find(req.game_id());
  if (!found.ok()) return found.status();
  std::shared_ptr<Game> gp = *std::move(found);
  std::lock_guard<std::mutex> lock(gp->mu);
  int seat;
  if (!MayWatch(*gp, caller, &seat))
    return absl::PermissionDeniedError("a private game: seat or host credential needed");
  // The piece whose moves are asked for: its cell id, or the deprecated hex Cell as "q,r".
  std::string piece_cell = req.piece_cell();
  if (piece_cell.empty() && req.has_piece()) {
    piece_cell = absl::StrCat(req.piece().q(), ",", req.piece().r());
  }
  int perspective = req.has_perspective() ? req.perspective() : -1;
  if (perspective < 0 && seat >= 0 && gp->leader >= 0) perspective = gp->EngineSeat(seat);
  v1::GameView view =
      View(*gp, true, piece_cell.empty() ? nullptr : &piece_cell, perspective, true);
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
    v1::GameView v = View(*g, false, nullptr, -1, /*with_board=*/false);
    v.clear_rendering();
    *resp.add_games() = std::move(v);
  }
  return resp;
}

absl::StatusOr<std::vector<std::string>> GameStateCore::PeerAddresses() {
  if (options_.sole_replica) return std::vector<std::string>{};
  return store_->PeerAddresses();
}

absl::StatusOr<v1::GameRecord> GameStateCore::GetRecord(const Caller& caller,
                                                        const v1::GetRecordRequest& req) {
  auto found = Find(req.game_id());
  if (!found.ok()) return found.status();
  std::shared_ptr<Game> gp = *std::move(found);
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
    // Chess: PGN with the mover's clock after each move, from the action events' readings,
    // and the reasoning a model gave with it as the move's comment.
    std::vector<std::optional<int64_t>> clocks;
    std::vector<std::string> comments;
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
      comments.push_back(ev.annotation());
    }
    std::vector<std::pair<std::string, std::string>> tags = {
        {"Event", "Chestonia Arena"}, {"Site", "arena-game-state"}, {"Round", g.id}};
    if (rec.events_size() > 0) {
      const absl::Time created = absl::FromUnixSeconds(rec.events(0).at().seconds());
      tags.push_back({"Date", absl::FormatTime("%Y.%m.%d", created, absl::UTCTimeZone())});
      tags.push_back({"UTCDate", absl::FormatTime("%Y.%m.%d", created, absl::UTCTimeZone())});
      tags.push_back({"UTCTime", absl::FormatTime("%H:%M:%S", created, absl::UTCTimeZone())});
    }
    if (g.leader >= 0) {
      // The player and what plays the seat: a person's name, a model's id, a bot's level.
      auto name = [&](int seat) {
        const v1::SeatSpec& spec = g.seats[seat].spec;
        if (spec.kind() == v1::SEAT_KIND_MODEL) return absl::StrCat("model ", spec.model_id());
        if (spec.kind() == v1::SEAT_KIND_BOT) {
          return spec.stockfish_elo() > 0 ? absl::StrCat("Stockfish UCI_Elo ", spec.stockfish_elo())
                                          : absl::StrCat("arena-bot level ", spec.bot_level());
        }
        if (!spec.display_name().empty()) return spec.display_name();
        return absl::StrCat("seat ", seat);
      };
      // One tag per seat, named as the game names its seats ("White", "Black" for chess).
      const std::vector<engine::SeatInfo> seats = g.state->Seats();
      for (int es = 0; es < g.n() && es < static_cast<int>(seats.size()); ++es) {
        std::string tag = seats[es].name;
        if (!tag.empty())
          tag[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(tag[0])));
        tags.push_back({tag, name(g.TableSeat(es))});
      }
    }
    // PGN's TimeControl: "-" untimed, "initial+increment" in seconds, "1/seconds" per move.
    const v1::ClockSettings& clock = g.settings.clock();
    std::string time_control = "-";
    if (g.FischerClock()) {
      time_control = absl::StrCat(clock.initial_ms() / 1000, "+", clock.increment_ms() / 1000);
    } else if (g.PerMoveClock()) {
      time_control = absl::StrCat("1/", clock.per_move_ms() / 1000);
    }
    tags.push_back({"TimeControl", time_control});
    // PGN's Termination words for how the game ended.
    const v1::Outcome outcome = OutcomeOf(g);
    std::string termination = "unterminated";
    if (g.status == v1::GAME_STATUS_ABORTED || g.status == v1::GAME_STATUS_VOIDED) {
      termination = "abandoned";
    } else if (IsTerminalStatus(g.status)) {
      const std::string& why = outcome.reason();
      termination = why == "timeout"    ? "time forfeit"
                    : why == "move-cap" ? "adjudication"
                                        : "normal";
    }
    tags.push_back({"Termination", termination});
    // The service's move cap is a draw (see AfterChange); the engine never ended the game, so
    // its own result would be "*".
    std::optional<std::string> result;
    if (g.service_outcome && g.service_outcome->reason() == "move-cap")
      result = g.service_outcome->result_text();
    rec.set_pgn(
        g.state->ExportRecord({std::move(tags), std::move(clocks), result, std::move(comments)}));
  }
  return rec;
}

}  // namespace arena::game_state
