#include "gateway/abacus_protocol.h"

#include <cstdint>
#include <limits>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace arena::gateway {
namespace {

TEST(AbacusProtocolTest, ParsesAChatCompletionWithComputePoints) {
  auto r = ParseChatReply(R"({"choices":[{"message":{"role":"assistant","content":"hi"},
      "finish_reason":"length"}],"usage":{"prompt_tokens":12,"completion_tokens":3,
      "total_tokens":15,"compute_points_used":42}})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->content, "hi");
  EXPECT_EQ(r->finish_reason, "length");
  EXPECT_EQ(r->prompt_tokens, 12);
  EXPECT_EQ(r->completion_tokens, 3);
  EXPECT_EQ(r->total_tokens, 15);
  EXPECT_EQ(r->compute_points_used, 42);
  EXPECT_FALSE(ParseChatReply("{}").ok());
  EXPECT_FALSE(ParseChatReply("not json").ok());
}

// A model that answers in parts: the text parts are the content, the thinking is not.
TEST(AbacusProtocolTest, ContentInPartsIsItsTextParts) {
  auto r = ParseChatReply(R"({"choices":[{"message":{"role":"assistant","content":[
      {"type":"thinking","thinking":[{"type":"text","text":"e4 or d4?"}]},
      {"type":"text","text":"I take the centre."},{"type":"image_url","image_url":{"url":"x"}},
      {"type":"text","text":"MOVE: e2e4"}]},"finish_reason":"stop"}]})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->content, "I take the centre.\nMOVE: e2e4");
  auto odd = ParseChatReply(R"({"choices":[{"message":{"content":[1,{"type":"text"},null]}}]})");
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(odd->content, "");
}

// Token counts a broken provider writes as floats past int64's range are clamped, not cast
// (undefined behaviour; found by tools/fuzz/fuzz_model_reply.cc); the cost then saturates.
TEST(AbacusProtocolTest, TokenCountsOutOfRangeAreClamped) {
  auto r = ParseChatReply(R"({"choices":[{"message":{"content":"MOVE: e2e4"}}],
      "usage":{"prompt_tokens":1e300,"completion_tokens":-1e300,"total_tokens":12.9}})");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->prompt_tokens, std::numeric_limits<int64_t>::max());
  EXPECT_EQ(r->completion_tokens, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(r->total_tokens, 12);
}

TEST(AbacusProtocolTest, ModelListAndRouteLlmBudget) {
  auto models = ParseModelList(R"({"data":[
      {"id":"a","input_token_rate":"0.000001","output_token_rate":0.000004,
       "context_length":1000,"max_completion_tokens":100},
      {"id":"b","input_token_rate":0.000005,"output_token_rate":"0.000002"},
      {"id":"route-llm"}]})");
  ASSERT_TRUE(models.ok());
  ASSERT_EQ(models->size(), 3u);
  EXPECT_EQ((*models)[0].rates.input_pico, 1'000'000);
  EXPECT_EQ((*models)[0].rates.output_pico, 4'000'000);
  EXPECT_EQ((*models)[0].max_completion_tokens, 100);
  auto route = BudgetEntryFor(*models, "route-llm");
  ASSERT_TRUE(route.ok());
  EXPECT_EQ(route->rates.input_pico, 5'000'000);
  EXPECT_EQ(route->rates.output_pico, 4'000'000);
  EXPECT_EQ(BudgetEntryFor(*models, "b")->rates.input_pico, 5'000'000);
  EXPECT_EQ(BudgetEntryFor(*models, "zzz").status().code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(ParseModelList(R"({"data":[{"id":"x","input_token_rate":"free"}]})").ok());
}

