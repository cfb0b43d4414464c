// The engine facade: one small, type-erased API over every game the arena serves.
//
// A Game makes States. A State knows whose turn it is, what that seat owes (a move, a dart
// aim, a placement, a penalty choice), the legal actions as canonical text, how to apply one
// (re-validating it, leaving the state untouched on error), the outcome, a text serialization
// that round-trips, a hash, and a text rendering. Services talk to games only through this
// facade; bots use each game's concrete state type directly for speed.
//
// Random events are inputs. When a state is a chance node (ToMove() == kChanceSeat) its
// ChanceOutcomes() lists every outcome with its probability, and the caller (the game-state
// service, a test, a bot's expectation) picks one and applies it like any other action. The
// engine owns no random source and no clock, so every game replays exactly from its log.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/core/board_view.h"

namespace arena::engine {

// Seats are numbered 0..NumSeats()-1 in the game's own seat order (for hex games: blue,
// black, white for three players; blue, white for two). Two pseudo-seats mark chance nodes
// and finished games.
inline constexpr int kChanceSeat = -1;
inline constexpr int kTerminalSeat = -2;

// Variant options as parsed from "players=3,board=plain,darts=on". Keys and values are
// lower-case words; every game documents the keys it accepts and refuses unknown ones.
class Variant {
 public:
  Variant() = default;
  static absl::StatusOr<Variant> Parse(std::string_view text);

  bool Has(std::string_view key) const;
  std::string Get(std::string_view key, std::string_view fallback) const;
  absl::StatusOr<int> GetInt(std::string_view key, int fallback) const;
  // Accepts on/off, true/false, yes/no, 1/0.
  absl::StatusOr<bool> GetBool(std::string_view key, bool fallback) const;
  void Set(std::string_view key, std::string_view value);
  // Returns INVALID_ARGUMENT naming the first key not in `allowed`.
  absl::Status CheckKeys(const std::vector<std::string>& allowed) const;
  // Canonical text: keys sorted, "k=v" joined by commas.
  std::string ToString() const;
  const std::map<std::string, std::string, std::less<>>& options() const { return options_; }

 private:
  std::map<std::string, std::string, std::less<>> options_;
};

// How a finished game ended. `ranks` gives each seat's finishing place (0 = best); seats that
// share a place drew with each other. `reason` is a short machine word ("checkmate",
// "stalemate", "threefold-repetition", "fifty-move", "insufficient-material", "resignation",
// "agreed-draw", "timeout", "no-progress", "perpetual-check", "move-cap", "last-player",
// "no-legal-move", ...). `winners` lists the seats with rank 0 unless it is a draw.
struct Outcome {
  enum class Kind { kOngoing, kWin, kDraw };
  Kind kind = Kind::kOngoing;
  std::vector<int> winners;
  std::vector<int> ranks;
  std::string reason;

  bool finished() const { return kind != Kind::kOngoing; }
  // "ongoing", "1-0", "0-1", "1/2-1/2" for two seats; "win:<seats>" or "draw" otherwise.
  std::string ResultText() const;
};

// What a seat may do outside the normal turn order: concede, negotiate a draw, or be told by
// the server's clock that its time ran out.
enum class SeatEvent {
  kResign,
  kOfferDraw,
  kAcceptDraw,
  kDeclineDraw,
  kTimeout,
};
std::string_view SeatEventName(SeatEvent event);

struct ChanceOutcome {
  std::string action;  // canonical text, applied with State::Apply
  double probability = 0.0;
};

// What a record export is given besides the moves: header tags, the mover's remaining seconds
// after each move (nullopt without a clock), a comment per move (a model's stated reasoning;
// empty for none), and the result when the service, not the engine, ended the game (a move
// cap), in the record's own notation.
struct RecordInfo {
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<std::optional<int64_t>> clocks;
  std::optional<std::string> result;
  std::vector<std::string> comments;
};

struct RenderOptions {
  bool coordinates = false;  // label cells / files and ranks
  int perspective = 0;       // the seat whose edge is drawn nearest the viewer
};

class State {
 public:
  virtual ~State() = default;

  virtual std::unique_ptr<State> Clone() const = 0;
  virtual std::string_view GameId() const = 0;
  virtual int NumSeats() const = 0;

  // The seat that must act now, kChanceSeat at a chance node, kTerminalSeat when finished.
  virtual int ToMove() const = 0;
  // What the seat to move owes: "move", "dart-aim", "placement", "penalty", or for chance
  // nodes "chance"; "finished" when the game is over. Games may add their own words.
  virtual std::string Phase() const = 0;
  // Number of actions applied so far (chance outcomes included); the action number a
  // service expects next.
  virtual int ActionCount() const = 0;

