// The Chestonia checkers searcher: a static evaluation per seat, a greedy one-ply move (forced
// capture replies resolved) and an iterative-deepening alpha-beta on a node budget (paranoid
// with three seats: every opponent is taken to play against the root seat).
//
// Bounded by construction: every turn list it makes is GenerateTurns with kTurnBudget chain
// points per piece, so a position with hundreds of thousands of distinct turns (flying kings,
// three seats) costs a bounded listing; the turns it then considers are legal, the first ones
// the generator finds from each piece. Dart phases inside the tree are leaves.
#pragma once

#include <array>
#include <cstdint>

#include "bots/core/search_common.h"
#include "engine/chestonia_checkers/position.h"

namespace arena::bots {

// Chain points per piece in the search's turn lists (movegen.h, GenerateTurns' budget).
inline constexpr int64_t kCheckersTurnBudget = 400;

// Each seat's standing (higher is better): its material and men's advance, less the mean of the
// opponents' still in; a won game is +-30000. Seats out score -30000.
std::array<int, 3> CheckersSeatScores(const engine::chestonia_checkers::Position& pos);

// The searcher's choice at kMove: level 1 (`limits.nodes` 0) one ply with the forced capture
// replies resolved (a bounded capture search after each turn), otherwise alpha-beta.
// With three seats the search is paranoid alpha-beta unless `algorithm` asks for BRS+ (best-reply
// search with a pairwise evaluation, experimental); two seats play plain alpha-beta either way.
enum class CheckersAlgorithm { kDefault, kParanoid, kBrs };
SearchResult CheckersSearch(const engine::chestonia_checkers::Position& pos,
                            const SearchLimits& limits,
                            CheckersAlgorithm algorithm = CheckersAlgorithm::kDefault);

// Dart decisions: the aim (the bullseye, which pays a king), the reward's cell (the most
// advanced free starting cell) and the man given up for a miss (the one furthest back).
int CheckersChooseAim(const engine::chestonia_checkers::Position& pos);
int CheckersChoosePlacement(const engine::chestonia_checkers::Position& pos);
int CheckersChoosePenalty(const engine::chestonia_checkers::Position& pos);

}  // namespace arena::bots
