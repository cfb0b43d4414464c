// Standard chess behind the engine facade (engine/core/game.h).
//
// ChessState is a game in progress: the start position, the moves played since (UCI), the
// current Position, one repetition key per position reached (for threefold repetition), the
// draw-offer counters and the outcome. Actions are UCI moves; Apply also takes SAN. The game
// ends by itself on checkmate, stalemate, insufficient material, threefold repetition and the
// fifty-move rule, and by seat events on resignation, agreed draw and timeout. docs/rules/
// chess.md gives every interpretation and the serialization format:
//
//   chess1|<start FEN>|<UCI moves, space-separated>|<white offers>,<black offers>,<open>|<end>
//
// where <open> is the seat letter (w/b) with a draw offer standing or '-', and <end> is '-',
// "resign:w|b", "timeout:w|b" or "agreed" (endings that the moves alone do not determine).
// Game::Parse also accepts a bare FEN.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chess/pgn.h"
#include "engine/chess/position.h"
#include "engine/core/game.h"

namespace arena::engine::chess {

inline constexpr int kMaxDrawOffers = 3;

class ChessState : public State {
 public:
  explicit ChessState(const Position& start);

  // --- Facade ---
  std::unique_ptr<State> Clone() const override;
  std::string_view GameId() const override { return "chess"; }
  int NumSeats() const override { return 2; }
  int ToMove() const override;
  std::string Phase() const override;
  int ActionCount() const override { return int(moves_.size()); }
  std::vector<std::string> LegalActions() const override;
  absl::Status Apply(std::string_view action) override;
  absl::Status ApplySeatEvent(int seat, SeatEvent event) override;
  Outcome GetOutcome() const override { return outcome_; }
  std::string Serialize() const override;
  uint64_t Hash() const override;
  std::string Render(const RenderOptions& options) const override;
  std::string PositionText() const override { return pos_.Fen(); }
  std::vector<SeatInfo> Seats() const override;
  absl::StatusOr<ActionFacts> DescribeAction(std::string_view action) const override;
  RulesBrief Brief() const override;
  BoardView Board(int perspective) const override;
  std::string ExportRecord(const RecordInfo& info) const override;
  // The standard perft of the current position (the pure move tree, as in every published
  // perft table: draw rules do not prune it), with the fast generator.
  uint64_t Perft(int depth) const override;
  std::vector<std::pair<std::string, uint64_t>> PerftDivide(int depth) const override;

  // --- Chess specific ---
  const Position& position() const { return pos_; }
  const Position& start_position() const { return start_; }
  const std::vector<Move>& moves() const { return moves_; }
  int draw_offers(int seat) const { return offers_[seat]; }
  // The seat whose draw offer stands, or -1.
  int open_offer() const { return open_offer_; }
  // PGN of the game so far; `clocks` are the mover's remaining seconds after each move.
  std::string ToPgn(std::vector<std::pair<std::string, std::string>> tags,
                    std::vector<std::optional<int64_t>> clocks) const;

  // Parses the serialization above (or a bare FEN).
  static absl::StatusOr<std::unique_ptr<ChessState>> Parse(std::string_view text);

 private:
  void PlayMove(Move m);  // applies a legal move and updates the outcome
  void UpdateOutcome();
  void Finish(Outcome::Kind kind, int winner, std::string reason);

  Position start_;
  Position pos_;
  std::vector<Move> moves_;
  std::vector<uint64_t> repetition_keys_;  // one per position, the start included
  int offers_[2] = {0, 0};
  int open_offer_ = -1;
  std::string end_event_ = "-";  // serialized <end> field
  Outcome outcome_;
};

// The chess entry of the registry: makes ChessStates from nothing, a serialization or a FEN.
class ChessGame : public Game {
 public:
  static const ChessGame& Instance();

  std::string_view Id() const override { return "chess"; }
  std::string_view DisplayName() const override { return "Chess"; }
  int MinSeats() const override { return 2; }
  int MaxSeats() const override { return 2; }
  std::vector<std::string> VariantKeys() const override { return {}; }
  std::vector<std::string> ExampleVariants() const override { return {""}; }
  absl::StatusOr<std::unique_ptr<State>> NewInitialState(const Variant& variant) const override;
  absl::StatusOr<std::unique_ptr<State>> Parse(std::string_view text,
                                               const Variant& variant) const override;
};

}  // namespace arena::engine::chess
