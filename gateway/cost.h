// Cost arithmetic for model calls, in integer units so a cap can never be overshot by rounding.
//
// Money: 1 credit = 1 USD; the ledger's unit is the micro-credit (1e-6 USD). Upstream rates
// (USD per token, as `/v1/models` lists them) are held as integer pico-USD per token (1e-12
// USD), so one token at a rate as small as 1e-12 USD is still representable. A call's cost is
// ceil((prompt_tokens * input_rate + completion_tokens * output_rate) / 1e6) micro-credits:
// always rounded up, never down. Arithmetic saturates instead of overflowing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace arena::gateway {

inline constexpr int64_t kPicoPerMicro = 1'000'000;

// A model's price: pico-USD per prompt and per completion token.
struct TokenRates {
  int64_t input_pico = 0;
  int64_t output_pico = 0;
};

// Parses a rate in USD per token given as a JSON number or a decimal string ("0.000003",
// "3e-6"); null or absent counts as 0. Negative or non-numeric values are INVALID_ARGUMENT.
absl::StatusOr<int64_t> ParseRatePico(const nlohmann::json& value);

// Exact cost of a call in micro-credits, rounded up.
int64_t CostMicro(int64_t prompt_tokens, int64_t completion_tokens, const TokenRates& rates);

// Upper bound on the prompt tokens of a chat request: every token of a byte-level tokenizer
// covers at least one UTF-8 byte, plus a fixed allowance per message for role and framing.
inline constexpr int64_t kTokensPerMessageOverhead = 8;
inline constexpr int64_t kTokensPerRequestOverhead = 8;
int64_t PromptTokenBound(const std::vector<std::string>& message_contents);

// The largest max_tokens for which prompt_bound prompt tokens plus max_tokens completion
// tokens cost at most `budget_micro`; negative when even the prompt alone exceeds it.
// Returns `ceiling` when the output rate is zero (free output).
int64_t MaxTokensWithin(int64_t budget_micro, int64_t prompt_bound, const TokenRates& rates,
                        int64_t ceiling);

// What a call is charged, from the reply's usage checked against the exchange's size.
//
// The upper estimate is the call's worst case: the prompt's token bound at the input rate plus
// the max_tokens it asked for at the output rate (hidden reasoning tokens make the visible
// reply no bound on what was billed; max_tokens is). A reply without a usage block is charged
// the estimate. Usage disagrees with the size when it claims fewer tokens than the bytes sent
// or received could be (more than kMaxBytesPerToken bytes a token) or more than could be
// (prompt tokens above the prompt bound, completion tokens above max_tokens); such a call is
// charged the larger of the reported cost and the estimate.
inline constexpr int64_t kMaxBytesPerToken = 32;
struct CallCharge {
  int64_t microcredits = 0;
  bool estimated = false;  // the charge is the estimate, not the reported usage
  bool disputed = false;   // the reported usage disagreed with the exchange's size
};
struct CallSize {
  bool usage_present = false;
  int64_t prompt_tokens = 0;  // as reported
  int64_t completion_tokens = 0;
  int64_t prompt_bytes = 0;  // the contents of the messages sent
  int64_t prompt_bound = 0;  // PromptTokenBound of those messages
  int64_t reply_bytes = 0;   // the reply's content
  int64_t max_tokens = 0;    // what the call asked for
};
CallCharge ChargeFor(const CallSize& call, const TokenRates& rates);

}  // namespace arena::gateway
