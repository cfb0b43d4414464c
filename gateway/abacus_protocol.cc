#include "gateway/abacus_protocol.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"

namespace arena::gateway {
namespace {

using nlohmann::json;

int64_t IntField(const json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key)) return 0;
  const json& v = obj[key];
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number()) {
    // A count past int64's range (1e300 from a broken provider) is clamped: casting it would
    // be undefined behaviour.
    constexpr double kLimit = 9.2e18;  // just below 2^63
    const double d = v.get<double>();
    if (d >= kLimit) return std::numeric_limits<int64_t>::max();
    if (d <= -kLimit) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(d);
  }
  if (v.is_string()) return std::strtoll(v.get_ref<const std::string&>().c_str(), nullptr, 10);
  return 0;
}

double UsdOf(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) return std::strtod(v.get_ref<const std::string&>().c_str(), nullptr);
  return 0;
}

std::string JsonString(const std::string& text) {
  return json(text).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

// The bytes below are exactly what nlohmann's dump of the equivalent tree gives (object keys
// in sorted order), built without the tree so each prompt is escaped once.
std::string MessageJson(const ChatMessage& message) {
  return absl::StrCat("{\"content\":", JsonString(message.content),
                      ",\"role\":", JsonString(message.role), "}");
}

std::string MessagesJsonOf(const std::vector<std::string>& message_json) {
  return absl::StrCat("[", absl::StrJoin(message_json, ","), "]");
}

std::string ChatRequestBodyWith(const ChatRequest& request, const std::string& messages_json) {
  return absl::StrCat("{\"max_tokens\":", request.max_tokens, ",\"messages\":", messages_json,
                      ",\"model\":", JsonString(request.model),
                      request.json_object ? ",\"response_format\":{\"type\":\"json_object\"}" : "",
                      ",\"stream\":false,\"temperature\":", json(request.temperature).dump(), "}");
}

std::string MessagesJson(const std::vector<ChatMessage>& messages) {
  std::vector<std::string> parts;
  for (const auto& m : messages) parts.push_back(MessageJson(m));
  return MessagesJsonOf(parts);
}

std::string ChatRequestBody(const ChatRequest& request) {
  return ChatRequestBodyWith(request, MessagesJson(request.messages));
}

absl::StatusOr<ChatReply> ParseChatReply(const std::string& body) {
  json j = json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("choices") || !j["choices"].is_array() ||
      j["choices"].empty()) {
    return absl::InvalidArgumentError("reply is not a chat completion");
  }
  const json& choice = j["choices"][0];
  ChatReply reply;
  if (choice.contains("message") && choice["message"].is_object()) {
    const json& content = choice["message"].value("content", json());
    if (content.is_string()) {
      reply.content = content.get<std::string>();
    } else if (content.is_array()) {
      // Some models behind the router answer in parts ([{"type": "thinking", ...},
      // {"type": "text", "text": "..."}]): the answer is their text parts, in order.
      for (const json& part : content) {
        if (!part.is_object() || !part.contains("text") || !part["text"].is_string()) continue;
        const std::string type = part.value("type", std::string("text"));
        if (type != "text" && type != "output_text") continue;
        if (!reply.content.empty()) reply.content += "\n";
        reply.content += part["text"].get<std::string>();
      }
    }
  }
  const json& finish = choice.value("finish_reason", json());
  if (finish.is_string()) reply.finish_reason = finish.get<std::string>();
  if (j.contains("usage") && j["usage"].is_object()) {
    const json& usage = j["usage"];
    reply.usage_present = true;
    reply.prompt_tokens = IntField(usage, "prompt_tokens");
    reply.completion_tokens = IntField(usage, "completion_tokens");
    reply.total_tokens = IntField(usage, "total_tokens");
    if (usage.contains("compute_points_used")) {
      reply.compute_points_used = UsdOf(usage["compute_points_used"]);
    }
  }
  return reply;
}

