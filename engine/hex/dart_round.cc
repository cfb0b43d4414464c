#include "engine/hex/dart_round.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arena::engine::hex {
namespace {

constexpr std::string_view kDartRoundAction = "dart-round";
constexpr std::string_view kNoDartRoundAction = "no-dart-round";
constexpr std::string_view kMissAction = "land miss";

std::string CellName(const Grid& grid, int cell) {
  return CellText(grid.At(cell));
}

absl::StatusOr<int> ParseCell(const Grid& grid, std::string_view text) {
  absl::StatusOr<Axial> a = ParseCellText(text);
  if (!a.ok()) return a.status();
  const int cell = grid.Index(*a);
  if (cell < 0) {
    return absl::InvalidArgumentError(absl::StrCat("cell ", ToAbsl(text), " is off the board"));
  }
  return cell;
}

absl::Status Expected(std::string_view form, std::string_view action) {
  return absl::InvalidArgumentError(
      absl::StrCat("expected ", ToAbsl(form), ", got '", ToAbsl(action), "'"));
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return absl::StartsWith(ToAbsl(text), ToAbsl(prefix));
}

// A placement's text has the letter at [6] and the cell from [8]: "place M 2,-6".
bool PlacementShaped(std::string_view action) {
  return StartsWith(action, "place ") && action.size() >= 9 && action[7] == ' ';
}

bool KnownLetter(const RewardLetters& letters, char letter) {
  return letters.letters.find(letter) != std::string_view::npos;
}

}  // namespace

// --- Phases --------------------------------------------------------------------------------

std::string_view TurnPhaseWord(TurnPhase phase) {
  switch (phase) {
    case TurnPhase::kRoundChance:
      return "round";
    case TurnPhase::kAim:
      return "aim";
    case TurnPhase::kLanding:
      return "land";
    case TurnPhase::kPlacement:
      return "placement";
    case TurnPhase::kPenalty:
      return "penalty";
    case TurnPhase::kMove:
      return "move";
    case TurnPhase::kOver:
      return "over";
  }
  return "?";
}

std::optional<TurnPhase> TurnPhaseFromWord(std::string_view word) {
  for (TurnPhase p :
       {TurnPhase::kRoundChance, TurnPhase::kAim, TurnPhase::kLanding, TurnPhase::kPlacement,
        TurnPhase::kPenalty, TurnPhase::kMove, TurnPhase::kOver}) {
    if (TurnPhaseWord(p) == word) return p;
  }
  return std::nullopt;
}

std::string_view TurnPhaseName(TurnPhase phase) {
  switch (phase) {
    case TurnPhase::kRoundChance:
    case TurnPhase::kLanding:
      return "chance";
    case TurnPhase::kAim:
      return "dart-aim";
    case TurnPhase::kPlacement:
      return "placement";
    case TurnPhase::kPenalty:
      return "penalty";
    case TurnPhase::kMove:
      return "move";
    case TurnPhase::kOver:
      return "finished";
  }
  return "finished";
}

// --- The round's counters ------------------------------------------------------------------

bool DartRound::OnRoundBoundary(bool darts_on) {
  if (!darts_on) return false;
  if (!dart_round && rounds_since_dart < kMaxRoundsBetweenDarts) ++rounds_since_dart;
  dart_round = false;
  return rounds_since_dart >= kMinRoundsBeforeDart;
}

void DartRound::StartRound(bool is_dart_round) {
  dart_round = is_dart_round;
  if (is_dart_round) rounds_since_dart = 0;
}

int DartRound::Land(const Grid& grid, int cell) {
  aim = -1;
  if (cell == kDartMiss) return 0;
  const int zone = DartZone(grid.Ring(cell));
  return DartZonePays(zone) ? zone : 0;
}

// --- Chance outcomes -----------------------------------------------------------------------

std::vector<ChanceOutcome> RoundChanceOutcomes(const DartRound& round) {
  // Given k full rounds since the last dart round, it comes now with probability 1/(11-k).
  const double p = 1.0 / (kMaxRoundsBetweenDarts + 1 - round.rounds_since_dart);
  std::vector<ChanceOutcome> out;
  out.push_back({std::string(kDartRoundAction), p});
  if (p < 1.0) out.push_back({std::string(kNoDartRoundAction), 1.0 - p});
  return out;
}

std::vector<ChanceOutcome> LandingOutcomes(const Grid& grid, int aim) {
  const std::vector<double>& dist = DartScatter::ForRadius(grid.radius()).Distribution(aim);
  std::vector<ChanceOutcome> out;
  out.reserve(grid.size() + 1);
  for (int c = 0; c < grid.size(); ++c) out.push_back({"land " + CellName(grid, c), dist[c]});
  out.push_back({std::string(kMissAction), dist[grid.size()]});
  return out;
}

std::vector<ChanceOutcome> ChanceOutcomesOf(TurnPhase phase, const DartRound& round,
                                            const Grid& grid) {
  if (phase == TurnPhase::kRoundChance) return RoundChanceOutcomes(round);
  if (phase == TurnPhase::kLanding) return LandingOutcomes(grid, round.aim);
  return {};
}

// --- Actions -------------------------------------------------------------------------------

