#include "services/mock_abacus/mock_models.h"

namespace arena::mock_abacus {

const std::vector<MockModel>& MockModels() {
  static const std::vector<MockModel> models = [] {
    std::vector<MockModel> m;
    auto add = [&](std::string id, Behaviour b, nlohmann::json in, nlohmann::json out,
                   double in_usd, double out_usd) {
      m.push_back(MockModel{std::move(id), b, std::move(in), std::move(out), in_usd, out_usd});
    };
    add("route-llm", Behaviour::kCompetent, 0.000003, 0.000015, 3e-6, 15e-6);
    add("mock-competent", Behaviour::kCompetent, "0.000001", "0.000002", 1e-6, 2e-6);
    add("mock-illegal-then-legal", Behaviour::kIllegalThenLegal, 0.000001, 0.000002, 1e-6, 2e-6);
    add("mock-garbage", Behaviour::kGarbage, 0.000001, 0.000002, 1e-6, 2e-6);
    add("mock-truncated", Behaviour::kTruncated, 0.000001, 0.000002, 1e-6, 2e-6);
    add("mock-slow", Behaviour::kSlow, 0.000001, 0.000002, 1e-6, 2e-6);
    add("mock-429-then-ok", Behaviour::kRateLimitedOnce, 0.000001, 0.000002, 1e-6, 2e-6);
    add("mock-500", Behaviour::kServerError, 0.000001, 0.000002, 1e-6, 2e-6);
    add("mock-broke", Behaviour::kOutOfCredits, 0.000001, 0.000002, 1e-6, 2e-6);
    add("mock-expensive", Behaviour::kCompetent, "0.00001", "0.00003", 1e-5, 3e-5);
    // Models of known strength for the Stockfish-anchored chess leaderboard (issue 19).
    add("mock-stockfish-1500", Behaviour::kStockfish, 0.000001, 0.000002, 1e-6, 2e-6);
    add("mock-stockfish-1800", Behaviour::kStockfish, 0.000001, 0.000002, 1e-6, 2e-6);
    // Replies real models give (issue 18): no usage, usage that cannot be right, prose.
    add("mock-no-usage", Behaviour::kNoUsage, 0.000001, 0.000002, 1e-6, 2e-6);
    add("mock-underreports", Behaviour::kUnderReports, 0.000001, 0.000002, 1e-6, 2e-6);
    add("mock-prose", Behaviour::kProse, 0.000001, 0.000002, 1e-6, 2e-6);
    add("mock-ambiguous-then-json", Behaviour::kAmbiguousThenJson, 0.000001, 0.000002, 1e-6, 2e-6);
    return m;
  }();
  return models;
}

const MockModel* FindMockModel(const std::string& id) {
  for (const auto& m : MockModels()) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

}  // namespace arena::mock_abacus
