#include "tools/arenactl/league_commands.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <map>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/core/game.h"
#include "tools/arenactl/text_table.h"

ABSL_FLAG(std::string, name, "", "league create/run: the league's name.");
ABSL_FLAG(std::string, variant, "",
          "league create/run, table create: variant options, e.g. players=3,darts=on.");
ABSL_FLAG(std::string, participants, "",
          "league create/run: comma list of bot:LEVEL, stockfish:ELO (chess) and model:MODEL_ID "
          "participants.");
ABSL_FLAG(std::string, format, "", "league create/run: round-robin (default) or swiss.");
ABSL_FLAG(int, games_per_pairing, 0, "league create/run: games per seating (0: 1).");
ABSL_FLAG(int, concurrency, 0, "league create/run: games at once (0: 2).");
ABSL_FLAG(int, swiss_rounds, 0, "league create/run: rounds of a Swiss league.");
ABSL_FLAG(int, max_reschedules, 0, "league create/run: replays of a voided pairing (0: 2).");
ABSL_FLAG(uint64_t, seed, 0, "league create/run: Swiss pairing seed.");
ABSL_FLAG(int64_t, per_move_ms, 0,
          "league create/run, table create: per-move clock in ms (0: none).");
ABSL_FLAG(
    int, move_cap, 0,
    "league create/run, table create: moves before a game ends and is adjudicated (0: the league "
    "default, 600).");
ABSL_FLAG(std::string, level, "",
          "league create/run, table create: table level, beginner or advanced.");
ABSL_FLAG(std::string, illegal_policy, "",
          "league create/run: a model without a legal move: forfeit-turn (default) or lose-game.");
ABSL_FLAG(std::string, fault_policy, "",
          "league create/run: lasting provider faults: void (default) or forfeit-turn.");
ABSL_FLAG(std::string, turn_cost_cap, "",
          "league create/run: the most one model turn may cost, in credits (e.g. 0.05).");

