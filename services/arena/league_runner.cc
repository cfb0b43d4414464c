#include "services/arena/league_runner.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "bots/core/levels.h"
#include "common/grpc_util.h"
#include "common/log.h"
#include "common/proto_json.h"
#include "common/proto_words.h"
#include "engine/core/game.h"
#include "nlohmann/json.hpp"
#include "services/arena/league/schedule.h"
#include "services/arena/rating_store.h"

namespace arena::service {
namespace {

// The most games one round-robin league may schedule (its rows are written in one transaction).
constexpr int64_t kMaxLeagueGames = 5000;

// How many seats the league's game has; INVALID_ARGUMENT for an unknown game or variant.
absl::StatusOr<int> SeatsOf(const v1::TableSettings& s) {
  const std::string id = common::EngineGameIdOf(s);
  const engine::Game* game = engine::FindGame(id);
  if (game == nullptr) return absl::InvalidArgumentError(absl::StrCat("unknown game '", id, "'"));
  engine::Variant variant;
  for (const auto& [k, v] : s.variant().options()) variant.Set(k, v);
  if (absl::Status st = variant.CheckKeys(game->VariantKeys()); !st.ok()) return st;
  auto state = game->NewInitialState(variant);
  if (!state.ok()) return absl::InvalidArgumentError(state.status().message());
  return (*state)->NumSeats();
}

// One game's points, W/D/L for the seat with rank ranks[i].
struct SeatScore {
  double points = 0;
  char wdl = 'L';
};

SeatScore ScoreOf(const std::vector<int>& ranks, size_t i) {
  SeatScore s;
  int best = 0, ties_at_top = 0;
  bool all_equal = true;
  for (size_t j = 0; j < ranks.size(); ++j) {
    if (ranks[j] != ranks[0]) all_equal = false;
    if (ranks[j] == 0) ties_at_top++;
    if (j == i) continue;
    if (ranks[i] < ranks[j]) s.points += 1;
    if (ranks[i] == ranks[j]) s.points += 0.5;
  }
  (void)best;
  if (ranks.size() > 1) s.points /= static_cast<double>(ranks.size() - 1);
  if (all_equal || (ranks[i] == 0 && ties_at_top > 1)) {
    s.wdl = 'D';
  } else if (ranks[i] == 0) {
    s.wdl = 'W';
  }
  return s;
}

std::vector<int> RanksFromResult(const std::string& result_json, size_t seats) {
  nlohmann::json r = nlohmann::json::parse(result_json, nullptr, false);
  std::vector<int> ranks;
  if (r.is_object() && r.contains("ranks") && r["ranks"].is_array()) {
    for (const auto& x : r["ranks"]) ranks.push_back(x.get<int>());
  }
  if (ranks.size() != seats) ranks.assign(seats, 0);  // no ranking given: all level
  return ranks;
}

}  // namespace

absl::StatusOr<int64_t> ParseLeagueId(const std::string& text) {
  int64_t id = 0;
  if (!absl::SimpleAtoi(text, &id) || id <= 0) {
    return absl::InvalidArgumentError("league_id must be a positive number");
  }
  return id;
}

LeagueRunner::LeagueRunner(ServiceClients& clients, common::PgPool& pool, SeatDriver& driver,
                           absl::Duration tick)
    : clients_(clients), pool_(pool), driver_(driver), tick_(tick) {}

LeagueRunner::~LeagueRunner() {
  Stop();
}

void LeagueRunner::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void LeagueRunner::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LeagueRunner::Wake() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    wake_ = true;
  }
  cv_.notify_all();
}

void LeagueRunner::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    wake_ = false;
    lock.unlock();
    absl::Status s = Tick();
    if (!s.ok()) {
      common::LogWarning("league tick failed", {{"error", std::string(s.message())}});
    }
    lock.lock();
    cv_.wait_for(lock, absl::ToChronoMilliseconds(tick_), [&] { return stopping_ || wake_; });
  }
}

absl::Status LeagueRunner::Tick() {
  if (absl::Status s = RecordEndedGames(); !s.ok()) return s;
  if (absl::Status s = CancelRunning(); !s.ok()) return s;
  return LaunchAndFinish();
}

