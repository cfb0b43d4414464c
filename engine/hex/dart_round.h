// The dart round of the Chestonia games: one component for every hex game that plays darts
// (Chestonia chess, Chestonia checkers, Chestonia Go), so their darts are one rule, one text
// and one set of chance outcomes.
//
// The round, as ../shared/seeds/chestonia-rules.txt and RULES-NOTES describe it:
//   1. When the leading seat's turn comes round again (a round boundary), a round that has
//      been at least kMinRoundsBeforeDart full rounds without darts may bring them: a chance
//      node "dart-round" / "no-dart-round", the dart round certain after
//      kMaxRoundsBetweenDarts rounds (with k rounds since the last one it comes with
//      probability 1/(11-k)).
//   2. In a dart round every seat begins its turn by aiming ("aim q,r", any cell), then a
//      chance node lands the dart ("land q,r" or "land miss", DartScatter's distribution).
//   3. A landing may knock a piece off (which one is the game's rule) and, in zones 1-3, pays
//      a reward the seat places ("place <letter> q,r") or declines ("skip"); a miss costs the
//      seat a piece of its choice ("penalty q,r") when it has one the game takes.
//   4. Then the seat's own move phase (TurnPhase::kMove) begins.
// DartRound holds the counters; the game's position owns its TurnPhase and calls DartRound at
// each step, keeping the effects on its own board (knock-offs, rewards, penalties). The action
// texts, their parsing with precise statuses, their listing, their ActionFacts and the chance
// outcomes are here, so every game writes darts byte for byte alike.
//
// Stable API: Chestonia chess, checkers and Go build their darts on this header; change it only
// compatibly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/hex/dart.h"
#include "engine/hex/geometry.h"

namespace arena::engine::hex {

// --- Phases --------------------------------------------------------------------------------
// What a hex game with darts owes next: a chance outcome (kRoundChance, kLanding), a decision
// of the seat to act (kAim, kPlacement, kPenalty, kMove: the game's own move), or nothing.
enum class TurnPhase : uint8_t {
  kRoundChance,  // chance: does the round that starts now bring darts?
  kAim,          // the seat names the cell it aims at
  kLanding,      // chance: where the dart lands (one outcome per cell, plus the miss)
  kPlacement,    // the seat places its reward or skips
  kPenalty,      // the seat chooses the piece it loses for a miss
  kMove,         // the seat moves (the game's own turn)
  kOver,
};
// The word in position text: round, aim, land, placement, penalty, move, over.
std::string_view TurnPhaseWord(TurnPhase phase);
// The phase a word names, nullopt if none (position text also has the game's own words).
std::optional<TurnPhase> TurnPhaseFromWord(std::string_view word);
// State::Phase(): chance, dart-aim, placement, penalty, move, finished.
std::string_view TurnPhaseName(TurnPhase phase);
inline bool IsChancePhase(TurnPhase phase) {
  return phase == TurnPhase::kRoundChance || phase == TurnPhase::kLanding;
}
// State::ToMove(): kTerminalSeat when over, kChanceSeat at a chance phase, else `turn`.
inline int SeatToAct(TurnPhase phase, int turn) {
  if (phase == TurnPhase::kOver) return kTerminalSeat;
  return IsChancePhase(phase) ? kChanceSeat : turn;
}

// --- The round's counters ------------------------------------------------------------------
inline constexpr int kMinRoundsBeforeDart = 3;
inline constexpr int kMaxRoundsBetweenDarts = 10;

// A plain value inside the game's position. Invariants: 0 <= rounds_since_dart <=
// kMaxRoundsBetweenDarts; aim >= 0 exactly while a landing is owed; reward_zone is 1..3
// exactly while a placement is owed, else 0.
struct DartRound {
  int8_t rounds_since_dart = 0;  // full rounds completed since the last dart round
  bool dart_round = false;       // the current round is a dart round
  int16_t aim = -1;              // while landing: the aim cell
  int8_t reward_zone = 0;        // while placing: the zone that paid (1..3); 0 in a game whose
                                 // reward does not depend on the zone (Chestonia Go)

  // At a round boundary: counts the round that ended and returns whether the round chance
  // (step 1) is owed now. Always false when `darts_on` is false.
  bool OnRoundBoundary(bool darts_on);
  // The round chance's outcome: the round that starts now is a dart round or not.
  void StartRound(bool is_dart_round);
  // The seat aims at `cell`; a landing is owed.
  void Aim(int cell) { aim = static_cast<int16_t>(cell); }
  // The dart landed on `cell` (kDartMiss for a miss). Clears the aim; returns the zone that
  // pays a reward (1..3) or 0 for none. The game applies any knock-off, then OwePlacement.
  int Land(const Grid& grid, int cell);
  // A placement for `zone` (1..3) is owed.
  void OwePlacement(int zone) { reward_zone = static_cast<int8_t>(zone); }
  // The reward was placed or declined.
  void EndPlacement() { reward_zone = 0; }
  // The seat's turn was cut short (time-out, resignation): nothing more is owed.
  void AbandonThrow() {
    aim = -1;
    reward_zone = 0;
  }

