#include "engine/chestonia_chess/test_util.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "engine/chestonia_chess/movegen.h"
#include "engine/chestonia_chess/notation.h"
#include "engine/hex/dart.h"

namespace arena::engine::chestonia_chess::testing_util {

Position Setup(std::string_view text) {
  absl::StatusOr<Position> pos = ParsePosition(text, Rules{});
  if (!pos.ok()) {
    std::fprintf(stderr, "bad test position: %s\n%.*s\n", pos.status().ToString().c_str(),
                 static_cast<int>(text.size()), text.data());
    std::abort();
  }
  return *pos;
}

std::string RandomStep(Position& pos, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  switch (pos.phase) {
    case Phase::kRoundChance: {
      const bool dart = unit(rng) < 1.0 / (kMaxRoundsBetweenDarts + 1 - pos.dart.rounds_since_dart);
      pos.ApplyRoundChance(dart);
      return dart ? "dart-round" : "no-dart-round";
    }
    case Phase::kLanding: {
      const std::vector<double>& dist =
          hex::DartScatter::ForRadius(kRadius).Distribution(pos.dart.aim);
      double x = unit(rng);
      int cell = -1;
      for (int c = 0; c < kNumCells; ++c) {
        if (x < dist[c]) {
          cell = c;
          break;
        }
        x -= dist[c];
      }
      pos.ApplyLanding(cell);
      return cell < 0 ? "land miss" : "land " + CellName(cell);
    }
    case Phase::kAim: {
      // Mostly at the centre or near it, sometimes anywhere.
      const int cell = rng() % 2 ? BoardGrid().Index({0, 0}) : static_cast<int>(rng() % kNumCells);
      pos.ApplyAim(cell);
      return "aim " + CellName(cell);
    }
    case Phase::kPlacement: {
      std::vector<int> free;
      pos.layout().seats[pos.turn].home_rows.ForEach([&](int c) {
        if (!pos.cells[c]) free.push_back(c);
      });
      if (free.empty() || rng() % 5 == 0) {
        pos.ApplySkipPlacement();
        return "skip";
      }
      const int types_by_zone[4][3] = {
          {}, {kQueen, kQueen, kQueen}, {kRook, kBishop, kKnight}, {kPawn, kPawn, kPawn}};
      const int type = types_by_zone[pos.dart.reward_zone][rng() % 3];
      const int cell = free[rng() % free.size()];
      pos.ApplyPlacement(type, cell);
      return std::string("place ") + PieceLetter(type) + " " + CellName(cell);
    }
    case Phase::kPenalty: {
      std::vector<int> pawns;
      pos.PawnsOf(pos.turn).ForEach([&](int c) { pawns.push_back(c); });
      const int cell = pawns[rng() % pawns.size()];
      pos.ApplyPenalty(cell);
      return "penalty " + CellName(cell);
    }
    case Phase::kMove: {
      MoveList list;
      GenerateLegalMoves(pos, list);
      const Move m = list.moves[rng() % list.size];
      pos.ApplyMove(m);
      return MoveText(m);
    }
    case Phase::kOver:
      break;
  }
  return "";
}

}  // namespace arena::engine::chestonia_chess::testing_util
