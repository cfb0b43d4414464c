// What a game tells the layers above it about itself, so that no service, tool, prompt or web
// page has to know which game it is looking at:
//
//   * SeatInfo: each seat's name and colour ("white", "blue", ...);
//   * ActionFacts: what one action is (a move, a dart aim, a placement, ...), the cells it
//     touches, whether it ends the acting seat's turn (clocks, turn counts and move caps read
//     this) and whether it is irreversible (for no-progress counters);
//   * RulesBrief: the rules of this variant in prose, and the exact text format of every
//     action the engine may ask for, for language-model prompts and help texts;
//   * BoardView: the position as cells with coordinates and shape, pieces with owner and kind,
//     frozen armies and the last action's cells, serialisable to JSON, from which terminals,
//     prompts and the web page draw any board.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace arena::engine {

struct SeatInfo {
  std::string name;    // "white", "blue", "north": what players and models call the seat
  std::string colour;  // a CSS colour for drawing its pieces, e.g. "#f4f4f4"
};

// The kinds of action a state may owe, as words shared by every game.
inline constexpr char kActionMove[] = "move";
inline constexpr char kActionPass[] = "pass";
inline constexpr char kActionDartAim[] = "dart-aim";
inline constexpr char kActionDartLanding[] = "dart-landing";
inline constexpr char kActionPlacement[] = "placement";
inline constexpr char kActionPenalty[] = "penalty";
inline constexpr char kActionChance[] = "chance";

struct ActionFacts {
  std::string kind = kActionMove;  // one of the words above
  // The cells the action touches in board-view ids, in order: from, (every landing), to; the
  // aimed or landed cell for darts; the placed cell for a placement. Empty for a pass.
  std::vector<std::string> cells;
  // After it, the acting seat's turn is over: a Fischer increment is due, the turn counts, and
  // it counts toward a move cap. A dart aim, a placement or a penalty choice are parts of a
  // turn; a chance outcome is nobody's turn.
  bool ends_turn = false;
  // It can never be undone by later moves (a capture, a pawn move, a placement): the
  // no-progress counters restart.
  bool irreversible = false;
};

// How the seat to move writes one kind of action.
struct ActionFormat {
  std::string kind;     // an action kind word ("move", "dart-aim", ...)
  std::string format;   // the exact text form, e.g. "<from>:<to> with cells as q,r"
  std::string meaning;  // one sentence on what it does and when it is owed
};

struct RulesBrief {
  std::string text;                   // the rules of this variant, in a few short paragraphs
  std::vector<ActionFormat> formats;  // every action kind the engine may ask for
};

// --- Board view ----------------------------------------------------------------------------

struct BoardCell {
  std::string id;  // the cell as actions write it ("e4", "3,-2")
  // Centre in layout units, y pointing down, turned so the perspective seat's edge is at the
  // bottom. Square boards: unit squares. Hex boards: pointy-topped hexagons of unit
  // circumradius (x = sqrt(3) (q + r/2), y = 1.5 r in the turned axial frame).
  double x = 0;
  double y = 0;
  int shade = 0;  // the board design's colour class (light/dark, the Chestonia designs' bands)
  // Area games (Go): the seat an empty cell counts for if the board were counted now, or -1.
  int territory = -1;
};

struct BoardPiece {
  std::string cell;     // a BoardCell id
  int seat = 0;         // owner, in the game's seat order
  std::string kind;     // "pawn", "king", "man", "stone", ...
  std::string symbol;   // one letter for text drawings: "K", "N", "M"
  bool frozen = false;  // its army is out of the game and stays as scenery
};

struct BoardView {
  std::string game;   // engine id
  std::string shape;  // "square" or "hex"
  int perspective = 0;
  std::vector<SeatInfo> seats;
  std::vector<BoardCell> cells;
  std::vector<BoardPiece> pieces;
  std::vector<int> frozen_seats;  // seats out of the game whose pieces stay on the board
  int to_move = -1;               // seat, or kChanceSeat / kTerminalSeat
  std::string phase;              // what the seat to move owes
  // Set by whoever knows the history (the game-state service); the engine leaves them empty
  // except a dart aim still in flight.
  std::vector<std::string> last_action_cells;
  std::string dart_aim;
  std::string dart_landing;  // a cell id, or "miss"

  std::string ToJson() const;
  static absl::StatusOr<BoardView> FromJson(const std::string& json);
};

// A plain-text drawing of any board view (no terminal codes), rows from the top of the view:
// each cell is two characters, the owner's initial and the piece symbol (the symbol in lower
// case for a frozen army), ".." when empty (an empty cell counted as a seat's territory shows
// that seat's initial and '.'); hex rows are staggered by half a cell. With
// `coordinates` each row ends with the ids of its first and last cells. Lines after the board
// name the last action's cells, a dart's aim and landing and the frozen armies.
std::string DrawBoardText(const BoardView& view, bool coordinates);

}  // namespace arena::engine
