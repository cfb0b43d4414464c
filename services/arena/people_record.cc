#include "services/arena/people_record.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "services/arena/rating_store.h"

namespace arena::service {
namespace {

constexpr double kAnchorDeviation = 60.0;  // a bot at a fixed level: its strength is known

constexpr char kEnsureRating[] =
    "INSERT INTO person_ratings (account_id, engine_game, time_control, rating, deviation, "
    "volatility) VALUES ($1, $2, $3, 1500, 350, 0.06) ON CONFLICT DO NOTHING";
constexpr char kLockRating[] =
    "SELECT rating, deviation, volatility, games FROM person_ratings "
    "WHERE account_id = $1 AND engine_game = $2 AND time_control = $3 FOR UPDATE";
constexpr char kReadRating[] =
    "SELECT rating, deviation, volatility, games FROM person_ratings "
    "WHERE account_id = $1 AND engine_game = $2 AND time_control = $3";
constexpr char kUpdateRating[] =
    "UPDATE person_ratings SET rating = $4, deviation = $5, volatility = $6, games = games + 1 "
    "WHERE account_id = $1 AND engine_game = $2 AND time_control = $3";
constexpr char kInsertAccountGame[] =
    "INSERT INTO account_games (account_id, game_id, seat, engine_game, time_control, result, "
    "result_text, reason, opponents_json, is_public, rated, rating_before, rating_after) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) "
    "ON CONFLICT DO NOTHING RETURNING account_id";
constexpr char kAlreadyRecorded[] = "SELECT 1 FROM account_games WHERE game_id = $1 LIMIT 1";
constexpr char kHolderNames[] =
    "SELECT seat, holder_name FROM table_seats WHERE game_id = $1 ORDER BY seat";
constexpr char kRatingsOf[] =
    "SELECT engine_game, time_control, rating, deviation, volatility, games "
    "FROM person_ratings WHERE account_id = $1 ORDER BY engine_game, time_control";
constexpr char kGamesOf[] =
    "SELECT game_id, engine_game, time_control, seat, result, result_text, reason, "
    "       opponents_json, rated, rating_before, rating_after, "
    "       extract(epoch FROM finished_at)::bigint "
    "FROM account_games WHERE account_id = $1 AND ($2 OR is_public) "
    "ORDER BY finished_at DESC, game_id LIMIT $3";

std::string Seconds(int64_t ms) {
  if (ms % 1000 == 0) return absl::StrCat(ms / 1000, "s");
  return absl::StrCat(ms, "ms");
}

v1::PersonRating ToProto(const std::string& engine_game, const std::string& tc,
                         const ratings::Glicko2Rating& r, int games) {
  v1::PersonRating out;
  out.set_engine_game(engine_game);
  out.set_time_control(tc);
  out.set_rating(r.rating);
  out.set_deviation(r.deviation);
  out.set_volatility(r.volatility);
  out.set_games(games);
  out.set_provisional(r.deviation > kProvisionalDeviation);
  out.set_label(RatingLabel(r));
  return out;
}

bool Person(const DrivenSeat& s) {
  return s.spec.kind() == v1::SEAT_KIND_HUMAN || s.spec.kind() == v1::SEAT_KIND_GUEST;
}

}  // namespace

std::string TimeControlName(const v1::ClockSettings& c) {
  std::string name;
  if (c.initial_ms() > 0) {
    name = c.initial_ms() % 60000 == 0 ? absl::StrCat(c.initial_ms() / 60000)
                                       : Seconds(c.initial_ms());
    name += "+" + (c.increment_ms() % 1000 == 0 ? absl::StrCat(c.increment_ms() / 1000)
                                                : Seconds(c.increment_ms()));
  } else if (c.per_move_ms() > 0) {
    name = "per-move " + Seconds(c.per_move_ms());
  } else {
    name = "untimed";
  }
  if (c.ranked()) name += " ranked";
  return name;
}

std::string RatingLabel(const ratings::Glicko2Rating& r) {
  std::string label = absl::StrCat(static_cast<int>(std::lround(r.rating)));
  if (r.deviation > kProvisionalDeviation) label += "?";
  return label;
}

v1::PersonRating PersonRatingOf(pqxx::transaction_base& txn, const std::string& account_id,
                                const std::string& engine_game, const std::string& tc) {
  pqxx::result r = txn.exec_params(kReadRating, account_id, engine_game, tc);
  if (r.empty()) return ToProto(engine_game, tc, ratings::Glicko2Rating{}, 0);
  return ToProto(engine_game, tc,
                 {r[0][0].as<double>(), r[0][1].as<double>(), r[0][2].as<double>()},
                 r[0][3].as<int>());
}

absl::Status RecordPeopleGame(pqxx::transaction_base& txn, const DrivenTable& table,
                              v1::GameStatus status, const v1::Outcome& outcome) {
  std::vector<int> accounts;  // table seats held by an account
  for (size_t i = 0; i < table.seats.size(); ++i) {
    const DrivenSeat& s = table.seats[i];
    if (s.spec.kind() == v1::SEAT_KIND_HUMAN && !s.owner_account.empty()) accounts.push_back(i);
  }
  if (accounts.empty()) return absl::OkStatus();
  if (!txn.exec_params(kAlreadyRecorded, table.game_id).empty()) return absl::OkStatus();

  std::map<int, std::string> names;
  for (const auto& r : txn.exec_params(kHolderNames, table.game_id)) {
    names[r[0].as<int>()] = r[1].as<std::string>();
  }
  auto name_of = [&](int seat) {
    const DrivenSeat& s = table.seats[seat];
    auto it = names.find(seat);
    if (it != names.end() && !it->second.empty()) return it->second;
    return s.spec.display_name().empty() ? s.participant : s.spec.display_name();
  };
  const std::string tc = TimeControlName(table.settings.clock());
  const int n = static_cast<int>(table.seats.size());
  const bool finished = status == v1::GAME_STATUS_FINISHED && outcome.ranks_size() == n && n >= 2;

  // Ratings before the game, rows locked in account order (no deadlock between games).
  std::map<std::string, ratings::Glicko2Rating> before;
  if (finished) {
    std::vector<std::string> ids;
    for (int seat : accounts) ids.push_back(table.seats[seat].owner_account);
    std::sort(ids.begin(), ids.end());
    for (const std::string& id : ids) {
      if (before.count(id)) continue;
      txn.exec_params(kEnsureRating, id, table.engine_game, tc);
      pqxx::result r = txn.exec_params(kLockRating, id, table.engine_game, tc);
      before[id] = {r[0][0].as<double>(), r[0][1].as<double>(), r[0][2].as<double>()};
    }
  }
  auto opponent_rating = [&](int seat) {
    const DrivenSeat& s = table.seats[seat];
    if (s.spec.kind() == v1::SEAT_KIND_HUMAN && before.count(s.owner_account)) {
      return before[s.owner_account];
    }
    if (std::optional<double> anchor = AnchorRating(s.participant)) {
      return ratings::Glicko2Rating{*anchor, kAnchorDeviation, 0.06};
    }
    return ratings::Glicko2Rating{};  // guests and models: unknown strength
  };
  std::vector<std::vector<ratings::PairwiseScore>> pairwise;
  if (finished) {
    pairwise = ratings::PairwiseResults({outcome.ranks().begin(), outcome.ranks().end()});
  }

  for (int seat : accounts) {
    const DrivenSeat& me = table.seats[seat];
    nlohmann::json opponents = nlohmann::json::array();
    for (int j = 0; j < n; ++j) {
      if (j == seat) continue;
      const DrivenSeat& o = table.seats[j];
      opponents.push_back(
          {{"seat", j},
           {"kind", static_cast<int>(o.spec.kind())},
           {"participant", o.participant},
           {"name",
            Person(o) || o.spec.display_name().empty() ? name_of(j) : o.spec.display_name()}});
    }
    std::string result = "voided";
    if (status == v1::GAME_STATUS_ABORTED) result = "aborted";
    bool rated = false;
    double rating_before = 0, rating_after = 0;
    if (finished) {
      // Win: alone at the top. Draw: sharing the top. Loss: anything below it.
      const int mine = outcome.ranks(seat);
      const int best = *std::min_element(outcome.ranks().begin(), outcome.ranks().end());
      const int at_best =
          static_cast<int>(std::count(outcome.ranks().begin(), outcome.ranks().end(), best));
      result = mine != best ? "loss" : (at_best == 1 ? "win" : "draw");
      std::vector<ratings::Glicko2Result> games;
      for (const ratings::PairwiseScore& ps : pairwise[seat]) {
        if (table.seats[ps.opponent].owner_account == me.owner_account &&
            table.seats[ps.opponent].spec.kind() == v1::SEAT_KIND_HUMAN) {
          continue;  // an account against itself moves nothing
        }
        games.push_back({opponent_rating(ps.opponent), ps.score});
      }
      const ratings::Glicko2Rating old = before[me.owner_account];
      ratings::Glicko2Rating now = ratings::Glicko2Update(old, games);
      rated = !games.empty();
      rating_before = old.rating;
      rating_after = rated ? now.rating : old.rating;
      if (rated) {
        txn.exec_params(kUpdateRating, me.owner_account, table.engine_game, tc, now.rating,
                        now.deviation, now.volatility);
      }
    }
    txn.exec_params(kInsertAccountGame, me.owner_account, table.game_id, seat, table.engine_game,
                    tc, result, outcome.result_text(), outcome.reason(), opponents.dump(),
                    table.settings.is_public(), rated, rating_before, rating_after);
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::AccountRecord> LoadAccountRecord(pqxx::transaction_base& txn,
                                                    const std::string& account_id, bool all,
                                                    int limit) {
  v1::AccountRecord out;
  out.set_account_id(account_id);
  for (const auto& r : txn.exec_params(kRatingsOf, account_id)) {
    *out.add_ratings() =
        ToProto(r[0].as<std::string>(), r[1].as<std::string>(),
                {r[2].as<double>(), r[3].as<double>(), r[4].as<double>()}, r[5].as<int>());
  }
  for (const auto& r : txn.exec_params(kGamesOf, account_id, all, limit)) {
    v1::RecordedGame* g = out.add_games();
    g->set_game_id(r[0].as<std::string>());
    g->set_engine_game(r[1].as<std::string>());
    g->set_time_control(r[2].as<std::string>());
    g->set_seat(r[3].as<int>());
    g->set_result(r[4].as<std::string>());
    g->set_result_text(r[5].as<std::string>());
    g->set_reason(r[6].as<std::string>());
    nlohmann::json opponents = nlohmann::json::parse(r[7].as<std::string>(), nullptr, false);
    if (opponents.is_array()) {
      for (const auto& o : opponents) {
        v1::TableOpponent* t = g->add_opponents();
        t->set_seat(o.value("seat", 0));
        t->set_kind(static_cast<v1::SeatKind>(o.value("kind", 0)));
        t->set_participant(o.value("participant", ""));
        t->set_name(o.value("name", ""));
      }
    }
    g->set_record_link(absl::StrCat("/games/", g->game_id(), "/record"));
    g->set_rated(r[8].as<bool>());
    g->set_rating_before(r[9].as<double>());
    g->set_rating_after(r[10].as<double>());
    g->mutable_finished_at()->set_seconds(r[11].as<int64_t>());
  }
  return out;
}

}  // namespace arena::service
