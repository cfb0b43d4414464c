// What the Chestonia games (chess, checkers and Go on the 169-cell board, two or three players)
// share besides the darts: their seats, their board designs and the variant keys that switch
// them, so a seat letter, a board name or a variant error reads the same in every one of them.
//
// Seats are blue, white (two players) or blue, black, white (three), in clockwise order; seat
// s's frame is blue's turned by SeatSixths(players, s) sixths of a circle. A game keeps its own
// rules and adds its own variant keys (Chestonia checkers' setup) beside these.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/board_view.h"
#include "engine/core/game.h"
#include "engine/hex/geometry.h"

namespace arena::engine::hex {

// --- Seats ---------------------------------------------------------------------------------
char SeatLetter(int players, int seat);        // b, w or b, k, w
int SeatFromLetter(int players, char letter);  // -1 if not a seat of this game
std::string_view SeatColour(int players, int seat);
// The rotation of seat `seat`'s frame: 0 for blue, 2 and 4 with three players, 3 with two.
inline int SeatSixths(int players, int seat) {
  return players == 2 ? 3 * seat : 2 * seat;
}
// Every seat's name and drawing colour, in seat order (State::Seats()).
std::vector<SeatInfo> SeatInfos(int players);
// The seat names joined by ", " for a rules brief: "blue, black, white".
std::string SeatList(const std::vector<SeatInfo>& seats);

// --- Board designs -------------------------------------------------------------------------
// How the board is drawn; circles and target also turn the darts on by default.
enum class BoardKind : uint8_t { kAlternating, kPlain, kCircles, kTarget };
std::string_view BoardKindName(BoardKind board);  // alternating, plain, circles, target
// The shade of `cell` on a board of this design: alternating 0..2 in three colours, plain 0,
// circles the dart zone, target the ring.
int CellShade(BoardKind board, const Grid& grid, int cell);

// --- Variant keys --------------------------------------------------------------------------
// The switches every Chestonia game reads from its variant.
struct ChestoniaOptions {
  int players = 2;
  BoardKind board = BoardKind::kAlternating;
  bool darts = false;
  bool reverse = false;
  int movecap = 0;  // 0 = none
  int first = 0;    // the seat that leads
};
// The shared switches of a game's Rules (which names its fields alike), and back.
template <class Rules>
ChestoniaOptions OptionsOf(const Rules& r) {
  return {r.players, r.board, r.darts, r.reverse, r.movecap, r.first};
}
template <class Rules>
void SetOptions(const ChestoniaOptions& o, Rules& r) {
  r.players = o.players;
  r.board = o.board;
  r.darts = o.darts;
  r.reverse = o.reverse;
  r.movecap = o.movecap;
  r.first = o.first;
}
// Checks `variant` against `keys` (every key the game accepts) and reads players (2|3, default
// 2), board (default `default_board`), darts (default on for circles and target), reverse
// (default off), movecap (0 = none, default 0) and first (seat letter or index, default 0).
// INVALID_ARGUMENT naming the first bad key.
absl::StatusOr<ChestoniaOptions> ParseChestoniaOptions(const Variant& variant,
                                                       const std::vector<std::string>& keys,
                                                       BoardKind default_board);
// Reads `first` (a seat letter, or a digit below `players`) for any hex game whose seats have
// letters (hex checkers too); INVALID_ARGUMENT "first=<text> is no seat".
absl::StatusOr<int> ParseFirstSeat(const Variant& variant, int players,
                                   int (*seat_from_letter)(int players, char letter));
// Reads movecap (hex checkers too); INVALID_ARGUMENT unless 0 (none) or positive.
absl::StatusOr<int> ParseMoveCap(const Variant& variant);

}  // namespace arena::engine::hex
