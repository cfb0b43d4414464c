#include "tools/arenactl/seat_arg.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace arena::arenactl {
namespace {

constexpr char kForms[] =
    "a seat is one of me, open, bot:LEVEL, stockfish:ELO, model:MODEL_ID, "
    "model:MODEL_ID:donated or model:MODEL_ID:KEY_FILE";

absl::Status Bad(const std::string& text, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat("--seat=", text, ": ", why));
}

}  // namespace

absl::StatusOr<SeatArg> ParseSeatArg(const std::string& text) {
  SeatArg seat;
  if (text == "me") {
    seat.kind = SeatArg::Kind::kMe;
    return seat;
  }
  if (text == "open") {
    seat.kind = SeatArg::Kind::kOpen;
    return seat;
  }
  const size_t colon = text.find(':');
  const std::string head = text.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (head == "bot") {
    // The level's range depends on the game and its seat count: arena checks it.
    if (!absl::SimpleAtoi(rest, &seat.bot_level) || seat.bot_level < 0) {
      return Bad(text, "bot:LEVEL takes a level number, e.g. bot:3");
    }
    seat.kind = SeatArg::Kind::kBot;
    return seat;
  }
  if (head == "stockfish") {
    if (!absl::SimpleAtoi(rest, &seat.stockfish_elo) || seat.stockfish_elo <= 0) {
      return Bad(text, "stockfish:ELO takes a UCI_Elo, e.g. stockfish:1500");
    }
    seat.kind = SeatArg::Kind::kStockfish;
    return seat;
  }
  if (head == "model") {
    const size_t second = rest.find(':');
    seat.kind = SeatArg::Kind::kModel;
    seat.model_id = rest.substr(0, second);
    if (seat.model_id.empty()) {
      return Bad(text, "model:MODEL_ID names a model (`arenactl models` lists them)");
    }
    if (second != std::string::npos) {
      const std::string funding = rest.substr(second + 1);
      if (funding.empty()) {
        return Bad(text, "after the model id comes :donated or :KEY_FILE (your own key's file)");
      }
      if (funding != "donated") seat.own_key_file = funding;
    }
    return seat;
  }
  return Bad(text, kForms);
}

std::vector<std::string> RepeatedFlagValues(int argc, char** argv, const std::string& name) {
  std::vector<std::string> values;
  const std::string eq = "--" + name + "=";
  const std::string bare = "--" + name;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.rfind(eq, 0) == 0) {
      values.push_back(arg.substr(eq.size()));
    } else if (arg == bare && i + 1 < argc) {
      values.push_back(argv[++i]);
    }
  }
  return values;
}

namespace {
std::vector<std::string>& SeatFlagStore() {
  static auto* values = new std::vector<std::string>;
  return *values;
}
}  // namespace

void RememberSeatFlags(std::vector<std::string> values) {
  SeatFlagStore() = std::move(values);
}

const std::vector<std::string>& SeatFlags() {
  return SeatFlagStore();
}

}  // namespace arena::arenactl
