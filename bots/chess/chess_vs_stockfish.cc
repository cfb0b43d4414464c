// chess_vs_stockfish: arena-uci against Stockfish limited by UCI_LimitStrength at a ladder of
// UCI_Elo values, fixed time per move, colours alternated, each pair of games from one opening
// of a small seeded book (random legal plies from a fixed list of first moves). Prints, per
// Elo, the score and the Elo estimate with a 95% interval (normal approximation of the mean
// score over games).
//
//   chess_vs_stockfish --elos=1600,2000,2400 --games=20 --movetime=100 [--level=9]
//                      [--seed=1] [--ours=path/arena-uci] [--stockfish=/usr/games/stockfish]
//                      [--max_plies=300]
// GCC 12 reports a false -Wrestrict inside std::string at -O3 (GCC bug 105651).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "bots/core/search_common.h"
#include "engine/chess/chess_game.h"
#include "engine/chess/stockfish_process.h"

namespace {

using arena::engine::chess::StockfishProcess;

std::map<std::string, std::string> ParseArgs(int argc, char** argv) {
  std::map<std::string, std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0) continue;
    const size_t eq = a.find('=');
    if (eq == std::string::npos)
      args[a.substr(2)] = "1";
    else
      args[a.substr(2, eq - 2)] = a.substr(eq + 1);
  }
  return args;
}

// A short opening: 4 plies, the first two from a fixed list, then random legal moves.
std::vector<std::string> Opening(arena::bots::Rng& rng) {
  static const std::vector<std::vector<std::string>> firsts = {
      {"e2e4", "e7e5"}, {"e2e4", "c7c5"}, {"d2d4", "d7d5"}, {"d2d4", "g8f6"}, {"c2c4", "e7e5"},
      {"g1f3", "d7d5"}, {"e2e4", "e7e6"}, {"e2e4", "c7c6"}, {"d2d4", "e7e6"}, {"c2c4", "c7c5"}};
  std::vector<std::string> moves = firsts[rng.Below(firsts.size())];
  auto state = arena::engine::chess::ChessState(arena::engine::chess::Position::StartPosition());
  for (const auto& m : moves) (void)state.Apply(m);
  for (int i = 0; i < 2; ++i) {
    const auto acts = state.LegalActions();
    const std::string m = acts[rng.Below(acts.size())];
    (void)state.Apply(m);
    moves.push_back(m);
  }
  return moves;
}

// Plays one game; returns our score (1, 0.5, 0).
double PlayGame(StockfishProcess& ours, StockfishProcess& sf, bool ours_white,
                const std::vector<std::string>& opening, int movetime, int max_plies) {
  arena::engine::chess::ChessState state(arena::engine::chess::Position::StartPosition());
  std::string moves;
  for (const auto& m : opening) {
    (void)state.Apply(m);
    moves.append(" ").append(m);
  }
  (void)ours.Send("ucinewgame");
  (void)sf.Send("ucinewgame");
  for (int ply = 0; ply < max_plies && !state.IsTerminal(); ++ply) {
    const bool white = state.position().side_to_move() == arena::engine::chess::kWhite;
    StockfishProcess& e = white == ours_white ? ours : sf;
    (void)e.Send(absl::StrCat("position startpos moves", moves));
    (void)e.Send(absl::StrCat("go movetime ", movetime));
    auto lines = e.ReadUntil("bestmove", std::chrono::milliseconds(movetime * 20 + 5000));
    if (!lines.ok()) {
      std::fprintf(stderr, "engine failed: %s\n", std::string(lines.status().message()).c_str());
      return white == ours_white ? 0.0 : 1.0;
    }
    std::vector<std::string> parts = absl::StrSplit(lines->back(), ' ');
    if (parts.size() < 2 || !state.Apply(parts[1]).ok()) {
      std::fprintf(stderr, "illegal move %s\n", lines->back().c_str());
      return white == ours_white ? 0.0 : 1.0;
    }
    moves.append(" ").append(parts[1]);
  }
  const auto o = state.GetOutcome();
  if (o.kind != arena::engine::Outcome::Kind::kWin) return 0.5;
  return (o.winners[0] == 0) == ours_white ? 1.0 : 0.0;
}

double EloFromScore(double s) {
  s = std::min(std::max(s, 0.001), 0.999);
  return -400.0 * std::log10(1.0 / s - 1.0);
}

}  // namespace

int main(int argc, char** argv) {
  auto args = ParseArgs(argc, argv);
  auto get = [&](const std::string& k, const std::string& d) {
    return args.count(k) ? args[k] : d;
  };
  const std::string ours_path = get("ours", ARENA_UCI_BIN);
  const std::string sf_path = get("stockfish", "/usr/games/stockfish");
  const int games = std::atoi(get("games", "20").c_str());
  const int movetime = std::atoi(get("movetime", "100").c_str());
  const int max_plies = std::atoi(get("max_plies", "300").c_str());
  const uint64_t seed = std::strtoull(get("seed", "1").c_str(), nullptr, 10);
  const std::string level = get("level", "9");
  std::vector<std::string> elos = absl::StrSplit(get("elos", "1600,2000,2400"), ',');

  std::printf("arena-uci (Level %s) vs Stockfish, %d ms per move, %d games per Elo\n",
              level.c_str(), movetime, games);
  std::printf("%8s %6s %5s %5s %5s %7s %18s\n", "UCI_Elo", "games", "win", "draw", "loss", "score",
              "our Elo (95%)");
  for (const std::string& elo : elos) {
    auto ours = StockfishProcess::Start(ours_path, 1);
    auto sf = StockfishProcess::Start(sf_path, 1);
    if (!ours.ok() || !sf.ok()) {
      std::fprintf(stderr, "cannot start engines\n");
      return 1;
    }
    (void)(*ours)->Send(absl::StrCat("setoption name Level value ", level));
    (void)(*sf)->Send("setoption name UCI_LimitStrength value true");
    (void)(*sf)->Send(absl::StrCat("setoption name UCI_Elo value ", elo));
    (void)(*sf)->Sync();
    (void)(*ours)->Sync();
    arena::bots::Rng rng(seed);
    std::vector<double> results;
    int w = 0, d = 0, l = 0;
    std::vector<std::string> opening;
    for (int g = 0; g < games; ++g) {
      if (g % 2 == 0) opening = Opening(rng);
      const double r = PlayGame(**ours, **sf, g % 2 == 0, opening, movetime, max_plies);
      results.push_back(r);
      (r == 1.0 ? w : r == 0.0 ? l : d)++;
      std::fprintf(stderr, "elo %s game %d: %.1f\n", elo.c_str(), g + 1, r);
    }
    double mean = 0;
    for (double r : results) mean += r;
    mean /= double(results.size());
    double var = 0;
    for (double r : results) var += (r - mean) * (r - mean);
    var /= double(results.size());
    const double se = std::sqrt(var / double(results.size()));
    int base = 0;
    (void)absl::SimpleAtoi(elo, &base);
    const double est = base + EloFromScore(mean);
    const double lo = base + EloFromScore(mean - 1.96 * se);
    const double hi = base + EloFromScore(mean + 1.96 * se);
    std::printf("%8s %6d %5d %5d %5d %6.1f%% %6.0f [%5.0f,%5.0f]\n", elo.c_str(), games, w, d, l,
                100 * mean, est, lo, hi);
    std::fflush(stdout);
  }
  return 0;
}
