// ladder: bots against bots for any game through the facade, printing the score matrix.
//
// Contestants are "level", "level:algorithm", "level:algorithm:nodes",
// "level:algorithm:nodes:depth" or "level:algorithm:nodes:depth:eval" (e.g. 3, 4:brs,
// 4:paranoid, 4:mcts, 4::50000 = level 4's search with a budget of 50,000 nodes, 4::0:5 = level
// 4's search to depth 5 at most, the level's own budget, 4::0:0:king_attack=4+king_shelter=8 =
// level 4 with those evaluation weights of the game's own player; a bad override stops the run).
// After the matrix,
// each contestant's mean completed depth, nodes, wall time and nodes per second per searched move
// are printed. Every pair plays `--games` games per seating: with two seats both colour orders;
// with three seats both 2-against-1 compositions (AAB and ABB) in every seating (the odd one in
// each of the three seats). A game's score for A against B is, over every (A seat, B seat) pair, 1
// when A finished ahead, 1/2 level, 0 behind. Chance events are drawn from a seeded generator. A
// game still running after --max_actions is adjudicated by the static evaluation of the game's own
// player (bots/<game>/, GameBot::SeatScores: seats more than --adjudicate centipawns apart are
// ranked, others share a place), or as a draw when it has none. With three seats a game stops as
// soon as every seat still in belongs to one contestant (see DecidedPlaces). The summary says how
// many games were adjudicated and how many stopped so.
//
//   ladder --game=ID --variant=k=v,... --contestants=1,2,3,4 --games=2
//          [--seed=1] [--max_actions=400] [--adjudicate=300] [--pairs=all|adjacent]
//          [--verbose]   (one line per game on stderr: seats and places, length, how it ended,
//                        and an adjudicated game's seat scores)
//          [--moves]     (with --verbose, also each game's actions, for replaying it)
// GCC 12 reports a false -Wrestrict inside std::string at -O3 (GCC bug 105651).
#pragma GCC diagnostic ignored "-Wrestrict"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "bots/core/bot.h"
#include "bots/core/game_bot.h"
#include "bots/core/mcts.h"

namespace {

using arena::bots::BotRequest;
using arena::engine::State;

struct Contestant {
  std::string name;
  int level = 1;
  std::string algorithm;
  int64_t nodes = 0;  // 0: the level's own budget
  int depth = 0;      // 0: no depth limit
  std::string eval;   // evaluation overrides for searches ("king_attack=4+king_shelter=8")
  // Over its searched moves (level 2 and up, not dart decisions).
  int64_t moves = 0, depth_sum = 0, nodes_sum = 0;
  double seconds = 0;    // wall time of those searches
  int64_t hopeless = 0;  // searched moves scored at or below -10,000 (the search sees itself out)
};

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

// Final places per seat (0 best). An unfinished game is adjudicated by the game's own
// player's static evaluation (seats within `adjudicate` of each other share a place); a game
// whose player offers none is a shared place for all.
std::vector<int> Places(const State& s, int adjudicate) {
  const int n = s.NumSeats();
  const arena::engine::Outcome o = s.GetOutcome();
  if (o.finished() && int(o.ranks.size()) == n) return o.ranks;
  std::vector<int> places(n, 0);
  const arena::bots::GameBot* bot = arena::bots::FindGameBot(s.GameId());
  const std::vector<int> scores = bot ? bot->SeatScores(s) : std::vector<int>();
  if (int(scores.size()) == n) {
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        if (scores[j] > scores[i] + adjudicate) ++places[i];
      }
    }
  }
  return places;
}

// With three or more seats, the places of a game whose seats still in all belong to one
// contestant: those seats share first place and the seats that went out (the board view's
// frozen armies, in the order they went out) follow in reverse order of going out. Playing on
// could not change how the two contestants finish against each other, so the game stops
// there. Empty while contestants still face each other.
std::vector<int> DecidedPlaces(const State& s, const std::vector<int>& who) {
  if (s.NumSeats() < 3 || s.IsTerminal()) return {};
  const std::vector<int> out = s.Board(0).frozen_seats;
  std::vector<bool> is_out(s.NumSeats(), false);
  for (int seat : out) is_out[seat] = true;
  int owner = -1;
  for (int seat = 0; seat < s.NumSeats(); ++seat) {
    if (is_out[seat]) continue;
    if (owner >= 0 && who[seat] != owner) return {};
    owner = who[seat];
  }
  std::vector<int> places(s.NumSeats(), 0);
  const int in = s.NumSeats() - static_cast<int>(out.size());
  for (size_t k = 0; k < out.size(); ++k) places[out[k]] = in + int(out.size() - 1 - k);
  return places;
}

}  // namespace

