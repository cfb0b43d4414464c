// The models the gateway can reach, with their prices and context sizes: what `arena` shows
// (ListModels, `arenactl models`) and what it checks every model seat and league participant
// against, so a typo in a model id is refused when the table or league is made rather than
// showing up as failures and forfeits in play.
//
// The list comes from arena-llm-gateway's ListModels (the platform key's view of
// /v1/models), is cached for `ttl` and refreshed on the first use after that; when a refresh
// fails, the last list is served (stale) until one succeeds. Thread-safe.
#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arena/v1/gateway.pb.h"

namespace arena::service {

struct Catalogue {
  std::vector<v1::ModelInfo> models;  // sorted by id
  absl::Time fetched_at = absl::InfinitePast();
  bool stale = false;  // the last refresh failed; this is the list before it
};

class ModelCatalogue {
 public:
  // Fetches the list from the gateway; called without the lock held.
  using Fetch = std::function<absl::StatusOr<std::vector<v1::ModelInfo>>()>;
  ModelCatalogue(Fetch fetch, absl::Duration ttl) : fetch_(std::move(fetch)), ttl_(ttl) {}

  // The cached list, refreshed when older than the ttl. UNAVAILABLE (or the gateway's status)
  // when there has never been a list.
  absl::StatusOr<Catalogue> Get();

  // OK when every id is listed. INVALID_ARGUMENT naming the first unknown id and the nearest
  // known ones. When no list can be had because the gateway has no platform key
  // (FAILED_PRECONDITION: a deployment where every model seat brings its own key), the ids
  // are not checked; other failures to get a list are returned as they are (UNAVAILABLE).
  absl::Status CheckKnown(const std::vector<std::string>& model_ids);

 private:
  Fetch fetch_;
  absl::Duration ttl_;
  std::mutex mu_;
  Catalogue cached_;
  bool have_ = false;
};

// Levenshtein distance between two ids (bytes).
int EditDistance(const std::string& a, const std::string& b);
// The `n` known ids nearest to `id` by edit distance, nearest first, ties by id.
std::vector<std::string> NearestIds(const std::string& id, const std::vector<std::string>& known,
                                    size_t n);

}  // namespace arena::service
