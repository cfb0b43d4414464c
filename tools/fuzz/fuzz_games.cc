// Fuzz target for every registered game through the facade (engine/core/game.h): what a user
// or a model can send the game-state service, a position text to start a table from and an
// action text to play, must never crash an engine, and "bad input gets a clear error and
// loses nothing".
//
// Input: a header line "<game-id> <variant|-> <parse|apply> <steps>", then the payload.
//   parse: Game::Parse(payload). What a game accepts must be a state the facade can work
//          with: it serializes to a text that parses back to the same state (same text, hash,
//          seat to move, legal actions), every legal action it lists applies, a seat to move
//          has something to do, a click on a piece that can move offers legal actions, and its
//          board, rendering and descriptions do not fail.
//   apply: the initial state after `steps` (0..80) pseudo-random legal actions, then
//          State::Apply(payload). A refused action leaves the state exactly as it was; an
//          accepted one has the effect of one of the state's legal actions (or chance
//          outcomes) and is one DescribeAction reads — so no text, however mangled, plays an
//          illegal move.
// The corpus (corpus/games) holds both kinds for every game and example variant, from real
// positions and real actions, for the mutations to start from; fuzz_games_corpus
// (games_corpus.cc) writes it.
#include "tools/fuzz/fuzz_games.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "engine/core/game.h"
#include "tools/fuzz/fuzz_check.h"

namespace {

using arena::engine::ChanceOutcome;
using arena::engine::Game;
using arena::engine::kChanceSeat;
using arena::engine::State;
using arena::engine::Variant;

// A position text can be a position where a capture chain has hundreds of thousands of
// routes; the checks look at this many actions at most.
constexpr int kActionLimit = 300;
// An accepted action text is compared with the effects of this many legal actions at most.
constexpr size_t kCompareLimit = 4000;

struct Header {
  std::string game, variant, mode;
  int steps = 0;
};

bool ParseHeader(std::string_view line, Header* h) {
  const std::vector<std::string> words =
      absl::StrSplit(arena::engine::ToAbsl(line), ' ', absl::SkipEmpty());
  if (words.size() != 4 || !absl::SimpleAtoi(words[3], &h->steps)) return false;
  h->game = words[0];
  h->variant = words[1] == "-" ? "" : words[1];
  h->mode = words[2];
  return h->steps >= 0 && h->steps <= arena::fuzz::kMaxPlayedSteps;
}

// The things a serving layer asks of any state; none may fail on a state the game made.
void Describe(const State& state) {
  (void)state.Board(0);
  (void)state.Board(state.NumSeats() - 1);
  (void)state.Render({});
  (void)state.PositionText();
  (void)state.PublicSerialize();
  (void)state.GetOutcome();
  ARENA_FUZZ_CHECK(static_cast<int>(state.Seats().size()) == state.NumSeats());
}

void CheckParsed(const Game& game, const Variant& variant, const State& state) {
  const std::string text = state.Serialize();
  auto again = game.Parse(text, variant);
  ARENA_FUZZ_CHECK(again.ok());
  ARENA_FUZZ_CHECK((*again)->Serialize() == text);
  ARENA_FUZZ_CHECK((*again)->Hash() == state.Hash());
  ARENA_FUZZ_CHECK((*again)->ToMove() == state.ToMove());
  ARENA_FUZZ_CHECK((*again)->IsTerminal() == state.IsTerminal());
  Describe(state);
  const std::vector<std::string> legal = state.BoundedLegalActions(kActionLimit);
  ARENA_FUZZ_CHECK((*again)->BoundedLegalActions(kActionLimit) == legal);
  if (state.IsTerminal()) {
    ARENA_FUZZ_CHECK(legal.empty());
    return;
  }
  if (state.ToMove() == kChanceSeat) {
    const std::vector<ChanceOutcome> outcomes = state.ChanceOutcomes();
    ARENA_FUZZ_CHECK(!outcomes.empty());
    double total = 0;
    for (const ChanceOutcome& o : outcomes) total += o.probability;
    ARENA_FUZZ_CHECK(total > 0.999999 && total < 1.000001);
    std::unique_ptr<State> child = state.Clone();
    ARENA_FUZZ_CHECK(child->Apply(outcomes.front().action).ok());
    return;
  }
  // A seat to move always has something to do (a move, a dart decision, a pass).
  ARENA_FUZZ_CHECK(!legal.empty());
  for (const std::string& action : legal) {
    ARENA_FUZZ_CHECK(state.DescribeAction(action).ok());
    std::unique_ptr<State> child = state.Clone();
    ARENA_FUZZ_CHECK(child->Apply(action).ok());
    Describe(*child);
  }
  // A click on the first action's piece offers actions from that cell, each of them legal.
  const absl::StatusOr<arena::engine::ActionFacts> facts = state.DescribeAction(legal.front());
  if (facts->cells.empty()) return;
  const std::vector<std::string> piece = arena::engine::PieceActions(state, facts->cells.front());
  ARENA_FUZZ_CHECK(!piece.empty());
  for (size_t i = 0; i < piece.size() && i < 20; ++i) {
    ARENA_FUZZ_CHECK(state.Clone()->Apply(piece[i]).ok());
  }
}

}  // namespace

