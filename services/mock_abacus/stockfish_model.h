// Mock models of known strength (issue 19): "mock-stockfish-<elo>" answers every chess prompt
// with the move Stockfish 15.1 chooses at UCI_LimitStrength / UCI_Elo <elo> and 100 ms a move —
// what arena-bot's `stockfish:<elo>` seat plays (bots/chess/stockfish_player.h). Its true rating on
// the Stockfish-anchored chess leaderboard is therefore <elo>, which a league can check it finds.
// Kept apart from the catalogue's other behaviours; other games get no move.
#pragma once

#include <optional>
#include <string>

namespace arena::mock_abacus {

// The Elo of a "mock-stockfish-<elo>" model id; nothing for any other id.
std::optional<int> StockfishModelElo(const std::string& model_id);

// The reply (JSON with "move" and "reasoning") for the prompt's position; *ok false when the
// prompt holds no chess position or Stockfish gives no move.
std::string StockfishModelReply(const std::string& prompt_text, int elo, bool* ok);

}  // namespace arena::mock_abacus
