#include "gateway/model_gateway.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/log.h"
#include "common/proto_words.h"
#include "gateway/cost.h"
#include "gateway/move_extraction.h"
#include "gateway/prompt.h"

namespace arena::gateway {

using arena::v1::ModelAttempt;
using arena::v1::ModelTurnRequest;
using arena::v1::ModelTurnResponse;

namespace {

constexpr size_t kMaxStoredErrorBytes = 4096;

// Replaces any occurrence of the key in text that came from outside (an upstream error body
// could echo a header); the key must never reach a reply or a log line.
std::string Scrub(std::string text, const SecretKey& key) {
  std::string_view k(key.data(), key.size());
  for (size_t at = text.find(k); at != std::string::npos; at = text.find(k, at)) {
    text.replace(at, k.size(), "[redacted]");
  }
  return text;
}

}  // namespace

// One model turn. Lives (through shared_ptr captured by its callbacks) until it finishes;
// touched only on the loop thread.
class Turn : public std::enable_shared_from_this<Turn> {
 public:
  Turn(ModelGateway* gw, TurnPosition turn, std::string model, std::shared_ptr<const SecretKey> key,
       int64_t cap, int max_reprompts, ModelGateway::TurnDone done)
      : gw_(gw),
        turn_(std::move(turn)),
        model_(std::move(model)),
        key_(std::move(key)),
        cap_(cap),
        max_reprompts_(max_reprompts),
        done_(std::move(done)) {
    // Runs on the gRPC thread: the prompt is rendered and escaped here, off the loop thread.
    AddMessage("system", SystemPrompt());
    AddMessage("user", BuildTurnPrompt(turn_));
  }

  void Begin() {
    auto self = shared_from_this();
    gw_->GetModels(key_, [self](absl::StatusOr<std::vector<ModelEntry>> models) {
      self->OnModels(std::move(models));
    });
  }

 private:
  void OnModels(absl::StatusOr<std::vector<ModelEntry>> models) {
    if (!models.ok()) {
      switch (models.status().code()) {
        case absl::StatusCode::kUnauthenticated:
          return Finish(false, v1::TURN_FAILURE_AUTH);
        case absl::StatusCode::kResourceExhausted:
          return Finish(false, v1::TURN_FAILURE_OUT_OF_CREDITS);
        default:
          return Finish(false, v1::TURN_FAILURE_PROVIDER);
      }
    }
    auto entry = BudgetEntryFor(*models, model_);
    if (!entry.ok()) {
      return Refuse(absl::InvalidArgumentError(std::string(entry.status().message())));
    }
    entry_ = *std::move(entry);
    ceiling_ = gw_->options_.default_max_tokens;
    if (entry_.max_completion_tokens > 0 && entry_.max_completion_tokens < ceiling_) {
      ceiling_ = entry_.max_completion_tokens;
    }
    if (cap_ > 0 && MaxTokensNow() < gw_->options_.min_max_tokens) {
      return Refuse(absl::ResourceExhaustedError(absl::StrCat(
          "cost cap of ", cap_, " micro-credits cannot cover even the first prompt to ", model_,
          " (needs ", WorstCase(gw_->options_.min_max_tokens), ")")));
    }
    Send();
  }

  // Each message is escaped to JSON once, and the prompt-token bound kept up to date, so the
  // calls of a turn (re-prompts and retries) only concatenate.
  void AddMessage(std::string role, std::string content) {
    messages_.push_back({std::move(role), std::move(content)});
    message_json_.push_back(MessageJson(messages_.back()));
    std::vector<std::string> contents;
    for (const auto& m : messages_) contents.push_back(m.content);
    prompt_bound_ = PromptTokenBound(contents);
    prompt_bytes_ += static_cast<int64_t>(messages_.back().content.size());
  }

  int64_t MaxTokensNow() const {
    if (cap_ <= 0) return ceiling_;
    return MaxTokensWithin(cap_ - spent_, prompt_bound_, entry_.rates, ceiling_);
  }

  int64_t WorstCase(int64_t max_tokens) const {
    return CostMicro(prompt_bound_, max_tokens, entry_.rates);
  }

