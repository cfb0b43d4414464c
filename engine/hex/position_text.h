// Reading and writing the one-line position texts of the hex games: "<game word> key=value
// key=value ...", with the fields every Chestonia game writes alike (the rules, the seat
// fields, the dart counters and the result), so their texts and their errors read the same.
//
// Parse accepts the fields in any order and lets the caller fall back on defaults for missing
// ones; every error is INVALID_ARGUMENT "position text: <what>". What a game's own fields mean
// (pieces, stones, counters) stays in the game's notation.cc.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/hex/chestonia_rules.h"
#include "engine/hex/dart_round.h"
#include "engine/hex/geometry.h"

namespace arena::engine::hex {

// INVALID_ARGUMENT "position text: <what>".
absl::Status BadPositionText(std::string_view what);
// `value` read as an integer in lo..hi for field `key`.
absl::StatusOr<int> PositionInt(const std::string& value, std::string_view key, int lo, int hi);

class PositionFields {
 public:
  // The fields of `text`, which must start with `word`; every other word is key=value with a
  // key in `keys`, each key at most once.
  static absl::StatusOr<PositionFields> Parse(std::string_view text, std::string_view word,
                                              const std::vector<std::string>& keys);

  std::string Get(const std::string& key, const std::string& fallback) const;
  // on|off.
  absl::StatusOr<bool> OnOff(const std::string& key, bool fallback) const;
  // An integer in lo..hi.
  absl::StatusOr<int> Int(const std::string& key, int fallback, int lo, int hi) const;
  // A Chestonia seat letter of a game of `players`.
  absl::StatusOr<int> Seat(const std::string& key, int players, int fallback) const;

  // players (2..3), board, darts, reverse, movecap and first, each defaulting to `defaults`'s.
  absl::StatusOr<ChestoniaOptions> Rules(const ChestoniaOptions& defaults) const;
  // rounds, dartround, aim (a cell of `grid` or -) and reward; a dart round under way has
  // rounds=0 (DartRound::StartRound). With darts off the schedule does not run, so the fields
  // are checked and then read as their start values: a game whose host turns darts off
  // mid-game (services/game_state/variant_change.h) ends any dart round under way there, and
  // counts rounds afresh if they come back on.
  absl::StatusOr<DartRound> Dart(const Grid& grid, bool darts_on) const;

 private:
  std::map<std::string, std::string> fields_;
};

// The rules fields in the order every Chestonia text writes them: "players=2 board=plain
// darts=off reverse=off movecap=0 first=b"; `after_players` (" setup=normal") goes after the
// players field.
std::string RulesText(const ChestoniaOptions& rules, std::string_view after_players = "");

// --- The result ------------------------------------------------------------------------------
// The result field: "-" while the game goes on, "draw:<reason>" or "win:<seat letter>:<reason>".
std::string ResultText(bool over, bool draw, int winner, int players, std::string_view reason);

struct GameResult {
  bool draw = false;
  int winner = -1;
  int reason = 0;  // the game's EndReason as an integer, 1..last_reason
};
// Reads a result field written by ResultText (over); `reason_name(r)` names the game's reason r.
absl::StatusOr<GameResult> ParseResult(const std::string& result, int players, int last_reason,
                                       const std::function<std::string_view(int)>& reason_name);

// --- The phase -------------------------------------------------------------------------------
// The phase word a text is read with under rules whose darts are `darts_on`. With darts off a
// round chance (at a round boundary) and an aim (a seat's dart business not begun) owe
// nothing: the first reads as "start" (the next seat's turn begins) and the second as "move"
// (the seat's turn has begun). That is where a host's mid-game "darts off" lands between turns
// (services/game_state/variant_change.h). Any other word is returned as it is.
std::string PhaseWord(const std::string& word, bool darts_on);
// What phase=<word> owes when it is not start or over; "unknown phase" otherwise.
absl::StatusOr<TurnPhase> ParseOwedPhase(const std::string& word);
// The checks every Chestonia text with an owed dart phase passes: the seat to act is still in
// (unless the round chance is owed), a round chance is due (rounds at least
// kMinRoundsBeforeDart, no dart round under way), a landing has its aim, a placement its reward
// (when `placement_needs_reward`), and darts are on.
absl::Status CheckOwedPhase(TurnPhase phase, const DartRound& dart, bool turn_active, bool darts_on,
                            bool placement_needs_reward = true);

}  // namespace arena::engine::hex