// --- Creating and steering ----------------------------------------------------------------

absl::StatusOr<v1::League> LeagueRunner::Create(const accounts::Principal& owner,
                                                const v1::CreateLeagueRequest& req) {
  if (req.name().empty() || req.name().size() > 100) {
    return absl::InvalidArgumentError("a league needs a name of 1..100 bytes");
  }
  auto seats = SeatsOf(req.settings());
  if (!seats.ok()) return seats.status();
  const int n = req.participants_size();
  if (n < *seats) {
    return absl::InvalidArgumentError(absl::StrCat(
        "this game seats ", *seats, "; a league needs at least that many participants"));
  }
  if (n > 64) return absl::InvalidArgumentError("at most 64 participants");
  std::vector<std::string> names;
  for (const v1::LeagueParticipant& p : req.participants()) {
    const v1::SeatSpec& s = p.spec();
    if (s.kind() == v1::SEAT_KIND_BOT) {
      const std::string game = common::EngineGameIdOf(req.settings());
      if (absl::Status st = CheckBotSeat(s, game, *seats); !st.ok()) return st;
    } else if (s.kind() == v1::SEAT_KIND_MODEL) {
      if (s.model_id().empty() || s.model_id().size() > 100)
        return absl::InvalidArgumentError("a model participant needs a model_id");
      if (s.funding() != v1::FUNDING_DONATED_CREDITS && s.funding() != v1::FUNDING_UNSPECIFIED)
        return absl::InvalidArgumentError(
            "league models are paid from donated credits (a per-game key cannot cover a league)");
    } else {
      return absl::InvalidArgumentError("league participants are bots and models");
    }
    names.push_back(ParticipantName(s));
  }
  if (std::set<std::string>(names.begin(), names.end()).size() != names.size()) {
    return absl::InvalidArgumentError("participants must differ (the same bot level twice?)");
  }
  std::string format = req.format().empty() ? "round-robin" : req.format();
  if (format != "round-robin" && format != "swiss") {
    return absl::InvalidArgumentError("format must be round-robin or swiss");
  }
  int per_pairing = req.games_per_pairing() == 0 ? 1 : req.games_per_pairing();
  int concurrency = req.concurrency() == 0 ? 2 : req.concurrency();
  int reschedules = req.max_reschedules() == 0 ? 2 : req.max_reschedules();
  if (per_pairing < 1 || per_pairing > 20)
    return absl::InvalidArgumentError("games_per_pairing: 1..20");
  if (concurrency < 1 || concurrency > 64) return absl::InvalidArgumentError("concurrency: 1..64");
  if (reschedules < 0 || reschedules > 10)
    return absl::InvalidArgumentError("max_reschedules: 0..10");
  if (format == "swiss" && (req.swiss_rounds() < 1 || req.swiss_rounds() > 50)) {
    return absl::InvalidArgumentError("a Swiss league needs swiss_rounds 1..50");
  }
  if (req.settings().move_cap() < 0)
    return absl::InvalidArgumentError("move_cap must not be negative");
  auto policy = NormalizePolicy(req.policy(), /*league=*/true);
  if (!policy.ok()) return policy.status();

  std::vector<league::Pairing> schedule;
  if (format == "round-robin") {
    // Bound the schedule before building it (docs/security.md): every seating order of every
    // group, games_per_pairing times, is n!/(n-seats)! x games_per_pairing games.
    int64_t games = per_pairing;
    for (int k = 0; k < *seats; ++k) games *= n - k;
    if (games > kMaxLeagueGames) {
      return absl::InvalidArgumentError(absl::StrCat("this league would schedule ", games,
                                                     " games; at most ", kMaxLeagueGames,
                                                     " (fewer participants or games_per_pairing)"));
    }
    auto rr = league::RoundRobin(n, *seats, per_pairing);
    if (!rr.ok()) return rr.status();
    schedule = *std::move(rr);
  } else {
    std::vector<league::SwissStanding> standings;
    for (int i = 0; i < n; ++i) standings.push_back({i, 0});
    auto round = league::PairSwissRound(0, *seats, standings,
                                        std::vector<std::vector<int>>(n, std::vector<int>(n, 0)),
                                        std::vector<int>(n, 0), req.seed());
    if (!round.ok()) return round.status();
    schedule = round->games;
  }
  v1::TableSettings settings = req.settings();
  settings.set_engine_game(common::EngineGameIdOf(settings));
  // Every league game has a cap (../shared/RULES-NOTES.md); two-seat games stopped by it are
  // adjudicated (services/arena/adjudication.h).
  if (settings.move_cap() == 0) settings.set_move_cap(kLeagueDefaultMoveCap);
  int64_t league_id = 0;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result r = txn.exec_params(
        "INSERT INTO leagues (name, owner_account, engine_game, settings_json, policy_json, "
        "format, games_per_pairing, concurrency, swiss_rounds, max_reschedules, seed) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING league_id",
        req.name(), owner.account_id, settings.engine_game(), common::ProtoToJson(settings),
        common::ProtoToJson(*policy), format, per_pairing, concurrency, req.swiss_rounds(),
        reschedules, static_cast<int64_t>(req.seed()));
    league_id = r[0][0].as<int64_t>();
    for (int i = 0; i < n; ++i) {
      txn.exec_params(
          "INSERT INTO league_participants (league_id, idx, participant, spec_json) "
          "VALUES ($1, $2, $3, $4)",
          league_id, i, names[i], common::ProtoToJson(req.participants(i).spec()));
    }
    for (size_t k = 0; k < schedule.size(); ++k) {
      txn.exec_params(
          "INSERT INTO league_games (league_id, slot, round, order_json) VALUES ($1, $2, $3, $4)",
          league_id, static_cast<int>(k), schedule[k].round,
          nlohmann::json(schedule[k].order).dump());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  common::LogInfo(
      "league created",
      {{"league_id", league_id}, {"games", schedule.size()}, {"owner", owner.account_id}});
  return Get(std::to_string(league_id));
}

absl::StatusOr<v1::League> LeagueRunner::Transition(const accounts::Principal& who,
                                                    const std::string& league_text,
                                                    const std::string& verb) {
  auto id = ParseLeagueId(league_text);
  if (!id.ok()) return id.status();
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    pqxx::result r = txn.exec_params(
        "SELECT owner_account, state FROM leagues WHERE league_id = $1 FOR UPDATE", *id);
    if (r.empty()) return absl::NotFoundError("no such league");
    if (r[0][0].as<std::string>() != who.account_id && !who.is_admin()) {
      return absl::PermissionDeniedError("only the league's creator or an admin may do that");
    }
    const std::string state = r[0][1].as<std::string>();
    std::string next;
    if (verb == "start" && state == "created") next = "running";
    if (verb == "pause" && state == "running") next = "paused";
    if (verb == "resume" && state == "paused") next = "running";
    if (verb == "cancel" && (state == "created" || state == "running" || state == "paused"))
      next = "cancelled";
    if (next.empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot ", verb, " a league that is ", state));
    }
    txn.exec_params("UPDATE leagues SET state = $2 WHERE league_id = $1", *id, next);
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  Wake();
  return Get(league_text);
}

absl::StatusOr<v1::League> LeagueRunner::Get(const std::string& league_text) {
  auto id = ParseLeagueId(league_text);
  if (!id.ok()) return id.status();
  v1::League out;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    out.Clear();
    pqxx::result r = txn.exec_params(
        "SELECT name, state, format, engine_game, owner_account FROM leagues "
        "WHERE league_id = $1",
        *id);
    if (r.empty()) return absl::NotFoundError("no such league");
    out.set_league_id(std::to_string(*id));
    out.set_name(r[0][0].as<std::string>());
    out.set_state(r[0][1].as<std::string>());
    out.set_format(r[0][2].as<std::string>());
    out.set_engine_game(r[0][3].as<std::string>());
    out.set_owner_account(r[0][4].as<std::string>());
    for (const auto& row : txn.exec_params(
             "SELECT participant FROM league_participants WHERE league_id = $1 ORDER BY idx",
             *id)) {
      out.add_participants(row[0].as<std::string>());
    }
    for (const auto& row : txn.exec_params(
             "SELECT state, count(*) FROM league_games WHERE league_id = $1 GROUP BY state", *id)) {
      const std::string st = row[0].as<std::string>();
      const int c = row[1].as<int>();
      out.set_games_total(out.games_total() + c);
      if (st == "finished") out.set_games_finished(c);
      if (st == "voided") out.set_games_voided(c);
      if (st == "running") out.set_games_running(c);
      if (st == "abandoned") out.set_games_abandoned(c);
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  return out;
}

absl::StatusOr<std::vector<v1::League>> LeagueRunner::List(int limit) {
  if (limit <= 0 || limit > 500) limit = 50;
  std::vector<std::string> ids;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    ids.clear();
    for (const auto& row :
         txn.exec_params("SELECT league_id FROM leagues ORDER BY league_id DESC LIMIT $1", limit)) {
      ids.push_back(row[0].as<std::string>());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  std::vector<v1::League> out;
  for (const std::string& id : ids) {
    auto l = Get(id);
    if (l.ok()) out.push_back(*std::move(l));
  }
  return out;
}

absl::StatusOr<v1::StandingsResponse> LeagueRunner::Standings(const std::string& league_text) {
  auto league = Get(league_text);
  if (!league.ok()) return league.status();
  v1::StandingsResponse out;
  *out.mutable_league() = *league;
  std::vector<v1::Standing> rows(league->participants_size());
  for (int i = 0; i < league->participants_size(); ++i) {
    rows[i].set_participant(league->participants(i));
  }
  const int64_t id = *ParseLeagueId(league_text);
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    for (auto& r : rows) {
      r.set_points(0);
      r.set_wins(0);
      r.set_draws(0);
      r.set_losses(0);
      r.set_games(0);
    }
    for (const auto& row : txn.exec_params("SELECT order_json, ranks_json FROM league_games "
                                           "WHERE league_id = $1 AND state = 'finished'",
                                           id)) {
      auto order = nlohmann::json::parse(row[0].as<std::string>()).get<std::vector<int>>();
      auto ranks = nlohmann::json::parse(row[1].as<std::string>()).get<std::vector<int>>();
      if (order.size() != ranks.size()) continue;
      for (size_t seat = 0; seat < order.size(); ++seat) {
        if (order[seat] < 0 || order[seat] >= static_cast<int>(rows.size())) continue;
        v1::Standing& st = rows[order[seat]];
        SeatScore sc = ScoreOf(ranks, seat);
        st.set_points(st.points() + sc.points);
        st.set_games(st.games() + 1);
        if (sc.wdl == 'W') st.set_wins(st.wins() + 1);
        if (sc.wdl == 'D') st.set_draws(st.draws() + 1);
        if (sc.wdl == 'L') st.set_losses(st.losses() + 1);
      }
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  std::stable_sort(rows.begin(), rows.end(), [](const v1::Standing& a, const v1::Standing& b) {
    if (a.points() != b.points()) return a.points() > b.points();
    return a.wins() > b.wins();
  });
  for (auto& r : rows) *out.add_standings() = r;
  return out;
}

// --- The loop ----------------------------------------------------------------------------

absl::Status LeagueRunner::RecordEndedGames() {
  struct Ended {
    int64_t league_id;
    int slot;
  };
  std::vector<Ended> ended;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    ended.clear();
    for (const auto& row : txn.exec(
             "SELECT lg.league_id, lg.slot FROM league_games lg "
             "JOIN driven_tables t ON t.game_id = lg.game_id "
             "WHERE lg.state = 'running' AND t.state <> 'active' ORDER BY lg.league_id, lg.slot")) {
      ended.push_back({row[0].as<int64_t>(), row[1].as<int>()});
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  for (const Ended& e : ended) {
    s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
      pqxx::result r = txn.exec_params(
          "SELECT lg.state, lg.order_json, lg.attempt, lg.round, lg.game_id, t.state, "
          "coalesce(t.result_json, '{}'), l.state, l.max_reschedules, l.engine_game "
          "FROM league_games lg JOIN driven_tables t ON t.game_id = lg.game_id "
          "JOIN leagues l ON l.league_id = lg.league_id "
          "WHERE lg.league_id = $1 AND lg.slot = $2 FOR UPDATE OF lg",
          e.league_id, e.slot);
      if (r.empty() || r[0][0].as<std::string>() != "running") return absl::OkStatus();
      const std::string order_json = r[0][1].as<std::string>();
      const int attempt = r[0][2].as<int>();
      const int round = r[0][3].as<int>();
      const std::string game_id = r[0][4].as<std::string>();
      const std::string table_state = r[0][5].as<std::string>();
      const std::string result_json = r[0][6].as<std::string>();
      const std::string league_state = r[0][7].as<std::string>();
      const int max_reschedules = r[0][8].as<int>();
      const std::string engine_game = r[0][9].as<std::string>();
      auto order = nlohmann::json::parse(order_json).get<std::vector<int>>();
      nlohmann::json result = nlohmann::json::parse(result_json, nullptr, false);
      std::string reason = result.is_object() ? result.value("reason", "") : "";
      if (table_state == "finished") {
        std::vector<int> ranks = RanksFromResult(result_json, order.size());
        txn.exec_params(
            "UPDATE league_games SET state = 'finished', ranks_json = $3, reason = $4 "
            "WHERE league_id = $1 AND slot = $2",
            e.league_id, e.slot, nlohmann::json(ranks).dump(), reason);
        std::vector<std::string> names;
        for (int idx : order) {
          pqxx::result p = txn.exec_params(
              "SELECT participant FROM league_participants WHERE league_id = $1 AND idx = $2",
              e.league_id, idx);
          names.push_back(p.empty() ? "?" : p[0][0].as<std::string>());
        }
        auto rated = RecordRatedResult(txn, game_id, engine_game, e.league_id, names, ranks);
        if (!rated.ok()) return rated.status();
        return absl::OkStatus();
      }
      // Voided or aborted: replay the pairing while the league allows it.
      std::string next = "abandoned";
      if (league_state == "cancelled") {
        next = "cancelled";
      } else if (attempt < max_reschedules) {
        next = "voided";
        txn.exec_params(
            "INSERT INTO league_games (league_id, slot, round, order_json, replay_of, attempt) "
            "SELECT $1, coalesce(max(slot), -1) + 1, $2, $3, $4, $5 FROM league_games "
            "WHERE league_id = $1",
            e.league_id, round, order_json, e.slot, attempt + 1);
      }
      txn.exec_params(
          "UPDATE league_games SET state = $3, reason = $4 WHERE league_id = $1 AND slot = $2",
          e.league_id, e.slot, next, reason.empty() ? table_state : reason);
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    common::LogInfo("league game recorded", {{"league_id", e.league_id}, {"slot", e.slot}});
  }
  return absl::OkStatus();
}

absl::Status LeagueRunner::CancelRunning() {
  std::vector<std::string> running;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    running.clear();
    txn.exec(
        "UPDATE league_games lg SET state = 'cancelled' FROM leagues l "
        "WHERE l.league_id = lg.league_id AND l.state = 'cancelled' AND lg.state = 'scheduled'");
    for (const auto& row :
         txn.exec("SELECT lg.game_id FROM league_games lg JOIN leagues l USING (league_id) "
                  "JOIN driven_tables t ON t.game_id = lg.game_id "
                  "WHERE l.state = 'cancelled' AND lg.state = 'running' AND t.state = 'active'")) {
      running.push_back(row[0].as<std::string>());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  for (const std::string& game_id : running) {
    grpc::ClientContext ctx;
    clients_.Prepare(ctx, absl::Seconds(5));
    v1::VoidGameRequest req;
    req.set_game_id(game_id);
    req.set_reason("league-cancelled");
    v1::GameView view;
    (void)clients_.game_state().VoidGame(&ctx, req, &view);  // the driver records the end
  }
  return absl::OkStatus();
}

absl::Status LeagueRunner::LaunchAndFinish() {
  struct Work {
    int64_t league_id;
    std::vector<int> slots;
  };
  std::vector<Work> work;
  std::vector<int64_t> swiss_due;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    work.clear();
    swiss_due.clear();
    for (const auto& l :
         txn.exec("SELECT league_id, concurrency, format, swiss_rounds, "
                  "(SELECT count(*) FROM league_games g WHERE g.league_id = l.league_id "
                  "  AND g.state = 'running'), "
                  "(SELECT coalesce(max(round), -1) FROM league_games g "
                  "  WHERE g.league_id = l.league_id) "
                  "FROM leagues l WHERE state = 'running'")) {
      const int64_t id = l[0].as<int64_t>();
      const int concurrency = l[1].as<int>();
      const bool swiss = l[2].as<std::string>() == "swiss";
      const int rounds = l[3].as<int>();
      const int running = l[4].as<int>();
      const int last_round = l[5].as<int>();
      Work w{id, {}};
      for (const auto& g : txn.exec_params(
               "SELECT slot FROM league_games WHERE league_id = $1 AND state = 'scheduled' "
               "ORDER BY slot LIMIT $2",
               id, std::max(0, concurrency - running))) {
        w.slots.push_back(g[0].as<int>());
      }
      pqxx::result pending = txn.exec_params(
          "SELECT count(*) FROM league_games WHERE league_id = $1 "
          "AND state IN ('scheduled', 'running')",
          id);
      if (pending[0][0].as<int>() == 0) {
        if (swiss && last_round + 1 < rounds) {
          swiss_due.push_back(id);
        } else {
          txn.exec_params("UPDATE leagues SET state = 'finished' WHERE league_id = $1", id);
          common::LogInfo("league finished", {{"league_id", id}});
        }
      }
      if (!w.slots.empty()) work.push_back(std::move(w));
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  for (int64_t id : swiss_due) {
    s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
      // Another arena replica may be pairing this league at the same moment: lock the league,
      // then look again (a statement after the lock sees what it committed) and leave the
      // round to it if it was first.
      txn.exec_params("SELECT 1 FROM leagues WHERE league_id = $1 FOR UPDATE", id);
      pqxx::result open = txn.exec_params(
          "SELECT count(*) FROM league_games WHERE league_id = $1 "
          "AND state IN ('scheduled', 'running')",
          id);
      if (open[0][0].as<int>() > 0) return absl::OkStatus();
      pqxx::result l = txn.exec_params(
          "SELECT seed, (SELECT coalesce(max(round), -1) FROM league_games g "
          "WHERE g.league_id = l.league_id), "
          "(SELECT count(*) FROM league_participants p WHERE p.league_id = l.league_id), "
          "settings_json FROM leagues l WHERE league_id = $1 FOR UPDATE",
          id);
      const uint64_t seed = static_cast<uint64_t>(l[0][0].as<int64_t>());
      const int round = l[0][1].as<int>() + 1;
      const int n = l[0][2].as<int>();
      v1::TableSettings settings;
      common::ProtoFromJson(l[0][3].as<std::string>(), &settings);
      auto seats = SeatsOf(settings);
      if (!seats.ok()) return seats.status();
      std::vector<league::SwissStanding> standings(n);
      std::vector<std::vector<int>> met(n, std::vector<int>(n, 0));
      std::vector<int> led(n, 0);
      for (int i = 0; i < n; ++i) standings[i].participant = i;
      for (const auto& g : txn.exec_params(
               "SELECT order_json, ranks_json, state FROM league_games WHERE league_id = $1", id)) {
        auto order = nlohmann::json::parse(g[0].as<std::string>()).get<std::vector<int>>();
        if (order.empty()) continue;
        led[order[0]]++;
        for (int a : order)
          for (int b : order)
            if (a != b) met[a][b]++;
        if (g[2].as<std::string>() != "finished") continue;
        auto ranks = nlohmann::json::parse(g[1].as<std::string>()).get<std::vector<int>>();
        for (size_t seat = 0; seat < order.size() && seat < ranks.size(); ++seat) {
          standings[order[seat]].points += ScoreOf(ranks, seat).points;
        }
      }
      auto paired = league::PairSwissRound(round, *seats, standings, met, led, seed);
      if (!paired.ok()) return paired.status();
      pqxx::result next = txn.exec_params(
          "SELECT coalesce(max(slot), -1) + 1 FROM league_games "
          "WHERE league_id = $1",
          id);
      int slot = next[0][0].as<int>();
      for (const league::Pairing& p : paired->games) {
        txn.exec_params(
            "INSERT INTO league_games (league_id, slot, round, order_json) VALUES ($1, $2, $3, $4)",
            id, slot++, round, nlohmann::json(p.order).dump());
      }
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
  }
  for (const Work& w : work) {
    for (int slot : w.slots) {
      absl::Status launched = Launch(w.league_id, slot);
      if (!launched.ok()) {
        common::LogWarning("league game not launched; retrying",
                           {{"league_id", w.league_id},
                            {"slot", slot},
                            {"error", std::string(launched.message())}});
        break;
      }
    }
  }
  return absl::OkStatus();
}

absl::Status LeagueRunner::Launch(int64_t league_id, int slot) {
  // One transaction holds the slot's row from the check to the record, and every arena replica
  // looks for it with SKIP LOCKED: a slot another replica is launching right now is left to it,
  // so two replicas never create its table at once. If this process dies in between, the lock
  // goes with its connection and game-state's idempotency key hands the next launcher the same
  // table.
  DrivenTable table;
  absl::Status s = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    table = DrivenTable();
    pqxx::result g = txn.exec_params(
        "SELECT order_json FROM league_games WHERE league_id = $1 AND slot = $2 "
        "AND state = 'scheduled' FOR UPDATE SKIP LOCKED",
        league_id, slot);
    if (g.empty()) return absl::OkStatus();  // launched already, or being launched elsewhere
    pqxx::result l = txn.exec_params(
        "SELECT settings_json, policy_json, owner_account, engine_game FROM leagues "
        "WHERE league_id = $1",
        league_id);
    if (l.empty()) return absl::NotFoundError("league vanished");
    common::ProtoFromJson(l[0][0].as<std::string>(), &table.settings);
    common::ProtoFromJson(l[0][1].as<std::string>(), &table.policy);
    const std::string owner = l[0][2].as<std::string>();
    table.engine_game = l[0][3].as<std::string>();
    const auto order = nlohmann::json::parse(g[0][0].as<std::string>()).get<std::vector<int>>();
    for (size_t seat = 0; seat < order.size(); ++seat) {
      pqxx::result p = txn.exec_params(
          "SELECT participant, spec_json FROM league_participants "
          "WHERE league_id = $1 AND idx = $2",
          league_id, order[seat]);
      if (p.empty()) return absl::DataLossError("league participant missing");
      DrivenSeat d;
      d.seat = static_cast<int>(seat);
      d.participant = p[0][0].as<std::string>();
      common::ProtoFromJson(p[0][1].as<std::string>(), &d.spec);
      if (d.spec.kind() == v1::SEAT_KIND_MODEL) {
        d.spec.set_funding(v1::FUNDING_DONATED_CREDITS);
        d.spec.set_account_id(owner);
        d.owner_account = owner;
      }
      d.spec.set_display_name(d.participant);
      table.seats.push_back(std::move(d));
    }

    table.settings.set_league_id(std::to_string(league_id));
    table.settings.set_rated(true);
    table.settings.set_is_public(true);
    v1::CreateTableRequest create;
    *create.mutable_settings() = table.settings;
    for (const DrivenSeat& d : table.seats) *create.add_seats() = GameStateSeat(d.spec);
    create.set_fixed_leader(0);  // the schedule's first seat leads
    create.set_idempotency_key(absl::StrCat("league:", league_id, ":slot:", slot));
    v1::CreateTableResponse created;
    grpc::ClientContext ctx;
    clients_.Prepare(ctx, absl::Seconds(10));
    grpc::Status gs = clients_.game_state().CreateTable(&ctx, create, &created);
    if (!gs.ok()) return common::FromGrpc(gs);
    table.game_id = created.game_id();
    table.league_id = league_id;
    table.slot = slot;
    SeatDriver::Record(txn, table);
    txn.exec_params(
        "UPDATE league_games SET state = 'running', game_id = $3 "
        "WHERE league_id = $1 AND slot = $2",
        league_id, slot, table.game_id);
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  if (table.game_id.empty()) return absl::OkStatus();
  common::LogInfo("league game started",
                  {{"league_id", league_id}, {"slot", slot}, {"game_id", table.game_id}});
  driver_.Offer(table.game_id);  // whichever replica has room drives it
  return absl::OkStatus();
}

}  // namespace arena::service
