// PGN export and import of one game.
//
// Export writes the seven-tag roster first (in its standard order, "?" for missing values),
// then any other tags, SetUp/FEN when the game did not start from the initial position, and
// SAN movetext with a `{ [%clk h:mm:ss] }` comment after every move whose clock reading the
// caller supplies (the engine owns no clock), wrapped at 80 columns, ending in the result.
// Import reads the tags and the main line of the first game: comments, variations, NAGs and
// move numbers are skipped, `[%clk]` readings are kept, and every SAN move is validated
// against the position (an error names the move and its ply).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/chess/position.h"
#include "engine/chess/types.h"

namespace arena::engine::chess {

struct PgnGame {
  std::vector<std::pair<std::string, std::string>> tags;  // in file order
  std::string start_fen = std::string(kStartFen);
  std::vector<Move> moves;
  // Remaining clock of the side that moved, in whole seconds, per move (nullopt: no reading).
  std::vector<std::optional<int64_t>> clocks;
  // A comment per move (empty: none), written after its clock reading in the same braces.
  std::vector<std::string> comments;
  std::string result = "*";  // "1-0", "0-1", "1/2-1/2" or "*"

  const std::string* Tag(std::string_view name) const;
};

// `clocks` and `comments` may be shorter than `moves`; missing and nullopt readings and empty
// comments write nothing. A '}' in a comment is written as ')' (PGN comments cannot hold it).
std::string ExportPgn(const PgnGame& game);

// "h:mm:ss" for a clock reading in seconds (negative readings print as 0:00:00).
std::string FormatClock(int64_t seconds);

absl::StatusOr<PgnGame> ImportPgn(std::string_view text);

}  // namespace arena::engine::chess