  void Send() {
    int64_t max_tokens = MaxTokensNow();
    if (max_tokens < gw_->options_.min_max_tokens) return Finish(false, v1::TURN_FAILURE_COST_CAP);
    ChatRequest request;
    request.model = model_;
    request.temperature = gw_->options_.temperature;
    request.max_tokens = max_tokens;
    HttpCall call;
    call.post = true;
    call.url = gw_->options_.base_url + "/chat/completions";
    sent_messages_json_ = MessagesJsonOf(message_json_);
    call.body = ChatRequestBodyWith(request, sent_messages_json_);
    call.bearer = key_;
    call.timeout_ms = gw_->options_.call_timeout_ms;
    call.stall_seconds = gw_->options_.stall_seconds;
    int64_t worst = WorstCase(max_tokens);
    auto started = std::chrono::steady_clock::now();
    auto self = shared_from_this();
    gw_->loop_->Start(std::move(call), [self, worst, max_tokens, started](HttpResult r) {
      self->OnReply(std::move(r), worst, max_tokens, started);
    });
  }

  void OnReply(HttpResult r, int64_t worst, int64_t max_tokens,
               std::chrono::steady_clock::time_point started) {
    ModelAttempt* a = response_.add_attempts();
    a->set_prompt(sent_messages_json_);  // the messages of this call, as sent
    a->set_http_status(r.status);
    a->set_model(model_);
    a->set_latency_ms(std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - started)
                          .count());
    a->set_upstream_latency_us(r.latency_us);
    a->set_max_tokens(max_tokens);
    a->set_worst_case_microcredits(worst);

    // A 200 is parsed once: ClassifyHttp would parse it only to say whether it parses.
    absl::StatusOr<ChatReply> parsed = absl::UnknownError("not a 200");
    CallOutcome outcome;
    if (r.status == 200) {
      parsed = ParseChatReply(r.body);
      outcome = parsed.ok() ? CallOutcome::kOk : CallOutcome::kRejected;
    } else {
      outcome = r.status == 0 ? CallOutcome::kRetryable : ClassifyHttp(r.status, r.body);
    }
    if (outcome == CallOutcome::kOk) {
      ChatReply reply = *std::move(parsed);
      CallSize size;
      size.usage_present = reply.usage_present;
      size.prompt_tokens = reply.prompt_tokens;
      size.completion_tokens = reply.completion_tokens;
      size.prompt_bytes = prompt_bytes_;
      size.prompt_bound = prompt_bound_;
      size.reply_bytes = static_cast<int64_t>(reply.content.size());
      size.max_tokens = max_tokens;
      CallCharge charge = ChargeFor(size, entry_.rates);
      const int64_t cost = charge.microcredits;
      if (!reply.usage_present) {
        common::LogWarning("upstream reply has no usage; charged the upper estimate",
                           {{"model", model_}, {"cost", cost}});
      } else if (charge.disputed) {
        common::LogWarning("upstream usage disagrees with the exchange's size",
                           {{"model", model_},
                            {"prompt_tokens", reply.prompt_tokens},
                            {"completion_tokens", reply.completion_tokens},
                            {"prompt_bytes", prompt_bytes_},
                            {"reply_bytes", size.reply_bytes},
                            {"max_tokens", max_tokens},
                            {"cost", cost},
                            {"worst_case", worst}});
      }
      spent_ += cost;
      a->set_cost_microcredits(cost);
      a->set_usage_estimated(charge.estimated);
      a->set_usage_disputed(charge.disputed);
      a->set_prompt_tokens(reply.prompt_tokens);
      a->set_completion_tokens(reply.completion_tokens);
      a->set_reply(Scrub(reply.content, *key_));
      Extraction x = ExtractMove(reply.content, reply.finish_reason, turn_);
      a->set_label(ReplyLabelName(x.label));
      if (x.label == ReplyLabel::kOk) {
        response_.mutable_move()->set_text(x.move);
        response_.set_reasoning(Scrub(x.reasoning, *key_));
        return Finish(true, v1::TURN_FAILURE_UNSPECIFIED);
      }
      if (++reprompts_ > max_reprompts_) {
        return Finish(false, x.label == ReplyLabel::kTruncated ? v1::TURN_FAILURE_TRUNCATED
                                                               : v1::TURN_FAILURE_ILLEGAL);
      }
      AddMessage("assistant", reply.content);
      AddMessage("user", RepromptText(x, turn_));
      retries_ = 0;
      return Send();
    }

