#include "services/arena/model_catalogue.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/log.h"

namespace arena::service {

int EditDistance(const std::string& a, const std::string& b) {
  std::vector<int> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      int above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> NearestIds(const std::string& id, const std::vector<std::string>& known,
                                    size_t n) {
  std::vector<std::pair<int, std::string>> scored;
  for (const std::string& k : known) scored.push_back({EditDistance(id, k), k});
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < n; ++i) out.push_back(scored[i].second);
  return out;
}

absl::StatusOr<Catalogue> ModelCatalogue::Get() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (have_ && absl::Now() - cached_.fetched_at < ttl_) return cached_;
  }
  // Concurrent refreshes may both fetch; the list is small and the later one wins.
  auto fetched = fetch_();
  std::lock_guard<std::mutex> lock(mu_);
  if (fetched.ok()) {
    cached_.models = *std::move(fetched);
    std::sort(cached_.models.begin(), cached_.models.end(),
              [](const v1::ModelInfo& a, const v1::ModelInfo& b) { return a.id() < b.id(); });
    cached_.fetched_at = absl::Now();
    cached_.stale = false;
    have_ = true;
    return cached_;
  }
  if (!have_) return fetched.status();
  common::LogWarning("model catalogue refresh failed; serving the last list",
                     {{"error", std::string(fetched.status().message())}});
  Catalogue stale = cached_;
  stale.stale = true;
  return stale;
}

absl::Status ModelCatalogue::CheckKnown(const std::vector<std::string>& model_ids) {
  if (model_ids.empty()) return absl::OkStatus();
  auto catalogue = Get();
  if (!catalogue.ok()) {
    if (catalogue.status().code() == absl::StatusCode::kFailedPrecondition) {
      return absl::OkStatus();  // no platform key: nothing to check against
    }
    return absl::UnavailableError(absl::StrCat("the model list cannot be had to check model ids: ",
                                               catalogue.status().message()));
  }
  std::vector<std::string> known;
  for (const auto& m : catalogue->models) known.push_back(m.id());
  for (const std::string& id : model_ids) {
    if (std::binary_search(known.begin(), known.end(), id)) continue;
    return absl::InvalidArgumentError(
        absl::StrCat("unknown model id '", id,
                     "'; the nearest known: ", absl::StrJoin(NearestIds(id, known, 3), ", ")));
  }
  return absl::OkStatus();
}

}  // namespace arena::service