absl::StatusOr<DartAction> ParseDartAction(TurnPhase phase, std::string_view action,
                                           const Grid& grid, const DartRound& round,
                                           const RewardLetters& letters) {
  DartAction out;
  auto cell_after = [&](std::string_view word) {
    return ParseCell(grid, action.substr(word.size()));
  };
  switch (phase) {
    case TurnPhase::kRoundChance:
      if (action == kDartRoundAction) {
        if (round.rounds_since_dart < kMinRoundsBeforeDart) {
          return NotLegalHere(action, "too early for a dart round");
        }
        out.kind = DartAction::Kind::kDartRound;
      } else if (action == kNoDartRoundAction) {
        if (round.rounds_since_dart >= kMaxRoundsBetweenDarts) {
          return NotLegalHere(action, "the dart round is due");
        }
        out.kind = DartAction::Kind::kNoDartRound;
      } else {
        return Expected("dart-round or no-dart-round", action);
      }
      return out;
    case TurnPhase::kLanding: {
      out.kind = DartAction::Kind::kLand;
      if (action == kMissAction) return out;
      if (!StartsWith(action, "land ")) return Expected("land q,r or land miss", action);
      absl::StatusOr<int> cell = cell_after("land ");
      if (!cell.ok()) return cell.status();
      out.cell = *cell;
      return out;
    }
    case TurnPhase::kAim: {
      if (!StartsWith(action, "aim ")) return Expected("aim q,r", action);
      absl::StatusOr<int> cell = cell_after("aim ");
      if (!cell.ok()) return cell.status();
      out.kind = DartAction::Kind::kAim;
      out.cell = *cell;
      return out;
    }
    case TurnPhase::kPlacement: {
      if (action == kSkipAction) {
        out.kind = DartAction::Kind::kSkip;
        return out;
      }
      if (letters.letters.empty()) {
        if (!StartsWith(action, "place ")) return Expected("place q,r or skip", action);
        absl::StatusOr<int> cell = cell_after("place ");
        if (!cell.ok()) return cell.status();
        out.kind = DartAction::Kind::kPlace;
        out.cell = *cell;
        return out;
      }
      if (!PlacementShaped(action)) {
        return Expected(absl::StrCat("place ", ToAbsl(letters.expected), " q,r or skip"), action);
      }
      absl::StatusOr<int> cell = ParseCell(grid, action.substr(8));
      if (!KnownLetter(letters, action[6])) {
        return absl::InvalidArgumentError(ToAbsl(letters.unknown));
      }
      if (!cell.ok()) return cell.status();
      out.kind = DartAction::Kind::kPlace;
      out.letter = action[6];
      out.cell = *cell;
      return out;
    }
    case TurnPhase::kPenalty: {
      if (!StartsWith(action, "penalty ")) return Expected("penalty q,r", action);
      absl::StatusOr<int> cell = cell_after("penalty ");
      if (!cell.ok()) return cell.status();
      out.kind = DartAction::Kind::kPenalty;
      out.cell = *cell;
      return out;
    }
    case TurnPhase::kMove:
    case TurnPhase::kOver:
      break;
  }
  return absl::InternalError("ParseDartAction outside a dart phase");
}

std::vector<std::string> AimActions(const Grid& grid) {
  std::vector<std::string> out;
  out.reserve(grid.size());
  for (int c = 0; c < grid.size(); ++c) out.push_back("aim " + CellName(grid, c));
  return out;
}

std::string PlacementAction(const Grid& grid, char letter, int cell) {
  return absl::StrCat("place ", std::string(1, letter), " ", CellName(grid, cell));
}

std::string PlacementAction(const Grid& grid, int cell) {
  return "place " + CellName(grid, cell);
}

std::string PenaltyAction(const Grid& grid, int cell) {
  return "penalty " + CellName(grid, cell);
}

std::optional<absl::StatusOr<ActionFacts>> DescribeDartAction(std::string_view action,
                                                              const Grid& grid,
                                                              const RewardLetters& letters) {
  ActionFacts facts;
  // The canonical name of the cell after `word`, into facts.cells.
  auto cell_after = [&](std::string_view word) -> absl::Status {
    absl::StatusOr<int> cell = ParseCell(grid, action.substr(word.size()));
    if (!cell.ok()) return cell.status();
    facts.cells = {CellName(grid, *cell)};
    return absl::OkStatus();
  };
  absl::Status status;
  if (action == kDartRoundAction || action == kNoDartRoundAction) {
    facts.kind = kActionChance;
  } else if (StartsWith(action, "land ")) {
    facts.kind = kActionDartLanding;
    if (action != kMissAction) {
      status = cell_after("land ");
      facts.irreversible = true;  // a knock-off may follow
    }
  } else if (StartsWith(action, "aim ")) {
    facts.kind = kActionDartAim;
    status = cell_after("aim ");
  } else if (action == kSkipAction) {
    facts.kind = kActionPlacement;
  } else if (StartsWith(action, "place ") && letters.letters.empty()) {
    facts.kind = kActionPlacement;
    status = cell_after("place ");
    facts.irreversible = true;
  } else if (StartsWith(action, "place ")) {
    facts.kind = kActionPlacement;
    if (!PlacementShaped(action) || !KnownLetter(letters, action[6])) {
      return absl::StatusOr<ActionFacts>(absl::InvalidArgumentError(
          absl::StrCat("'", ToAbsl(action), "' is not a placement (place ",
                       ToAbsl(letters.placement_form), " q,r)")));
    }
    status = cell_after("place M ");
    facts.irreversible = true;
  } else if (StartsWith(action, "penalty ")) {
    facts.kind = kActionPenalty;
    status = cell_after("penalty ");
    facts.irreversible = true;
  } else {
    return std::nullopt;
  }
  if (!status.ok()) return absl::StatusOr<ActionFacts>(status);
  return absl::StatusOr<ActionFacts>(std::move(facts));
}

absl::Status NotLegalHere(std::string_view action, std::string_view why) {
  return absl::FailedPreconditionError(
      absl::StrCat("'", ToAbsl(action), "' is not legal here: ", ToAbsl(why)));
}

}  // namespace arena::engine::hex
