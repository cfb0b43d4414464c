// Move text: UCI long algebraic ("e2e4", "e7e8q", castling as the king's step "e1g1") and
// Standard Algebraic Notation ("Nbd7", "exd6", "e8=Q+", "O-O-O#").
//
// Writers take a legal move of `pos`. Readers validate fully: INVALID_ARGUMENT when the text
// is not a move at all (or, for SAN, is ambiguous), FAILED_PRECONDITION when it is well formed
// but names no legal move here. The SAN reader accepts the usual variants: check and
// annotation suffixes (+ # ! ?), "0-0" for "O-O", a promotion with or without '=', and
// needless disambiguation ("Ng1f3").
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/chess/position.h"
#include "engine/chess/types.h"

namespace arena::engine::chess {

std::string MoveToUci(Move m);
absl::StatusOr<Move> ParseUci(const Position& pos, std::string_view text);

std::string MoveToSan(const Position& pos, Move m);
absl::StatusOr<Move> ParseSan(const Position& pos, std::string_view text);

// Tries UCI first, then SAN; the error of the reader the text looked most like.
absl::StatusOr<Move> ParseMove(const Position& pos, std::string_view text);

}  // namespace arena::engine::chess
