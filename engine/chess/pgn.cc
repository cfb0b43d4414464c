#include "engine/chess/pgn.h"

#include <cctype>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/core/game.h"

namespace arena::engine::chess {
namespace {

constexpr std::string_view kSevenTags[] = {"Event", "Site",  "Date",  "Round",
                                           "White", "Black", "Result"};

bool IsResultToken(std::string_view t) {
  return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*";
}

std::string EscapeTagValue(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '\n' || c == '\r') c = ' ';
    out.push_back(c);
  }
  return out;
}

// Parses "h:mm:ss" (or "h:mm:ss.d", fraction dropped) inside a comment's [%clk ...].
std::optional<int64_t> ClockFromComment(std::string_view comment) {
  size_t at = comment.find("[%clk");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = comment.substr(at + 5);
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  int64_t parts[3] = {0, 0, 0};
  int n = 0;
  size_t i = 0;
  while (n < 3) {
    size_t start = i;
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i]))) ++i;
    if (i == start || i - start > 9) return std::nullopt;
    if (!absl::SimpleAtoi(ToAbsl(rest.substr(start, i - start)), &parts[n])) return std::nullopt;
    ++n;
    if (n < 3) {
      if (i >= rest.size() || rest[i] != ':') return std::nullopt;
      ++i;
    }
  }
  return parts[0] * 3600 + parts[1] * 60 + parts[2];
}

}  // namespace

const std::string* PgnGame::Tag(std::string_view name) const {
  for (const auto& [key, value] : tags) {
    if (key == name) return &value;
  }
  return nullptr;
}

std::string FormatClock(int64_t seconds) {
  if (seconds < 0) seconds = 0;
  int64_t h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60;
  return absl::StrCat(h, ":", m < 10 ? "0" : "", m, ":", s < 10 ? "0" : "", s);
}

std::string ExportPgn(const PgnGame& game) {
  std::string out;
  for (std::string_view name : kSevenTags) {
    const std::string* value = game.Tag(name);
    std::string v = value ? *value : (name == "Result" ? game.result : "?");
    if (name == "Result") v = game.result;
    absl::StrAppend(&out, "[", ToAbsl(name), " \"", EscapeTagValue(v), "\"]\n");
  }
  const bool custom_start = game.start_fen != kStartFen;
  for (const auto& [key, value] : game.tags) {
    bool standard = key == "SetUp" || key == "FEN";
    for (std::string_view name : kSevenTags) standard |= key == name;
    if (!standard) absl::StrAppend(&out, "[", key, " \"", EscapeTagValue(value), "\"]\n");
  }
  if (custom_start) {
    absl::StrAppend(&out, "[SetUp \"1\"]\n[FEN \"", EscapeTagValue(game.start_fen), "\"]\n");
  }
  out.push_back('\n');

  auto start = Position::FromFen(game.start_fen);
  Position pos = start.ok() ? *start : Position::StartPosition();
  std::string line;
  auto add = [&](const std::string& token) {
    if (!line.empty() && line.size() + 1 + token.size() > 80) {
      out += line;
      out.push_back('\n');
      line.clear();
    }
    if (!line.empty()) line.push_back(' ');
    line += token;
  };
  for (size_t i = 0; i < game.moves.size(); ++i) {
    const Move m = game.moves[i];
    if (pos.side_to_move() == kWhite) {
      add(absl::StrCat(pos.fullmove(), "."));
    } else if (i == 0) {
      add(absl::StrCat(pos.fullmove(), "..."));
    }
    add(MoveToSan(pos, m));
    const bool clock = i < game.clocks.size() && game.clocks[i].has_value();
    const bool comment = i < game.comments.size() && !game.comments[i].empty();
    if (clock || comment) {
      add("{");
      if (clock) add(absl::StrCat("[%clk ", FormatClock(*game.clocks[i]), "]"));
      if (comment) {
        for (absl::string_view word :
             absl::StrSplit(game.comments[i], absl::ByAnyChar(" \n\t\r"), absl::SkipEmpty())) {
          add(absl::StrReplaceAll(word, {{"}", ")"}}));
        }
      }
      add("}");
    }
    Position::Undo undo;
    pos.DoMove(m, undo);
  }
  add(game.result);
  out += line;
  out.push_back('\n');
  return out;
}