    std::string detail = r.status == 0 ? r.error : TruncateUtf8(r.body, kMaxStoredErrorBytes);
    a->set_reply(Scrub(detail, *key_));
    switch (outcome) {
      case CallOutcome::kOutOfCredits:
        a->set_label("out_of_credits");
        return Finish(false, v1::TURN_FAILURE_OUT_OF_CREDITS);
      case CallOutcome::kAuth:
        a->set_label("auth");
        return Finish(false, v1::TURN_FAILURE_AUTH);
      case CallOutcome::kRejected:
        a->set_label("transport");
        return Finish(false, v1::TURN_FAILURE_PROVIDER);
      default:
        break;
    }
    // A provider fault: retried, each retry a separate counted call.
    a->set_label("transport");
    if (r.status == 0 && r.timed_out && r.request_sent) {
      // Sent, then timed out: the upstream may have run it; charge its worst case.
      a->set_outcome_unknown(true);
      a->set_cost_microcredits(worst);
      spent_ += worst;
    }
    if (retries_ >= gw_->options_.max_retries) return Finish(false, v1::TURN_FAILURE_PROVIDER);
    ++retries_;
    absl::Duration delay = BackoffDelay(retries_, gw_->options_.retry_base, gw_->options_.retry_max,
                                        r.retry_after, gw_->rng_);
    auto self = shared_from_this();
    gw_->loop_->After(delay, [self] { self->Send(); });
  }

  void Refuse(absl::Status status) {
    auto done = std::move(done_);
    done(std::move(status), ModelTurnResponse());
  }

  void Finish(bool ok, v1::TurnFailure kind) {
    const std::string failure = common::TurnFailureWord(kind);
    response_.set_ok(ok);
    if (!ok) {
      response_.set_failure(failure);
      response_.set_failure_kind(kind);
    }
    response_.set_total_cost_microcredits(spent_);
    if (common::LogEnabled(common::LogLevel::kInfo)) {
      common::LogInfo("model turn finished", {{"game_id", game_id_for_log()},
                                              {"seat", turn_.seat},
                                              {"model", model_},
                                              {"ok", ok},
                                              {"failure", failure},
                                              {"attempts", response_.attempts_size()},
                                              {"cost_microcredits", spent_}});
    }
    auto done = std::move(done_);
    done(absl::OkStatus(), std::move(response_));
  }

  const std::string& game_id_for_log() const { return game_id_; }

 public:
  std::string game_id_;

 private:
  ModelGateway* gw_;
  TurnPosition turn_;
  std::string model_;
  std::shared_ptr<const SecretKey> key_;
  int64_t cap_;
  int max_reprompts_;
  ModelGateway::TurnDone done_;
  std::vector<ChatMessage> messages_;
  std::vector<std::string> message_json_;  // MessageJson of each of messages_
  int64_t prompt_bound_ = 0;               // PromptTokenBound of messages_
  int64_t prompt_bytes_ = 0;               // the contents of messages_, in bytes
  std::string sent_messages_json_;         // the messages of the call in flight
  ModelEntry entry_;
  int64_t ceiling_ = 0;
  int64_t spent_ = 0;
  int reprompts_ = 0;
  int retries_ = 0;
  ModelTurnResponse response_;
};

ModelGateway::ModelGateway(GatewayOptions options, HttpLoop* loop,
                           std::shared_ptr<const SecretKey> platform_key)
    : options_(std::move(options)), loop_(loop), platform_key_(std::move(platform_key)) {}

