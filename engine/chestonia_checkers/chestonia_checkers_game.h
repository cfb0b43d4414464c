// Chestonia checkers behind the engine facade: variants, the state's actions as text, chance
// nodes for the dart round and the landing, seat events and outcomes.
//
// Variant keys: players (2|3, default 2), setup (normal|long, default normal), board
// (plain|alternating|circles|target, default plain), darts (on|off; default on for circles and
// target, off otherwise), reverse (on|off, default off), movecap (moves, 0 = none, default 0),
// first (seat letter or index of the seat that leads, default the first seat). Seats are blue,
// white (two players) or blue, black, white (three), in clockwise order.
//
// Actions by phase: "move" a whole turn, its path q,r:q,r[:q,r...] (every landing of a capture
// chain); "dart-aim" aim q,r; "placement" place <K|M> q,r or skip; "penalty" penalty q,r;
// chance: dart-round / no-dart-round, land q,r / land miss. The state holds no secret (the dart
// schedule is a chance event), so PublicSerialize equals Serialize.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chestonia_checkers/position.h"
#include "engine/core/game.h"

namespace arena::engine::chestonia_checkers {

absl::StatusOr<Rules> RulesFromVariant(const Variant& variant);

class ChestoniaCheckersState : public State {
 public:
  explicit ChestoniaCheckersState(const Position& pos) : pos_(pos) {}

  std::unique_ptr<State> Clone() const override;
  std::string_view GameId() const override { return "chestonia-checkers"; }
  int NumSeats() const override { return pos_.rules.players; }
  int ToMove() const override;
  std::string Phase() const override;
  int ActionCount() const override { return pos_.action_count; }
  std::vector<std::string> LegalActions() const override;
  // Turns from GenerateTurns with `limit` chain points per piece, the first `limit` kept.
  std::vector<std::string> BoundedLegalActions(int limit) const override;
  // The turns of the piece on `cell` from GenerateTurns with `limit` chain points per piece.
  std::vector<std::string> BoundedPieceActions(std::string_view cell, int limit) const override;
  std::vector<ChanceOutcome> ChanceOutcomes() const override;
  absl::Status Apply(std::string_view action) override;
  absl::Status ApplySeatEvent(int seat, SeatEvent event) override;
  Outcome GetOutcome() const override;
  std::string Serialize() const override;
  uint64_t Hash() const override;
  std::string Render(const RenderOptions& options) const override;
  uint64_t Perft(int depth) const override;
  std::vector<SeatInfo> Seats() const override;
  absl::StatusOr<ActionFacts> DescribeAction(std::string_view action) const override;
  RulesBrief Brief() const override;
  BoardView Board(int perspective) const override;

  const Position& position() const { return pos_; }

 private:
  // Apply's two halves: an action of a dart phase (engine/hex/dart_round.h) and a move. Each
  // checks the action against pos_ and applies it to `next`, a copy of pos_.
  absl::Status ApplyDartText(std::string_view action, Position& next) const;
  absl::Status ApplyMoveText(std::string_view action, Position& next) const;

  Position pos_;
};

class ChestoniaCheckersGame : public Game {
 public:
  static const ChestoniaCheckersGame& Instance();

  std::string_view Id() const override { return "chestonia-checkers"; }
  std::string_view DisplayName() const override { return "Chestonia checkers"; }
  int MinSeats() const override { return 2; }
  int MaxSeats() const override { return 3; }
  std::vector<std::string> VariantKeys() const override;
  std::vector<std::string> ExampleVariants() const override;
  absl::StatusOr<std::unique_ptr<State>> NewInitialState(const Variant& variant) const override;
  absl::StatusOr<std::unique_ptr<State>> Parse(std::string_view text,
                                               const Variant& variant) const override;
};

}  // namespace arena::engine::chestonia_checkers
