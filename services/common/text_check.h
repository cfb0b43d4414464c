// Text checks at the edge: every string a client sends is checked once, when its request
// arrives, before anything is locked, changed or written. A string passes when it is valid
// UTF-8 (no overlong forms, no surrogates), holds no control character (C0, DEL, C1; a
// multi-line field may hold \n and \t) and is within its field's byte limit. A refusal is
// INVALID_ARGUMENT naming the field and what is wrong, never echoing the text itself.
//
// PostgreSQL cannot store U+0000 in text or jsonb, and one such row used to fail a whole
// group commit of unrelated games; control characters also forge log lines and terminal
// output. The limits bound what one request can make every later reader carry.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "google/protobuf/message.h"

namespace arena::common {

struct TextRule {
  size_t max_bytes = 256;
  bool multiline = false;  // \n and \t allowed
};

// Checks one string; `field` names it in the error.
absl::Status CheckText(std::string_view field, std::string_view text, const TextRule& rule);

// Makes `text` pass CheckText under `rule`: an invalid UTF-8 byte becomes U+FFFD, a control
// character the rule refuses becomes a space, and the result is cut at a character boundary
// within rule.max_bytes. For text from outside that is stored or published anyway (a model's
// stated reasoning), where refusing would lose the move.
std::string SanitizeText(std::string_view text, const TextRule& rule);

// The rule of each string field by its (proto) field name; fields not listed get
// kDefaultTextRule. One table for every service, documented in docs/security.md.
inline constexpr TextRule kDefaultTextRule{256, false};
const std::map<std::string, TextRule, std::less<>>& TextRules();
TextRule TextRuleOf(std::string_view field_name);

// Checks every string field of `message`, nested messages, repeated fields and maps
// included, by TextRuleOf(field name). Bytes fields are not text and are skipped. The error
// names the field by its path ("seats[1].spec.display_name").
absl::Status CheckMessageText(const google::protobuf::Message& message);

}  // namespace arena::common