  // Legal actions of the seat to move, in canonical text, sorted in a stable order.
  // Empty at chance nodes and when finished.
  virtual std::vector<std::string> LegalActions() const = 0;
  // At most `limit` (> 0) legal actions of the decision owed, sorted: all of LegalActions()
  // when a game knows they are few, else legal ones the game finds first. For callers that must
  // stay bounded in any position (random players, MCTS); a game whose turns can number in the
  // hundreds of thousands (Chestonia checkers) overrides it. Default: LegalActions(), cut.
  virtual std::vector<std::string> BoundedLegalActions(int limit) const;
  // At most `limit` (> 0) legal actions whose first touched cell (DescribeAction's cells) is
  // `cell`, sorted: beginner highlighting and a click on the board, bounded in any position
  // whatever the other pieces could do. Default: LegalActions() filtered; a game whose turns
  // can number in the hundreds of thousands overrides it.
  virtual std::vector<std::string> BoundedPieceActions(std::string_view cell, int limit) const;
  // Outcomes of a chance node with their probabilities (summing to 1); empty otherwise.
  virtual std::vector<ChanceOutcome> ChanceOutcomes() const { return {}; }

  // Applies one action in canonical (or, where a game accepts it, alternative) text.
  // INVALID_ARGUMENT for text that does not parse, FAILED_PRECONDITION for a well-formed
  // action that is not legal here. On error the state is unchanged.
  virtual absl::Status Apply(std::string_view action) = 0;
  // Resignation, draw offers and clock expiry. Same error contract as Apply.
  virtual absl::Status ApplySeatEvent(int seat, SeatEvent event) = 0;

  virtual Outcome GetOutcome() const = 0;
  bool IsTerminal() const { return GetOutcome().finished(); }

  // Full serialization, secrets included (what the service stores); Parse round-trips it.
  virtual std::string Serialize() const = 0;
  // What players, models and bots may see: the serialization with any secret (such as a
  // pre-drawn dart schedule) removed. Defaults to Serialize().
  virtual std::string PublicSerialize() const { return Serialize(); }
  virtual uint64_t Hash() const = 0;
  virtual std::string Render(const RenderOptions& options) const = 0;
  // The current position alone in the game's own notation (FEN for chess), for tools and
  // logs. Defaults to PublicSerialize().
  virtual std::string PositionText() const { return PublicSerialize(); }

  // --- What the game tells the layers above it (engine/core/board_view.h) ---
  // Every seat's name and colour, in seat order.
  virtual std::vector<SeatInfo> Seats() const = 0;
  // What `action` (canonical text) would be if applied to this state: its kind, the cells it
  // touches, whether it ends the acting seat's turn and whether it is irreversible.
  // INVALID_ARGUMENT for text that does not parse; it need not be legal here.
  virtual absl::StatusOr<ActionFacts> DescribeAction(std::string_view action) const = 0;
  // The rules of this state's variant and the format of every action, for prompts.
  virtual RulesBrief Brief() const = 0;
  // The position as a board view turned to `perspective`'s edge (0 when out of range).
  virtual BoardView Board(int perspective) const = 0;
  // The game so far in its community's standard record format (PGN for chess), or "" when the
  // game has none (the event log is its record).
  virtual std::string ExportRecord(const RecordInfo& info) const { return ""; }

  // Leaf count of the move tree to `depth` plies (chance nodes are not expanded; games
  // document how perft treats them). The default walks the facade; games override it with
  // their fast generator.
  virtual uint64_t Perft(int depth) const;
  // Per-first-action counts at `depth` (depth >= 1), in LegalActions() order.
  virtual std::vector<std::pair<std::string, uint64_t>> PerftDivide(int depth) const;
};

class Game {
 public:
  virtual ~Game() = default;
  virtual std::string_view Id() const = 0;  // the name of the game everywhere (lowercase, -)
  virtual std::string_view DisplayName() const = 0;
  virtual int MinSeats() const = 0;
  virtual int MaxSeats() const = 0;
  // The variant keys this game accepts, for help texts and validation.
  virtual std::vector<std::string> VariantKeys() const = 0;
  // Variants that together exercise every rule switch; the generic tests play each of them.
  virtual std::vector<std::string> ExampleVariants() const { return {""}; }

  virtual absl::StatusOr<std::unique_ptr<State>> NewInitialState(const Variant& variant) const = 0;
  // Parses a Serialize()d state (or the game's own position notation, e.g. FEN for chess).
  virtual absl::StatusOr<std::unique_ptr<State>> Parse(std::string_view text,
                                                       const Variant& variant) const = 0;
};

// The legal actions that move the piece on `cell` (beginner highlighting, a click on the
// board): those whose first touched cell is `cell`, at most kMaxPieceActions of them
// (State::BoundedPieceActions).
inline constexpr int kMaxPieceActions = 4096;
std::vector<std::string> PieceActions(const State& state, std::string_view cell);

// --- Registry ---------------------------------------------------------------------------
// Every game the engine knows, for services and tools, generated from the ARENA_GAMES list in
// engine/CMakeLists.txt: the folder engine/<name>/ defines the library arena_game_<name> and
// the function `const Game& RegisteredGame_<name>()` (docs/architecture.md, "Adding a game").
const Game* FindGame(std::string_view id);
std::vector<const Game*> AllGames();

// absl in Debian 12 has its own string_view; these convert explicitly at the boundary.
inline std::string_view ToStd(absl::string_view s) {
  return {s.data(), s.size()};
}
inline absl::string_view ToAbsl(std::string_view s) {
  return {s.data(), s.size()};
}

}  // namespace arena::engine