namespace arena::arenactl {
namespace {

constexpr char kCreateUsage[] =
    "league create|run --name=NAME --game=GAME --participants=bot:1,model:ID,... "
    "[--variant=K=V,...] [--format=round-robin|swiss] [--games_per_pairing=N] "
    "[--concurrency=N] [--swiss_rounds=N] [--per_move_ms=MS] [--move_cap=N] "
    "[--level=beginner|advanced] [--illegal_policy=P] [--fault_policy=P] [--turn_cost_cap=CREDITS]";

// How often progress polls GetStandings, and how long it rides out an unreachable server once
// it has reached it (a restart of `arena` should not end a long league run).
constexpr absl::Duration kPollInterval = absl::Milliseconds(500);
constexpr int kMaxTransientFailures = 60;

bool OneOf(const std::string& value, std::initializer_list<const char*> allowed) {
  if (value.empty()) return true;  // the server's default
  for (const char* a : allowed) {
    if (value == a) return true;
  }
  return false;
}

// "bot:2" or "model:mock-competent" -> the seat spec of a league participant.
absl::StatusOr<v1::SeatSpec> ParseParticipant(const std::string& text) {
  v1::SeatSpec spec;
  if (text.rfind("bot:", 0) == 0) {
    int level = -1;
    if (!absl::SimpleAtoi(text.substr(4), &level) || level < 0 || level > 8) {
      return absl::InvalidArgumentError(
          absl::StrCat("participant '", text, "': a bot level is 0..8"));
    }
    spec.set_kind(v1::SEAT_KIND_BOT);
    spec.set_bot_level(level);
    return spec;
  }
  if (text.rfind("stockfish:", 0) == 0) {
    int elo = 0;
    if (!absl::SimpleAtoi(text.substr(10), &elo) || elo <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("participant '", text, "': stockfish:ELO takes a UCI_Elo, e.g. 1500"));
    }
    spec.set_kind(v1::SEAT_KIND_BOT);
    spec.set_stockfish_elo(elo);
    return spec;
  }
  if (text.rfind("model:", 0) == 0 && text.size() > 6) {
    spec.set_kind(v1::SEAT_KIND_MODEL);
    spec.set_model_id(text.substr(6));
    spec.set_funding(v1::FUNDING_DONATED_CREDITS);  // leagues play on the donation pool
    return spec;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("participant '", text, "' is none of bot:LEVEL, stockfish:ELO, model:MODEL_ID"));
}

// The CreateLeagueRequest the league flags describe; INVALID_ARGUMENT names the bad flag.
absl::StatusOr<v1::CreateLeagueRequest> CreateRequestFromFlags() {
  v1::CreateLeagueRequest req;
  req.set_name(absl::GetFlag(FLAGS_name));
  if (req.name().empty()) return absl::InvalidArgumentError("--name is required");

  v1::TableSettings* settings = req.mutable_settings();
  settings->set_engine_game(absl::GetFlag(FLAGS_game));
  if (settings->engine_game().empty()) return absl::InvalidArgumentError("--game is required");
  auto variant = engine::Variant::Parse(absl::GetFlag(FLAGS_variant));
  if (!variant.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--variant: ", variant.status().message()));
  }
  for (const auto& [key, value] : variant->options()) {
    (*settings->mutable_variant()->mutable_options())[key] = value;
  }
  const std::string level = absl::GetFlag(FLAGS_level);
  if (level == "beginner") {
    settings->set_level(v1::TABLE_LEVEL_BEGINNER);
  } else if (level == "advanced") {
    settings->set_level(v1::TABLE_LEVEL_ADVANCED);
  } else if (!level.empty()) {
    return absl::InvalidArgumentError("--level is beginner or advanced");
  }
  if (absl::GetFlag(FLAGS_per_move_ms) < 0 || absl::GetFlag(FLAGS_move_cap) < 0) {
    return absl::InvalidArgumentError("--per_move_ms and --move_cap cannot be negative");
  }
  settings->mutable_clock()->set_per_move_ms(absl::GetFlag(FLAGS_per_move_ms));
  settings->set_move_cap(absl::GetFlag(FLAGS_move_cap));
  settings->set_is_public(true);  // league games are there to be watched

  for (absl::string_view text :
       absl::StrSplit(absl::GetFlag(FLAGS_participants), ',', absl::SkipWhitespace())) {
    auto spec = ParseParticipant(std::string(absl::StripAsciiWhitespace(text)));
    if (!spec.ok()) return spec.status();
    *req.add_participants()->mutable_spec() = *spec;
  }
  if (req.participants_size() < 2) {
    return absl::InvalidArgumentError("--participants needs at least two participants");
  }

  req.set_format(absl::GetFlag(FLAGS_format));
  if (!OneOf(req.format(), {"round-robin", "swiss"})) {
    return absl::InvalidArgumentError("--format is round-robin or swiss");
  }
  req.set_games_per_pairing(absl::GetFlag(FLAGS_games_per_pairing));
  req.set_concurrency(absl::GetFlag(FLAGS_concurrency));
  req.set_swiss_rounds(absl::GetFlag(FLAGS_swiss_rounds));
  req.set_max_reschedules(absl::GetFlag(FLAGS_max_reschedules));
  req.set_seed(absl::GetFlag(FLAGS_seed));
  if (req.games_per_pairing() < 0 || req.concurrency() < 0 || req.swiss_rounds() < 0 ||
      req.max_reschedules() < 0) {
    return absl::InvalidArgumentError(
        "--games_per_pairing, --concurrency, --swiss_rounds and --max_reschedules cannot be "
        "negative");
  }

  v1::AiPolicy* policy = req.mutable_policy();
  policy->set_illegal_move(absl::GetFlag(FLAGS_illegal_policy));
  if (!OneOf(policy->illegal_move(), {"forfeit-turn", "lose-game"})) {
    return absl::InvalidArgumentError("--illegal_policy is forfeit-turn or lose-game");
  }
  policy->set_provider_fault(absl::GetFlag(FLAGS_fault_policy));
  if (!OneOf(policy->provider_fault(), {"forfeit-turn", "void"})) {
    return absl::InvalidArgumentError("--fault_policy is void or forfeit-turn");
  }
  const std::string cap = absl::GetFlag(FLAGS_turn_cost_cap);
  if (!cap.empty()) {
    int64_t micro = 0;
    if (!ParseCredits(cap, &micro) || micro < 0) {
      return absl::InvalidArgumentError(
          "--turn_cost_cap is an amount of credits with up to 6 decimals");
    }
    policy->set_turn_cost_cap_microcredits(micro);
  }
  return req;
}

// --- Printing --------------------------------------------------------------------------------

TextTable LeagueTable() {
  return TextTable({{"LEAGUE"},
                    {"NAME"},
                    {"STATE"},
                    {"FORMAT"},
                    {"GAME"},
                    {"FINISHED", true},
                    {"VOIDED", true},
                    {"RUNNING", true},
                    {"TOTAL", true},
                    {"PARTICIPANTS"}});
}

void AddLeagueRow(TextTable& table, const v1::League& l) {
  table.AddRow({l.league_id(), l.name(), l.state(), l.format(), l.engine_game(),
                std::to_string(l.games_finished()), std::to_string(l.games_voided()),
                std::to_string(l.games_running()), std::to_string(l.games_total()),
                absl::StrJoin(l.participants(), ",")});
}

void PrintLeague(const v1::League& league) {
  TextTable table = LeagueTable();
  AddLeagueRow(table, league);
  table.Print();
}

void PrintStandings(const v1::StandingsResponse& r) {
  const v1::League& l = r.league();
  std::printf("league %s (%s): %s, %d/%d games finished\n", l.league_id().c_str(), l.name().c_str(),
              l.state().c_str(), l.games_finished(), l.games_total());
  std::vector<v1::Standing> rows(r.standings().begin(), r.standings().end());
  std::stable_sort(rows.begin(), rows.end(), [](const v1::Standing& a, const v1::Standing& b) {
    return a.points() > b.points();
  });
  TextTable table(
      {{"RANK", true}, {"PARTICIPANT"}, {"POINTS", true}, {"W/D/L", true}, {"GAMES", true}});
  int rank = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    // Equal points share a rank ("1, 1, 3").
    if (i == 0 || rows[i].points() != rows[i - 1].points()) rank = static_cast<int>(i) + 1;
    const v1::Standing& s = rows[i];
    table.AddRow({std::to_string(rank), s.participant(), absl::StrFormat("%.2f", s.points()),
                  absl::StrFormat("%d/%d/%d", s.wins(), s.draws(), s.losses()),
                  std::to_string(s.games())});
  }
  table.Print();
}

