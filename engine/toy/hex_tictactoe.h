// Hex tic-tac-toe (engine id "hex-tictactoe"): the toy game that keeps the facade honest.
//
// Two seats, cross and nought, take turns placing a stone on an empty cell of a hexagonal
// board of radius `radius` (variant key, 1..4, default 2: 19 cells). The first to hold `line`
// cells in a row along one of the three straight axes wins (variant key, 2..5, default 3); a
// full board without such a line is a draw ("board-full"). Actions are the cell as "q,r".
// Position text: "hex-tictactoe <radius> <line> <stones>" where <stones> lists every cell in
// index order as 'x', 'o' or '.', followed by the outcome word when finished.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/hex/geometry.h"

namespace arena::engine::toy {

class HexTicTacToeState : public State {
 public:
  HexTicTacToeState(int radius, int line);

  std::unique_ptr<State> Clone() const override;
  std::string_view GameId() const override { return "hex-tictactoe"; }
  int NumSeats() const override { return 2; }
  int ToMove() const override;
  std::string Phase() const override;
  int ActionCount() const override { return placed_; }
  std::vector<std::string> LegalActions() const override;
  absl::Status Apply(std::string_view action) override;
  absl::Status ApplySeatEvent(int seat, SeatEvent event) override;
  Outcome GetOutcome() const override { return outcome_; }
  std::string Serialize() const override;
  uint64_t Hash() const override;
  std::string Render(const RenderOptions& options) const override;
  std::vector<SeatInfo> Seats() const override;
  absl::StatusOr<ActionFacts> DescribeAction(std::string_view action) const override;
  RulesBrief Brief() const override;
  BoardView Board(int perspective) const override;

  static absl::StatusOr<std::unique_ptr<HexTicTacToeState>> Parse(std::string_view text);

 private:
  friend class HexTicTacToeGame;
  void CheckEnd(int cell);

  const hex::Grid* grid_;
  int line_;
  std::vector<int8_t> stones_;  // per cell: -1 empty, else the seat
  int placed_ = 0;
  Outcome outcome_;
};

class HexTicTacToeGame : public Game {
 public:
  static const HexTicTacToeGame& Instance();
  std::string_view Id() const override { return "hex-tictactoe"; }
  std::string_view DisplayName() const override { return "Hex tic-tac-toe"; }
  int MinSeats() const override { return 2; }
  int MaxSeats() const override { return 2; }
  std::vector<std::string> VariantKeys() const override { return {"radius", "line"}; }
  std::vector<std::string> ExampleVariants() const override {
    return {"", "radius=3,line=4", "radius=1,line=2"};
  }
  absl::StatusOr<std::unique_ptr<State>> NewInitialState(const Variant& variant) const override;
  absl::StatusOr<std::unique_ptr<State>> Parse(std::string_view text,
                                               const Variant& variant) const override;
};

}  // namespace arena::engine::toy
