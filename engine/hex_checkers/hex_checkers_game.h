// Hex checkers for up to six armies behind the engine facade: variants, the state's actions
// as text, seat events and outcomes.
//
// Variant keys: players (2..6, default 2), radius (4..8, default 5), movecap (turns of all
// seats after which the game is drawn, 0 = none, default 0), first (the seat that moves first,
// by letter or index, default the first seat). Seat i of n sits at face round(6 i / n) and is
// named by that face's colour: blue, red, green, white, orange, yellow for faces 0..5 (two
// players blue, white; three blue, green, orange; four blue, green, white, yellow; five blue,
// red, green, orange, yellow). Seats move in seat order, clockwise around the board.
//
// The one action kind is "move": a whole turn, its path q,r:q,r[:q,r...] (every landing of a
// capture chain). Seats with pieces but no legal turn are skipped without an action. What the
// last action did (captured cells, promotion, seats eliminated or skipped) is part of the
// serialization (notation.h); the winner is in the outcome. The board view's cell shades mark
// the centre (1) and each face's army cells (2 + face); its frozen_seats are the seats out, in
// the order they went out (none of their pieces stays). There is no secret, so
// PublicSerialize equals Serialize.
//
// Seat events: resign (the seat's pieces leave the board; the last seat left wins), timeout
// (the turn is forfeited), offer/accept/decline draw (drawn when every seat still in agrees;
// a turn or a decline withdraws the offers).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.h"
#include "engine/hex_checkers/position.h"

namespace arena::engine::hex_checkers {

absl::StatusOr<Rules> RulesFromVariant(const Variant& variant);

class HexCheckersState : public State {
 public:
  explicit HexCheckersState(const Position& pos) : pos_(pos) {}

  std::unique_ptr<State> Clone() const override;
  std::string_view GameId() const override { return "hex-checkers"; }
  int NumSeats() const override { return pos_.rules.players; }
  int ToMove() const override;
  std::string Phase() const override;
  int ActionCount() const override { return pos_.action_count; }
  std::vector<std::string> LegalActions() const override;
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
  Position pos_;
};

class HexCheckersGame : public Game {
 public:
  static const HexCheckersGame& Instance();

  std::string_view Id() const override { return "hex-checkers"; }
  std::string_view DisplayName() const override { return "Hex checkers"; }
  int MinSeats() const override { return kMinSeats; }
  int MaxSeats() const override { return kMaxSeats; }
  std::vector<std::string> VariantKeys() const override;
  std::vector<std::string> ExampleVariants() const override;
  absl::StatusOr<std::unique_ptr<State>> NewInitialState(const Variant& variant) const override;
  absl::StatusOr<std::unique_ptr<State>> Parse(std::string_view text,
                                               const Variant& variant) const override;
};

}  // namespace arena::engine::hex_checkers
