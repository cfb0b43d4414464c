#include "tools/arenactl/match_commands.h"

#include <cmath>

#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/core/game.h"
#include "tools/arenactl/game_check.h"
#include "tools/arenactl/text_table.h"

ABSL_DECLARE_FLAG(std::string, variant);

ABSL_FLAG(std::string, league, "", "matches: only this league's games.");
ABSL_FLAG(std::string, participant, "", "matches: only games with this participant (bot:2, ...).");
ABSL_FLAG(std::string, state, "",
          "matches: only games in this state: active (or running), finished, voided, aborted.");
ABSL_FLAG(bool, pgn, false, "export: print the PGN instead of the JSON record.");

namespace arena::arenactl {

int MatchesCommand(const Args& a) {
  if (!a.empty()) {
    return Usage("matches [--league=ID] [--participant=P] [--game=GAME] [--state=S] [--limit=N]");
  }
  // A typo is an error that says what exists, not an empty table.
  std::string state = absl::GetFlag(FLAGS_state);
  if (state == "running" || state == "playing") state = "active";
  if (!state.empty() && state != "active" && state != "finished" && state != "voided" &&
      state != "aborted") {
    std::fprintf(stderr,
                 "arenactl: --state=%s: the states are active (or running), finished, voided, "
                 "aborted\n",
                 state.c_str());
    return 2;
  }
  const std::string game = absl::GetFlag(FLAGS_game);
  if (!game.empty() && engine::FindGame(game) == nullptr) {
    std::fprintf(stderr, "arenactl: --game=%s: unknown game; the games are %s\n", game.c_str(),
                 GameIds().c_str());
    return 2;
  }
  const std::string participant = absl::GetFlag(FLAGS_participant);
  if (!participant.empty() && participant.find(':') == std::string::npos &&
      participant != "guest") {
    std::fprintf(stderr,
                 "arenactl: --participant=%s: a participant is bot:LEVEL, stockfish:ELO, "
                 "model:MODEL_ID, user:NAME or guest\n",
                 participant.c_str());
    return 2;
  }
  ArenaClient client;
  v1::ListMatchesRequest req;
  req.set_league_id(absl::GetFlag(FLAGS_league));
  req.set_participant(participant);
  req.set_engine_game(game);
  req.set_state(state);
  req.set_limit(absl::GetFlag(FLAGS_limit));
  v1::ListMatchesResponse r;
  if (!client.Call(&Stub::ListMatches, req, &r)) return 1;
  TextTable table({{"GAME ID"}, {"GAME"}, {"PARTICIPANTS"}, {"STATE"}, {"RESULT"}, {"REASON"}});
  for (const v1::MatchSummary& m : r.matches()) {
    table.AddRow({m.game_id(), m.engine_game(), absl::StrJoin(m.participants(), ","), m.state(),
                  m.result_text().empty() ? "-" : m.result_text(),
                  m.reason().empty() ? "-" : m.reason()});
  }
  table.Print();
  return 0;
}

int ExportCommand(const Args& a) {
  if (a.size() != 1) return Usage("export GAME [--pgn]");
  ArenaClient client;
  v1::ExportGameRequest req;
  req.set_game_id(a[0]);
  v1::ExportGameResponse r;
  if (!client.Call(&Stub::ExportGame, req, &r)) return 1;
  if (absl::GetFlag(FLAGS_pgn)) {
    if (r.pgn().empty()) {
      std::fprintf(stderr, "arenactl: game %s has no PGN (only chess games do)\n", a[0].c_str());
      return 1;
    }
    std::fputs(r.pgn().c_str(), stdout);
    if (r.pgn().back() != '\n') std::fputc('\n', stdout);
    return 0;
  }
  std::printf("%s\n", r.json().c_str());
  return 0;
}

int ModelStatsCommand(const Args& a) {
  if (a.size() > 1) return Usage("model-stats [MODEL] [--game=GAME] [--variant=K=V,...]");
  v1::ModelStatsRequest req;
  if (!a.empty()) req.set_model_id(a[0]);
  req.set_engine_game(absl::GetFlag(FLAGS_game));
  if (!req.engine_game().empty()) {
    // An unknown game or variant key is a typo, not a game without statistics.
    auto checked = CheckGame(req.engine_game(), absl::GetFlag(FLAGS_variant));
    if (!checked.ok()) {
      std::fprintf(stderr, "arenactl: %s\n", std::string(checked.status().message()).c_str());
      return 2;
    }
  }
  auto variant = engine::Variant::Parse(absl::GetFlag(FLAGS_variant));
  if (!variant.ok()) {
    std::fprintf(stderr, "arenactl: --variant: %s\n",
                 std::string(variant.status().message()).c_str());
    return 2;
  }
  for (const auto& [key, value] : variant->options()) {
    (*req.mutable_variant()->mutable_options())[key] = value;
  }
  ArenaClient client;
  v1::ModelStatsResponse r;
  if (!client.Call(&Stub::GetModelStats, req, &r)) return 1;
  TextTable table({{"MODEL"},
                   {"MOVES", true},
                   {"GAMES", true},
                   {"ILLEGAL/1000", true},
                   {"UNPARSABLE/1000", true},
                   {"TOKENS/MOVE", true},
                   {"COST/GAME", true},
                   {"MS/MOVE", true},
                   {"FORFEITS", true}});
  std::printf("games: %s, variant: %s (every figure rests on the MOVES and GAMES shown)\n",
              req.engine_game().empty() ? "any" : req.engine_game().c_str(),
              absl::GetFlag(FLAGS_variant).empty() ? "any" : absl::GetFlag(FLAGS_variant).c_str());
  for (const v1::ModelStats& m : r.models()) {
    table.AddRow({m.model_id(), std::to_string(m.moves()), std::to_string(m.games()),
                  absl::StrFormat("%.1f", m.illegal_per_1000_moves()),
                  absl::StrFormat("%.1f", m.unparsable_per_1000_moves()),
                  absl::StrFormat("%.0f", m.tokens_per_move()),
                  Credits(std::llround(m.cost_per_game_microcredits())),
                  absl::StrFormat("%.0f", m.latency_ms_per_move()), std::to_string(m.forfeits())});
  }
  table.Print();
  return 0;
}

int ModelsCommand(const Args& a) {
  if (!a.empty()) return Usage("models");
  ArenaClient client;
  v1::ArenaListModelsResponse r;
  if (!client.Call(&Stub::ListModels, v1::ArenaListModelsRequest(), &r)) return 1;
  // Prices as listed per token, shown per million tokens.
  TextTable table(
      {{"MODEL"}, {"USD/M IN", true}, {"USD/M OUT", true}, {"CONTEXT", true}, {"MAX OUT", true}});
  for (const v1::ModelInfo& m : r.models()) {
    table.AddRow({m.id(), absl::StrFormat("%.4g", m.input_usd_per_token() * 1e6),
                  absl::StrFormat("%.4g", m.output_usd_per_token() * 1e6),
                  m.context_length() > 0 ? std::to_string(m.context_length()) : "-",
                  m.max_completion_tokens() > 0 ? std::to_string(m.max_completion_tokens()) : "-"});
  }
  table.Print();
  if (r.stale()) std::fprintf(stderr, "arenactl: the gateway did not answer; this list is stale\n");
  return 0;
}

}  // namespace arena::arenactl
