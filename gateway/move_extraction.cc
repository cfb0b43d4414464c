#include "gateway/move_extraction.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"

namespace arena::gateway {
namespace {

std::string Trim(absl::string_view s) {
  return std::string(absl::StripAsciiWhitespace(s));
}

// Strips quotes, backticks and trailing punctuation a model may wrap a move in.
std::string CleanCandidate(std::string s) {
  s = Trim(s);
  auto strip = [&](char c) {
    while (!s.empty() && s.front() == c) s.erase(s.begin());
    while (!s.empty() && s.back() == c) s.pop_back();
  };
  for (int i = 0; i < 2; ++i) {
    for (char c : {'"', '\'', '`', '*'}) strip(c);
    while (!s.empty() && (s.back() == '.' || s.back() == ',')) s.pop_back();
    s = Trim(s);
  }
  return s;
}

// The JSON object in a reply: the whole reply, inside a ``` fence, or between the first '{'
// and the last '}'.
nlohmann::json FindJsonObject(const std::string& content) {
  auto parsed = nlohmann::json::parse(content, nullptr, false);
  if (parsed.is_object()) return parsed;
  size_t open = content.find('{');
  size_t close = content.rfind('}');
  if (open != std::string::npos && close != std::string::npos && close > open) {
    parsed = nlohmann::json::parse(content.substr(open, close - open + 1), nullptr, false);
    if (parsed.is_object()) return parsed;
  }
  return nlohmann::json();
}

inline constexpr size_t kMaxCandidateBytes = 200;
inline constexpr size_t kMaxAmbiguousShown = 6;
// Prose is read from its end: a reasoning model's answer comes last, and the scan stays cheap
// on the loop thread however long the reply.
inline constexpr size_t kMaxProseBytes = 16384;
// Words no move is: alternative notations are tried through Apply only for tokens this short.
inline constexpr size_t kMaxTokenBytes = 24;
inline constexpr size_t kMaxTokensTried = 600;

// Maps what a model wrote to the canonical legal action it means: the canonical text, the
// same case-insensitively, or another notation the game's Apply accepts (e.g. SAN for chess)
// that leads to the same position as exactly one legal action; failing that, since a turn's
// list is bounded (kMaxLegalListed), any text Apply accepts is taken as written.
class LegalMatcher {
 public:
  explicit LegalMatcher(const TurnPosition& turn) : turn_(turn) {}

  std::optional<std::string> Match(const std::string& candidate) {
    if (candidate.empty()) return std::nullopt;
    for (const auto& m : turn_.legal) {
      if (m == candidate) return m;
    }
    for (const auto& m : turn_.legal) {
      if (absl::EqualsIgnoreCase(m, candidate)) return m;
    }
    auto cached = other_.find(candidate);
    if (cached != other_.end()) return cached->second;
    std::optional<std::string>& out = other_[candidate];
    auto probe = turn_.state->Clone();
    if (!probe->Apply(candidate).ok()) return out;
    const uint64_t target = probe->Hash();
    const std::string target_text = probe->Serialize();
    if (targets_.empty()) {
      for (const auto& m : turn_.legal) {
        auto trial = turn_.state->Clone();
        if (trial->Apply(m).ok()) targets_.push_back({trial->Hash(), trial->Serialize(), m});
      }
    }
    for (const auto& t : targets_) {
      if (t.hash == target && t.text == target_text) {
        out = t.action;
        break;
      }
    }
    // A turn beyond a bounded list (kMaxLegalListed) is legal all the same: Apply accepted it.
    // (A complete list never gets here: every legal text leads to a listed action's position.)
    if (!out) out = candidate;
    return out;
  }

