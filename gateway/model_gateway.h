// The gateway's business logic, free of gRPC: keys, the model list, and model turns.
//
// A turn runs entirely on the HTTP loop's thread once validated: fetch (or reuse) the model
// list, prompt, classify each HTTP exchange (retrying provider faults with backoff), extract
// the move, re-prompt with the reason on an unusable answer, and report every exchange as an
// attempt. With a cost cap, every call's max_tokens is chosen so that its worst case
// (prompt-token bound at the input rate plus max_tokens at the output rate) fits what is left
// of the cap, so the turn — every re-prompt and retry included — never costs more than the
// cap. The caller's completion callback runs on the loop thread.
#pragma once

#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arena/v1/gateway.pb.h"
#include "gateway/abacus_protocol.h"
#include "gateway/http_loop.h"
#include "gateway/key_vault.h"

namespace arena::gateway {

struct GatewayOptions {
  std::string base_url = "https://routellm.abacus.ai/v1";  // no trailing slash
  int max_retries = 3;  // per prompt, for 429 / 5xx / transport failures
  absl::Duration retry_base = absl::Milliseconds(250);
  absl::Duration retry_max = absl::Seconds(8);
  int64_t call_timeout_ms = 60000;
  int64_t stall_seconds = 20;
  int64_t default_max_tokens = 1024;  // per call, before the cap narrows it
  int64_t min_max_tokens = 16;        // below this a call is not worth making
  absl::Duration models_ttl = absl::Minutes(10);
  double temperature = 0.2;
  int default_max_reprompts = 3;
};

class ModelGateway {
 public:
  ModelGateway(GatewayOptions options, HttpLoop* loop,
               std::shared_ptr<const SecretKey> platform_key);

  KeyVault& vault() { return vault_; }
  // True on the HTTP loop's thread, where every completion callback runs.
  bool OnLoopThread() const { return loop_->OnLoopThread(); }
  // In a completion callback: more replies that arrived with this one wait behind it.
  bool MoreRepliesWaiting() const { return loop_->MoreCompletionsWaiting(); }

  // Done runs once: with a non-OK status when the turn was refused before any call (bad
  // request, key_needed, cap too small), else OK and the response (ok or a failure word).
  using TurnDone = std::function<void(absl::Status, arena::v1::ModelTurnResponse)>;
  void ChooseMove(const arena::v1::ModelTurnRequest& request, TurnDone done);

  using ModelsDone = std::function<void(absl::StatusOr<std::vector<ModelEntry>>)>;
  // The upstream's models, with the key of `key_handle` or the platform key.
  void ListModels(const std::string& key_handle, ModelsDone done);

 private:
  friend class Turn;
  struct ModelsFetch;
  // Loop thread only.
  void GetModels(std::shared_ptr<const SecretKey> key, ModelsDone done);

  GatewayOptions options_;
  HttpLoop* loop_;
  std::shared_ptr<const SecretKey> platform_key_;
  KeyVault vault_;

  // Loop-thread state: the cached model list and callers waiting on a fetch.
  std::vector<ModelEntry> models_;
  absl::Time models_at_ = absl::InfinitePast();
  bool fetching_ = false;
  std::vector<ModelsDone> models_waiters_;
  std::mt19937_64 rng_{std::random_device{}()};
};

}  // namespace arena::gateway
