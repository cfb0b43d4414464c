// The stand-in's API logic, independent of sockets: GET /v1/models and POST
// /v1/chat/completions with Abacus's shapes, status codes, usage (compute_points_used too),
// per-key credit balances that run out, and per-model scripted behaviour.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace arena::mock_abacus {

struct MockResponse {
  int status = 200;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  int delay_ms = 0;
  // For the log (never the key itself).
  std::string model;
  int key_index = -1;
};

class MockAbacus {
 public:
  struct Options {
    int slow_ms = 3000;
    int out_of_credits_status = 400;  // Abacus answers 400 (seen live) or 429
  };
  // `keys`: "key1:1000000,key2:0", balances in micro-USD.
  static absl::StatusOr<MockAbacus> Make(const std::string& keys, Options options);

  MockResponse Handle(const std::string& method, const std::string& path,
                      const std::string& authorization, const std::string& body);

 private:
  // What ChatCompletion reads from a request body. Every call of a load bench (and every
  // retry) sends a body seen before, so the parse and the competent move (position parse,
  // legal moves) are cached per exact body: the stand-in's CPU per call would otherwise
  // compete with the gateway it is there to measure. Behaviour that depends on history (the
  // balance, rate-limited-once) is still decided per call.
  struct ParsedChat {
    bool valid = false;  // an object with a string model and an array of messages
    std::string model_id;
    int64_t max_tokens = 4096;
    size_t prompt_bytes = 0;
    int messages = 0;
    int assistant_turns = 0;
    std::string user_text;  // every user message, each followed by a newline
    bool competent_done = false;
    bool competent_ok = false;
    std::string competent;  // CompetentReply(user_text), once asked for
    std::string move;       // the legal move that reply names
    std::string other;      // another legal move ("" when there is only one)
  };
  static constexpr size_t kMaxParsedBodies = 1024;  // the cache is emptied when it is full

  MockResponse ChatCompletion(int key_index, const std::string& body);
  ParsedChat& Parse(const std::string& body);
  const std::string& Competent(ParsedChat& chat, bool* ok) const;
  // Sets chat.competent, .move and .other from the position in chat.user_text.
  void CompetentReply(ParsedChat& chat) const;

  Options options_;
  std::vector<std::string> keys_;
  std::vector<int64_t> balances_;  // micro-USD
  std::set<size_t> seen_bodies_;   // for the rate-limited-once model
  std::unordered_map<std::string, ParsedChat> parsed_;
};

}  // namespace arena::mock_abacus