 private:
  struct Target {
    uint64_t hash;
    std::string text;
    std::string action;
  };
  const TurnPosition& turn_;
  std::map<std::string, std::optional<std::string>> other_;
  std::vector<Target> targets_;  // the position after each legal action, made once
};

bool IsMoveChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == ',' || c == ':' || c == '-' ||
         c == '=' || c == '+' || c == '#' || c == '@' || c == '/';
}

// A legal action named in the text, at [begin, end).
struct Mention {
  size_t begin = 0;
  size_t end = 0;
  std::string action;
};

// What the prose of a reply says.
struct ProseReading {
  std::vector<Mention> mentions;   // in text order, not overlapping
  std::vector<std::string> named;  // distinct actions named, in order of first mention
  std::optional<Mention> answer;   // the first mention after the last marker that has one
  size_t answer_marker = 0;        // where that marker starts
  std::string declared;            // the text after the last "<marker>:", when legal or not
  size_t declared_at = 0;
  bool declared_after_answer = false;  // that text names nothing legal and comes last
};

// The legal actions the text names: each legal action's canonical text where it stands as a
// token of its own (case-insensitively), and any other token the game reads as a legal action.
std::vector<Mention> FindMentions(const std::string& text, const TurnPosition& turn,
                                  LegalMatcher& matcher) {
  const std::string lower = absl::AsciiStrToLower(text);
  std::vector<Mention> found;
  auto bounded = [&](size_t begin, size_t end) {
    return (begin == 0 || !IsMoveChar(text[begin - 1])) &&
           (end >= text.size() || !IsMoveChar(text[end]) ||
            // a sentence's full stop or a comma after a move
            ((text[end] == ',' || text[end] == ':') &&
             (end + 1 >= text.size() || text[end + 1] == ' ' || text[end + 1] == '\n')));
  };
  for (const auto& m : turn.legal) {
    const std::string needle = absl::AsciiStrToLower(m);
    if (needle.empty()) continue;
    for (size_t at = lower.find(needle); at != std::string::npos; at = lower.find(needle, at + 1)) {
      if (bounded(at, at + needle.size())) found.push_back({at, at + needle.size(), m});
    }
  }
  // Longest first at each position, then drop overlaps.
  std::sort(found.begin(), found.end(), [](const Mention& a, const Mention& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  std::vector<Mention> out;
  for (auto& m : found) {
    if (!out.empty() && m.begin < out.back().end) continue;
    out.push_back(std::move(m));
  }
  // Other notations, token by token, where no canonical mention stands.
  size_t tried = 0;
  std::vector<Mention> extra;
  size_t covered = 0;  // index into out
  for (size_t i = 0; i < text.size() && tried < kMaxTokensTried;) {
    while (i < text.size() && !IsMoveChar(text[i])) ++i;
    size_t j = i;
    while (j < text.size() && IsMoveChar(text[j])) ++j;
    if (j == i) break;
    size_t b = i, e = j;
    while (e > b && (text[e - 1] == ',' || text[e - 1] == ':' || text[e - 1] == '-')) --e;
    i = j;
    if (e - b > kMaxTokenBytes) continue;
    while (covered < out.size() && out[covered].end <= b) ++covered;
    if (covered < out.size() && out[covered].begin < e) continue;
    // Only tokens that look like a move: a digit or a capital, or castling's O-O.
    bool looks = false;
    for (size_t k = b; k < e; ++k) {
      if (absl::ascii_isdigit(static_cast<unsigned char>(text[k]))) looks = true;
    }
    if (!looks && !(e - b >= 3 && (text[b] == 'O' || text[b] == '0') && text[b + 1] == '-')) {
      continue;
    }
    ++tried;
    if (auto action = matcher.Match(text.substr(b, e - b))) extra.push_back({b, e, *action});
  }
  out.insert(out.end(), extra.begin(), extra.end());
  std::sort(out.begin(), out.end(),
            [](const Mention& a, const Mention& b) { return a.begin < b.begin; });
  return out;
}

// Where the words that announce an answer stand ("move", "answer", "final", "choice"), as
// whole words, case-insensitively: [begin, end) of each.
std::vector<std::pair<size_t, size_t>> FindMarkers(const std::string& text) {
  static const char* kMarkers[] = {"move", "answer", "final", "choice"};
  const std::string lower = absl::AsciiStrToLower(text);
  std::vector<std::pair<size_t, size_t>> out;
  for (const char* word : kMarkers) {
    const size_t n = std::string_view(word).size();
    for (size_t at = lower.find(word); at != std::string::npos; at = lower.find(word, at + 1)) {
      bool before = at == 0 || !absl::ascii_isalpha(static_cast<unsigned char>(lower[at - 1]));
      bool after =
          at + n >= lower.size() || !absl::ascii_isalpha(static_cast<unsigned char>(lower[at + n]));
      if (before && after) out.push_back({at, at + n});
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The span a marker speaks for: the rest of its line, or the next non-empty line when the
// rest of its line is only punctuation (a heading such as "**Final answer:**").
std::pair<size_t, size_t> MarkerSpan(const std::string& text, size_t from) {
  size_t eol = text.find('\n', from);
  if (eol == std::string::npos) eol = text.size();
  bool blank = true;
  for (size_t k = from; k < eol; ++k) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(text[k]))) blank = false;
  }
  if (!blank || eol == text.size()) return {from, eol};
  size_t next = eol + 1;
  while (next < text.size() && absl::ascii_isspace(static_cast<unsigned char>(text[next]))) ++next;
  size_t next_eol = text.find('\n', next);
  return {from, next_eol == std::string::npos ? text.size() : next_eol};
}

ProseReading ReadProse(const std::string& full_text, const TurnPosition& turn) {
  ProseReading r;
  const size_t skip = full_text.size() > kMaxProseBytes ? full_text.size() - kMaxProseBytes : 0;
  const std::string text = full_text.substr(skip);
  LegalMatcher matcher(turn);
  r.mentions = FindMentions(text, turn, matcher);
  for (const auto& m : r.mentions) {
    if (std::find(r.named.begin(), r.named.end(), m.action) == r.named.end()) {
      r.named.push_back(m.action);
    }
  }
  bool declared_names_legal = false;
  for (const auto& [begin, end] : FindMarkers(text)) {
    auto [from, to] = MarkerSpan(text, end);
    bool names_legal = false;
    for (const auto& m : r.mentions) {
      if (m.begin >= from && m.end <= to) {
        r.answer = m;
        r.answer_marker = begin;
        names_legal = true;
        break;
      }
    }
    // "<marker>:" declares an answer, legal or not.
    size_t k = end;
    while (k < to && (text[k] == '*' || text[k] == '_' || text[k] == ' ')) ++k;
    if (k < to && text[k] == ':') {
      std::string declared = CleanCandidate(text.substr(k + 1, to - k - 1));
      if (!declared.empty()) {
        r.declared = TruncateUtf8(declared, kMaxCandidateBytes);
        r.declared_at = begin;
        declared_names_legal = names_legal;
      }
    }
  }
  r.declared_after_answer = !r.declared.empty() && !declared_names_legal &&
                            (!r.answer || r.declared_at > r.answer_marker);
  if (r.answer) {
    r.answer->begin += skip;
    r.answer->end += skip;
    r.answer_marker += skip;
  }
  r.declared_at += skip;
  return r;
}

}  // namespace

std::string TruncateUtf8(const std::string& text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

const char* ReplyLabelName(ReplyLabel label) {
  switch (label) {
    case ReplyLabel::kOk:
      return "ok";
    case ReplyLabel::kUnparsable:
      return "unparsable";
    case ReplyLabel::kIllegal:
      return "illegal";
    case ReplyLabel::kTruncated:
      return "truncated";
    case ReplyLabel::kEmpty:
      return "empty";
  }
  return "unparsable";
}

Extraction ExtractMove(const std::string& content, const std::string& finish_reason,
                       const TurnPosition& turn) {
  Extraction x;
  std::string text = Trim(content);
  if (text.empty()) {
    x.label = ReplyLabel::kEmpty;
    x.reason = "the answer was empty";
    return x;
  }
  if (finish_reason == "length") {
    x.label = ReplyLabel::kTruncated;
    x.reason =
        "the answer was cut off at the length limit before it named a move; think less "
        "and answer more briefly";
    return x;
  }
  // JSON first: when the reply has a JSON object with a "move", that is the answer.
  nlohmann::json obj = FindJsonObject(text);
  if (obj.is_object() && obj.contains("move") && obj["move"].is_string()) {
    x.candidate = TruncateUtf8(CleanCandidate(obj["move"].get<std::string>()), kMaxCandidateBytes);
    if (obj.contains("reasoning") && obj["reasoning"].is_string()) {
      x.reasoning = TruncateUtf8(obj["reasoning"].get<std::string>(), kMaxReasoningBytes);
    }
    if (!x.candidate.empty()) {
      LegalMatcher matcher(turn);
      if (auto m = matcher.Match(x.candidate)) {
        x.label = ReplyLabel::kOk;
        x.move = *m;
      } else {
        x.label = ReplyLabel::kIllegal;
        x.reason = absl::StrCat("'", x.candidate, "' is not a legal move in this position");
      }
      return x;
    }
  }
  // Otherwise the text: the legal actions it names, and where its markers are.
  ProseReading prose = ReadProse(text, turn);
  // The reasoning is what comes before the answer's line (or before its marker, or all of it).
  auto reasoning_before = [&](size_t at) {
    size_t line = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
    std::string r = line == std::string::npos ? "" : Trim(absl::string_view(text).substr(0, line));
    if (r.empty()) r = Trim(absl::string_view(text).substr(0, at));
    return TruncateUtf8(r.empty() ? text : r, kMaxReasoningBytes);
  };
  if (prose.declared_after_answer) {
    // The last explicit "Move: ..." line names nothing legal, after any legal answer.
    x.candidate = prose.declared;
    x.reasoning = reasoning_before(prose.declared_at);
    x.label = ReplyLabel::kIllegal;
    x.reason = absl::StrCat("'", x.candidate, "' is not a legal move in this position");
    return x;
  }
  if (prose.answer) {
    x.label = ReplyLabel::kOk;
    x.move = prose.answer->action;
    x.candidate = text.substr(prose.answer->begin, prose.answer->end - prose.answer->begin);
    x.reasoning = reasoning_before(prose.answer_marker);
    return x;
  }
  x.reasoning = TruncateUtf8(text, kMaxReasoningBytes);
  if (prose.named.size() == 1) {
    x.label = ReplyLabel::kOk;
    x.move = prose.named[0];
    x.candidate = prose.named[0];
    return x;
  }
  if (prose.named.size() > 1) {
    std::vector<std::string> shown(
        prose.named.begin(),
        prose.named.begin() + std::min<size_t>(prose.named.size(), kMaxAmbiguousShown));
    x.label = ReplyLabel::kUnparsable;
    x.reason =
        absl::StrCat("the answer is ambiguous: it names ", prose.named.size(), " legal moves (",
                     absl::StrJoin(shown, ", "), prose.named.size() > shown.size() ? ", ..." : "",
                     ") and none of them after a marker such as \"Move:\"; name exactly one");
    return x;
  }
  if (!prose.declared.empty()) {
    x.candidate = prose.declared;
    x.reasoning = reasoning_before(prose.declared_at);
    x.label = ReplyLabel::kIllegal;
    x.reason = absl::StrCat("'", x.candidate, "' is not a legal move in this position");
    return x;
  }
  x.label = ReplyLabel::kUnparsable;
  x.reason =
      "no move was found; answer with one JSON object {\"move\": \"...\", \"reasoning\": "
      "\"...\"}";
  return x;
}

std::string RepromptText(const Extraction& extraction, const TurnPosition& turn) {
  std::string out = absl::StrCat("Your previous answer could not be used: ", extraction.reason,
                                 ". It is still your turn; you owe ", OwedText(turn), ".");
  if (turn.show_legal_moves) absl::StrAppend(&out, " ", LegalMovesText(turn), ".");
  absl::StrAppend(&out,
                  " Answer with one JSON object and nothing else: {\"move\": \"<move>\", "
                  "\"reasoning\": \"<why, briefly>\"}.");
  return out;
}

}  // namespace arena::gateway
