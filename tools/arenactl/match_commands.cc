#include "tools/arenactl/match_commands.h"

#include <cmath>

#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/core/game.h"
#include "tools/arenactl/text_table.h"

ABSL_DECLARE_FLAG(std::string, variant);

ABSL_FLAG(std::string, league, "", "matches: only this league's games.");
ABSL_FLAG(std::string, participant, "", "matches: only games with this participant (bot:2, ...).");
ABSL_FLAG(std::string, state, "", "matches: only games in this state (active, finished, ...).");
ABSL_FLAG(bool, pgn, false, "export: print the PGN instead of the JSON record.");

namespace arena::arenactl {

int MatchesCommand(const Args& a) {
  if (!a.empty()) {
    return Usage("matches [--league=ID] [--participant=P] [--game=GAME] [--state=S] [--limit=N]");
  }
  ArenaClient client;
  v1::ListMatchesRequest req;
  req.set_league_id(absl::GetFlag(FLAGS_league));
  req.set_participant(absl::GetFlag(FLAGS_participant));
  req.set_engine_game(absl::GetFlag(FLAGS_game));
  req.set_state(absl::GetFlag(FLAGS_state));
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