  friend bool operator==(const DartRound&, const DartRound&) = default;
};

// --- Chance outcomes -----------------------------------------------------------------------
// At TurnPhase::kRoundChance: "dart-round" (and "no-dart-round" unless it is due).
std::vector<ChanceOutcome> RoundChanceOutcomes(const DartRound& round);
// At TurnPhase::kLanding: "land q,r" for every cell in index order, then "land miss".
std::vector<ChanceOutcome> LandingOutcomes(const Grid& grid, int aim);
// State::ChanceOutcomes(): one of the two above at a chance phase, else none.
std::vector<ChanceOutcome> ChanceOutcomesOf(TurnPhase phase, const DartRound& round,
                                            const Grid& grid);

// --- Actions -------------------------------------------------------------------------------
// How a game names its reward pieces in the action texts and their error messages. A game whose
// reward is one kind of piece (Chestonia Go's stone) leaves every field empty: its placements
// read "place q,r".
struct RewardLetters {
  std::string_view letters;         // every piece letter the game's texts use, e.g. "PNBRQK"
  std::string_view expected;        // in "expected place <expected> q,r or skip", e.g. "<piece>"
  std::string_view unknown;         // the error for a letter not in `letters`
  std::string_view placement_form;  // in "(place <form> q,r)", e.g. "<Q|R|B|N|P>"
};

struct DartAction {
  enum class Kind : uint8_t { kDartRound, kNoDartRound, kAim, kLand, kSkip, kPlace, kPenalty };
  Kind kind = Kind::kSkip;
  int cell = kDartMiss;  // kAim, kLand (kDartMiss: the miss), kPlace, kPenalty
  char letter = 0;       // kPlace: the piece letter
};

// Parses the action owed in a dart phase (not kMove/kOver). INVALID_ARGUMENT for text not of
// the phase's form or a cell off `grid`; FAILED_PRECONDITION for a round chance the schedule
// forbids. Which piece and cell a placement or penalty may use is the game's to check.
absl::StatusOr<DartAction> ParseDartAction(TurnPhase phase, std::string_view action,
                                           const Grid& grid, const DartRound& round,
                                           const RewardLetters& letters);

// The texts of the actions of a decision phase, unsorted.
std::vector<std::string> AimActions(const Grid& grid);
std::string PlacementAction(const Grid& grid, char letter, int cell);  // "place M 2,-6"
std::string PlacementAction(const Grid& grid, int cell);               // "place 2,-6"
std::string PenaltyAction(const Grid& grid, int cell);                 // "penalty 1,-6"
inline constexpr std::string_view kSkipAction = "skip";

// ActionFacts of a dart action, or nullopt when `action` is none (then it is the game's own
// move). Its error when the text starts like a dart action but is not one.
std::optional<absl::StatusOr<ActionFacts>> DescribeDartAction(std::string_view action,
                                                              const Grid& grid,
                                                              const RewardLetters& letters);

// Applies to `next` the dart actions every game applies alike: the round chance, the aim, the
// landing and a declined placement (the Position's ApplyRoundChance, ApplyAim, ApplyLanding,
// ApplySkipPlacement). Returns false, leaving `next` alone, for a placement or a penalty: which
// piece and cell they may use, and their effect, are the game's.
template <class Position>
bool ApplySharedDartAction(const DartAction& dart, Position& next) {
  switch (dart.kind) {
    case DartAction::Kind::kDartRound:
    case DartAction::Kind::kNoDartRound:
      next.ApplyRoundChance(dart.kind == DartAction::Kind::kDartRound);
      return true;
    case DartAction::Kind::kAim:
      next.ApplyAim(dart.cell);
      return true;
    case DartAction::Kind::kLand:
      next.ApplyLanding(dart.cell);
      return true;
    case DartAction::Kind::kSkip:
      next.ApplySkipPlacement();
      return true;
    case DartAction::Kind::kPlace:
    case DartAction::Kind::kPenalty:
      break;
  }
  return false;
}

// FAILED_PRECONDITION "'<action>' is not legal here: <why>", the games' one wording.
absl::Status NotLegalHere(std::string_view action, std::string_view why);

}  // namespace arena::engine::hex
