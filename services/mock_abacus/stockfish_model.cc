#include "services/mock_abacus/stockfish_model.h"

#include "absl/strings/numbers.h"
#include "bots/core/game_bot.h"
#include "engine/core/game.h"
#include "gateway/prompt.h"
#include "nlohmann/json.hpp"

namespace arena::mock_abacus {

std::optional<int> StockfishModelElo(const std::string& model_id) {
  static constexpr char kPrefix[] = "mock-stockfish-";
  int elo = 0;
  if (model_id.rfind(kPrefix, 0) != 0 ||
      !absl::SimpleAtoi(model_id.substr(sizeof(kPrefix) - 1), &elo)) {
    return std::nullopt;
  }
  return elo;
}

std::string StockfishModelReply(const std::string& prompt_text, int elo, bool* ok) {
  *ok = false;
  auto found = gateway::FindPromptedPosition(prompt_text);
  // A game with reference-engine levels (chess) only; any other game gets no answer.
  if (!found.ok() || bots::ReferenceEloRange(found->game_id).max == 0) return "";
  auto variant = engine::Variant::Parse(found->variant);
  if (!variant.ok()) return "";
  auto state = engine::FindGame(found->game_id)->Parse(found->position, *variant);
  if (!state.ok()) return "";
  bots::BotRequest req;
  req.seat = (*state)->ToMove();
  req.stockfish_elo = elo;
  auto answer = bots::ChooseBotMoveForState(**state, req);
  if (!answer.ok()) return "";
  *ok = true;
  return nlohmann::json({{"move", answer->result.move},
                         {"reasoning", "The move a Stockfish level would play here."}})
      .dump();
}

}  // namespace arena::mock_abacus