// "[#########-----] 7/12 finished, 1 voided, 2 running", with the state when not running.
std::string ProgressLine(const v1::League& l) {
  constexpr int kBarWidth = 30;
  const int done = l.games_finished() + l.games_voided();
  const int filled =
      l.games_total() > 0 ? std::clamp(done * kBarWidth / l.games_total(), 0, kBarWidth) : 0;
  std::string line =
      absl::StrCat("[", std::string(filled, '#'), std::string(kBarWidth - filled, '-'), "] ",
                   l.games_finished(), "/", l.games_total(), " finished, ", l.games_voided(),
                   " voided, ", l.games_running(), " running");
  if (l.games_abandoned() > 0) absl::StrAppend(&line, ", ", l.games_abandoned(), " abandoned");
  if (l.state() != "running") absl::StrAppend(&line, "  (", l.state(), ")");
  return line;
}

bool IsOver(const v1::League& l) {
  return l.state() == "finished" || l.state() == "cancelled";
}

bool IsTransient(grpc::StatusCode code) {
  return code == grpc::StatusCode::UNAVAILABLE || code == grpc::StatusCode::DEADLINE_EXCEEDED;
}

// Ctrl-C during a redrawn progress line: end the line so the shell prompt starts clean.
void EndLineAndExit(int) {
  const char newline = '\n';
  (void)!::write(STDOUT_FILENO, &newline, 1);
  ::_exit(130);
}

// Polls the league until it is finished or cancelled, showing progress; the last standings go
// to `last`. Returns the exit code.
int FollowProgress(const std::string& league_id, v1::StandingsResponse* last) {
  const bool tty = ::isatty(STDOUT_FILENO) == 1;
  if (tty) std::signal(SIGINT, EndLineAndExit);
  ArenaClient client;
  v1::LeagueRef ref;
  ref.set_league_id(league_id);
  std::string previous;
  bool reached = false;
  int failures = 0;
  for (;;) {
    v1::StandingsResponse r;
    grpc::Status s = client.Try(&Stub::GetStandings, ref, &r);
    if (!s.ok()) {
      if (reached && IsTransient(s.error_code()) && ++failures < kMaxTransientFailures) {
        std::this_thread::sleep_for(absl::ToChronoMilliseconds(kPollInterval));
        continue;
      }
      if (tty && !previous.empty()) std::printf("\n");
      PrintRpcError(s);
      return 1;
    }
    reached = true;
    failures = 0;
    const std::string line = ProgressLine(r.league());
    if (tty) {
      std::printf("\r\033[K%s", line.c_str());
    } else if (line != previous) {
      std::printf("%s\n", line.c_str());
    }
    std::fflush(stdout);
    previous = line;
    if (IsOver(r.league())) {
      if (tty) std::printf("\n");
      *last = r;
      return 0;
    }
    std::this_thread::sleep_for(absl::ToChronoMilliseconds(kPollInterval));
  }
}

// --- Subcommands ---------------------------------------------------------------------------

// Creates the league the flags describe; prints "league ID" and its summary.
int Create(std::string* league_id) {
  auto req = CreateRequestFromFlags();
  if (!req.ok()) {
    std::fprintf(stderr, "arenactl: %s\n", std::string(req.status().message()).c_str());
    return Usage(kCreateUsage);
  }
  ArenaClient client;
  v1::League league;
  if (!client.Call(&Stub::CreateLeague, *req, &league)) return 1;
  std::printf("league %s\n", league.league_id().c_str());
  PrintLeague(league);
  std::fflush(stdout);
  *league_id = league.league_id();
  return 0;
}

