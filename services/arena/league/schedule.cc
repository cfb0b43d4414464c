#include "services/arena/league/schedule.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "absl/strings/str_cat.h"

namespace arena::league {
namespace {

void Combinations(int n, int k, int start, std::vector<int>& current,
                  std::vector<std::vector<int>>& out) {
  if (static_cast<int>(current.size()) == k) {
    out.push_back(current);
    return;
  }
  for (int i = start; i < n; ++i) {
    current.push_back(i);
    Combinations(n, k, i + 1, current, out);
    current.pop_back();
  }
}

}  // namespace

absl::StatusOr<std::vector<Pairing>> RoundRobin(int participants, int seats,
                                                int games_per_pairing) {
  if (seats < 2 || seats > 6) return absl::InvalidArgumentError("seats must be 2..6");
  if (participants < seats) {
    return absl::InvalidArgumentError(absl::StrCat("a round-robin for ", seats,
                                                   " seats needs at least ", seats,
                                                   " participants, got ", participants));
  }
  if (games_per_pairing < 1) return absl::InvalidArgumentError("games_per_pairing must be >= 1");
  std::vector<std::vector<int>> groups;
  std::vector<int> current;
  Combinations(participants, seats, 0, current, groups);
  std::vector<Pairing> out;
  // Rounds cycle through the groups' seating orders so each participant plays regularly.
  int round = 0;
  for (int g = 0; g < games_per_pairing; ++g) {
    for (const std::vector<int>& group : groups) {
      std::vector<int> order = group;
      if (seats <= kAllOrdersUpTo) {
        do {
          out.push_back({round, order});
        } while (std::next_permutation(order.begin(), order.end()));
      } else {
        // The group's rotations: each member leads once and sits in every seat once.
        for (int r = 0; r < seats; ++r) {
          out.push_back({round, order});
          std::rotate(order.begin(), order.begin() + 1, order.end());
        }
      }
    }
    ++round;
  }
  return out;
}

absl::StatusOr<SwissRound> PairSwissRound(int round, int seats,
                                          const std::vector<SwissStanding>& standings,
                                          const std::vector<std::vector<int>>& met,
                                          const std::vector<int>& times_led, uint64_t seed) {
  if (seats < 2 || seats > 6) return absl::InvalidArgumentError("seats must be 2..6");
  const int n = static_cast<int>(standings.size());
  for (const SwissStanding& s : standings) {
    if (s.participant < 0 || s.participant >= static_cast<int>(met.size()) ||
        s.participant >= static_cast<int>(times_led.size())) {
      return absl::InvalidArgumentError("standing names an unknown participant");
    }
  }
  // Order by points (ties broken by a seeded shuffle so no one is always paired up).
  std::vector<SwissStanding> order = standings;
  std::mt19937_64 rng(seed ^ (static_cast<uint64_t>(round) * 0x9e3779b97f4a7c15ULL));
  std::shuffle(order.begin(), order.end(), rng);
  std::stable_sort(order.begin(), order.end(), [](const SwissStanding& a, const SwissStanding& b) {
    return a.points > b.points;
  });
  SwissRound out;
  std::vector<bool> used(n, false);
  // The lowest-ranked participants who do not fill a group get byes.
  int byes = n % seats;
  for (int b = 0; b < byes; ++b) {
    used[n - 1 - b] = true;
    out.byes.push_back(order[n - 1 - b].participant);
  }
  for (int i = 0; i < n; ++i) {
    if (used[i]) continue;
    std::vector<int> group = {i};
    used[i] = true;
    // Fill the group with the next unused participants, preferring ones nobody in the group
    // has met; fall back to the nearest in the standings.
    while (static_cast<int>(group.size()) < seats) {
      int best = -1;
      int best_meetings = 1 << 30;
      for (int j = i + 1; j < n; ++j) {
        if (used[j]) continue;
        int meetings = 0;
        for (int g : group) meetings += met[order[g].participant][order[j].participant];
        if (meetings < best_meetings) {
          best_meetings = meetings;
          best = j;
          if (meetings == 0) break;
        }
      }
      if (best < 0) return absl::InternalError("swiss pairing ran out of participants");
      used[best] = true;
      group.push_back(best);
    }
    std::vector<int> players;
    for (int g : group) players.push_back(order[g].participant);
    // Whoever has led least leads; the rest keep standings order.
    std::stable_sort(players.begin(), players.end(),
                     [&](int a, int b) { return times_led[a] < times_led[b]; });
    out.games.push_back({round, players});
  }
  return out;
}

}  // namespace arena::league
