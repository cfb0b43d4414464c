// The Abacus.AI RouteLLM wire format (OpenAI-compatible) and how the gateway reads its
// answers: request bodies, replies, the model list, and which failures are final.
//
// Failure rules: out of credits arrives as HTTP 400 or 429 with a message like "You have no
// remaining credits to use the LLM apis." and is recognised by that message: final. 401/403:
// the key is bad: final. 429 (with credits) and 5xx: retried with exponential backoff and
// jitter, honouring Retry-After. Transport failures (connect, timeout) are retried too.
// Errors come as {"error":{"message","type","code"}} or {"success":false,"error":...}.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "gateway/cost.h"

namespace arena::gateway {

struct ChatMessage {
  std::string role;  // "system", "user", "assistant"
  std::string content;
};

struct ChatRequest {
  std::string model;
  std::vector<ChatMessage> messages;
  double temperature = 0.2;
  int64_t max_tokens = 512;
  bool json_object = true;  // response_format {"type":"json_object"}
};

std::string ChatRequestBody(const ChatRequest& request);
// The messages as a JSON array: what an attempt reports as its raw prompt.
std::string MessagesJson(const std::vector<ChatMessage>& messages);

// The same bytes in pieces, so a turn escapes each message once however many calls it makes:
// one message's JSON object, the array of such objects, and the body around that array
// (`request.messages` is ignored).
std::string MessageJson(const ChatMessage& message);
std::string MessagesJsonOf(const std::vector<std::string>& message_json);
std::string ChatRequestBodyWith(const ChatRequest& request, const std::string& messages_json);

struct ChatReply {
  std::string content;
  std::string finish_reason;
  int64_t prompt_tokens = 0;
  int64_t completion_tokens = 0;
  int64_t total_tokens = 0;
  double compute_points_used = 0;
  bool usage_present = false;  // the reply had a usage block (the token counts are its own)
};
// Parses a 200 body. INVALID_ARGUMENT when it is not a chat completion. The content is the
// message's string, or the text parts of a content array in order (thinking parts left out).
absl::StatusOr<ChatReply> ParseChatReply(const std::string& body);

struct ModelEntry {
  std::string id;
  TokenRates rates;
  double input_usd = 0;  // as listed, for ListModels
  double output_usd = 0;
  int64_t context_length = 0;
  int64_t max_completion_tokens = 0;
};
// Parses GET /v1/models: {"data":[{id, input_token_rate, output_token_rate, ...}]}.
absl::StatusOr<std::vector<ModelEntry>> ParseModelList(const std::string& body);

// The id that lets Abacus pick the model per request; priced at the highest listed rates.
inline constexpr char kRouteLlm[] = "route-llm";
// Rates to budget a call to `model` with: its own, or for route-llm the maximum input and
// maximum output rate over every listed model (and route-llm's own, if listed).
// NOT_FOUND for a model the list does not have.
absl::StatusOr<ModelEntry> BudgetEntryFor(const std::vector<ModelEntry>& models,
                                          const std::string& model);

// What an HTTP exchange means for the turn.
enum class CallOutcome {
  kOk,            // 200 with a chat completion
  kRetryable,     // 429 with credits, 5xx, transport failure: a provider fault, retry
  kOutOfCredits,  // final
  kAuth,          // 401/403: final
  kRejected,      // another 4xx, or a 200 that is not a completion: final provider fault
};
// `http_status` 0 means no HTTP answer (transport failure).
CallOutcome ClassifyHttp(int http_status, const std::string& body);
// The error message of an error body in either shape ("" when there is none).
std::string ErrorMessage(const std::string& body);
bool IsOutOfCreditsMessage(const std::string& message);

// Delay before retry number `retry` (1-based): base * 2^(retry-1), capped at `max`, with full
// jitter over its upper half; a Retry-After (seconds or HTTP date, delta only) overrides when
// longer, capped at `max`.
absl::Duration BackoffDelay(int retry, absl::Duration base, absl::Duration max,
                            const std::string& retry_after, std::mt19937_64& rng);

}  // namespace arena::gateway
