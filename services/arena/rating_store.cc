#include "services/arena/rating_store.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "services/arena/ratings/bradley_terry.h"
#include "services/arena/ratings/glicko2.h"

namespace arena::service {

double BotAnchorRating(int level) {
  return 800.0 + 150.0 * level;
}

absl::StatusOr<bool> RecordRatedResult(pqxx::transaction_base& txn, const std::string& game_id,
                                       const std::string& engine_game,
                                       std::optional<int64_t> league_id,
                                       const std::vector<std::string>& participants,
                                       const std::vector<int>& ranks) {
  if (participants.size() != ranks.size() || participants.size() < 2) {
    return absl::InvalidArgumentError("a rated result needs a rank for every seat");
  }
  pqxx::result inserted = txn.exec_params(
      "INSERT INTO rated_results (game_id, engine_game, league_id, participants_json, "
      "ranks_json) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO NOTHING "
      "RETURNING game_id",
      game_id, engine_game, league_id, nlohmann::json(participants).dump(),
      nlohmann::json(ranks).dump());
  if (inserted.empty()) return false;

  // Everyone's rating before the game, rows locked in name order (no deadlock between games).
  std::vector<std::string> sorted = participants;
  std::sort(sorted.begin(), sorted.end());
  std::map<std::string, ratings::Glicko2Rating> before;
  std::map<std::string, int> games;
  for (const std::string& p : sorted) {
    if (before.count(p)) continue;
    txn.exec_params(
        "INSERT INTO ratings (engine_game, participant, rating, deviation, volatility) "
        "VALUES ($1, $2, 1500, 350, 0.06) ON CONFLICT DO NOTHING",
        engine_game, p);
    pqxx::result r = txn.exec_params(
        "SELECT rating, deviation, volatility, games FROM ratings "
        "WHERE engine_game = $1 AND participant = $2 FOR UPDATE",
        engine_game, p);
    before[p] = {r[0][0].as<double>(), r[0][1].as<double>(), r[0][2].as<double>()};
    games[p] = r[0][3].as<int>();
  }
  auto pairwise = ratings::PairwiseResults(ranks);
  for (size_t i = 0; i < participants.size(); ++i) {
    std::vector<ratings::Glicko2Result> results;
    for (const ratings::PairwiseScore& ps : pairwise[i]) {
      if (participants[ps.opponent] == participants[i]) continue;
      results.push_back({before[participants[ps.opponent]], ps.score});
    }
    ratings::Glicko2Rating after = ratings::Glicko2Update(before[participants[i]], results);
    txn.exec_params(
        "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, games = games + 1 "
        "WHERE engine_game = $1 AND participant = $2",
        engine_game, participants[i], after.rating, after.deviation, after.volatility);
  }
  return true;
}

std::optional<double> AnchorRating(const std::string& participant) {
  int value = 0;
  if (absl::StartsWith(participant, "bot:") && absl::SimpleAtoi(participant.substr(4), &value)) {
    return BotAnchorRating(value);
  }
  if (absl::StartsWith(participant, "stockfish:") &&
      absl::SimpleAtoi(participant.substr(10), &value)) {
    return static_cast<double>(value);
  }
  return std::nullopt;
}

absl::StatusOr<v1::LeaderboardResponse> Leaderboard(common::PgPool& pool,
                                                    const std::string& engine_game) {
  std::vector<std::string> names;
  std::map<std::string, int> index;
  std::vector<ratings::PairResult> pairs;
  std::map<std::string, v1::Rating> glicko;
  std::map<std::string, int> games, adjudicated;
  absl::Status s = pool.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    names.clear();
    index.clear();
    pairs.clear();
    glicko.clear();
    games.clear();
    adjudicated.clear();
    auto id_of = [&](const std::string& p) {
      auto [it, added] = index.emplace(p, static_cast<int>(names.size()));
      if (added) names.push_back(p);
      return it->second;
    };
    for (const auto& row :
         txn.exec_params("SELECT r.participants_json, r.ranks_json, "
                         "coalesce((t.result_json::jsonb ->> 'adjudicated')::boolean, false) "
                         "FROM rated_results r LEFT JOIN driven_tables t ON t.game_id = r.game_id "
                         "WHERE r.engine_game = $1 ORDER BY r.created_at, r.game_id",
                         engine_game)) {
      auto ps = nlohmann::json::parse(row[0].as<std::string>()).get<std::vector<std::string>>();
      auto ranks = nlohmann::json::parse(row[1].as<std::string>()).get<std::vector<int>>();
      if (ps.size() != ranks.size()) continue;
      const bool adj = row[2].as<bool>();
      std::set<std::string> seen;
      for (const std::string& p : ps) {
        if (!seen.insert(p).second) continue;
        ++games[p];
        if (adj) ++adjudicated[p];
      }
      auto pairwise = ratings::PairwiseResults(ranks);
      for (size_t i = 0; i < ps.size(); ++i) {
        for (const ratings::PairwiseScore& sc : pairwise[i]) {
          // Each unordered pair once: from the lower seat's side.
          if (sc.opponent <= static_cast<int>(i) || ps[sc.opponent] == ps[i]) continue;
          pairs.push_back({id_of(ps[i]), id_of(ps[sc.opponent]), sc.score});
        }
      }
    }
    for (const auto& row : txn.exec_params(
             "SELECT participant, rating, deviation FROM ratings WHERE engine_game = $1",
             engine_game)) {
      v1::Rating r;
      r.set_participant(row[0].as<std::string>());
      r.set_glicko_rating(row[1].as<double>());
      r.set_glicko_rd(row[2].as<double>());
      glicko[r.participant()] = r;
      id_of(r.participant());
    }
    return absl::OkStatus();
  });
  if (!s.ok()) return s;
  std::vector<ratings::BtParticipant> people(names.size());
  double anchor_sum = 0;
  int anchors = 0;
  std::set<std::string> anchor_kinds;
  for (size_t i = 0; i < names.size(); ++i) {
    people[i].anchor = AnchorRating(names[i]);
    if (people[i].anchor) {
      anchor_sum += *people[i].anchor;
      ++anchors;
      anchor_kinds.insert(names[i].substr(0, names[i].find(':')));
    }
  }
  // The prior is centred among the anchors this game has, so a participant with few games
  // starts in the middle of the known scale; it is weak (sd 400) and fades as games add up.
  ratings::BtOptions options;
  options.prior_rating = anchors > 0 ? anchor_sum / anchors : 1500.0;
  options.prior_sd = 400.0;
  auto fit = ratings::FitBradleyTerry(people, pairs, options);
  if (!fit.ok()) return fit.status();
  v1::LeaderboardResponse out;
  std::string scale = "Bradley-Terry on the Elo scale";
  if (anchor_kinds.count("stockfish")) {
    absl::StrAppend(&scale, ", anchored on Stockfish at its UCI_Elo");
    if (anchor_kinds.count("bot")) absl::StrAppend(&scale, " and on bot levels at 800+150*level");
  } else if (anchor_kinds.count("bot")) {
    absl::StrAppend(&scale, ", anchored on bot levels at 800+150*level");
  } else {
    absl::StrAppend(&scale, ", no anchors: centred on 1500");
  }
  absl::StrAppend(&scale, "; prior N(", static_cast<int>(std::lround(options.prior_rating)),
                  ", 400^2)");
  out.set_scale(scale);
  for (size_t i = 0; i < names.size(); ++i) {
    v1::Rating r;
    // An anchor's Glicko-2 figure drifts with its results; its rating is the anchor's.
    if (!people[i].anchor && glicko.count(names[i])) r = glicko[names[i]];
    r.set_participant(names[i]);
    r.set_games(games[names[i]]);
    r.set_adjudicated_games(adjudicated[names[i]]);
    r.set_bt_rating((*fit)[i].rating);
    r.set_bt_low95((*fit)[i].low95);
    r.set_bt_high95((*fit)[i].high95);
    r.set_anchor(people[i].anchor.has_value());
    *out.add_ratings() = r;
  }
  std::sort(out.mutable_ratings()->begin(), out.mutable_ratings()->end(),
            [](const v1::Rating& a, const v1::Rating& b) { return a.bt_rating() > b.bt_rating(); });
  return out;
}

}  // namespace arena::service
