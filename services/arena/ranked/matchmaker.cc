#include "services/arena/ranked/matchmaker.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

namespace arena::ranked {
namespace {

// Longest wait first, then player id: the order players are served in, and the tie-break.
bool ServedBefore(const QueueEntry& a, const QueueEntry& b) {
  return std::tie(a.joined_at, a.player_id) < std::tie(b.joined_at, b.player_id);
}

bool WithinWindows(const QueueEntry& a, const QueueEntry& b, absl::Time now) {
  const double gap = std::abs(a.rating - b.rating);
  return gap <= std::min(CurrentWindow(a, now), CurrentWindow(b, now));
}

}  // namespace

int RatingWindow(absl::Duration waited) {
  if (waited <= absl::ZeroDuration()) return kInitialWindow;
  absl::Duration part_step;
  const int64_t steps = absl::IDivDuration(waited, kWindowStepEvery, &part_step);
  const int64_t max_steps = (kMaxWindow - kInitialWindow) / kWindowStep;
  return kInitialWindow + kWindowStep * static_cast<int>(std::min(steps, max_steps));
}

int CurrentWindow(const QueueEntry& entry, absl::Time now) {
  return RatingWindow(now - entry.joined_at);
}

bool Acceptable(const QueueEntry& a, const QueueEntry& b, absl::Time now, int money_games_today) {
  return a.city_id == b.city_id && a.time_control == b.time_control && a.player_id != b.player_id &&
         std::isfinite(a.rating) && std::isfinite(b.rating) && WithinWindows(a, b, now) &&
         money_games_today < kMaxMoneyGamesPerPairPerDay;
}

std::vector<Pairing> FindPairings(std::vector<QueueEntry> waiting, absl::Time now,
                                  const MoneyGamesToday& money_games_today) {
  std::erase_if(waiting, [](const QueueEntry& e) { return !std::isfinite(e.rating); });
  std::sort(waiting.begin(), waiting.end(), ServedBefore);

  // Per queue, the entries' indices by rating, so each player looks only at the ratings their
  // own window reaches (a partner must be within it anyway).
  using QueueKey = std::pair<std::string, TimeControl>;
  std::map<QueueKey, std::vector<size_t>> by_rating;
  for (size_t i = 0; i < waiting.size(); ++i) {
    by_rating[{waiting[i].city_id, waiting[i].time_control}].push_back(i);
  }
  for (auto& [key, indices] : by_rating) {
    std::stable_sort(indices.begin(), indices.end(),
                     [&](size_t a, size_t b) { return waiting[a].rating < waiting[b].rating; });
  }

  std::vector<Pairing> pairings;
  std::set<std::string> paired;  // player ids, so an id listed twice is still paired once
  for (size_t i = 0; i < waiting.size(); ++i) {
    const QueueEntry& me = waiting[i];
    if (paired.count(me.player_id)) continue;
    const std::vector<size_t>& queue = by_rating[{me.city_id, me.time_control}];
    const double reach = CurrentWindow(me, now);
    auto lo = std::lower_bound(queue.begin(), queue.end(), me.rating - reach,
                               [&](size_t k, double r) { return waiting[k].rating < r; });
    auto hi = std::upper_bound(queue.begin(), queue.end(), me.rating + reach,
                               [&](double r, size_t k) { return r < waiting[k].rating; });
    std::optional<size_t> best;
    for (auto it = lo; it != hi; ++it) {
      const QueueEntry& other = waiting[*it];
      if (*it == i || paired.count(other.player_id)) continue;
      if (!WithinWindows(me, other, now)) continue;  // cheap before asking for the count
      if (!Acceptable(me, other, now, money_games_today(me.player_id, other.player_id))) continue;
      if (!best) {
        best = *it;
        continue;
      }
      const QueueEntry& incumbent = waiting[*best];
      const double gap = std::abs(other.rating - me.rating);
      const double best_gap = std::abs(incumbent.rating - me.rating);
      if (gap < best_gap || (gap == best_gap && ServedBefore(other, incumbent))) best = *it;
    }
    if (!best) continue;
    const QueueEntry& partner = waiting[*best];
    paired.insert(me.player_id);
    paired.insert(partner.player_id);
    pairings.push_back(
        {me, partner, std::min(CurrentWindow(me, now), CurrentWindow(partner, now))});
  }
  return pairings;
}

}  // namespace arena::ranked
