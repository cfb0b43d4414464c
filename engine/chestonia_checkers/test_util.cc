#include "engine/chestonia_checkers/test_util.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "engine/chestonia_checkers/movegen.h"
#include "engine/chestonia_checkers/notation.h"
#include "engine/hex/dart.h"

namespace arena::engine::chestonia_checkers::testing_util {
namespace {
constexpr int64_t kRandomPlayBudget = 20000;
}  // namespace

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
      // Mostly at the centre, sometimes anywhere.
      const int cell = rng() % 2 ? BoardGrid().Index({0, 0}) : static_cast<int>(rng() % kNumCells);
      pos.ApplyAim(cell);
      return "aim " + CellName(cell);
    }
    case Phase::kPlacement: {
      std::vector<int> free;
      pos.HomeCells(pos.turn).ForEach([&](int c) {
        if (!pos.cells[c]) free.push_back(c);
      });
      if (free.empty() || rng() % 5 == 0) {
        pos.ApplySkipPlacement();
        return "skip";
      }
      const int kind = pos.dart.reward_zone == 1 ? kKing : kMan;
      const int cell = free[rng() % free.size()];
      pos.ApplyPlacement(kind, cell);
      return std::string("place ") + PieceLetter(kind) + " " + CellName(cell);
    }
    case Phase::kPenalty: {
      std::vector<int> men;
      pos.MenOf(pos.turn).ForEach([&](int c) { men.push_back(c); });
      const int cell = men[rng() % men.size()];
      pos.ApplyPenalty(cell);
      return "penalty " + CellName(cell);
    }
    case Phase::kMove: {
      TurnList list;
      GenerateTurns(pos, list, kRandomPlayBudget);  // a legal turn, not necessarily from all
      const Turn t = list[static_cast<int>(rng() % list.size())];
      const std::string text = TurnText(t);
      pos.ApplyTurn(t);
      return text;
    }
    case Phase::kOver:
      break;
  }
  return "";
}

}  // namespace arena::engine::chestonia_checkers::testing_util
