#include "services/arena/ranked/fair_play.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "bots/chess/stockfish_player.h"
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "nlohmann/json.hpp"

namespace arena::ranked {
namespace {

namespace chess = engine::chess;

constexpr int kMaxDepth = 30;

int Clamp(int cp) {
  return std::clamp(cp, -kClampCp, kClampCp);
}

double Median(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? double(v[n / 2]) : (double(v[n / 2 - 1]) + double(v[n / 2])) / 2;
}

// Population standard deviation over mean; nullopt for fewer than two values or a zero mean.
std::optional<double> CoefficientOfVariation(const std::vector<int64_t>& v) {
  if (v.size() < 2) return std::nullopt;
  double mean = 0;
  for (int64_t x : v) mean += double(x);
  mean /= double(v.size());
  if (mean <= 0) return std::nullopt;
  double var = 0;
  for (int64_t x : v) var += (double(x) - mean) * (double(x) - mean);
  var /= double(v.size());
  return std::sqrt(var) / mean;
}

absl::Status ValidateOptions(const FairPlayOptions& o) {
  if (o.depth < 1 || o.depth > kMaxDepth) {
    return absl::InvalidArgumentError(absl::StrCat("depth is 1..", kMaxDepth, ", not ", o.depth));
  }
  if (o.book_plies < 0) return absl::InvalidArgumentError("book_plies must not be negative");
  if (o.decided_margin_cp <= 0) {
    return absl::InvalidArgumentError("decided_margin_cp must be positive");
  }
  const FlagLimits& l = o.limits;
  if (l.min_moves < 1 || !(l.min_match_rate >= 0 && l.min_match_rate <= 1) ||
      !(l.acpl_fraction >= 0 && std::isfinite(l.acpl_fraction))) {
    return absl::InvalidArgumentError(
        "flag limits: min_moves >= 1, min_match_rate in [0, 1], acpl_fraction >= 0");
  }
  return absl::OkStatus();
}

nlohmann::json EvidenceOf(const PlayerFairPlay& p, const std::vector<MoveVerdict>& moves,
                          const FairPlayOptions& o) {
  nlohmann::json j;
  j["color"] = p.color == 0 ? "white" : "black";
  j["rating"] = p.rating;
  j["moves_played"] = p.moves_played;
  j["moves_analysed"] = p.moves_analysed;
  j["engine_matches"] = p.engine_matches;
  j["same_moves"] = p.same_moves;
  j["match_rate"] = p.match_rate;
  j["acpl"] = p.acpl;
  j["median_think_ms"] =
      p.median_think_ms ? nlohmann::json(*p.median_think_ms) : nlohmann::json(nullptr);
  j["think_time_cv"] = p.think_time_cv ? nlohmann::json(*p.think_time_cv) : nlohmann::json(nullptr);
  j["expected_acpl"] = p.expected_acpl;
  j["flagged"] = p.flagged;
  j["thresholds"] = {{"min_moves", o.limits.min_moves},
                     {"min_match_rate", o.limits.min_match_rate},
                     {"acpl_fraction", o.limits.acpl_fraction},
                     {"acpl_limit", p.acpl_limit},
                     {"book_plies", o.book_plies},
                     {"decided_margin_cp", o.decided_margin_cp},
                     {"clamp_cp", kClampCp},
                     {"depth", o.depth},
                     {"engine", o.search ? "custom" : "stockfish"}};
  nlohmann::json list = nlohmann::json::array();
  for (const MoveVerdict& m : moves) {
    if (m.color != p.color) continue;
    nlohmann::json e = {
        {"ply", m.ply},
        {"played", m.played},
        {"excluded", MoveExclusionName(m.excluded)},
        {"think_ms", m.think_ms >= 0 ? nlohmann::json(m.think_ms) : nlohmann::json(nullptr)}};
    if (m.excluded != MoveExclusion::kBook) {
      e["best"] = m.best;
      e["best_cp"] = m.best_cp;
      e["played_cp"] = m.played_cp;
      e["cp_loss"] = m.cp_loss;
      e["engine_match"] = m.engine_match;
      e["same_move"] = m.same_move;
    }
    list.push_back(std::move(e));
  }
  j["moves"] = std::move(list);
  return j;
}

}  // namespace

const char* MoveExclusionName(MoveExclusion e) {
  switch (e) {
    case MoveExclusion::kNone:
      return "none";
    case MoveExclusion::kBook:
      return "book";
    case MoveExclusion::kForced:
      return "forced";
    case MoveExclusion::kDecided:
      return "decided";
  }
  return "?";
}

absl::StatusOr<EngineSearchResult> StockfishSearch(const std::string& start_fen,
                                                   const std::vector<std::string>& moves,
                                                   int depth) {
  bots::StockfishRequest request;
  request.start_fen = start_fen;
  request.moves = moves;
  request.elo = 0;  // full strength
  request.depth = depth;
  auto answer = bots::StockfishMove(request);
  if (!answer.ok()) {
    return absl::UnavailableError(
        absl::StrCat("reference engine: ", std::string(answer.status().message())));
  }
  return EngineSearchResult{answer->move, answer->score_cp};
}

double ExpectedAcpl(double rating) {
  return std::clamp(120.0 - 0.04 * rating, 15.0, 100.0);
}

PlayerFairPlay SummarisePlayer(const std::vector<MoveVerdict>& moves, int color, double rating,
                               const FairPlayOptions& options) {
  PlayerFairPlay p;
  p.color = color;
  p.rating = rating;
  int64_t loss_sum = 0;
  std::vector<int64_t> times;
  bool all_timed = true;
  for (const MoveVerdict& m : moves) {
    if (m.color != color) continue;
    ++p.moves_played;
    if (m.excluded != MoveExclusion::kNone) continue;
    ++p.moves_analysed;
    if (m.engine_match) ++p.engine_matches;
    if (m.same_move) ++p.same_moves;
    loss_sum += m.cp_loss;
    if (m.think_ms >= 0) {
      times.push_back(m.think_ms);
    } else {
      all_timed = false;
    }
  }
  if (p.moves_analysed > 0) {
    p.match_rate = double(p.engine_matches) / p.moves_analysed;
    p.acpl = double(loss_sum) / p.moves_analysed;
  }
  if (all_timed && !times.empty()) {
    p.median_think_ms = Median(times);
    p.think_time_cv = CoefficientOfVariation(times);
  }
  p.expected_acpl = ExpectedAcpl(rating);
  p.acpl_limit = p.expected_acpl * options.limits.acpl_fraction;
  p.flagged = p.moves_analysed >= options.limits.min_moves &&
              p.match_rate >= options.limits.min_match_rate && p.acpl <= p.acpl_limit;
  p.evidence_json = EvidenceOf(p, moves, options).dump();
  return p;
}

absl::StatusOr<FairPlayReport> AnalyseFairPlay(const FairPlayGame& game,
                                               const FairPlayOptions& options) {
  if (absl::Status s = ValidateOptions(options); !s.ok()) return s;
  const size_t n = game.moves.size();
  if (!game.think_ms.empty() && game.think_ms.size() != n) {
    return absl::InvalidArgumentError(absl::StrCat("think times: ", game.think_ms.size(),
                                                   " given for ", n, " moves (give all or none)"));
  }
  for (int64_t t : game.think_ms) {
    if (t < 0) return absl::InvalidArgumentError("a think time is negative");
  }
  for (double r : game.ratings) {
    if (!std::isfinite(r)) return absl::InvalidArgumentError("a rating is not a finite number");
  }

  const std::string start_fen =
      game.start_fen.empty() ? std::string(chess::kStartFen) : game.start_fen;
  auto start = chess::Position::FromFen(start_fen);
  if (!start.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("start FEN: ", std::string(start.status().message())));
  }

