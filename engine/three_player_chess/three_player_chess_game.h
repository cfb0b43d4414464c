// Three-player chess behind the engine facade: the 96-cell board of three segments, with the
// mated army passing to the player who mated it.
//
// No variant keys. Seats are white, black, red (0, 1, 2), moving in that order; a seat that is
// out, or has no legal move and is not in check, is skipped. The only action is a move in long
// form ("E2E4", "D7D8=Q", castling as the king's move "E1G1"); LegalActions lists them sorted.
// Seat events: resign (any seat still in) and timeout (the seat to move) take that player's
// armies off the board and the game goes on without it; offer-draw from the seat to move
// claims a threefold repetition (FAILED_PRECONDITION unless the position has occurred three
// times with the same player to move); there are no draws by agreement.
// Serialize is "three-player-chess1|<start position text>|<actions and events>", replayed by
// Parse, which also accepts a bare position text (notation.h). Nothing is secret.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.h"
#include "engine/three_player_chess/position.h"

namespace arena::engine::three_player_chess {

class ThreePlayerChessState : public State {
 public:
  explicit ThreePlayerChessState(const Position& start);

  std::unique_ptr<State> Clone() const override;
  std::string_view GameId() const override { return "three-player-chess"; }
  int NumSeats() const override { return kNumColours; }
  int ToMove() const override;
  std::string Phase() const override;
  int ActionCount() const override { return static_cast<int>(moves_.size()); }
  std::vector<std::string> LegalActions() const override;
  absl::Status Apply(std::string_view action) override;
  absl::Status ApplySeatEvent(int seat, SeatEvent event) override;
  Outcome GetOutcome() const override;
  std::string Serialize() const override;
  uint64_t Hash() const override;
  std::string Render(const RenderOptions& options) const override;
  std::string PositionText() const override;
  uint64_t Perft(int depth) const override;
  std::vector<SeatInfo> Seats() const override;
  absl::StatusOr<ActionFacts> DescribeAction(std::string_view action) const override;
  RulesBrief Brief() const override;
  BoardView Board(int perspective) const override;

  const Position& position() const { return pos_; }
  // How often the current position (placement, owners, turn, rights) has occurred.
  int RepetitionCount() const;

 private:
  Position start_;
  Position pos_;
  std::vector<std::string> log_;      // moves and seat events, as Serialize writes them
  std::vector<int> moves_;            // index into log_ of each move
  std::vector<uint64_t> repetition_;  // Key() after each move, the start's first
};

class ThreePlayerChessGame : public Game {
 public:
  static const ThreePlayerChessGame& Instance();

  std::string_view Id() const override { return "three-player-chess"; }
  std::string_view DisplayName() const override { return "Three-player chess"; }
  int MinSeats() const override { return 3; }
  int MaxSeats() const override { return 3; }
  std::vector<std::string> VariantKeys() const override { return {}; }
  absl::StatusOr<std::unique_ptr<State>> NewInitialState(const Variant& variant) const override;
  absl::StatusOr<std::unique_ptr<State>> Parse(std::string_view text,
                                               const Variant& variant) const override;
};

}  // namespace arena::engine::three_player_chess
