// The stand-in's catalogue: which model ids exist, what they cost, and how each behaves.
#pragma once

#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace arena::mock_abacus {

enum class Behaviour {
  kCompetent,         // plays a legal move (the engine, reading the prompt's position)
  kIllegalThenLegal,  // an illegal move first, a legal one once re-prompted
  kGarbage,           // prose without a move
  kTruncated,         // a cut-off answer, finish_reason "length"
  kSlow,              // competent after --slow_ms
  kRateLimitedOnce,   // 429 with Retry-After for a request body seen the first time, then ok
  kServerError,       // always 500
  kOutOfCredits,      // always the out-of-credits answer
  kStockfish,         // chess at a Stockfish level: "mock-stockfish-<elo>" (stockfish_model.h)
  kNoUsage,           // competent, but the reply has no usage block
  kUnderReports,      // competent, but its usage claims 1 prompt and 1 completion token
  kProse,             // reasons in prose naming another legal move, ends "**Final Answer:** <move>"
  kAmbiguousThenJson,  // prose naming two legal moves and no marker; JSON once re-prompted
};

struct MockModel {
  std::string id;
  Behaviour behaviour;
  nlohmann::json input_rate;  // USD per token, a number or a string (both occur upstream)
  nlohmann::json output_rate;
  double input_usd = 0;
  double output_usd = 0;
  long context_length = 128000;
  long max_completion_tokens = 4096;
};

const std::vector<MockModel>& MockModels();
const MockModel* FindMockModel(const std::string& id);

}  // namespace arena::mock_abacus
