// How a model's answer is read: the move it names, the reasoning it gives, and what to tell it
// when the answer cannot be used.
//
// Extraction matches the answer against the legal moves (canonical text, then
// case-insensitively, then any alternative text the game's Apply accepts, mapped back to the
// canonical move that leads to the same position).
#pragma once

#include <string>

#include "gateway/prompt.h"

namespace arena::gateway {

inline constexpr size_t kMaxReasoningBytes = 2000;

enum class ReplyLabel { kOk, kUnparsable, kIllegal, kTruncated, kEmpty };
const char* ReplyLabelName(ReplyLabel label);

struct Extraction {
  ReplyLabel label = ReplyLabel::kUnparsable;
  std::string move;       // canonical legal move when kOk
  std::string candidate;  // what the model wrote as its move, if anything
  std::string reasoning;  // bounded to kMaxReasoningBytes, cut at a UTF-8 boundary
  std::string reason;     // why it was not accepted, for the re-prompt
};
Extraction ExtractMove(const std::string& content, const std::string& finish_reason,
                       const TurnPosition& turn);

// The follow-up message after an unusable answer.
std::string RepromptText(const Extraction& extraction, const TurnPosition& turn);

// Cuts `text` to at most `max_bytes` without splitting a UTF-8 sequence.
std::string TruncateUtf8(const std::string& text, size_t max_bytes);

}  // namespace arena::gateway