namespace arena::fuzz {

std::unique_ptr<State> PlayedState(std::unique_ptr<State> state, int steps) {
  uint64_t x = 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(steps + 1) | 1;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (int i = 0; i < steps && !state->IsTerminal(); ++i) {
    std::string action;
    if (state->ToMove() == kChanceSeat) {
      const std::vector<ChanceOutcome> outcomes = state->ChanceOutcomes();
      action = outcomes[next() % outcomes.size()].action;
    } else {
      const std::vector<std::string> legal = state->BoundedLegalActions(kActionLimit);
      if (legal.empty()) break;
      action = legal[next() % legal.size()];
    }
    ARENA_FUZZ_CHECK(state->Apply(action).ok());
  }
  return state;
}

}  // namespace arena::fuzz

namespace {

void CheckApply(std::unique_ptr<State> state, std::string_view payload) {
  const std::string before = state->Serialize();
  const uint64_t hash_before = state->Hash();
  std::unique_ptr<State> original = state->Clone();
  // Whatever Apply accepts is logged, and the web edge describes logged actions (replay boards).
  const bool described = original->DescribeAction(payload).ok();
  if (!state->Apply(payload).ok()) {
    ARENA_FUZZ_CHECK(state->Serialize() == before);
    ARENA_FUZZ_CHECK(state->Hash() == hash_before);
    return;
  }
  ARENA_FUZZ_CHECK(described);
  const std::string after = state->Serialize();
  std::vector<std::string> candidates;
  if (original->ToMove() == kChanceSeat) {
    for (const ChanceOutcome& o : original->ChanceOutcomes()) candidates.push_back(o.action);
  } else {
    candidates = original->BoundedLegalActions(static_cast<int>(kCompareLimit) + 1);
  }
  for (const std::string& action : candidates) {
    if (action == payload) return;
  }
  if (candidates.size() > kCompareLimit) return;  // too many routes to compare them all
  for (const std::string& action : candidates) {
    std::unique_ptr<State> child = original->Clone();
    if (child->Apply(action).ok() && child->Serialize() == after) return;
  }
  std::fprintf(stderr, "accepted '%.*s', which is none of the %zu legal actions, in\n%s\n",
               static_cast<int>(payload.size()), payload.data(), candidates.size(), before.c_str());
  ARENA_FUZZ_CHECK(false && "an accepted action text is no legal action");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t eol = input.find('\n');
  if (eol == std::string_view::npos) return 0;
  Header h;
  if (!ParseHeader(input.substr(0, eol), &h)) return 0;
  const std::string_view payload = input.substr(eol + 1);
  const Game* game = arena::engine::FindGame(h.game);
  if (game == nullptr) return 0;
  auto variant = Variant::Parse(h.variant);
  if (!variant.ok()) return 0;
  if (h.mode == "parse") {
    auto state = game->Parse(payload, *variant);
    if (state.ok()) CheckParsed(*game, *variant, **state);
  } else if (h.mode == "apply") {
    auto initial = game->NewInitialState(*variant);
    if (!initial.ok()) return 0;
    CheckApply(arena::fuzz::PlayedState(std::move(*initial), h.steps), payload);
  }
  return 0;
}