void ModelGateway::ChooseMove(const ModelTurnRequest& request, TurnDone done) {
  auto refuse = [&](absl::Status s) { done(std::move(s), ModelTurnResponse()); };
  if (request.game_id().empty()) return refuse(absl::InvalidArgumentError("game_id is required"));
  if (request.seat() < 0) return refuse(absl::InvalidArgumentError("seat must not be negative"));
  if (request.model_id().empty()) {
    return refuse(absl::InvalidArgumentError("model_id is required"));
  }
  const std::string& engine_id = request.engine_game();
  if (engine::FindGame(engine_id) == nullptr) {
    return refuse(absl::InvalidArgumentError("engine_game names no game this build serves"));
  }
  if (request.cost_cap_microcredits() < 0) {
    return refuse(absl::InvalidArgumentError("cost_cap_microcredits must not be negative"));
  }
  if (request.max_reprompts() < 0 || request.max_reprompts() > 10) {
    return refuse(absl::InvalidArgumentError("max_reprompts must be within 0..10"));
  }
  if (!request.clue_move().empty() && (request.clue_level() < 1 || request.clue_level() > 8)) {
    return refuse(absl::InvalidArgumentError("a clue needs its bot's level, 1..8"));
  }
  std::shared_ptr<const SecretKey> key;
  if (!request.key_handle().empty()) {
    const int key_seat = request.has_key_seat() ? request.key_seat() : request.seat();
    auto found = vault_.Lookup(request.key_handle(), request.game_id(), key_seat);
    if (!found.ok()) {
      if (found.status().code() != absl::StatusCode::kFailedPrecondition) {
        return refuse(found.status());
      }
      // The key is gone (released, or lost with a restart): the caller asks its owner again.
      ModelTurnResponse needed;
      needed.set_failure_kind(v1::TURN_FAILURE_KEY_NEEDED);
      needed.set_failure(common::TurnFailureWord(v1::TURN_FAILURE_KEY_NEEDED));
      return done(found.status(), std::move(needed));
    }
    key = *std::move(found);
  } else {
    if (platform_key_ == nullptr) {
      return refuse(absl::FailedPreconditionError(
          "no platform key is configured; register the game's own key"));
    }
    if (request.cost_cap_microcredits() <= 0) {
      return refuse(absl::InvalidArgumentError(
          "cost_cap_microcredits is required when the platform key pays"));
    }
    key = platform_key_;
  }
  std::vector<std::string> variant_parts;
  for (const auto& [k, v] : request.variant().options()) variant_parts.push_back(k + "=" + v);
  std::sort(variant_parts.begin(), variant_parts.end());
  std::vector<std::string> history(request.history().begin(), request.history().end());
  auto turn = LoadTurnPosition(engine_id, absl::StrJoin(variant_parts, ","), request.position(),
                               request.seat(), std::move(history), request.show_legal_moves());
  if (!turn.ok()) return refuse(turn.status());
  if (!request.owed().empty() && request.owed() != turn->phase) {
    return refuse(absl::FailedPreconditionError(absl::StrCat("the request says '", request.owed(),
                                                             "' is owed but the position owes '",
                                                             turn->phase, "'")));
  }
  if (!request.clue_move().empty()) {
    // The clue is a suggestion, never a reason to refuse the turn: one that is not a legal
    // action of this position (stale, or mistaken) is left out of the prompt.
    if (std::find(turn->legal.begin(), turn->legal.end(), request.clue_move()) !=
        turn->legal.end()) {
      turn->clue_move = request.clue_move();
      turn->clue_level = request.clue_level();
    } else {
      common::LogWarning("clue is not a legal action here; the prompt leaves it out",
                         {{"game_id", request.game_id()}, {"seat", request.seat()}});
    }
  }
  int reprompts =
      request.max_reprompts() > 0 ? request.max_reprompts() : options_.default_max_reprompts;
  auto t = std::make_shared<Turn>(this, *std::move(turn), request.model_id(), std::move(key),
                                  request.cost_cap_microcredits(), reprompts, std::move(done));
  t->game_id_ = request.game_id();
  loop_->Post([t] { t->Begin(); });
}

void ModelGateway::ListModels(const std::string& key_handle, ModelsDone done) {
  std::shared_ptr<const SecretKey> key = platform_key_;
  if (!key_handle.empty()) {
    auto found = vault_.LookupAny(key_handle);
    if (!found.ok()) return done(found.status());
    key = *std::move(found);
  }
  if (key == nullptr) {
    return done(absl::FailedPreconditionError("no platform key is configured; pass a key handle"));
  }
  loop_->Post([this, key, done = std::move(done)]() mutable { GetModels(key, std::move(done)); });
}

void ModelGateway::GetModels(std::shared_ptr<const SecretKey> key, ModelsDone done) {
  if (!models_.empty() && absl::Now() - models_at_ < options_.models_ttl) {
    return done(models_);
  }
  models_waiters_.push_back(std::move(done));
  if (fetching_) return;
  fetching_ = true;
  HttpCall call;
  call.post = false;
  call.url = options_.base_url + "/models";
  call.bearer = std::move(key);
  call.timeout_ms = options_.call_timeout_ms;
  call.stall_seconds = options_.stall_seconds;
  loop_->Start(std::move(call), [this](HttpResult r) {
    fetching_ = false;
    absl::StatusOr<std::vector<ModelEntry>> result;
    if (r.status == 200) {
      result = ParseModelList(r.body);
      if (result.ok()) {
        models_ = *result;
        models_at_ = absl::Now();
      } else {
        result = absl::UnavailableError("the upstream model list is unreadable");
      }
    } else if (r.status == 401 || r.status == 403) {
      result = absl::UnauthenticatedError("the upstream refused the key");
    } else if (r.status != 0 && IsOutOfCreditsMessage(ErrorMessage(r.body))) {
      result = absl::ResourceExhaustedError("out of credits");
    } else {
      result = absl::UnavailableError(
          absl::StrCat("the upstream model list is unavailable (HTTP ", r.status, ")"));
      common::LogWarning("model list fetch failed",
                         {{"http_status", r.status}, {"error", r.error}});
    }
    auto waiters = std::move(models_waiters_);
    models_waiters_.clear();
    for (auto& w : waiters) w(result);
  });
}

}  // namespace arena::gateway
