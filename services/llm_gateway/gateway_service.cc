#include "services/llm_gateway/gateway_service.h"

#include "common/grpc_util.h"
#include "common/log.h"
#include "services/common/metrics.h"

namespace arena::llm_gateway {

void GatewayService::FinishLater(grpc::ServerUnaryReactor* reactor, grpc::Status status) {
  // A reply alone is sent at once: a hand-off would only add a thread wake-up to its
  // latency. Replies that arrived together go to the finisher, except the last, so the loop
  // reaches the next one sooner.
  if (gateway_->OnLoopThread() && gateway_->MoreRepliesWaiting()) {
    finisher_.Submit([reactor, status = std::move(status)] { reactor->Finish(status); });
  } else {
    reactor->Finish(status);
  }
}

grpc::ServerUnaryReactor* GatewayService::RegisterKey(grpc::CallbackServerContext* ctx,
                                                      const arena::v1::RegisterKeyRequest* request,
                                                      arena::v1::RegisterKeyResponse* response) {
  auto* reactor = ctx->DefaultReactor();
  if (auto s = auth_.Require(*ctx, {"arena"}); !s.ok()) {
    reactor->Finish(common::ToGrpc(s));
    return reactor;
  }
  auto handle = gateway_->vault().Register(request->game_id(), request->seat(), request->api_key());
  if (!handle.ok()) {
    reactor->Finish(common::ToGrpc(handle.status()));
    return reactor;
  }
  response->set_key_handle(*handle);
  common::LogInfo("key registered", {{"game_id", request->game_id()}, {"seat", request->seat()}});
  reactor->Finish(grpc::Status::OK);
  return reactor;
}

grpc::ServerUnaryReactor* GatewayService::ReleaseKey(grpc::CallbackServerContext* ctx,
                                                     const arena::v1::ReleaseKeyRequest* request,
                                                     arena::v1::ReleaseKeyResponse*) {
  auto* reactor = ctx->DefaultReactor();
  if (auto s = auth_.Require(*ctx, {"arena"}); !s.ok()) {
    reactor->Finish(common::ToGrpc(s));
    return reactor;
  }
  absl::Status status;
  if (!request->key_handle().empty()) {
    status = gateway_->vault().Release(request->key_handle(), request->game_id());
    if (status.ok()) common::LogInfo("key released", {{"game_id", request->game_id()}});
  } else if (!request->game_id().empty()) {
    int n = gateway_->vault().ReleaseGame(request->game_id());
    common::LogInfo("game keys released", {{"game_id", request->game_id()}, {"count", n}});
  } else {
    status = absl::InvalidArgumentError("key_handle or game_id is required");
  }
  reactor->Finish(common::ToGrpc(status));
  return reactor;
}

namespace {

// Model turns and what they cost, as /metrics shows them (docs/operations.md). The outcome is
// "ok" or the failure word (a fixed set: move_extraction and the gateway name them).
void RecordTurn(const absl::Status& status, const arena::v1::ModelTurnResponse& result) {
  static common::Family<common::Counter>& turns = common::MetricsRegistry::Global().Counters(
      "arena_gateway_model_turns_total", "Model turns the gateway answered, by outcome.",
      {"outcome"});
  static common::Family<common::Counter>& attempts = common::MetricsRegistry::Global().Counters(
      "arena_gateway_model_attempts_total",
      "Chat completions asked of the upstream for model turns.");
  static common::Counter& spend =
      common::MetricsRegistry::Global()
          .Counters("arena_gateway_model_spend_microcredits_total",
                    "Micro-credits the upstream's answers to model turns cost.")
          .Get();
  std::string outcome = status.ok() ? "ok" : result.failure();
  if (outcome.empty()) outcome = "refused";
  turns.With({outcome}).Add();
  attempts.Get().Add(result.attempts_size());
  spend.Add(static_cast<double>(result.total_cost_microcredits()));
}

}  // namespace

grpc::ServerUnaryReactor* GatewayService::ChooseMove(grpc::CallbackServerContext* ctx,
                                                     const arena::v1::ModelTurnRequest* request,
                                                     arena::v1::ModelTurnResponse* response) {
  auto* reactor = ctx->DefaultReactor();
  if (auto s = auth_.Require(*ctx, {"arena"}); !s.ok()) {
    reactor->Finish(common::ToGrpc(s));
    return reactor;
  }
  // Runs on this thread for a refusal, else later on the HTTP loop's thread.
  gateway_->ChooseMove(*request, [this, reactor, response](absl::Status status,
                                                           arena::v1::ModelTurnResponse result) {
    RecordTurn(status, result);
    if (status.ok()) {
      *response = std::move(result);
      return FinishLater(reactor, grpc::Status::OK);
    }
    grpc::Status refused = common::ToGrpc(status);
    if (result.failure_kind() != arena::v1::TURN_FAILURE_UNSPECIFIED) {
      // What the caller acts on travels typed, in the error's details.
      arena::v1::GatewayRefusal refusal;
      refusal.set_failure(result.failure_kind());
      refused =
          grpc::Status(refused.error_code(), refused.error_message(), refusal.SerializeAsString());
    }
    FinishLater(reactor, refused);
  });
  return reactor;
}

grpc::ServerUnaryReactor* GatewayService::ListModels(grpc::CallbackServerContext* ctx,
                                                     const arena::v1::ListModelsRequest* request,
                                                     arena::v1::ListModelsResponse* response) {
  auto* reactor = ctx->DefaultReactor();
  if (auto s = auth_.Require(*ctx, {"arena"}); !s.ok()) {
    reactor->Finish(common::ToGrpc(s));
    return reactor;
  }
  gateway_->ListModels(
      request->key_handle(),
      [this, reactor, response](absl::StatusOr<std::vector<gateway::ModelEntry>> models) {
        if (!models.ok()) return FinishLater(reactor, common::ToGrpc(models.status()));
        for (const auto& m : *models) {
          auto* info = response->add_models();
          info->set_id(m.id);
          info->set_input_usd_per_token(m.input_usd);
          info->set_output_usd_per_token(m.output_usd);
          info->set_context_length(m.context_length);
          info->set_max_completion_tokens(m.max_completion_tokens);
        }
        FinishLater(reactor, grpc::Status::OK);
      });
  return reactor;
}

}  // namespace arena::llm_gateway
