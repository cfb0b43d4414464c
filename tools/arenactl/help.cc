#include "tools/arenactl/help.h"

#include <cstdio>
#include <map>

#include "absl/flags/reflection.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace arena::arenactl {
namespace {

struct CommandHelp {
  const char* usage;
  const char* what;
  std::vector<const char*> flags;  // besides the connection flags every command reads
};

// The flags every command that talks to a server reads.
const std::vector<const char*> kConnection = {"arena_addr", "game_state_addr", "token",
                                              "token_file", "timeout_ms"};

const std::map<std::string, CommandHelp>& Table() {
  static const auto* table = new std::map<std::string, CommandHelp>{
      {"health",
       {"health", "health, version and games of every server", {"bot_addr", "gateway_addr"}}},
      {"signup",
       {"signup NAME [--password_file=F]",
        "make an account; the password is read from --password_file or one line of stdin; the "
        "token is stored in --token_file (default ~/.config/arenactl/token; - prints it)",
        {"password_file"}}},
      {"signin",
       {"signin NAME [--password_file=F]",
        "sign in; the token is stored as for signup, so later commands need no flag",
        {"password_file"}}},
      {"guest",
       {"guest [--display_name=NAME]", "a guest token, stored as for signup", {"display_name"}}},
      {"whoami", {"whoami", "the signed-in account", {}}},
      {"create-token", {"create-token [LABEL]", "another token for the account", {}}},
      {"revoke-token", {"revoke-token TOKEN_ID", "revoke a token", {}}},
      {"balance", {"balance [ACCOUNT]", "credits available, held and the daily allowance", {}}},
      {"history", {"history [ACCOUNT]", "the account's ledger entries", {"limit"}}},
      {"donate",
       {"donate AMOUNT", "give credits to the pool that pays model seats", {"idempotency_key"}}},
      {"send", {"send NAME AMOUNT", "send credits to another player", {"idempotency_key"}}},
      {"block", {"block NAME", "refuse a player's invitations", {}}},
      {"unblock", {"unblock NAME", "accept a player's invitations again", {}}},
      {"invite", {"invite NAME", "invite a player", {}}},
      {"invitations", {"invitations", "invitations you have received", {"limit"}}},
      {"grant",
       {"grant ACCOUNT AMOUNT --reason=WHY", "admin: new credits", {"reason", "idempotency_key"}}},
      {"adjust",
       {"adjust --reason=WHY -- ACCOUNT [-]AMOUNT",
        "admin: correct a balance",
        {"reason", "idempotency_key"}}},
      {"freeze", {"freeze ACCOUNT --reason=WHY", "admin: stop an account's transfers", {"reason"}}},
      {"unfreeze", {"unfreeze ACCOUNT --reason=WHY", "admin: lift a freeze", {"reason"}}},
      {"allowance",
       {"allowance ACCOUNT AMOUNT_PER_DAY --reason=WHY",
        "admin: the pool credits a day",
        {"reason"}}},
      {"audit", {"audit [ACCOUNT]", "admin: who did what, by name, amounts in credits", {"limit"}}},
      {"ranked",
       {"ranked cities | queue CITY TC [--no_wait] | status | leave | history [ACCOUNT] | city ID "
        "NAME STAKE FEE_BPS --reason=WHY",
        "ranked chess for stakes: the cities; queue at 3+2, 5+0 or 10+0 with a live "
        "\"searching… widened to ±N\" line until paired (Ctrl-C leaves); where you stand; "
        "leave; your staked games and ratings; admin: make or change a city",
        {"no_wait", "limit", "inactive", "reason"}}},
      {"flags",
       {"flags [--state=open|dismissed|actioned|all]",
        "admin: the fair-play check's flags with their figures (open ones by default)",
        {"state", "limit"}}},
      {"review-flag",
       {"review-flag REPORT_ID dismiss|action [--refund] [--block] --reason=WHY",
        "admin: decide a flag once; action may refund the opponent from the flagged account "
        "and freeze it (audited)",
        {"refund", "block", "reason"}}},
      {"table",
       {"table GAME_ID\n"
        "       arenactl table create GAME --seat=S --seat=S ... [flags]",
        "show a table's AI seats and costs; or create a table: one --seat per seat in seat "
        "order, each me (you play it: arenactl play), open (anyone may sit), bot:LEVEL, "
        "stockfish:ELO, model:MODEL_ID (donated credits), model:MODEL_ID:donated or "
        "model:MODEL_ID:KEY_FILE (your own Abacus key, read from the file). Prints the game id "
        "and the commands to watch and play it",
        {"seat", "variant", "level", "per_move_ms", "move_cap", "clues", "private_table",
         "illegal_policy", "turn_cost_cap"}}},
      {"play",
       {"play GAME_ID [--seat=N] [--coords]",
        "play your seat from the terminal (the one table create kept, else an open seat): the "
        "board from your edge, the legal actions at beginner tables, your clock; type an action "
        "or help, moves [CELL], draw, accept, decline, resign, clue, coords, quit",
        {"seat", "coords", "seat_credential_file", "display_name"}}},
      {"watch",
       {"watch GAME_ID [--seat=N] [--coords] [--once]",
        "follow a game: names and kinds of the players, clocks, the moves with each model's "
        "reasoning and attempts, darts, frozen armies, the result; plain text when not a "
        "terminal",
        {"seat", "coords", "once"}}},
      {"demo",
       {"demo --demo_game=GAME",
        "arena's bots play a public game at a pace you can follow",
        {"demo_game", "demo_variant", "demo_level", "demo_move_delay_ms", "demo_max_actions",
         "demo_stall_ms"}}},
      {"verify", {"verify GAME_ID", "recompute every random draw of a finished game", {}}},
      {"league",
       {"league create|run --name=N --game=GAME --participants=bot:1,model:ID,...\n"
        "       arenactl league start|pause|resume|cancel|progress ID | league list",
        "leagues of bots and models",
        {"name", "game", "participants", "variant", "format", "games_per_pairing", "concurrency",
         "swiss_rounds", "max_reschedules", "seed", "per_move_ms", "move_cap", "level",
         "illegal_policy", "fault_policy", "turn_cost_cap", "limit"}}},
      {"standings", {"standings LEAGUE_ID", "a league's standings", {}}},
      {"leaderboard", {"leaderboard GAME", "ratings of a game", {}}},
      {"matches",
       {"matches [--league=ID] [--participant=P] [--game=GAME] [--state=S]",
        "played games",
        {"league", "participant", "game", "state", "limit"}}},
      {"export", {"export GAME_ID [--pgn]", "a game's record (JSON) or its PGN", {"pgn"}}},
      {"model-stats",
       {"model-stats [MODEL] [--game=GAME] [--variant=K=V,...]",
        "how models play",
        {"game", "variant"}}},
      {"models", {"models", "the models the gateway can reach, with prices", {}}},
      {"supply-key",
       {"supply-key GAME_ID SEAT --key_file=F", "give a model seat its key again", {"key_file"}}},
      {"clue", {"clue GAME_ID SEAT", "a bot's suggestion for your seat", {"seat_credential_file"}}},
  };
  return *table;
}

void PrintFlag(const char* name) {
  const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
  if (flag == nullptr) return;
  std::string def = flag->DefaultValue();
  std::printf("  --%s%s\n", name,
              def.empty() || def == "false" ? "" : ("  (default " + def + ")").c_str());
  std::printf("      %s\n", flag->Help().c_str());
}

}  // namespace