  // Replay with our engine: canonical UCI for every move and every position on the way.
  std::vector<chess::Position> positions = {*start};
  std::vector<std::string> uci(n);
  for (size_t i = 0; i < n; ++i) {
    chess::Position pos = positions.back();
    auto move = chess::ParseUci(pos, game.moves[i]);
    if (!move.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("move ", i + 1, " '", game.moves[i],
                                                     "': ", std::string(move.status().message())));
    }
    uci[i] = chess::MoveToUci(*move);
    chess::Position::Undo undo;
    pos.DoMove(*move, undo);
    positions.push_back(pos);
  }

  const EngineSearch search = options.search ? options.search : EngineSearch(StockfishSearch);
  // The score, for the side that just moved, of the position after `line` (which ends in
  // `after`): mate when the move mated, 0 for stalemate, else the engine's score negated.
  auto score_of_move = [&](const std::vector<std::string>& line,
                           const chess::Position& after) -> absl::StatusOr<int> {
    if (chess::CountLegal(after) == 0) return after.InCheck() ? kMateCp : 0;
    auto result = search(start_fen, line, options.depth);
    if (!result.ok()) {
      return absl::UnavailableError(absl::StrCat("searching after ply ", line.size(), ": ",
                                                 std::string(result.status().message())));
    }
    return -result->score_cp;
  };

  // One search per position from the end of the book on (position i is the one before move
  // i; position n the final one), except where the game is over.
  const size_t first = std::min<size_t>(size_t(options.book_plies), n);
  std::vector<std::optional<EngineSearchResult>> searched(n + 1);
  for (size_t i = first; i <= n && first < n; ++i) {
    if (chess::CountLegal(positions[i]) == 0) continue;
    std::vector<std::string> prefix(uci.begin(), uci.begin() + i);
    auto result = search(start_fen, prefix, options.depth);
    if (!result.ok()) {
      return absl::UnavailableError(absl::StrCat("searching before move ", i + 1, ": ",
                                                 std::string(result.status().message())));
    }
    searched[i] = *std::move(result);
  }

  FairPlayReport report;
  report.depth = options.depth;
  report.moves.resize(n);
  for (size_t i = 0; i < n; ++i) {
    MoveVerdict& v = report.moves[i];
    v.ply = int(i);
    v.color = positions[i].side_to_move() == chess::kWhite ? 0 : 1;
    v.played = uci[i];
    v.think_ms = game.think_ms.empty() ? -1 : game.think_ms[i];
    if (i < first) {
      v.excluded = MoveExclusion::kBook;
      continue;
    }
    const EngineSearchResult& before = *searched[i];
    v.best = before.best_move;
    v.same_move = v.played == v.best;
    // The played move: the next position's search, negated (or the end it made).
    std::vector<std::string> line(uci.begin(), uci.begin() + i + 1);
    auto played = searched[i + 1] ? absl::StatusOr<int>(-searched[i + 1]->score_cp)
                                  : score_of_move(line, positions[i + 1]);
    if (!played.ok()) return played.status();
    v.played_cp = Clamp(*played);
    // The engine's move is scored the same way, by searching the position it leads to, so
    // both moves are compared at the same depth. (The search before the move looks one ply
    // less deep along each line: comparing its score with the played move's would count the
    // noise between depths as loss, and only ever upwards, since losses are clamped at 0.)
    if (v.same_move) {
      v.best_cp = v.played_cp;
    } else {
      auto best_move = chess::ParseUci(positions[i], v.best);
      if (!best_move.ok()) {
        return absl::UnavailableError(
            absl::StrCat("the engine answered '", v.best, "', no legal move before move ", i + 1));
      }
      chess::Position after_best = positions[i];
      chess::Position::Undo undo;
      after_best.DoMove(*best_move, undo);
      line.back() = v.best;
      auto best = score_of_move(line, after_best);
      if (!best.ok()) return best.status();
      v.best_cp = Clamp(*best);
    }
    v.cp_loss = std::max(0, v.best_cp - v.played_cp);
    v.engine_match = v.cp_loss == 0;
    if (chess::CountLegal(positions[i]) == 1) {
      v.excluded = MoveExclusion::kForced;
    } else if (std::abs(before.score_cp) > options.decided_margin_cp) {
      v.excluded = MoveExclusion::kDecided;
    }
  }
  for (int color = 0; color < 2; ++color) {
    report.players[color] = SummarisePlayer(report.moves, color, game.ratings[color], options);
  }
  return report;
}

}  // namespace arena::ranked
