// The seats of `arenactl table create`, as a person types them:
// --seat=model:ID[:KEY_FILE|:donated],
// --seat=bot:LEVEL, --seat=stockfish:ELO, --seat=me, --seat=open. One flag per table seat, in
// table seat order.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace arena::arenactl {

// What one --seat asks for, before it becomes a SeatSpec (which needs the caller's account).
struct SeatArg {
  enum class Kind { kMe, kOpen, kBot, kStockfish, kModel };
  Kind kind = Kind::kOpen;
  int bot_level = 0;         // kBot
  int stockfish_elo = 0;     // kStockfish
  std::string model_id;      // kModel
  std::string own_key_file;  // kModel paid by the player's own key: the file holding it
};

// One --seat value. INVALID_ARGUMENT says what was wrong and which forms exist.
absl::StatusOr<SeatArg> ParseSeatArg(const std::string& text);

// Every --seat of a command line: `--seat=X` and `--seat X`, in order (absl keeps only the
// last of a repeated flag).
std::vector<std::string> RepeatedFlagValues(int argc, char** argv, const std::string& name);

// The --seat values main() found on the command line (RepeatedFlagValues), for the commands.
void RememberSeatFlags(std::vector<std::string> values);
const std::vector<std::string>& SeatFlags();

}  // namespace arena::arenactl
