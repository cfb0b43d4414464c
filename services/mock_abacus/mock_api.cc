#include "services/mock_abacus/mock_api.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/core/game.h"
#include "gateway/prompt.h"
#include "nlohmann/json.hpp"
#include "services/mock_abacus/mock_models.h"
#include "services/mock_abacus/stockfish_model.h"

namespace arena::mock_abacus {
namespace {

using nlohmann::json;

MockResponse JsonResponse(int status, const json& body) {
  MockResponse r;
  r.status = status;
  r.body = body.dump();
  return r;
}

MockResponse OpenAiError(int status, const std::string& message, const std::string& type,
                         const std::string& code) {
  return JsonResponse(status, {{"error", {{"message", message}, {"type", type}, {"code", code}}}});
}

// The pass among `legal` when passing ends the game and the mover wins or draws, as a Go
// player who is ahead passes to have the board counted; else none. A random stone is almost
// never a pass (1 in 170 in Chestonia Go), so without this a mock model's Go game ran to its
// move cap even when the bots had passed.
std::optional<size_t> WinningPass(const engine::State& state,
                                  const std::vector<std::string>& legal) {
  const int mover = state.ToMove();
  for (size_t i = 0; i < legal.size(); ++i) {
    auto facts = state.DescribeAction(legal[i]);
    if (!facts.ok() || facts->kind != engine::kActionPass) continue;
    auto after = state.Clone();
    if (!after->Apply(legal[i]).ok()) continue;
    const engine::Outcome o = after->GetOutcome();
    if (o.kind == engine::Outcome::Kind::kDraw) return i;
    if (o.kind == engine::Outcome::Kind::kWin &&
        std::find(o.winners.begin(), o.winners.end(), mover) != o.winners.end()) {
      return i;
    }
  }
  return std::nullopt;
}

int64_t CeilTokens(size_t bytes) {
  return static_cast<int64_t>((bytes + 3) / 4);
}

}  // namespace

absl::StatusOr<MockAbacus> MockAbacus::Make(const std::string& keys, Options options) {
  MockAbacus m;
  m.options_ = options;
  for (absl::string_view item : absl::StrSplit(keys, ',', absl::SkipEmpty())) {
    std::vector<std::string> parts = absl::StrSplit(item, absl::MaxSplits(':', 1));
    int64_t balance = 0;
    if (parts.size() != 2 || parts[0].empty() || !absl::SimpleAtoi(parts[1], &balance)) {
      return absl::InvalidArgumentError("--keys wants key:balance pairs separated by commas");
    }
    m.keys_.push_back(parts[0]);
    m.balances_.push_back(balance);
  }
  return m;
}

MockResponse MockAbacus::Handle(const std::string& method, const std::string& path,
                                const std::string& authorization, const std::string& body) {
  int key_index = -1;
  const std::string prefix = "Bearer ";
  if (authorization.rfind(prefix, 0) == 0) {
    std::string key = authorization.substr(prefix.size());
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i] == key) key_index = static_cast<int>(i);
    }
  }
  MockResponse r;
  if (path != "/v1/models" && path != "/v1/chat/completions") {
    r = OpenAiError(404, "Not found", "invalid_request_error", "not_found");
  } else if (key_index < 0) {
    r = OpenAiError(401, "Invalid API key provided.", "invalid_request_error", "invalid_api_key");
  } else if (path == "/v1/models") {
    if (method != "GET") {
      r = OpenAiError(405, "Method not allowed", "invalid_request_error", "method_not_allowed");
    } else {
      json data = json::array();
      for (const auto& m : MockModels()) {
        data.push_back({{"id", m.id},
                        {"object", "model"},
                        {"owned_by", "mock-abacus"},
                        {"input_token_rate", m.input_rate},
                        {"output_token_rate", m.output_rate},
                        {"context_length", m.context_length},
                        {"max_completion_tokens", m.max_completion_tokens}});
      }
      r = JsonResponse(200, {{"object", "list"}, {"data", data}});
    }
  } else if (method != "POST") {
    r = OpenAiError(405, "Method not allowed", "invalid_request_error", "method_not_allowed");
  } else {
    r = ChatCompletion(key_index, body);
  }
  r.key_index = key_index;
  if (r.model.empty() && path == "/v1/chat/completions") {
    json request = json::parse(body, nullptr, false);
    if (request.is_object() && request.contains("model") && request["model"].is_string()) {
      r.model = request["model"].get<std::string>();
    }
  }
  return r;
}