int main(int argc, char** argv) {
  auto args = ParseArgs(argc, argv);
  auto get = [&](const std::string& k, const std::string& d) {
    return args.count(k) ? args[k] : d;
  };
  const std::string game_id = get("game", "");
  const std::string variant_text = get("variant", "");
  const int games = std::atoi(get("games", "2").c_str());
  const int max_actions = std::atoi(get("max_actions", "400").c_str());
  const int adjudicate = std::atoi(get("adjudicate", "300").c_str());
  const bool adjacent = get("pairs", "all") == "adjacent";
  const bool verbose = args.count("verbose") > 0;
  const bool print_moves = verbose && args.count("moves") > 0;
  uint64_t seed = std::strtoull(get("seed", "1").c_str(), nullptr, 10);

  const arena::engine::Game* game = arena::engine::FindGame(game_id);
  auto variant = arena::engine::Variant::Parse(variant_text);
  if (!game || !variant.ok()) {
    std::fprintf(stderr, "name a game (--game=ID, an engine id) and a valid --variant\n");
    return 2;
  }
  auto probe = game->NewInitialState(*variant);
  if (!probe.ok()) {
    std::fprintf(stderr, "%s\n", std::string(probe.status().message()).c_str());
    return 2;
  }
  const int seats = (*probe)->NumSeats();

  std::vector<Contestant> cs;
  for (absl::string_view cv : absl::StrSplit(get("contestants", "1,2,3"), ',')) {
    const std::string c(cv);
    Contestant x;
    x.name = c;
    std::vector<std::string> parts = absl::StrSplit(c, ':');
    x.level = std::atoi(parts[0].c_str());
    if (parts.size() > 1) x.algorithm = parts[1];
    if (parts.size() > 2) x.nodes = std::atoll(parts[2].c_str());
    if (parts.size() > 3) x.depth = std::atoi(parts[3].c_str());
    if (parts.size() > 4) x.eval = parts[4];
    cs.push_back(x);
  }
  const int n = int(cs.size());
  std::vector<std::vector<double>> score(n, std::vector<double>(n, 0));
  std::vector<std::vector<int>> played(n, std::vector<int>(n, 0));
  int total_games = 0, adjudicated = 0, decided_early = 0;

  // Plays one game with `who[seat]` = contestant index; returns places.
  auto play = [&](const std::vector<int>& who) {
    auto s = std::move(*game->NewInitialState(*variant));
    arena::bots::Rng rng(seed++);
    std::vector<int> decided;
    std::string actions;  // --moves: every action applied, in order
    for (int i = 0; i < max_actions && !s->IsTerminal(); ++i) {
      decided = DecidedPlaces(*s, who);
      if (!decided.empty()) break;
      if (s->ToMove() == arena::engine::kChanceSeat) {
        const std::string outcome = arena::bots::SampleChance(*s, rng);
        if (print_moves) actions += " " + outcome;
        (void)s->Apply(outcome);
        continue;
      }
      Contestant& c = cs[who[s->ToMove()]];
      BotRequest req;
      req.game = game_id;
      req.variant = variant_text;
      req.seat = s->ToMove();
      req.level = c.level;
      req.algorithm = c.algorithm;
      req.node_budget = c.nodes;
      req.max_depth = c.depth;
      req.eval = c.eval;
      req.seed = rng.Next();
      const auto t0 = std::chrono::steady_clock::now();
      auto a = arena::bots::ChooseBotMoveForState(*s, req);
      const double took =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (!a.ok() || !s->Apply(a->result.move).ok()) {
        std::fprintf(stderr, "bot failed: %s\n",
                     a.ok() ? a->result.move.c_str() : std::string(a.status().message()).c_str());
        break;
      }
      if (print_moves) actions += " " + a->result.move;
      if (a->result.depth > 0) {
        ++c.moves;
        c.depth_sum += a->result.depth;
        c.nodes_sum += a->result.nodes;
        c.seconds += took;
        if (a->result.score <= -10000) ++c.hopeless;
      }
    }
    ++total_games;
    std::string how;
    std::vector<int> places;
    if (!decided.empty()) {
      ++decided_early;
      how = "decided";
      places = decided;
    } else {
      if (!s->IsTerminal()) ++adjudicated;
      how = s->IsTerminal() ? "finished" : "adjudicated";
      places = Places(*s, adjudicate);
    }
    if (verbose) {
      if (s->IsTerminal()) how = s->GetOutcome().reason;
      if (how == "adjudicated") {
        // The scores the places were taken from, so a reader can see by how much.
        const arena::bots::GameBot* bot = arena::bots::FindGameBot(s->GameId());
        const std::vector<int> scores = bot ? bot->SeatScores(*s) : std::vector<int>();
        if (!scores.empty()) how += " (scores";
        for (int v : scores) how += " " + std::to_string(v);
        if (!scores.empty()) how += ")";
      }
      std::string line;
      for (int seat = 0; seat < seats; ++seat) {
        line += (seat ? " " : "") + cs[who[seat]].name + "=" + std::to_string(places[seat]);
      }
      std::fprintf(stderr, "game %d: %s, %d actions, %s\n", total_games, line.c_str(),
                   s->ActionCount(), how.c_str());
      if (print_moves) std::fprintf(stderr, "moves %d:%s\n", total_games, actions.c_str());
    }
    return places;
  };
  auto credit = [&](const std::vector<int>& who, const std::vector<int>& places, int a, int b) {
    double sum = 0;
    int cnt = 0;
    for (int i = 0; i < seats; ++i) {
      for (int j = 0; j < seats; ++j) {
        if (who[i] != a || who[j] != b) continue;
        sum += places[i] < places[j] ? 1.0 : places[i] == places[j] ? 0.5 : 0.0;
        ++cnt;
      }
    }
    if (cnt == 0) return;
    score[a][b] += sum / cnt;
    score[b][a] += 1.0 - sum / cnt;
    ++played[a][b];
    ++played[b][a];
  };

  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if (adjacent && b != a + 1 && !(a == 0 && b == n - 1)) continue;
      std::vector<std::vector<int>> seatings;
      if (seats == 2) {
        seatings = {{a, b}, {b, a}};
      } else {
        for (int odd = 0; odd < seats; ++odd) {
          std::vector<int> w1(seats, a), w2(seats, b);
          w1[odd] = b;
          w2[odd] = a;
          seatings.push_back(w1);
          seatings.push_back(w2);
        }
      }
      for (int g = 0; g < games; ++g) {
        for (const auto& who : seatings) {
          const std::vector<int> places = play(who);
          credit(who, places, a, b);
        }
      }
      std::fprintf(stderr, "%s vs %s: %.1f / %d\n", cs[a].name.c_str(), cs[b].name.c_str(),
                   score[a][b], played[a][b]);
    }
  }
  std::printf(
      "%s %s, %d game(s) per seating, %d of %d adjudicated after %d actions, %d stopped once "
      "decided; row's score against column (games)\n",
      game_id.c_str(), variant_text.c_str(), games, adjudicated, total_games, max_actions,
      decided_early);
  std::printf("%12s", "");
  for (const auto& c : cs) std::printf(" %14s", c.name.c_str());
  std::printf("\n");
  for (int a = 0; a < n; ++a) {
    std::printf("%12s", cs[a].name.c_str());
    for (int b = 0; b < n; ++b) {
      if (played[a][b] == 0) {
        std::printf(" %14s", "-");
      } else {
        std::printf("   %5.1f%% (%3d)", 100.0 * score[a][b] / played[a][b], played[a][b]);
      }
    }
    std::printf("\n");
  }
  std::printf(
      "searched moves: mean completed depth, mean nodes, mean seconds, nodes/s, share scored "
      "<= -10000\n");
  for (const auto& c : cs) {
    if (c.moves == 0) continue;
    const double m = double(c.moves);
    std::printf("%12s  %6.2f  %10.0f  %7.3f  %9.0f  %5.1f%%  (%lld moves)\n", c.name.c_str(),
                double(c.depth_sum) / m, double(c.nodes_sum) / m, c.seconds / m,
                c.seconds > 0 ? double(c.nodes_sum) / c.seconds : 0.0,
                100.0 * double(c.hopeless) / m, static_cast<long long>(c.moves));
  }
  return 0;
}
