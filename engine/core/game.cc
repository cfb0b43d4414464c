#include "engine/core/game.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace arena::engine {

absl::StatusOr<Variant> Variant::Parse(std::string_view text) {
  Variant v;
  std::string trimmed(absl::StripAsciiWhitespace(ToAbsl(text)));
  if (trimmed.empty()) return v;
  for (absl::string_view part : absl::StrSplit(trimmed, ',')) {
    part = absl::StripAsciiWhitespace(part);
    if (part.empty()) continue;
    std::vector<std::string> kv = absl::StrSplit(part, absl::MaxSplits('=', 1));
    if (kv.size() != 2 || kv[0].empty() || kv[1].empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("variant option '", part, "' is not of the form key=value"));
    }
    std::string key = absl::AsciiStrToLower(absl::StripAsciiWhitespace(kv[0]));
    std::string value = absl::AsciiStrToLower(absl::StripAsciiWhitespace(kv[1]));
    if (v.options_.count(key)) {
      return absl::InvalidArgumentError(absl::StrCat("variant option '", key, "' given twice"));
    }
    v.options_[key] = value;
  }
  return v;
}

bool Variant::Has(std::string_view key) const {
  return options_.find(key) != options_.end();
}

std::string Variant::Get(std::string_view key, std::string_view fallback) const {
  auto it = options_.find(key);
  return it == options_.end() ? std::string(fallback) : it->second;
}

absl::StatusOr<int> Variant::GetInt(std::string_view key, int fallback) const {
  auto it = options_.find(key);
  if (it == options_.end()) return fallback;
  int value = 0;
  if (!absl::SimpleAtoi(it->second, &value)) {
    return absl::InvalidArgumentError(absl::StrCat("variant option '", ToAbsl(key),
                                                   "' must be an integer, got '", it->second, "'"));
  }
  return value;
}

absl::StatusOr<bool> Variant::GetBool(std::string_view key, bool fallback) const {
  auto it = options_.find(key);
  if (it == options_.end()) return fallback;
  const std::string& v = it->second;
  if (v == "on" || v == "true" || v == "yes" || v == "1") return true;
  if (v == "off" || v == "false" || v == "no" || v == "0") return false;
  return absl::InvalidArgumentError(
      absl::StrCat("variant option '", ToAbsl(key), "' must be on or off, got '", v, "'"));
}

void Variant::Set(std::string_view key, std::string_view value) {
  options_[std::string(key)] = std::string(value);
}

absl::Status Variant::CheckKeys(const std::vector<std::string>& allowed) const {
  for (const auto& [key, value] : options_) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown variant option '", key, "' (allowed: ", absl::StrJoin(allowed, ", "), ")"));
    }
  }
  return absl::OkStatus();
}

std::string Variant::ToString() const {
  std::vector<std::string> parts;
  for (const auto& [key, value] : options_) parts.push_back(absl::StrCat(key, "=", value));
  return absl::StrJoin(parts, ",");
}

std::string Outcome::ResultText() const {
  if (kind == Kind::kOngoing) return "ongoing";
  if (ranks.size() == 2) {
    if (kind == Kind::kDraw) return "1/2-1/2";
    return winners.size() == 1 && winners[0] == 0 ? "1-0" : "0-1";
  }
  if (kind == Kind::kDraw) return "draw";
  return absl::StrCat("win:", absl::StrJoin(winners, "+"));
}

std::string_view SeatEventName(SeatEvent event) {
  switch (event) {
    case SeatEvent::kResign:
      return "resign";
    case SeatEvent::kOfferDraw:
      return "offer-draw";
    case SeatEvent::kAcceptDraw:
      return "accept-draw";
    case SeatEvent::kDeclineDraw:
      return "decline-draw";
    case SeatEvent::kTimeout:
      return "timeout";
  }
  return "unknown";
}

std::vector<std::string> State::BoundedLegalActions(int limit) const {
  std::vector<std::string> actions = LegalActions();
  if (limit > 0 && static_cast<int>(actions.size()) > limit) actions.resize(limit);
  return actions;
}

std::vector<std::string> State::BoundedPieceActions(std::string_view cell, int limit) const {
  std::vector<std::string> out;
  for (std::string& action : LegalActions()) {
    if (limit > 0 && static_cast<int>(out.size()) >= limit) break;
    absl::StatusOr<ActionFacts> facts = DescribeAction(action);
    if (facts.ok() && !facts->cells.empty() && facts->cells.front() == cell) {
      out.push_back(std::move(action));
    }
  }
  return out;
}

std::vector<std::string> PieceActions(const State& state, std::string_view cell) {
  return state.BoundedPieceActions(cell, kMaxPieceActions);
}

uint64_t State::Perft(int depth) const {
  if (depth <= 0) return 1;
  if (IsTerminal() || ToMove() == kChanceSeat) return 1;
  std::vector<std::string> actions = LegalActions();
  if (depth == 1) return actions.size();
  uint64_t total = 0;
  for (const std::string& action : actions) {
    std::unique_ptr<State> child = Clone();
    if (child->Apply(action).ok()) total += child->Perft(depth - 1);
  }
  return total;
}

std::vector<std::pair<std::string, uint64_t>> State::PerftDivide(int depth) const {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const std::string& action : LegalActions()) {
    std::unique_ptr<State> child = Clone();
    if (child->Apply(action).ok()) out.emplace_back(action, child->Perft(depth - 1));
  }
  return out;
}

}  // namespace arena::engine
