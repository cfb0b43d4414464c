// Text forms of Chestonia Go: cells, whole positions with their history.
// docs/rules/chestonia-go.md describes every form with examples.
//
// Position text is one line of space-separated key=value fields after the word
// "chestonia-go", e.g.
//   chestonia-go players=2 board=plain darts=off reverse=off movecap=0 first=b turn=w
//   phase=move stones=<169 characters> out=0/0 passes=0 counts=0 moves=1 rounds=0
//   dartround=0 aim=- last=0,0 scores=-/- actions=1 result=- history=<hex>,<hex>
// `stones` gives every cell in index order (row by row from r = -7, q rising): '.' for empty,
// else the owner's seat letter. `out` is, per seat, 0 while in or the number of the event (a
// cut or a resignation) that put it out; seats sharing a number went out together. `scores`
// is the last count in half points ('-' not counted). `history` lists the Zobrist hash of
// every board position so far, oldest first, in hexadecimal; the last is the current one.
// Serialize writes every field in this order; Parse accepts them in any order, fills missing
// ones from the variant and defaults (a missing history is the current board alone), and
// accepts phase=start ("begin the turn of `turn` now") for hand-made positions.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/chestonia_go/position.h"

namespace arena::engine::chestonia_go {

std::string CellName(int cell);                        // "q,r"
absl::StatusOr<int> ParseCell(std::string_view text);  // INVALID_ARGUMENT off the board

std::string SerializePosition(const Position& pos, const BoardHistory& history);
// `defaults` supplies the variant fields the text leaves out. Refuses (INVALID_ARGUMENT) a
// board where a chain of a seat still in has no liberty, or a history not ending in the board.
absl::StatusOr<Position> ParsePosition(std::string_view text, const Rules& defaults,
                                       BoardHistory* history);

}  // namespace arena::engine::chestonia_go
