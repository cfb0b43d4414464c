// Fuzz target for the text every request brings to PostgreSQL (issue 28): the edge check
// (services/common/text_check.h) must let through only what PostgreSQL's jsonb and text can
// store and the logs can print, and the sanitizer must always produce such text.
//
// Input: the first byte picks a field rule (and whether to read the rest as a serialised
// request instead of as raw text); the rest is the text or the request's bytes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

#include "arena/v1/arena.pb.h"
#include "arena/v1/game_state.pb.h"
#include "google/protobuf/stubs/logging.h"
#include "nlohmann/json.hpp"
#include "services/common/text_check.h"
#include "tools/fuzz/fuzz_check.h"

namespace {

using arena::common::TextRule;

// What the event log and the ledger do with a string: a JSON dump (throws on invalid UTF-8)
// that PostgreSQL's jsonb accepts (no \u0000), and no raw control byte for a log line.
void CheckStorable(const std::string& text, const TextRule& rule) {
  ARENA_FUZZ_CHECK(text.size() <= rule.max_bytes);
  std::string dumped;
  try {
    dumped = nlohmann::json(text).dump();
  } catch (const nlohmann::json::exception&) {
    ARENA_FUZZ_CHECK(false && "passed text that is not UTF-8");
  }
  ARENA_FUZZ_CHECK(dumped.find("\\u0000") == std::string::npos);
  for (unsigned char c : text) {
    bool allowed = rule.multiline && (c == '\n' || c == '\t');
    ARENA_FUZZ_CHECK(allowed || (c >= 0x20 && c != 0x7F));
  }
}

void CheckMessage(const google::protobuf::Message& m) {
  if (!arena::common::CheckMessageText(m).ok()) return;
  // Passed: every string the request carries is storable under its field's rule.
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  m.GetReflection()->ListFields(m, &fields);
  for (const auto* f : fields) {
    if (f->type() == google::protobuf::FieldDescriptor::TYPE_STRING && !f->is_repeated()) {
      CheckStorable(m.GetReflection()->GetString(m, f), arena::common::TextRuleOf(f->name()));
    } else if (f->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < m.GetReflection()->FieldSize(m, f); ++i) {
          CheckMessage(m.GetReflection()->GetRepeatedMessage(m, f, i));
        }
      } else {
        CheckMessage(m.GetReflection()->GetMessage(m, f));
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Invalid UTF-8 in a string field is expected input: keep protobuf from logging each one.
  static const bool quiet = (google::protobuf::SetLogHandler(nullptr), true);
  (void)quiet;
  if (size == 0) return 0;
  const uint8_t selector = data[0];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (selector >= 0xF0) {
    // A request off the wire: the walker must not crash, and what it passes is storable.
    arena::v1::SubmitActionRequest action;
    if (action.ParseFromString(text)) CheckMessage(action);
    arena::v1::CreateTableRequest table;
    if (table.ParseFromString(text)) CheckMessage(table);
    arena::v1::SendCreditsRequest send;
    if (send.ParseFromString(text)) CheckMessage(send);
    return 0;
  }
  const auto& rules = arena::common::TextRules();
  TextRule rule = arena::common::kDefaultTextRule;
  if (selector % 16 < rules.size()) rule = std::next(rules.begin(), selector % 16)->second;
  if (selector & 0x40) rule.max_bytes = selector % 37;  // short limits hit the cut paths
  if (arena::common::CheckText("f", text, rule).ok()) CheckStorable(text, rule);
  const std::string clean = arena::common::SanitizeText(text, rule);
  ARENA_FUZZ_CHECK(arena::common::CheckText("f", clean, rule).ok());
  CheckStorable(clean, rule);
  // Clean text is left alone.
  if (arena::common::CheckText("f", text, rule).ok()) ARENA_FUZZ_CHECK(clean == text);
  return 0;
}
