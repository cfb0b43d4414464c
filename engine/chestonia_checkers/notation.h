// Text forms of Chestonia checkers: cells, turns and other actions, whole positions, and the
// board drawing. docs/rules/chestonia-checkers.md describes every form with examples.
//
// A turn is its path: the origin and every landing joined by ':' ("0,-5:0,-3:2,-3"); a quiet
// move is "from:to". Position text is one line of space-separated key=value fields after the
// word "chestonia-checkers", e.g.
//   chestonia-checkers players=2 setup=normal board=plain darts=off reverse=off movecap=0
//   first=b turn=b phase=move pieces=bM0,-6;...;wK-3,5 out=- moves=0 noprogress=0 rounds=0
//   dartround=0 aim=- reward=0 actions=0 result=-
// Pieces are <seat letter><M|K><q>,<r> joined by ';' in cell order. Serialize always writes
// every field in this order; Parse accepts the fields in any order, fills missing ones from
// the variant and defaults, and also accepts phase=start ("begin the turn of `turn` now"),
// which is how hand-made positions are entered.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/chestonia_checkers/movegen.h"
#include "engine/chestonia_checkers/position.h"

namespace arena::engine::chestonia_checkers {

std::string CellName(int cell);                        // "q,r"
absl::StatusOr<int> ParseCell(std::string_view text);  // INVALID_ARGUMENT off the board
char PieceLetter(int kind);                            // M K
int PieceKindFromLetter(char letter);                  // kEmpty if none

std::string TurnText(const Turn& t);
// The cells of a turn's text, origin first; INVALID_ARGUMENT unless two or more cells.
absl::StatusOr<std::vector<uint8_t>> ParseTurnText(std::string_view text);

std::string SerializePosition(const Position& pos);
// `defaults` supplies the variant fields the text leaves out.
absl::StatusOr<Position> ParsePosition(std::string_view text, const Rules& defaults);

// The board in hex rows, the `perspective` seat's edge at the bottom. Each cell is two
// characters: seat letter and piece letter (lower case for a frozen army), ".." for an empty
// cell. With `coordinates`, each row ends with the q,r of its first and last cells.
std::string RenderBoard(const Position& pos, int perspective, bool coordinates);

}  // namespace arena::engine::chestonia_checkers
