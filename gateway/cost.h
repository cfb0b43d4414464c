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

}  // namespace arena::gateway
