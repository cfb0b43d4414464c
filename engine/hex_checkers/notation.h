// Text forms of hex checkers: cells, turns, seat letters and whole positions.
// docs/rules/hex-checkers.md describes every form with examples.
//
// A cell is "q,r" (axial, s = -q - r). A turn is its path: the origin and every landing joined
// by ':' ("0,-3:0,-1:2,-1"); a quiet step is "from:to". Seats are written by the initial of
// their face's colour (b r g w o y for faces 0..5). Position text is one line of
// space-separated key=value fields after the word "hex-checkers", e.g.
//   hex-checkers players=2 radius=5 movecap=0 first=b turn=b pieces=bM-1,-4;...;wM1,4 out=-
//   moves=0 actions=0 result=- reason=none captured=- promoted=0 eliminated=- skipped=-
//   offers=-
// Pieces are <seat letter><M|K><q>,<r> joined by ';' in cell order; out lists the seats that
// went out as <letter>@<turns played then> joined by ';'. captured, promoted, eliminated and
// skipped report what the last action did; offers lists the seats that offered or accepted a
// draw since the last turn. Serialize always writes every field in this order; Parse accepts them
// in any order and fills missing ones from the variant and defaults. A position without result is
// settled (movegen.h): seats without pieces go out, and the first seat from `turn` on with a legal
// turn is to move — which is how hand-made positions are entered.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/hex_checkers/movegen.h"
#include "engine/hex_checkers/position.h"

namespace arena::engine::hex_checkers {

std::string CellName(const hex::Grid& grid, int cell);  // "q,r"
// INVALID_ARGUMENT for text that is not a cell of the grid.
absl::StatusOr<int> ParseCell(const hex::Grid& grid, std::string_view text);
char PieceLetter(int kind);  // M K

// Seat letters of a game of `players`: the initial of each seat's face colour.
char SeatLetter(int players, int seat);
int SeatFromLetter(int players, char letter);  // -1 if not a seat of this game

std::string TurnText(const hex::Grid& grid, const Turn& t);
// The cells of a turn's text, origin first; INVALID_ARGUMENT unless two or more cells of the
// grid.
absl::StatusOr<std::vector<uint8_t>> ParseTurnText(const hex::Grid& grid, std::string_view text);

std::string SerializePosition(const Position& pos);
// `defaults` supplies the variant fields the text leaves out. INVALID_ARGUMENT, naming the
// field, for anything malformed or impossible (a man on the centre, two pieces on one cell).
absl::StatusOr<Position> ParsePosition(std::string_view text, const Rules& defaults);

}  // namespace arena::engine::hex_checkers
