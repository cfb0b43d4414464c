// Fuzz target for what a model provider sends back (gateway/abacus_protocol.h,
// gateway/move_extraction.h): any body, any answer text, must be read without a crash or an
// exception; a move taken from it must be playable; and what the gateway keeps or sends on
// (the reasoning, the candidate, the re-prompt) must be bounded, valid UTF-8 that a request
// body and a JSON log can carry.
//
// Input: the first byte picks a turn (a game position at which a seat must act; the high bit
// sets the finish reason to "length"), the second how the rest is read: even, as the HTTP
// body of a reply; odd, as the model's answer text, wrapped into a chat completion here (when
// it is UTF-8, as every answer parsed from JSON is).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gateway/abacus_protocol.h"
#include "gateway/move_extraction.h"
#include "gateway/prompt.h"
#include "nlohmann/json.hpp"
#include "tools/fuzz/fuzz_check.h"

namespace {

using arena::gateway::TurnPosition;

struct TurnSpec {
  const char* game;
  const char* variant;
  int steps;  // the initial position after this many of the first legal actions
};

constexpr TurnSpec kTurns[] = {
    {"chess", "", 0},
    {"chess", "", 7},
    {"chestonia-chess", "players=3", 4},
    {"chestonia-checkers", "players=2", 6},
    {"hex-checkers", "players=6", 12},
    {"chestonia-go", "players=2,darts=on", 0},
    {"three-player-chess", "", 5},
};

std::vector<TurnPosition> MakeTurns() {
  std::vector<TurnPosition> turns;
  for (const TurnSpec& spec : kTurns) {
    const arena::engine::Game* game = arena::engine::FindGame(spec.game);
    ARENA_FUZZ_CHECK(game != nullptr);
    auto variant = arena::engine::Variant::Parse(spec.variant);
    ARENA_FUZZ_CHECK(variant.ok());
    auto state = game->NewInitialState(*variant);
    ARENA_FUZZ_CHECK(state.ok());
    std::vector<std::string> history;
    for (int i = 0; i < spec.steps; ++i) {
      std::string action;
      if ((*state)->ToMove() == arena::engine::kChanceSeat) {
        action = (*state)->ChanceOutcomes().back().action;
      } else {
        action = (*state)->BoundedLegalActions(1).front();
      }
      ARENA_FUZZ_CHECK((*state)->Apply(action).ok());
      history.push_back(action);
    }
    ARENA_FUZZ_CHECK((*state)->ToMove() >= 0);
    auto turn = arena::gateway::LoadTurnPosition(spec.game, spec.variant, (*state)->Serialize(),
                                                 (*state)->ToMove(), history, true);
    ARENA_FUZZ_CHECK(turn.ok());
    turns.push_back(std::move(*turn));
  }
  return turns;
}

bool IsUtf8(const std::string& text) {
  try {
    (void)nlohmann::json(text).dump();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

void CheckExtraction(const std::string& content, const std::string& finish_reason,
                     const TurnPosition& turn) {
  using arena::gateway::ReplyLabel;
  const arena::gateway::Extraction x = arena::gateway::ExtractMove(content, finish_reason, turn);
  ARENA_FUZZ_CHECK(x.reasoning.size() <= arena::gateway::kMaxReasoningBytes);
  ARENA_FUZZ_CHECK(IsUtf8(x.reasoning));
  ARENA_FUZZ_CHECK(IsUtf8(x.candidate));
  ARENA_FUZZ_CHECK(IsUtf8(x.reason));
  if (x.label == ReplyLabel::kOk) {
    // The move is one the game plays from this position.
    std::unique_ptr<arena::engine::State> probe = turn.state->Clone();
    ARENA_FUZZ_CHECK(probe->Apply(x.move).ok());
    return;
  }
  ARENA_FUZZ_CHECK(x.move.empty());
  // The re-prompt goes back to the provider in a request body.
  const std::string again = arena::gateway::RepromptText(x, turn);
  ARENA_FUZZ_CHECK(IsUtf8(again));
  arena::gateway::ChatRequest request;
  request.model = "route-llm";
  request.messages = {{"user", "your move"}, {"assistant", content}, {"user", again}};
  const std::string body = arena::gateway::ChatRequestBody(request);
  ARENA_FUZZ_CHECK(nlohmann::json::parse(body, nullptr, false).is_object());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<TurnPosition> turns = MakeTurns();
  if (size < 2) return 0;
  const TurnPosition& turn = turns[(data[0] & 0x7F) % turns.size()];
  const std::string finish_reason = (data[0] & 0x80) ? "length" : "stop";
  const bool as_answer = data[1] & 1;
  std::string rest(reinterpret_cast<const char*>(data + 2), size - 2);

  std::string body = rest;
  if (as_answer) {
    if (!IsUtf8(rest)) return 0;
    body = nlohmann::json{{"choices",
                           {{{"index", 0},
                             {"message", {{"role", "assistant"}, {"content", rest}}},
                             {"finish_reason", finish_reason}}}},
                          {"usage",
                           {{"prompt_tokens", 10}, {"completion_tokens", 5}, {"total_tokens", 15}}}}
               .dump();
  }
  // What the gateway does with any answer: classify it, read an error message or a model list.
  for (int status : {0, 200, 400, 401, 429, 500}) (void)arena::gateway::ClassifyHttp(status, body);
  ARENA_FUZZ_CHECK(IsUtf8(arena::gateway::ErrorMessage(body)) ||
                   !IsUtf8(body));  // a message comes from the body's JSON
  if (auto models = arena::gateway::ParseModelList(body); models.ok()) {
    for (const auto& m : *models) ARENA_FUZZ_CHECK(IsUtf8(m.id));
    (void)arena::gateway::BudgetEntryFor(*models, arena::gateway::kRouteLlm);
  }
  auto reply = arena::gateway::ParseChatReply(body);
  if (!reply.ok()) return 0;
  ARENA_FUZZ_CHECK(IsUtf8(reply->content));
  CheckExtraction(reply->content, reply->finish_reason, turn);
  return 0;
}