void MockAbacus::CompetentReply(ParsedChat& chat) const {
  chat.competent_ok = false;
  auto found = gateway::FindPromptedPosition(chat.user_text);
  if (!found.ok()) return;
  const engine::Game* game = engine::FindGame(found->game_id);
  if (game == nullptr) return;
  auto variant = engine::Variant::Parse(found->variant);
  if (!variant.ok()) return;
  auto state = game->Parse(found->position, *variant);
  if (!state.ok()) return;
  // Bounded as the gateway's own list is: a Chestonia checkers king can have hundreds of
  // thousands of turns.
  auto legal = (*state)->BoundedLegalActions(gateway::kMaxLegalListed);
  if (legal.empty()) return;
  size_t pick = std::hash<std::string>()(found->position) % legal.size();
  const std::optional<size_t> pass = WinningPass(**state, legal);
  if (pass) pick = *pass;
  chat.move = legal[pick];
  chat.other = legal.size() > 1 ? legal[(pick + 1) % legal.size()] : "";
  chat.competent_ok = true;
  std::string reasoning = "It develops my position and keeps my king safe.";
  // Says which clue the prompt carried, so a test can see what reached the upstream (the
  // move played is the mock's own either way).
  if (auto clue = gateway::FindPromptedClue(chat.user_text); clue.ok()) {
    absl::StrAppend(&reasoning, " My prompt's clue: ", clue->move, " (level ", clue->level, ").");
  }
  chat.competent = json({{"move", chat.move}, {"reasoning", reasoning}}).dump();
}

MockAbacus::ParsedChat& MockAbacus::Parse(const std::string& body) {
  auto it = parsed_.find(body);
  if (it != parsed_.end()) return it->second;
  if (parsed_.size() >= kMaxParsedBodies) parsed_.clear();
  ParsedChat& p = parsed_[body];
  json request = json::parse(body, nullptr, false);
  if (!request.is_object() || !request.contains("model") || !request["model"].is_string() ||
      !request.contains("messages") || !request["messages"].is_array()) {
    return p;
  }
  p.valid = true;
  p.model_id = request["model"].get<std::string>();
  p.max_tokens = request.value("max_tokens", static_cast<int64_t>(4096));
  for (const auto& m : request["messages"]) {
    if (!m.is_object() || !m.contains("content") || !m["content"].is_string()) continue;
    const std::string& c = m["content"].get_ref<const std::string&>();
    p.prompt_bytes += c.size();
    ++p.messages;
    if (m.value("role", "") == "assistant") ++p.assistant_turns;
    if (m.value("role", "") == "user") p.user_text += c + "\n";
  }
  return p;
}

const std::string& MockAbacus::Competent(ParsedChat& chat, bool* ok) const {
  if (!chat.competent_done) {
    CompetentReply(chat);
    chat.competent_done = true;
  }
  *ok = chat.competent_ok;
  return chat.competent;
}