using LeagueMethod = grpc::Status (Stub::*)(grpc::ClientContext*, const v1::LeagueRef&,
                                            v1::League*);

int Steer(LeagueMethod method, const std::string& league_id) {
  ArenaClient client;
  v1::LeagueRef ref;
  ref.set_league_id(league_id);
  v1::League league;
  if (!client.Call(method, ref, &league)) return 1;
  PrintLeague(league);
  return 0;
}

int Run() {
  std::string league_id;
  if (int rc = Create(&league_id); rc != 0) return rc;
  if (int rc = Steer(&Stub::StartLeague, league_id); rc != 0) return rc;
  v1::StandingsResponse standings;
  if (int rc = FollowProgress(league_id, &standings); rc != 0) return rc;
  PrintStandings(standings);
  return 0;
}

int Progress(const std::string& league_id) {
  v1::StandingsResponse standings;
  return FollowProgress(league_id, &standings);
}

int List() {
  ArenaClient client;
  v1::ListLeaguesRequest req;
  req.set_limit(absl::GetFlag(FLAGS_limit));
  v1::ListLeaguesResponse r;
  if (!client.Call(&Stub::ListLeagues, req, &r)) return 1;
  TextTable table = LeagueTable();
  for (const v1::League& l : r.leagues()) AddLeagueRow(table, l);
  table.Print();
  return 0;
}

}  // namespace

int LeagueCommand(const Args& a) {
  constexpr char kUsage[] =
      "league create|run [flags] | league start|pause|resume|cancel|progress ID | league list";
  const std::string sub = a.empty() ? "" : a[0];
  if (sub == "create" || sub == "run") {
    if (a.size() != 1) return Usage(kCreateUsage);
    std::string league_id;
    return sub == "run" ? Run() : Create(&league_id);
  }
  if (sub == "list") return a.size() == 1 ? List() : Usage("league list [--limit=N]");
  static const std::map<std::string, LeagueMethod> kSteer = {
      {"start", &Stub::StartLeague},
      {"pause", &Stub::PauseLeague},
      {"resume", &Stub::ResumeLeague},
      {"cancel", &Stub::CancelLeague},
  };
  if (auto it = kSteer.find(sub); it != kSteer.end()) {
    if (a.size() != 2) return Usage(absl::StrCat("league ", sub, " ID").c_str());
    return Steer(it->second, a[1]);
  }
  if (sub == "progress") return a.size() == 2 ? Progress(a[1]) : Usage("league progress ID");
  return Usage(kUsage);
}

int StandingsCommand(const Args& a) {
  if (a.size() != 1) return Usage("standings ID");
  ArenaClient client;
  v1::LeagueRef ref;
  ref.set_league_id(a[0]);
  v1::StandingsResponse r;
  if (!client.Call(&Stub::GetStandings, ref, &r)) return 1;
  PrintStandings(r);
  return 0;
}

int LeaderboardCommand(const Args& a) {
  if (a.size() != 1) return Usage("leaderboard GAME");
  ArenaClient client;
  v1::LeaderboardRequest req;
  req.set_engine_game(a[0]);
  v1::LeaderboardResponse r;
  if (!client.Call(&Stub::GetLeaderboard, req, &r)) return 1;
  // One number to read: the anchored Bradley–Terry rating. Glicko-2 follows, labelled as the
  // live, unanchored figure; anchors have none.
  std::printf("%s: %s\n", req.engine_game().c_str(), r.scale().c_str());
  TextTable table({{"PARTICIPANT"},
                   {"RATING", true},
                   {"95% INTERVAL", true},
                   {"GAMES", true},
                   {"ADJUDICATED", true},
                   {"(GLICKO-2 LIVE, UNANCHORED)", true}});
  for (const v1::Rating& x : r.ratings()) {
    table.AddRow({x.participant(), absl::StrFormat("%.0f", x.bt_rating()),
                  x.anchor() ? std::string("anchor")
                             : absl::StrFormat("[%.0f, %.0f]", x.bt_low95(), x.bt_high95()),
                  std::to_string(x.games()), std::to_string(x.adjudicated_games()),
                  x.anchor()
                      ? std::string("-")
                      : absl::StrFormat("%.0f ± %.0f", x.glicko_rating(), 2 * x.glicko_rd())});
  }
  table.Print();
  return 0;
}

}  // namespace arena::arenactl