absl::StatusOr<PgnGame> ImportPgn(std::string_view text) {
  PgnGame game;
  size_t i = 0;
  const size_t n = text.size();
  auto skip_space = [&] {
    while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  };

  // Tag pairs.
  for (;;) {
    skip_space();
    if (i < n && text[i] == '%') {  // escape line
      while (i < n && text[i] != '\n') ++i;
      continue;
    }
    if (i >= n || text[i] != '[') break;
    ++i;
    size_t name_start = i;
    while (i < n && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
    std::string name(text.substr(name_start, i - name_start));
    skip_space();
    if (name.empty() || i >= n || text[i] != '"') {
      return absl::InvalidArgumentError(
          absl::StrCat("PGN tag pair at offset ", name_start, " is malformed"));
    }
    ++i;
    std::string value;
    while (i < n && text[i] != '"') {
      if (text[i] == '\\' && i + 1 < n) ++i;
      value.push_back(text[i++]);
    }
    if (i >= n)
      return absl::InvalidArgumentError(absl::StrCat("PGN tag ", name, " is unterminated"));
    ++i;
    skip_space();
    if (i >= n || text[i] != ']') {
      return absl::InvalidArgumentError(absl::StrCat("PGN tag ", name, " lacks its ']'"));
    }
    ++i;
    game.tags.emplace_back(std::move(name), std::move(value));
  }
  if (const std::string* fen = game.Tag("FEN")) game.start_fen = *fen;
  auto start = Position::FromFen(game.start_fen);
  if (!start.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("PGN FEN tag: ", start.status().message()));
  }
  Position pos = *start;

  // Movetext.
  for (;;) {
    skip_space();
    if (i >= n) break;
    const char c = text[i];
    if (c == '{') {
      size_t end = text.find('}', i);
      if (end == std::string_view::npos) {
        return absl::InvalidArgumentError(
            absl::StrCat("PGN comment at offset ", i, " is unterminated"));
      }
      std::optional<int64_t> clock = ClockFromComment(text.substr(i, end - i));
      if (clock && !game.moves.empty()) game.clocks.back() = clock;
      i = end + 1;
      continue;
    }
    if (c == ';') {
      while (i < n && text[i] != '\n') ++i;
      continue;
    }
    if (c == '(') {
      int depth = 0;
      for (; i < n; ++i) {
        if (text[i] == '{') {
          size_t end = text.find('}', i);
          if (end == std::string_view::npos) break;
          i = end;
        } else if (text[i] == '(') {
          ++depth;
        } else if (text[i] == ')' && --depth == 0) {
          break;
        }
      }
      if (i >= n) return absl::InvalidArgumentError("PGN variation is unterminated");
      ++i;
      continue;
    }
    if (c == '[') break;  // the next game's tags
    size_t start_tok = i;
    while (i < n && !std::isspace(static_cast<unsigned char>(text[i])) && text[i] != '{' &&
           text[i] != '(' && text[i] != ')' && text[i] != ';') {
      ++i;
    }
    std::string_view token = text.substr(start_tok, i - start_tok);
    if (token.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("PGN movetext: unexpected '", std::string(1, c), "' at offset ", i));
    }
    if (IsResultToken(token)) {
      game.result = std::string(token);
      break;
    }
    if (token[0] == '$') continue;  // NAG
    // Move number "12." or "12..." possibly glued to the move ("12.e4").
    size_t digits = 0;
    while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits]))) {
      ++digits;
    }
    if (digits > 0 && digits < token.size() && token[digits] == '.') {
      token.remove_prefix(digits);
      while (!token.empty() && token.front() == '.') token.remove_prefix(1);
      if (token.empty()) continue;
    } else if (digits == token.size()) {
      continue;  // a bare number
    }
    auto move = ParseSan(pos, token);
    if (!move.ok()) {
      return absl::Status(move.status().code(), absl::StrCat("PGN move ", game.moves.size() + 1,
                                                             " (ply): ", move.status().message()));
    }
    Position::Undo undo;
    pos.DoMove(*move, undo);
    game.moves.push_back(*move);
    game.clocks.emplace_back();
  }
  if (const std::string* tag_result = game.Tag("Result");
      tag_result && game.result == "*" && IsResultToken(*tag_result)) {
    game.result = *tag_result;
  }
  return game;
}

}  // namespace arena::engine::chess
