// The pairing policy of ranked play: who plays whom among the players waiting in the queues.
// Pure: no database, no clock of its own; the durable queue (ranked_store.h) feeds it.
//
// The rules (../shared/seeds/chess-and-ranked-play.txt, issue 26) and the choices they leave
// open (docs/ranked.md):
//   - Two players are paired only in the same city and time control.
//   - Each waiting player has a rating window: ±100 when they join, widening by 25 points every
//     10 s of waiting to ±250 after 60 s (RatingWindow()). A pair is acceptable only when the
//     rating gap is within BOTH players' current windows, so a newcomer is never handed an
//     opponent further away than their own window just because the other has waited long.
//   - Two players who have already met kMaxMoneyGamesPerPairPerDay times for money today (UTC)
//     are never paired again that day.
//   - Nobody is in two pairings.
//   - The longest-waiting player is served first and gets the acceptable opponent with the
//     closest rating; ties are broken by wait (earlier join first), then by player id, so the
//     same input always gives the same pairings.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "services/arena/ranked/time_control.h"

namespace arena::ranked {

// The window schedule. Steps rather than a continuous widening so that the "searching…
// widened to ±N" line a waiting player sees changes a few times, each change meaning a new
// set of possible opponents; 60 s to the widest window because a 3+2 game lasts minutes and a
// longer wait for it loses the player, while the first 10 s at ±100 is enough for a busy queue
// to find a close match.
inline constexpr int kInitialWindow = 100;
inline constexpr int kWindowStep = 25;
inline constexpr absl::Duration kWindowStepEvery = absl::Seconds(10);
inline constexpr int kMaxWindow = 250;  // reached after 6 steps, 60 s

// Two players may meet for money at most this many times in one UTC day.
inline constexpr int kMaxMoneyGamesPerPairPerDay = 6;

// One player waiting in one queue.
struct QueueEntry {
  std::string player_id;  // the account id
  std::string city_id;
  TimeControl time_control = TimeControl::k5Plus0;
  double rating = 1500.0;  // Glicko-2 rating for this time control, when they joined
  absl::Time joined_at;
};

// Two waiting players made into one staked game. `first` is the one who waited longer (whose
// turn it was to be served); colours are not decided here.
struct Pairing {
  QueueEntry first;
  QueueEntry second;
  int window = 0;  // the narrower of the two windows at the moment of pairing
};

// The rating window of a player who has waited `waited` (a negative wait, from clocks of two
// replicas that disagree, counts as none): kInitialWindow, plus kWindowStep for every whole
// kWindowStepEvery, at most kMaxWindow.
int RatingWindow(absl::Duration waited);

// The window of `entry` at `now`: what a waiting player is shown ("widened to ±N").
int CurrentWindow(const QueueEntry& entry, absl::Time now);

// Whether `a` and `b` may be paired at `now` given how many money games they have played
// against each other today: same city and time control, different players, rating gap within
// both windows, and under the daily cap.
bool Acceptable(const QueueEntry& a, const QueueEntry& b, absl::Time now, int money_games_today);

// How many money games two players have played against each other in the UTC day of the
// pairing pass. Called with the two player ids in either order; must answer the same for both.
using MoneyGamesToday = std::function<int(const std::string& a, const std::string& b)>;

// Pairs the waiting players by the rules above. Entries may come from several queues in any
// order; entries whose rating is not a finite number are never paired. A player id that
// appears twice is paired at most once. Pairings are returned in the order they were made
// (the first of each is the longest-waiting player still unpaired at that point).
std::vector<Pairing> FindPairings(std::vector<QueueEntry> waiting, absl::Time now,
                                  const MoneyGamesToday& money_games_today);

}  // namespace arena::ranked
