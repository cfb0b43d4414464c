// Pieces the hex games' State adapters (engine/core/game.h) are built from, where the logic is
// one for every game: the hash, the outcome of a game decided by seats going out, the seat
// events of the Chestonia games, the board view's frame and cells, and the text drawing.
//
// Each game's adapter keeps its rules (legal actions, what an action does and means, its brief)
// and calls these for the rest.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "engine/core/board_view.h"
#include "engine/core/game.h"
#include "engine/hex/chestonia_rules.h"

namespace arena::engine::hex {

// FNV-1a over a serialization: equal states hash equally, across processes too.
uint64_t TextHash(std::string_view text);

// `perspective` when it names a seat of `players`, else 0.
inline int PerspectiveOrZero(int perspective, int players) {
  return perspective >= 0 && perspective < players ? perspective : 0;
}

// The outcome of a finished game decided by seats going out: a draw shares the best place
// among the seats still in; otherwise `winner` is first and the others still in come next.
// The seats out (`out_order`, first out first) follow, the last out ranked best.
Outcome RankedOutcome(int players, bool draw, int winner, std::string_view reason, unsigned active,
                      std::span<const int8_t> out_order);

// Resignation and time-out for a Chestonia Position (Active, ApplyResign, ApplyTimeout; phase
// and Phase::kOver), whose seat `to_move` owes the next action; Chestonia has no draws by
// agreement. The Position is unchanged on error.
template <class Position>
absl::Status ApplyChestoniaSeatEvent(Position& pos, int seat, SeatEvent event, int to_move) {
  if (seat < 0 || seat >= pos.rules.players) return absl::InvalidArgumentError("no such seat");
  if (pos.phase == std::decay_t<decltype(pos.phase)>::kOver) {
    return absl::FailedPreconditionError("the game is over");
  }
  switch (event) {
    case SeatEvent::kResign:
      if (!pos.Active(seat)) return absl::FailedPreconditionError("that seat is already out");
      pos.ApplyResign(seat);
      return absl::OkStatus();
    case SeatEvent::kTimeout:
      if (to_move != seat) {
        return absl::FailedPreconditionError("only the seat that owes an action can time out");
      }
      pos.ApplyTimeout();
      return absl::OkStatus();
    case SeatEvent::kOfferDraw:
    case SeatEvent::kAcceptDraw:
    case SeatEvent::kDeclineDraw:
      return absl::FailedPreconditionError("Chestonia has no draws by agreement");
  }
  return absl::InvalidArgumentError("unknown seat event");
}

// The board view of a Chestonia game without its pieces: the game id, the shape, the
// perspective (PerspectiveOrZero), the seats and every cell of the radius-7 board turned so
// the perspective seat's edge is at the bottom, shaded by the board design.
BoardView ChestoniaBoardView(std::string_view game, int players, int perspective, BoardKind board);

// The text drawing of a Chestonia board in hex rows, `perspective`'s edge at the bottom: each
// cell is `cell_text(cell)` (two characters, ".." for an empty cell), and with `coordinates`
// each row ends with the q,r of its first and last cells; then "to act: <colour of turn>".
std::string RenderChestoniaBoard(int players, int perspective, int turn, bool coordinates,
                                 absl::FunctionRef<std::string(int cell)> cell_text);

}  // namespace arena::engine::hex