MockResponse MockAbacus::ChatCompletion(int key_index, const std::string& body) {
  ParsedChat& chat = Parse(body);
  if (!chat.valid) {
    return OpenAiError(400, "Invalid request body: model and messages are required",
                       "invalid_request_error", "invalid_request");
  }
  const std::string& model_id = chat.model_id;
  const MockModel* model = FindMockModel(model_id);
  if (model == nullptr) {
    auto r = OpenAiError(404, "The model '" + model_id + "' does not exist",
                         "invalid_request_error", "model_not_found");
    r.model = model_id;
    return r;
  }
  int64_t max_tokens = chat.max_tokens;
  if (max_tokens <= 0) {
    return OpenAiError(400, "max_tokens must be positive", "invalid_request_error",
                       "invalid_request");
  }
  MockResponse out;
  if (balances_[key_index] <= 0 || model->behaviour == Behaviour::kOutOfCredits) {
    out = OpenAiError(options_.out_of_credits_status,
                      "You have no remaining credits to use the LLM apis.", "insufficient_quota",
                      "insufficient_credits");
    out.model = model_id;
    return out;
  }
  const size_t prompt_bytes = chat.prompt_bytes;
  const int assistant_turns = chat.assistant_turns;
  const int messages = chat.messages;

  std::string content;
  std::string finish = "stop";
  switch (model->behaviour) {
    case Behaviour::kServerError:
      out = JsonResponse(500, {{"success", false}, {"error", "Internal server error"}});
      out.model = model_id;
      return out;
    case Behaviour::kRateLimitedOnce: {
      size_t h = std::hash<std::string>()(body);
      if (seen_bodies_.insert(h).second) {
        out = OpenAiError(429, "Rate limit exceeded; retry later.", "rate_limit_error",
                          "rate_limited");
        out.headers.push_back({"Retry-After", "1"});
        out.model = model_id;
        return out;
      }
      bool ok;
      content = Competent(chat, &ok);
      break;
    }
    case Behaviour::kIllegalThenLegal:
      if (assistant_turns == 0) {
        content = json({{"move", "z9z9"}, {"reasoning", "A bold idea."}}).dump();
      } else {
        bool ok;
        content = Competent(chat, &ok);
      }
      break;
    case Behaviour::kGarbage:
      content = "The weather is lovely today and I would rather talk about gardening.";
      break;
    case Behaviour::kTruncated:
      content = "{\"move\": \"";
      finish = "length";
      break;
    case Behaviour::kStockfish: {
      bool ok;
      content = StockfishModelReply(chat.user_text, StockfishModelElo(model_id).value_or(0), &ok);
      if (!ok) content = "I only play chess.";
      break;
    }
    case Behaviour::kProse: {
      bool ok;
      Competent(chat, &ok);
      if (!ok) {
        content = "I cannot read the position you gave me.";
        break;
      }
      content = "Let me look at the position first.\n";
      if (!chat.other.empty()) {
        content += "One idea is " + chat.other + ", but it leaves my pieces loose.\n";
      }
      content += "Weighing the options, " + chat.move +
                 " is the most solid continuation.\n\n**Final Answer:** " + chat.move;
      break;
    }
    case Behaviour::kAmbiguousThenJson: {
      bool ok;
      const std::string& competent = Competent(chat, &ok);
      if (assistant_turns > 0 || !ok || chat.other.empty()) {
        content = ok ? competent : "I cannot read the position you gave me.";
      } else {
        content = "Both " + chat.move + " and " + chat.other + " look fine to me.";
      }
      break;
    }
    case Behaviour::kSlow:
      out.delay_ms = options_.slow_ms;
      [[fallthrough]];
    default: {
      bool ok;
      content = Competent(chat, &ok);
      if (!ok) content = "I cannot read the position you gave me.";
      break;
    }
  }
  int64_t completion_tokens = std::max<int64_t>(1, CeilTokens(content.size()));
  if (completion_tokens > max_tokens) {
    content = content.substr(0, static_cast<size_t>(max_tokens) * 4);
    completion_tokens = max_tokens;
    finish = "length";
  }
  if (model->behaviour == Behaviour::kTruncated) completion_tokens = max_tokens;
  int64_t prompt_tokens = CeilTokens(prompt_bytes) + 4 * messages;
  double usd = prompt_tokens * model->input_usd + completion_tokens * model->output_usd;
  int64_t cost_micro = static_cast<int64_t>(std::ceil(usd * 1e6 - 1e-9));
  balances_[key_index] -= cost_micro;  // what the account pays, whatever the reply says
  json reply = {
      {"id", "chatcmpl-mock"},
      {"object", "chat.completion"},
      {"model", model_id},
      {"choices", json::array({{{"index", 0},
                                {"message", {{"role", "assistant"}, {"content", content}}},
                                {"finish_reason", finish}}})}};
  if (model->behaviour == Behaviour::kUnderReports) {
    prompt_tokens = 1;
    completion_tokens = 1;
  }
  if (model->behaviour != Behaviour::kNoUsage) {
    reply["usage"] = {{"prompt_tokens", prompt_tokens},
                      {"completion_tokens", completion_tokens},
                      {"total_tokens", prompt_tokens + completion_tokens},
                      {"compute_points_used", cost_micro}};
  }
  int delay = out.delay_ms;
  out = JsonResponse(200, reply);
  out.delay_ms = delay;
  out.model = model_id;
  return out;
}

}  // namespace arena::mock_abacus