absl::StatusOr<std::vector<ModelEntry>> ParseModelList(const std::string& body) {
  json j = json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("data") || !j["data"].is_array()) {
    return absl::InvalidArgumentError("model list has no data array");
  }
  std::vector<ModelEntry> out;
  for (const json& m : j["data"]) {
    if (!m.is_object() || !m.contains("id") || !m["id"].is_string()) continue;
    ModelEntry e;
    e.id = m["id"].get<std::string>();
    json in = m.value("input_token_rate", json());
    json outr = m.value("output_token_rate", json());
    auto in_pico = ParseRatePico(in);
    auto out_pico = ParseRatePico(outr);
    if (!in_pico.ok() || !out_pico.ok()) {
      return absl::InvalidArgumentError("model " + e.id + " has an unreadable rate");
    }
    e.rates = {*in_pico, *out_pico};
    e.input_usd = UsdOf(in);
    e.output_usd = UsdOf(outr);
    e.context_length = IntField(m, "context_length");
    e.max_completion_tokens = IntField(m, "max_completion_tokens");
    out.push_back(std::move(e));
  }
  return out;
}

absl::StatusOr<ModelEntry> BudgetEntryFor(const std::vector<ModelEntry>& models,
                                          const std::string& model) {
  if (model == kRouteLlm) {
    ModelEntry e;
    e.id = kRouteLlm;
    for (const auto& m : models) {
      e.rates.input_pico = std::max(e.rates.input_pico, m.rates.input_pico);
      e.rates.output_pico = std::max(e.rates.output_pico, m.rates.output_pico);
      e.input_usd = std::max(e.input_usd, m.input_usd);
      e.output_usd = std::max(e.output_usd, m.output_usd);
      if (m.id == kRouteLlm) {
        e.context_length = m.context_length;
        e.max_completion_tokens = m.max_completion_tokens;
      }
    }
    if (models.empty()) return absl::NotFoundError("the model list is empty");
    return e;
  }
  for (const auto& m : models) {
    if (m.id == model) return m;
  }
  return absl::NotFoundError("model '" + model + "' is not offered upstream");
}

std::string ErrorMessage(const std::string& body) {
  json j = json::parse(body, nullptr, false);
  if (!j.is_object()) return "";
  if (j.contains("error")) {
    const json& e = j["error"];
    if (e.is_string()) return e.get<std::string>();
    if (e.is_object() && e.contains("message") && e["message"].is_string()) {
      return e["message"].get<std::string>();
    }
  }
  if (j.contains("message") && j["message"].is_string()) return j["message"].get<std::string>();
  return "";
}

bool IsOutOfCreditsMessage(const std::string& message) {
  std::string lower = absl::AsciiStrToLower(message);
  return absl::StrContains(lower, "no remaining credits") ||
         absl::StrContains(lower, "out of credits") ||
         absl::StrContains(lower, "insufficient credits") ||
         absl::StrContains(lower, "not enough credits");
}

CallOutcome ClassifyHttp(int http_status, const std::string& body) {
  if (http_status == 0) return CallOutcome::kRetryable;
  if (http_status == 200) {
    return ParseChatReply(body).ok() ? CallOutcome::kOk : CallOutcome::kRejected;
  }
  if ((http_status == 400 || http_status == 402 || http_status == 429) &&
      IsOutOfCreditsMessage(ErrorMessage(body))) {
    return CallOutcome::kOutOfCredits;
  }
  if (http_status == 401 || http_status == 403) return CallOutcome::kAuth;
  if (http_status == 429 || http_status == 408 || http_status >= 500) {
    return CallOutcome::kRetryable;
  }
  return CallOutcome::kRejected;
}

absl::Duration BackoffDelay(int retry, absl::Duration base, absl::Duration max,
                            const std::string& retry_after, std::mt19937_64& rng) {
  absl::Duration ceiling = base;
  for (int i = 1; i < retry && ceiling < max; ++i) ceiling *= 2;
  ceiling = std::min(ceiling, max);
  std::uniform_real_distribution<double> half(0.5, 1.0);
  absl::Duration delay = ceiling * half(rng);
  std::string ra(absl::StripAsciiWhitespace(retry_after));
  if (!ra.empty() && std::all_of(ra.begin(), ra.end(),
                                 [](unsigned char c) { return std::isdigit(c) || c == '.'; })) {
    absl::Duration asked = absl::Seconds(std::strtod(ra.c_str(), nullptr));
    delay = std::max(delay, std::min(asked, max));
  }
  return delay;
}

}  // namespace arena::gateway
