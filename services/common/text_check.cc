#include "services/common/text_check.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/reflection.h"

namespace arena::common {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

// Decodes one UTF-8 sequence at text[i]; returns its length and sets *cp, or 0 when invalid.
size_t DecodeUtf8(std::string_view text, size_t i, uint32_t* cp) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char c = b(i);
  if (c < 0x80) {
    *cp = c;
    return 1;
  }
  size_t len;
  uint32_t v, min;
  if ((c & 0xE0) == 0xC0) {
    len = 2, v = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3, v = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4, v = c & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > text.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    v = (v << 6) | (b(i + k) & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return len;
}

absl::Status CheckField(const Message& m, const FieldDescriptor* f, const std::string& path);

absl::Status CheckMessageAt(const Message& m, const std::string& prefix) {
  const Reflection* r = m.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const FieldDescriptor* f : fields) {
    if (absl::Status s = CheckField(m, f, prefix + f->name()); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status CheckField(const Message& m, const FieldDescriptor* f, const std::string& path) {
  const Reflection* r = m.GetReflection();
  if (f->type() == FieldDescriptor::TYPE_STRING) {
    const TextRule rule = TextRuleOf(f->name());
    if (f->is_repeated()) {
      for (int i = 0; i < r->FieldSize(m, f); ++i) {
        std::string scratch;
        const std::string& v = r->GetRepeatedStringReference(m, f, i, &scratch);
        if (absl::Status s = CheckText(absl::StrCat(path, "[", i, "]"), v, rule); !s.ok()) return s;
      }
      return absl::OkStatus();
    }
    std::string scratch;
    return CheckText(path, r->GetStringReference(m, f, &scratch), rule);
  }
  if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) return absl::OkStatus();
  if (f->is_repeated()) {
    // A map is a repeated message of key and value: its string keys are checked too.
    for (int i = 0; i < r->FieldSize(m, f); ++i) {
      absl::Status s =
          CheckMessageAt(r->GetRepeatedMessage(m, f, i), absl::StrCat(path, "[", i, "]."));
      if (!s.ok()) return s;
    }
    return absl::OkStatus();
  }
  return CheckMessageAt(r->GetMessage(m, f), path + ".");
}

}  // namespace

absl::Status CheckText(std::string_view field_view, std::string_view text, const TextRule& rule) {
  const std::string field(field_view);  // absl::StrCat takes absl::string_view, not std's
  if (text.size() > rule.max_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": longer than ", rule.max_bytes, " bytes (", text.size(), ")"));
  }
  for (size_t i = 0; i < text.size();) {
    uint32_t cp = 0;
    size_t len = DecodeUtf8(text, i, &cp);
    if (len == 0) {
      return absl::InvalidArgumentError(absl::StrCat(field, ": not valid UTF-8 at byte ", i));
    }
    bool control = cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
    if (control && !(rule.multiline && (cp == '\n' || cp == '\t'))) {
      return absl::InvalidArgumentError(absl::StrCat(field, ": control character ",
                                                     absl::StrFormat("U+%04X", cp), " at byte ", i,
                                                     " is not allowed"));
    }
    i += len;
  }
  return absl::OkStatus();
}

std::string SanitizeText(std::string_view text, const TextRule& rule) {
  std::string out;
  out.reserve(std::min(text.size(), rule.max_bytes));
  for (size_t i = 0; i < text.size();) {
    uint32_t cp = 0;
    size_t len = DecodeUtf8(text, i, &cp);
    std::string_view piece;
    if (len == 0) {
      piece = "\xEF\xBF\xBD";  // U+FFFD
      len = 1;
    } else {
      bool control = cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
      piece = (control && !(rule.multiline && (cp == '\n' || cp == '\t'))) ? std::string_view(" ")
                                                                           : text.substr(i, len);
    }
    if (out.size() + piece.size() > rule.max_bytes) break;
    out.append(piece);
    i += len;
  }
  return out;
}

const std::map<std::string, TextRule, std::less<>>& TextRules() {
  static const auto* rules = new std::map<std::string, TextRule, std::less<>>{
      {"name", {64, false}},          // account, league names
      {"display_name", {64, false}},  // seat and guest display names
      {"password", {1024, false}},    // never stored; hashed
      {"api_key", {512, false}},      // passed to the gateway only
      {"own_api_key", {512, false}},
      {"annotation", {4096, true}},  // a model's reasoning, published with its move
      {"note", {500, true}},         // invitations
      {"reason", {500, true}},       // admin actions, voiding
      {"memo", {200, false}},        // ledger transfers
      {"label", {100, false}},       // API tokens
      {"idempotency_key", {200, false}},
      {"text", {200, false}},  // a move
      {"model_id", {100, false}},
  };
  return *rules;
}

TextRule TextRuleOf(std::string_view field_name) {
  const auto& rules = TextRules();
  auto it = rules.find(field_name);
  return it == rules.end() ? kDefaultTextRule : it->second;
}

absl::Status CheckMessageText(const google::protobuf::Message& message) {
  return CheckMessageAt(message, "");
}

}  // namespace arena::common
