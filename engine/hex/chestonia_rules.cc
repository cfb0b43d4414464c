#include "engine/hex/chestonia_rules.h"

#include "absl/strings/str_cat.h"
#include "engine/hex/dart.h"

namespace arena::engine::hex {

// --- Seats ---------------------------------------------------------------------------------

char SeatLetter(int players, int seat) {
  if (players == 2) return seat == 0 ? 'b' : 'w';
  return "bkw"[seat];
}

int SeatFromLetter(int players, char letter) {
  for (int s = 0; s < players; ++s) {
    if (SeatLetter(players, s) == letter) return s;
  }
  return -1;
}

std::string_view SeatColour(int players, int seat) {
  if (players == 2) return seat == 0 ? "blue" : "white";
  static constexpr std::string_view kNames[3] = {"blue", "black", "white"};
  return kNames[seat];
}

std::vector<SeatInfo> SeatInfos(int players) {
  std::vector<SeatInfo> seats;
  for (int s = 0; s < players; ++s) {
    const std::string_view name = SeatColour(players, s);
    const char* colour = name == "blue" ? "#2f6fd0" : name == "black" ? "#26221e" : "#f4f1e8";
    seats.push_back({std::string(name), colour});
  }
  return seats;
}

std::string SeatList(const std::vector<SeatInfo>& seats) {
  std::string list;
  for (const SeatInfo& s : seats) absl::StrAppend(&list, list.empty() ? "" : ", ", s.name);
  return list;
}

// --- Board designs -------------------------------------------------------------------------

namespace {

constexpr BoardKind kBoardKinds[] = {BoardKind::kAlternating, BoardKind::kPlain,
                                     BoardKind::kCircles, BoardKind::kTarget};

}  // namespace

std::string_view BoardKindName(BoardKind board) {
  switch (board) {
    case BoardKind::kAlternating:
      return "alternating";
    case BoardKind::kPlain:
      return "plain";
    case BoardKind::kCircles:
      return "circles";
    case BoardKind::kTarget:
      return "target";
  }
  return "?";
}

int CellShade(BoardKind board, const Grid& grid, int cell) {
  const Axial a = grid.At(cell);
  switch (board) {
    case BoardKind::kAlternating:
      return ((a.q - a.r) % 3 + 3) % 3;
    case BoardKind::kPlain:
      return 0;
    case BoardKind::kCircles:
      return DartZone(RingOf(a));
    case BoardKind::kTarget:
      return RingOf(a);
  }
  return 0;
}

// --- Variant keys --------------------------------------------------------------------------

absl::StatusOr<int> ParseFirstSeat(const Variant& variant, int players,
                                   int (*seat_from_letter)(int players, char letter)) {
  const std::string first = variant.Get("first", "0");
  int seat = -1;
  if (first.size() == 1 && first[0] >= '0' && first[0] < '0' + players) {
    seat = first[0] - '0';
  } else if (first.size() == 1) {
    seat = seat_from_letter(players, first[0]);
  }
  if (seat < 0) return absl::InvalidArgumentError(absl::StrCat("first=", first, " is no seat"));
  return seat;
}

absl::StatusOr<int> ParseMoveCap(const Variant& variant) {
  absl::StatusOr<int> movecap = variant.GetInt("movecap", 0);
  if (!movecap.ok()) return movecap.status();
  if (*movecap < 0) return absl::InvalidArgumentError("movecap must be 0 (none) or positive");
  return *movecap;
}

absl::StatusOr<ChestoniaOptions> ParseChestoniaOptions(const Variant& variant,
                                                       const std::vector<std::string>& keys,
                                                       BoardKind default_board) {
  absl::Status known = variant.CheckKeys(keys);
  if (!known.ok()) return known;
  ChestoniaOptions options;
  absl::StatusOr<int> players = variant.GetInt("players", 2);
  if (!players.ok()) return players.status();
  if (*players != 2 && *players != 3) return absl::InvalidArgumentError("players must be 2 or 3");
  options.players = *players;
  const std::string board = variant.Get("board", BoardKindName(default_board));
  bool board_ok = false;
  // The error lists the default design first, then the others.
  std::string names(BoardKindName(default_board));
  int listed = 1;
  for (BoardKind b : kBoardKinds) {
    if (BoardKindName(b) == board) {
      options.board = b;
      board_ok = true;
    }
    if (b == default_board) continue;
    absl::StrAppend(&names, ++listed == 4 ? " or " : ", ", ToAbsl(BoardKindName(b)));
  }
  if (!board_ok) {
    return absl::InvalidArgumentError(absl::StrCat("board must be ", names, ", got ", board));
  }
  const bool dart_board =
      options.board == BoardKind::kCircles || options.board == BoardKind::kTarget;
  absl::StatusOr<bool> darts = variant.GetBool("darts", dart_board);
  if (!darts.ok()) return darts.status();
  absl::StatusOr<bool> reverse = variant.GetBool("reverse", false);
  if (!reverse.ok()) return reverse.status();
  absl::StatusOr<int> movecap = ParseMoveCap(variant);
  if (!movecap.ok()) return movecap.status();
  options.darts = *darts;
  options.reverse = *reverse;
  options.movecap = *movecap;
  absl::StatusOr<int> first = ParseFirstSeat(variant, options.players, &SeatFromLetter);
  if (!first.ok()) return first.status();
  options.first = *first;
  return options;
}

}  // namespace arena::engine::hex
