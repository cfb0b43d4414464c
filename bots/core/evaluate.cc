#include "bots/core/evaluate.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "bots/core/levels.h"

namespace arena::bots {

namespace {

using engine::State;

// Values beyond this are won or lost games, whatever the game's own scale for them.
constexpr int kDecided = 30000;
// The default evaluation: the game's top level, at no more nodes than this (a few tens of
// milliseconds of a core in most games, so a turn's judgement never holds a table up).
constexpr int64_t kEvaluationNodes = 81'000;

int Clamp(int cp) {
  return std::clamp(cp, -kDecided, kDecided);
}

struct ChildValue {
  int cp = 0;
  int64_t nodes = 0;
  bool stopped = false;
};

// The value of `child` (the position after one of `seat`'s moves) from `seat`'s side, or nullopt
// when it is a chance node.
absl::StatusOr<std::optional<ChildValue>> ValueOf(const State& child, const BotRequest& request,
                                                  int seat) {
  if (child.IsTerminal()) {
    const engine::Outcome o = child.GetOutcome();
    ChildValue v;
    if (o.kind == engine::Outcome::Kind::kWin) {
      const bool won = std::find(o.winners.begin(), o.winners.end(), seat) != o.winners.end();
      v.cp = won ? kDecided : -kDecided;
    }
    return std::optional<ChildValue>(v);
  }
  if (child.ToMove() == engine::kChanceSeat) return std::optional<ChildValue>();
  BotRequest ask = request;
  ask.seat = child.ToMove();
  absl::StatusOr<BotAnswer> answer = ChooseBotMoveForState(child, ask);
  if (!answer.ok()) return answer.status();
  ChildValue v;
  v.cp = Clamp(answer->result.score);
  if (ask.seat != seat) v.cp = -v.cp;
  v.nodes = answer->result.nodes;
  v.stopped = answer->result.stopped;
  return std::optional<ChildValue>(v);
}

}  // namespace

double WinShare(int cp) {
  // 50 + 50 * (2 / (1 + e^(-k cp)) - 1), k chosen so that +200 gives about 68.
  constexpr double k = 0.00368;
  return 100.0 / (1.0 + std::exp(-k * double(Clamp(cp))));
}

std::string_view MarkOf(double share_lost) {
  if (share_lost >= kBlunderShare) return "blunder";
  if (share_lost >= kMistakeShare) return "mistake";
  if (share_lost >= kInaccuracyShare) return "inaccuracy";
  return "";
}

absl::StatusOr<MoveEvaluation> EvaluateMoveForState(const State& state, const BotRequest& request,
                                                    std::string_view move) {
  BotRequest req = request;
  if (req.level <= 0) {  // the evaluator's default: the top level, within kEvaluationNodes
    req.level = MaxLevel(state.GameId(), state.NumSeats());
    if (req.node_budget <= 0) {
      req.node_budget =
          std::min(kEvaluationNodes, LevelNodeBudget(state.GameId(), req.level, state.NumSeats()));
    }
  }
  absl::StatusOr<BotAnswer> best = ChooseBotMoveForState(state, req);
  if (!best.ok()) return best.status();
  std::unique_ptr<State> played = state.Clone();
  if (absl::Status s = played->Apply(move); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("the move ", engine::ToAbsl(move), " is not legal here: ", s.message()));
  }
  std::unique_ptr<State> after_best = state.Clone();
  if (absl::Status s = after_best->Apply(best->result.move); !s.ok()) {
    return absl::InternalError(absl::StrCat("the search's own move was refused: ", s.message()));
  }
  MoveEvaluation e;
  e.best_move = best->result.move;
  // The same move, however it was written (a game may accept other spellings than its own).
  e.matched = best->result.move == move || after_best->Serialize() == played->Serialize();
  e.algorithm = best->algorithm;
  e.depth = best->result.depth;
  e.nodes = best->result.nodes;
  e.stopped = best->result.stopped;
  if (state.NumSeats() != 2) return e;

  absl::StatusOr<std::optional<ChildValue>> played_value = ValueOf(*played, req, req.seat);
  if (!played_value.ok()) return played_value.status();
  std::optional<ChildValue> best_value = *played_value;
  if (!e.matched) {
    absl::StatusOr<std::optional<ChildValue>> v = ValueOf(*after_best, req, req.seat);
    if (!v.ok()) return v.status();
    best_value = *v;
  }
  if (!played_value->has_value() || !best_value.has_value()) return e;  // a chance event next
  const ChildValue& p = **played_value;
  e.nodes += p.nodes + (e.matched ? 0 : best_value->nodes);
  e.stopped = e.stopped || p.stopped || best_value->stopped;
  e.has_loss = true;
  e.played_cp = p.cp;
  // The played move can come out better than the search's choice (a deeper look at it): then
  // it is the best there is, and loses nothing.
  e.best_cp = std::max(best_value->cp, p.cp);
  e.loss_cp = e.best_cp - e.played_cp;
  e.share_lost = std::max(0.0, WinShare(e.best_cp) - WinShare(e.played_cp));
  e.mark = std::string(MarkOf(e.share_lost));
  return e;
}

absl::StatusOr<MoveEvaluation> EvaluateMove(const BotRequest& request, std::string_view move) {
  const engine::Game* game = engine::FindGame(request.game);
  if (game == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("unknown game '", request.game, "'"));
  }
  absl::StatusOr<engine::Variant> variant = engine::Variant::Parse(request.variant);
  if (!variant.ok()) return absl::InvalidArgumentError(variant.status().message());
  absl::StatusOr<std::unique_ptr<State>> state = game->Parse(request.position, *variant);
  if (!state.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("position: ", state.status().message()));
  }
  return EvaluateMoveForState(**state, request, move);
}

}  // namespace arena::bots
