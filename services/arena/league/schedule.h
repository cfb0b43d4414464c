// League schedules: which participants meet, in which seating order, in which round.
//
// Round-robin: every group of `seats` participants meets in every seating order (2 players:
// both colours; 3 players: all six orders) — with 4 to 6 seats, whose 24 to 720 orders would
// make a league of hours, in the group's `seats` rotations instead, so each member leads once
// and sits in every seat once — `games_per_pairing` times each, with the leader fixed by the
// schedule (seat order[0] leads) rather than drawn, so seat advantage is balanced.
// Swiss: each round groups participants of similar score, avoiding repeat meetings where it
// can; a participant left over gets a bye.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

namespace arena::league {

// One scheduled game: participants in seat order; order[0] leads.
struct Pairing {
  int round = 0;
  std::vector<int> order;
};

// Groups of up to this many seats meet in every order; larger ones in their rotations.
inline constexpr int kAllOrdersUpTo = 3;
absl::StatusOr<std::vector<Pairing>> RoundRobin(int participants, int seats, int games_per_pairing);

struct SwissStanding {
  int participant = 0;
  double points = 0;
};

struct SwissRound {
  std::vector<Pairing> games;
  std::vector<int> byes;
};

// Pairs one Swiss round. `met[a][b]` counts earlier meetings; `seat_history[p]` counts how often
// p led (sat first), used to balance the seating. Deterministic for the same inputs and seed.
absl::StatusOr<SwissRound> PairSwissRound(int round, int seats,
                                          const std::vector<SwissStanding>& standings,
                                          const std::vector<std::vector<int>>& met,
                                          const std::vector<int>& times_led, uint64_t seed);

}  // namespace arena::league
