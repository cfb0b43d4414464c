#include "gateway/cost.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace arena::gateway {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

int64_t SatMul(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_mul_overflow(a, b, &out)) return kMax;
  return out;
}

int64_t SatAdd(int64_t a, int64_t b) {
  int64_t out;
  if (__builtin_add_overflow(a, b, &out)) return kMax;
  return out;
}

absl::StatusOr<int64_t> FromUsd(double usd) {
  if (!std::isfinite(usd) || usd < 0) return absl::InvalidArgumentError("rate is not a price");
  double pico = usd * 1e12;
  if (pico >= 9e18) return absl::InvalidArgumentError("rate is out of range");
  return static_cast<int64_t>(std::llround(pico));
}

}  // namespace

absl::StatusOr<int64_t> ParseRatePico(const nlohmann::json& value) {
  if (value.is_null()) return 0;
  if (value.is_number()) return FromUsd(value.get<double>());
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    if (text.empty()) return 0;
    errno = 0;
    char* end = nullptr;
    double usd = std::strtod(text.c_str(), &end);
    if (errno != 0 || end == text.c_str() || *end != '\0') {
      return absl::InvalidArgumentError("rate string is not a number");
    }
    return FromUsd(usd);
  }
  return absl::InvalidArgumentError("rate is neither a number nor a string");
}

int64_t CostMicro(int64_t prompt_tokens, int64_t completion_tokens, const TokenRates& rates) {
  if (prompt_tokens < 0) prompt_tokens = 0;
  if (completion_tokens < 0) completion_tokens = 0;
  int64_t pico =
      SatAdd(SatMul(prompt_tokens, rates.input_pico), SatMul(completion_tokens, rates.output_pico));
  if (pico == kMax) return kMax / kPicoPerMicro + 1;
  return pico / kPicoPerMicro + (pico % kPicoPerMicro != 0 ? 1 : 0);
}

int64_t PromptTokenBound(const std::vector<std::string>& message_contents) {
  int64_t bound = kTokensPerRequestOverhead;
  for (const auto& content : message_contents) {
    bound = SatAdd(bound, static_cast<int64_t>(content.size()) + kTokensPerMessageOverhead);
  }
  return bound;
}

int64_t MaxTokensWithin(int64_t budget_micro, int64_t prompt_bound, const TokenRates& rates,
                        int64_t ceiling) {
  int64_t budget_pico = SatMul(budget_micro, kPicoPerMicro);
  int64_t left = budget_pico - SatMul(prompt_bound, rates.input_pico);
  if (left < 0) return -1;
  if (rates.output_pico == 0) return ceiling;
  int64_t tokens = left / rates.output_pico;
  return tokens < ceiling ? tokens : ceiling;
}

CallCharge ChargeFor(const CallSize& call, const TokenRates& rates) {
  CallCharge out;
  const int64_t estimate = CostMicro(call.prompt_bound, call.max_tokens, rates);
  if (!call.usage_present) {
    out.microcredits = estimate;
    out.estimated = true;
    return out;
  }
  const int64_t reported = CostMicro(call.prompt_tokens, call.completion_tokens, rates);
  auto at_least = [](int64_t bytes) { return (bytes + kMaxBytesPerToken - 1) / kMaxBytesPerToken; };
  out.disputed = call.prompt_tokens < at_least(call.prompt_bytes) ||
                 call.completion_tokens < at_least(call.reply_bytes) ||
                 call.prompt_tokens > call.prompt_bound ||
                 (call.max_tokens > 0 && call.completion_tokens > call.max_tokens);
  out.microcredits = reported;
  if (out.disputed && estimate > reported) {
    out.microcredits = estimate;
    out.estimated = true;
  }
  return out;
}

}  // namespace arena::gateway