TEST(AbacusProtocolTest, ClassifiesFailures) {
  const std::string credits =
      R"({"error":{"message":"You have no remaining credits to use the LLM apis.","type":"x"}})";
  const std::string credits_alt =
      R"({"success":false,"error":"You have no remaining credits to use the LLM apis."})";
  EXPECT_EQ(ClassifyHttp(400, credits), CallOutcome::kOutOfCredits);
  EXPECT_EQ(ClassifyHttp(429, credits_alt), CallOutcome::kOutOfCredits);
  EXPECT_EQ(ClassifyHttp(429, R"({"error":{"message":"slow down"}})"), CallOutcome::kRetryable);
  EXPECT_EQ(ClassifyHttp(500, R"({"success":false,"error":"boom"})"), CallOutcome::kRetryable);
  EXPECT_EQ(ClassifyHttp(503, ""), CallOutcome::kRetryable);
  EXPECT_EQ(ClassifyHttp(0, ""), CallOutcome::kRetryable);
  EXPECT_EQ(ClassifyHttp(401, ""), CallOutcome::kAuth);
  EXPECT_EQ(ClassifyHttp(403, ""), CallOutcome::kAuth);
  EXPECT_EQ(ClassifyHttp(400, R"({"error":{"message":"bad"}})"), CallOutcome::kRejected);
  EXPECT_EQ(ClassifyHttp(200, "{}"), CallOutcome::kRejected);
  EXPECT_EQ(ErrorMessage(credits_alt), "You have no remaining credits to use the LLM apis.");
}

TEST(AbacusProtocolTest, BackoffGrowsIsCappedAndHonoursRetryAfter) {
  std::mt19937_64 rng(1);
  absl::Duration base = absl::Milliseconds(100), max = absl::Seconds(2);
  for (int i = 0; i < 50; ++i) {
    absl::Duration d1 = BackoffDelay(1, base, max, "", rng);
    EXPECT_GE(d1, absl::Milliseconds(50));
    EXPECT_LE(d1, absl::Milliseconds(100));
    absl::Duration d3 = BackoffDelay(3, base, max, "", rng);
    EXPECT_GE(d3, absl::Milliseconds(200));
    EXPECT_LE(d3, absl::Milliseconds(400));
    EXPECT_LE(BackoffDelay(20, base, max, "", rng), max);
  }
  EXPECT_GE(BackoffDelay(1, base, max, "1", rng), absl::Seconds(1));
  EXPECT_LE(BackoffDelay(1, base, max, "60", rng), max);
}

TEST(AbacusProtocolTest, RequestBodyHasTheOpenAiShape) {
  ChatRequest r;
  r.model = "route-llm";
  r.messages = {{"user", "hello"}};
  r.max_tokens = 77;
  auto body = nlohmann::json::parse(ChatRequestBody(r));
  EXPECT_EQ(body["model"], "route-llm");
  EXPECT_EQ(body["max_tokens"], 77);
  EXPECT_EQ(body["messages"][0]["content"], "hello");
  EXPECT_EQ(body["response_format"]["type"], "json_object");
  EXPECT_EQ(body["stream"], false);
}

// The body is assembled from pre-escaped pieces; it must be byte for byte what dumping the
// equivalent JSON tree gives, quotes, control characters, UTF-8 and invalid bytes included.
TEST(AbacusProtocolTest, RequestBodyPiecesMatchATreeDump) {
  using nlohmann::json;
  ChatRequest r;
  r.model = "mock-\"odd\"";
  r.messages = {{"system", "be brief"},
                {"user", "line 1\n\t\"quoted\" \\ caf\xc3\xa9 \x01 bad:\xff end"},
                {"assistant", ""}};
  r.max_tokens = 321;
  r.temperature = 0.2;
  for (bool json_object : {true, false}) {
    r.json_object = json_object;
    json arr = json::array();
    for (const auto& m : r.messages) arr.push_back({{"role", m.role}, {"content", m.content}});
    json tree = {{"model", r.model},
                 {"temperature", r.temperature},
                 {"max_tokens", r.max_tokens},
                 {"stream", false},
                 {"messages", arr}};
    if (json_object) tree["response_format"] = {{"type", "json_object"}};
    EXPECT_EQ(ChatRequestBody(r), tree.dump(-1, ' ', false, json::error_handler_t::replace));
    EXPECT_EQ(MessagesJson(r.messages), arr.dump(-1, ' ', false, json::error_handler_t::replace));
  }
}

}  // namespace
}  // namespace arena::gateway
