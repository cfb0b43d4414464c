// What `arenactl watch` and `arenactl play` draw, as plain text from the wire messages alone
// (the board view, the seats, the event log), so that no game is named here: the board from a
// seat's edge, each seat's game name, player and kind (bot level, model id) and clock, the
// move list with each model move's stated reasoning and attempts, dart aims and landings,
// frozen armies, and the result in words.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "arena/v1/game_state.pb.h"

namespace arena::arenactl {

// How a model turn went, from arena's record of it (ExportGame's model_turns).
struct ModelTurn {
  std::vector<std::string> attempt_labels;  // "illegal", "ok", ... in order
};

// The game's history as lines, built from its events in sequence order.
class MoveList {
 public:
  // Takes one event; `view` names the seats (a view of the same game, any moment).
  void Add(const v1::GameEvent& event, const v1::GameView& view);
  // Attempts of the model turn that made action `action_number`.
  void SetModelTurn(int64_t action_number, ModelTurn turn);

  // Every line, or the last `last_n` (0: all).
  std::vector<std::string> Lines(size_t last_n = 0) const;
  // The line of the most recent event that made one; "" when none.
  std::string LastLine() const;
  // The highest event sequence taken (-1: none).
  int64_t last_sequence() const { return last_sequence_; }

 private:
  struct Entry {
    int64_t action_number = -1;  // -1 for lines that are not a seat's action
    std::string text;            // "  7. nought  0,0"
    std::string reasoning;
  };
  std::string Render(const Entry& e) const;

  std::vector<Entry> entries_;
  std::map<int64_t, ModelTurn> model_turns_;
  int64_t last_sequence_ = -1;
  int64_t moves_ = 0;
};

struct FrameOptions {
  bool coordinates = false;
  int viewer_seat = -1;          // a table seat: marked "(you)"
  size_t move_lines = 12;        // the move list's tail (0: all of it)
  absl::Time now = absl::Now();  // the moment the mover's clock is read at
};

// The seat as the game names it ("white", "cross"), or "seat N" before the leader is drawn.
std::string SeatName(const v1::GameView& view, int table_seat);
// "alice (person)", "bot:2 (bot level 2)", "mock-competent (model mock-competent)".
std::string PlayerOf(const v1::SeatView& seat);
// "m:ss" of a seat's clock at `now`; "" when the table has no clock.
std::string ClockText(const v1::GameView& view, int table_seat, absl::Time now);
// The result in words: "cross (alice) wins: line", "draw: board-full", "voided: ...".
std::string ResultInWords(const v1::GameView& view);
// The players and clocks, one line per seat, "> " before the seat to act.
std::string SeatLines(const v1::GameView& view, const FrameOptions& o);
// The whole frame: header, board, seats, move list, what is owed or the result.
std::string Frame(const v1::GameView& view, const MoveList& moves, const FrameOptions& o);

}  // namespace arena::arenactl