bool WantsHelp(int argc, char** argv, std::string* command) {
  bool help = false;
  command->clear();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg == "--help" || arg == "-h" || arg == "--helpfull" || arg == "--helpshort" ||
        arg == "-help") {
      help = true;
    } else if (arg == "help" && command->empty()) {
      help = true;
    } else if (arg[0] != '-' && command->empty()) {
      *command = arg;
    }
  }
  return help;
}

std::vector<std::string> HelpCommands() {
  std::vector<std::string> names;
  for (const auto& [name, h] : Table()) names.push_back(name);
  return names;
}

int PrintHelp(const std::string& command, const std::string& overview) {
  if (command.empty()) {
    std::printf("%s\n\nConnection flags (every command; also ARENA_<FLAG> variables):\n",
                overview.c_str());
    for (const char* f : kConnection) PrintFlag(f);
    std::printf("\narenactl help COMMAND (or arenactl COMMAND --help) for one command.\n");
    return 0;
  }
  auto it = Table().find(command);
  if (it == Table().end()) {
    std::fprintf(stderr, "arenactl: unknown command '%s'; the commands are %s\n", command.c_str(),
                 absl::StrJoin(HelpCommands(), ", ").c_str());
    return 2;
  }
  const CommandHelp& h = it->second;
  std::printf("usage: arenactl %s\n\n", h.usage);
  // The description wrapped at 96 columns.
  std::string line;
  for (absl::string_view word : absl::StrSplit(h.what, ' ')) {
    if (!line.empty() && line.size() + word.size() + 1 > 96) {
      std::printf("%s\n", line.c_str());
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line.append(word.data(), word.size());
  }
  if (!line.empty()) std::printf("%s\n", line.c_str());
  if (!h.flags.empty()) {
    std::printf("\nflags:\n");
    for (const char* f : h.flags) PrintFlag(f);
  }
  std::printf("\nconnection flags: --%s (see arenactl --help)\n",
              absl::StrJoin(kConnection, " --").c_str());
  return 0;
}

}  // namespace arena::arenactl
