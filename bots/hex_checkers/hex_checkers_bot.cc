// The hex checkers player: level 1 greedy (one ply, forced capture replies resolved), levels 2 and
// up HexCheckersSearcher (alpha-beta for two players; for three or more the algorithm chosen by the
// ladder experiment, docs/bots.md).
#include "absl/strings/str_cat.h"
#include "bots/core/game_bot.h"
#include "bots/hex_checkers/hex_search.h"
#include "engine/hex_checkers/hex_checkers_game.h"
#include "engine/hex_checkers/notation.h"

namespace arena::bots {
namespace {

using engine::hex_checkers::Position;

// The default for three or more seats, by experiment (docs/bots.md, "Hex checkers").
constexpr HexAlgorithm kDefaultMultiAlgorithm = HexAlgorithm::kBestReply;
// Level 1's bound on the capture replies it resolves.
constexpr int64_t kGreedyNodes = 400;

absl::StatusOr<HexAlgorithm> ParseAlgorithm(const std::string& name, int players) {
  if (name.empty()) return players == 2 ? HexAlgorithm::kParanoid : kDefaultMultiAlgorithm;
  if (name == "paranoid" || name == "alphabeta") return HexAlgorithm::kParanoid;
  if (name == "brs") return HexAlgorithm::kBestReply;
  return absl::InvalidArgumentError(absl::StrCat("unknown algorithm '", name, "'"));
}

class HexCheckersBot : public GameBot {
 public:
  std::string_view GameId() const override { return "hex-checkers"; }
  std::vector<std::string> Algorithms() const override { return {"paranoid", "alphabeta", "brs"}; }

  absl::StatusOr<BotAnswer> Choose(const engine::State& state,
                                   const BotRequest& req) const override {
    const Position& pos =
        static_cast<const engine::hex_checkers::HexCheckersState&>(state).position();
    BotAnswer a;
    if (req.level == 1) {
      // Greedy one ply, with the forced captures that answer it resolved (quiescence): plain
      // one-ply greed walks into recaptures and lost to random play with three seats (44%).
      SearchLimits limits = LimitsFor(req, state);
      limits.depth = 1;
      limits.nodes = kGreedyNodes;
      HexCheckersSearcher searcher;
      a.algorithm = "greedy";
      a.result = searcher.Search(pos, HexAlgorithm::kParanoid, limits);
      return a;
    }
    absl::StatusOr<HexAlgorithm> alg = ParseAlgorithm(req.algorithm, pos.rules.players);
    if (!alg.ok()) return alg.status();
    // Four or more seats: the melee terms and greedy passers (docs/bots.md, "Hex checkers").
    HexSearchOptions options;
    if (pos.rules.players >= 4) {
      options.weights = kHexMeleeWeights;
      options.greedy_passers = true;
    }
    HexCheckersSearcher searcher(options);
    a.algorithm = *alg == HexAlgorithm::kBestReply ? "brs"
                  : pos.rules.players == 2         ? "alphabeta"
                                                   : "paranoid";
    a.result = searcher.Search(pos, *alg, LimitsFor(req, state));
    return a;
  }

  std::vector<int> SeatScores(const engine::State& state) const override {
    const Position& pos =
        static_cast<const engine::hex_checkers::HexCheckersState&>(state).position();
    const auto scores = HexCheckersSeatScores(pos, HexCheckersEvalWeights{});
    return std::vector<int>(scores.begin(), scores.begin() + pos.rules.players);
  }
};

}  // namespace

const GameBot& RegisteredBot_hex_checkers() {
  static const HexCheckersBot* bot = new HexCheckersBot();
  return *bot;
}

}  // namespace arena::bots
