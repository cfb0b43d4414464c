// arenactl: the command-line client for players, spectators and admins.
//
// Amounts are credits with up to six decimals ("12.5"); the ledger counts micro-credits.
// Signed-in commands read the token from --token, or from --token_file (where signup and
// signin store it; without --token_file they print it).
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/common.grpc.pb.h"
#include "common/config.h"
#include "common/grpc_util.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "nlohmann/json.hpp"
#include "tools/arenactl/client.h"
#include "tools/arenactl/demo.h"
#include "tools/arenactl/help.h"
#include "tools/arenactl/league_commands.h"
#include "tools/arenactl/match_commands.h"
#include "tools/arenactl/play.h"
#include "tools/arenactl/ranked_commands.h"
#include "tools/arenactl/seat_arg.h"
#include "tools/arenactl/table_commands.h"
#include "tools/arenactl/text_table.h"
#include "tools/arenactl/verify.h"
#include "tools/arenactl/watch.h"

ABSL_FLAG(std::string, bot_addr, "127.0.0.1:7102", "arena-bot address.");
ABSL_FLAG(std::string, gateway_addr, "127.0.0.1:7103", "arena-llm-gateway address.");
ABSL_FLAG(std::string, demo_game, "", "demo: the game to play (an engine id; required).");
ABSL_FLAG(std::string, demo_variant, "", "demo: its variant options (the game's keys).");
ABSL_FLAG(int, demo_level, 2, "demo: the bot level playing every seat.");
ABSL_FLAG(int, demo_move_delay_ms, 300,
          "demo: each bot turn lasts at least this long (0..10000), so watchers can follow.");
ABSL_FLAG(int, demo_max_actions, 400,
          "demo: stop following after this many actions (arena plays the game to its end).");
ABSL_FLAG(int, demo_stall_ms, 60000, "demo: fail when no action comes for this long.");
ABSL_FLAG(bool, once, false, "watch: draw the current position once and exit.");
ABSL_FLAG(bool, coords, false, "watch, play: label the board's rows with their cells.");
ABSL_FLAG(std::string, seat, "",
          "table create: one seat, repeated for each (me, open, bot:LEVEL, stockfish:ELO, "
          "model:ID[:donated|:KEY_FILE]); play: the table seat to play; watch: the engine seat "
          "whose edge is at the bottom.");
ABSL_FLAG(std::string, password_file, "",
          "File with the password for signup/signin (default: read one line from stdin).");
ABSL_FLAG(std::string, reason, "", "Why (required by admin commands).");
ABSL_FLAG(std::string, idempotency_key, "",
          "Idempotency key of a credit operation (default: a fresh random one).");
ABSL_FLAG(std::string, display_name, "",
          "guest, play: the name shown for you (default: your account's name).");
ABSL_DECLARE_FLAG(std::string, seat_credential_file);

namespace {

using arena::arenactl::ArenaClient;
using arena::arenactl::Credits;
using arena::arenactl::FormatTime;
using arena::arenactl::ParseCredits;
using arena::arenactl::ReadFileTrimmed;
using arena::arenactl::Stub;
using arena::arenactl::TextTable;
using arena::arenactl::Usage;
using arena::common::SetDeadline;
using Args = std::vector<std::string>;

struct Endpoint {
  std::string name;
  std::string address;
};

// Prints one row per server; returns the number that are not healthy.
int Health() {
  std::vector<Endpoint> endpoints = {
      {"arena", absl::GetFlag(FLAGS_arena_addr)},
      {"arena-game-state", absl::GetFlag(FLAGS_game_state_addr)},
      {"arena-bot", absl::GetFlag(FLAGS_bot_addr)},
      {"arena-llm-gateway", absl::GetFlag(FLAGS_gateway_addr)},
  };
  absl::Duration timeout = absl::Milliseconds(absl::GetFlag(FLAGS_timeout_ms));
  std::printf("%-18s %-22s %-12s %-10s %-10s %s\n", "SERVICE", "ADDRESS", "HEALTH", "VERSION",
              "COMMIT", "GAMES");
  int unhealthy = 0;
  for (const Endpoint& e : endpoints) {
    auto channel = arena::common::MakeChannel(e.address);
    grpc::health::v1::HealthCheckRequest req;
    grpc::health::v1::HealthCheckResponse resp;
    grpc::ClientContext hctx;
    SetDeadline(hctx, timeout);
    grpc::Status hs = grpc::health::v1::Health::NewStub(channel)->Check(&hctx, req, &resp);
    std::string health =
        hs.ok() ? grpc::health::v1::HealthCheckResponse::ServingStatus_Name(resp.status())
                : absl::StrCat("DOWN(", hs.error_code(), ")");
    arena::v1::ServerInfo info;
    grpc::ClientContext ictx;
    SetDeadline(ictx, timeout);
    grpc::Status is = arena::v1::InfoService::NewStub(channel)->GetServerInfo(
        &ictx, arena::v1::GetServerInfoRequest(), &info);
    std::string games;
    for (const auto& g : info.games()) games += (games.empty() ? "" : ",") + g;
    bool ok = hs.ok() && resp.status() == grpc::health::v1::HealthCheckResponse::SERVING &&
              is.ok() && info.service() == e.name;
    if (!ok) ++unhealthy;
    std::printf("%-18s %-22s %-12s %-10s %-10s %s\n", e.name.c_str(), e.address.c_str(),
                health.c_str(), is.ok() ? info.version().c_str() : "-",
                is.ok() ? info.git_commit().c_str() : "-", games.empty() ? "-" : games.c_str());
  }
  return unhealthy;
}

// --- Arena client helpers ------------------------------------------------------------------

std::string Password() {
  std::string file = absl::GetFlag(FLAGS_password_file);
  if (!file.empty()) return ReadFileTrimmed(file);
  std::string line;
  std::getline(std::cin, line);
  return line;
}

std::string NewKey() {
  std::string key = absl::GetFlag(FLAGS_idempotency_key);
  if (!key.empty()) return key;
  unsigned char raw[16];
  randombytes_buf(raw, sizeof raw);
  char hex[33];
  sodium_bin2hex(hex, sizeof hex, raw, sizeof raw);
  return std::string("ctl-") + hex;
}

// Where signup, signin and guest put the token: "" to print it (--token_file=-).
std::string TokenDestination() {
  return absl::GetFlag(FLAGS_token_file) == "-" ? "" : arena::arenactl::TokenFilePath();
}

// Before the server makes a token, so that a token file that cannot be written costs nothing.
bool TokenDestinationWritable() {
  const std::string file = TokenDestination();
  if (file.empty() && absl::GetFlag(FLAGS_token_file) == "-") return true;
  std::string why;
  if (arena::arenactl::CheckWritable(file, &why)) return true;
  std::fprintf(stderr, "arenactl: the token file: %s\n", why.c_str());
  return false;
}

int StoreToken(const arena::v1::SessionToken& t, const std::string& name) {
  const std::string file = TokenDestination();
  TextTable table({{"NAME"}, {"ROLE"}, {"TOKEN ID"}});
  table.AddRow({name.empty() ? "(guest)" : name, t.role(), t.token_id()});
  table.Print();
  if (file.empty()) {
    std::printf("token: %s\n(shown once; keep it safe)\n", t.token().c_str());
    return 0;
  }
  std::string why;
  if (!arena::arenactl::WriteSecretFile(file, t.token(), &why)) {
    std::fprintf(stderr, "arenactl: %s\n", why.c_str());
    return 1;
  }
  std::printf("token stored in %s\n", file.c_str());
  return 0;
}

int SignUpOrIn(const Args& a, bool up) {
  if (a.size() != 1)
    return Usage(up ? "signup NAME [--password_file=F] [--token_file=F]"
                    : "signin NAME [--password_file=F] [--token_file=F]");
  if (!TokenDestinationWritable()) return 2;
  const std::string password_file = absl::GetFlag(FLAGS_password_file);
  if (!password_file.empty() && ::access(password_file.c_str(), R_OK) != 0) {
    std::fprintf(stderr, "arenactl: cannot read --password_file %s\n", password_file.c_str());
    return 2;
  }
  ArenaClient c;
  arena::v1::SessionToken t;
  bool ok;
  if (up) {
    arena::v1::SignUpRequest req;
    req.set_name(a[0]);
    req.set_password(Password());
    ok = c.Call(&Stub::SignUp, req, &t, false);
  } else {
    arena::v1::SignInRequest req;
    req.set_name(a[0]);
    req.set_password(Password());
    ok = c.Call(&Stub::SignIn, req, &t, false);
  }
  return ok ? StoreToken(t, a[0]) : 1;
}

int Guest(const Args& a) {
  if (!a.empty()) return Usage("guest [--display_name=NAME] [--token_file=F]");
  if (!TokenDestinationWritable()) return 2;
  ArenaClient c;
  arena::v1::GuestTokenRequest req;
  req.set_display_name(absl::GetFlag(FLAGS_display_name));
  arena::v1::SessionToken t;
  return c.Call(&Stub::GuestToken, req, &t, false) ? StoreToken(t, req.display_name()) : 1;
}

int WhoAmI(const Args&) {
  ArenaClient c;
  arena::v1::WhoAmIResponse r;
  if (!c.Call(&Stub::WhoAmI, arena::v1::WhoAmIRequest(), &r)) return 1;
  TextTable table({{"NAME"}, {"ROLE"}});
  table.AddRow({r.name().empty() ? "(guest)" : r.name(), r.role()});
  table.Print();
  return 0;
}

int Balance(const Args& a) {
  if (a.size() > 1) return Usage("balance [ACCOUNT]");
  ArenaClient c;
  arena::v1::BalanceRequest req;
  if (!a.empty()) req.set_account_id(a[0]);
  arena::v1::Balance b;
  if (!c.Call(&Stub::GetBalance, req, &b)) return 1;
  // The account by name: the one asked about, else the caller's.
  std::string name = a.empty() ? "" : a[0];
  if (name.empty()) {
    arena::v1::WhoAmIResponse me;
    name = c.Try(&Stub::WhoAmI, arena::v1::WhoAmIRequest(), &me).ok() ? me.name() : "you";
  }
  TextTable table({{"ACCOUNT"},
                   {"AVAILABLE", true},
                   {"HELD", true},
                   {"POSTED", true},
                   {"FROZEN"},
                   {"ALLOWANCE/DAY", true},
                   {"USED TODAY", true}});
  table.AddRow({name, Credits(b.available_microcredits()), Credits(b.held_microcredits()),
                Credits(b.posted_microcredits()), b.frozen() ? "yes" : "no",
                Credits(b.daily_allowance_microcredits()),
                Credits(b.allowance_used_today_microcredits())});
  table.Print();
  return 0;
}

int History(const Args& a) {
  if (a.size() > 1) return Usage("history [ACCOUNT] [--limit=N]");
  ArenaClient c;
  arena::v1::HistoryRequest req;
  if (!a.empty()) req.set_account_id(a[0]);
  req.set_limit(absl::GetFlag(FLAGS_limit));
  arena::v1::HistoryResponse r;
  if (!c.Call(&Stub::GetHistory, req, &r)) return 1;
  TextTable table(
      {{"TRANSFER"}, {"AT (UTC)"}, {"DEBIT"}, {"CREDIT"}, {"AMOUNT", true}, {"KIND"}, {"MEMO"}});
  for (const auto& e : r.entries()) {
    table.AddRow({e.transfer_id(), FormatTime(e.at()), e.debit_account(), e.credit_account(),
                  Credits(e.amount_microcredits()), e.kind(), e.memo()});
  }
  table.Print();
  return 0;
}

int PrintTransfer(const arena::v1::TransferResponse& r) {
  std::printf("%-10s %s\n", "TRANSFER", "REPLAYED");
  std::printf("%-10s %s\n", r.transfer_id().c_str(), r.replayed() ? "yes" : "no");
  return 0;
}

int Donate(const Args& a) {
  int64_t micro = 0;
  if (a.size() != 1 || !ParseCredits(a[0], &micro)) return Usage("donate AMOUNT");
  ArenaClient c;
  arena::v1::DonateRequest req;
  req.set_amount_microcredits(micro);
  req.set_idempotency_key(NewKey());
  arena::v1::TransferResponse r;
  return c.Call(&Stub::Donate, req, &r) ? PrintTransfer(r) : 1;
}

int Send(const Args& a) {
  int64_t micro = 0;
  if (a.size() != 2 || !ParseCredits(a[1], &micro)) return Usage("send NAME AMOUNT");
  ArenaClient c;
  arena::v1::SendCreditsRequest req;
  req.set_to_name(a[0]);
  req.set_amount_microcredits(micro);
  req.set_idempotency_key(NewKey());
  arena::v1::TransferResponse r;
  return c.Call(&Stub::SendCredits, req, &r) ? PrintTransfer(r) : 1;
}

bool NeedReason() {
  if (absl::GetFlag(FLAGS_reason).empty()) {
    std::fprintf(stderr, "arenactl: admin commands need --reason\n");
    return false;
  }
  return true;
}

int Grant(const Args& a) {
  int64_t micro = 0;
  if (a.size() != 2 || !ParseCredits(a[1], &micro))
    return Usage("grant ACCOUNT AMOUNT --reason=WHY");
  if (!NeedReason()) return 2;
  ArenaClient c;
  arena::v1::AdminGrantRequest req;
  req.set_account_id(a[0]);
  req.set_amount_microcredits(micro);
  req.set_reason(absl::GetFlag(FLAGS_reason));
  req.set_idempotency_key(NewKey());
  arena::v1::TransferResponse r;
  return c.Call(&Stub::AdminGrant, req, &r) ? PrintTransfer(r) : 1;
}

int Adjust(const Args& a) {
  int64_t micro = 0;
  if (a.size() != 2 || !ParseCredits(a[1], &micro)) {
    return Usage("adjust ACCOUNT [-]AMOUNT --reason=WHY");
  }
  if (!NeedReason()) return 2;
  ArenaClient c;
  arena::v1::AdminAdjustRequest req;
  req.set_account_id(a[0]);
  req.set_delta_microcredits(micro);
  req.set_reason(absl::GetFlag(FLAGS_reason));
  req.set_idempotency_key(NewKey());
  arena::v1::TransferResponse r;
  return c.Call(&Stub::AdminAdjust, req, &r) ? PrintTransfer(r) : 1;
}

int Freeze(const Args& a, bool freeze) {
  if (a.size() != 1)
    return Usage(freeze ? "freeze ACCOUNT --reason=WHY" : "unfreeze ACCOUNT --reason=WHY");
  if (!NeedReason()) return 2;
  ArenaClient c;
  arena::v1::AdminFreezeRequest req;
  req.set_account_id(a[0]);
  req.set_freeze(freeze);
  req.set_reason(absl::GetFlag(FLAGS_reason));
  arena::v1::AdminFreezeResponse r;
  if (!c.Call(&Stub::AdminFreeze, req, &r)) return 1;
  std::printf("%-20s %s\n", "ACCOUNT", "FROZEN");
  std::printf("%-20s %s\n", a[0].c_str(), freeze ? "yes" : "no");
  return 0;
}

int Allowance(const Args& a) {
  int64_t micro = 0;
  if (a.size() != 2 || !ParseCredits(a[1], &micro)) {
    return Usage("allowance ACCOUNT AMOUNT_PER_DAY --reason=WHY");
  }
  if (!NeedReason()) return 2;
  ArenaClient c;
  arena::v1::SetAllowanceRequest req;
  req.set_account_id(a[0]);
  req.set_daily_microcredits(micro);
  req.set_reason(absl::GetFlag(FLAGS_reason));
  arena::v1::SetAllowanceResponse r;
  if (!c.Call(&Stub::AdminSetAllowance, req, &r)) return 1;
  std::printf("%-20s %s\n", "ACCOUNT", "ALLOWANCE/DAY");
  std::printf("%-20s %s\n", a[0].c_str(), Credits(micro).c_str());
  return 0;
}

// An audit record's detail as "key=value" words: amounts (micro-credits in the record) in
// credits, system accounts by their word, the user's side of a transfer by the target's name
// (an admin's transfer is always between a system account and the target).
std::string AuditDetail(const std::string& json, const std::string& target) {
  auto j = nlohmann::json::parse(json, nullptr, false);
  if (!j.is_object()) return json;
  std::string out;
  for (const auto& [key, value] : j.items()) {
    constexpr std::string_view kMicro = "_microcredits";
    std::string name = key;
    std::string text = value.is_string() ? value.get<std::string>() : value.dump();
    const bool micro_suffix = name.size() > kMicro.size() &&
                              name.compare(name.size() - kMicro.size(), kMicro.size(), kMicro) == 0;
    if (micro_suffix) name = name.substr(0, name.size() - kMicro.size());
    int64_t micro = 0;
    if ((micro_suffix || key == "amount") &&
        (value.is_number_integer() ? (micro = value.get<int64_t>(), true)
                                   : value.is_string() && absl::SimpleAtoi(text, &micro))) {
      text = Credits(micro) + " credits";
    }
    if ((key == "debit" || key == "credit") && value.is_string()) {
      text = text.rfind("system:", 0) == 0 ? text.substr(7) : target;
    }
    out += (out.empty() ? "" : " ") + name + "=" + text;
  }
  return out;
}

int Audit(const Args& a) {
  if (a.size() > 1) return Usage("audit [ACCOUNT] [--limit=N]");
  ArenaClient c;
  arena::v1::AuditRequest req;
  if (!a.empty()) req.set_account_id(a[0]);
  req.set_limit(absl::GetFlag(FLAGS_limit));
  arena::v1::AuditResponse r;
  if (!c.Call(&Stub::AdminAudit, req, &r)) return 1;
  TextTable table({{"AT (UTC)"}, {"ACTOR"}, {"ACTION"}, {"TARGET"}, {"REASON"}, {"DETAIL"}});
  for (const auto& e : r.records()) {
    table.AddRow({FormatTime(e.at()), e.actor(), e.action(), e.target(), e.reason(),
                  AuditDetail(e.detail_json(), e.target())});
  }
  table.Print();
  return 0;
}

int Block(const Args& a, bool unblock) {
  if (a.size() != 1) return Usage(unblock ? "unblock NAME" : "block NAME");
  ArenaClient c;
  arena::v1::BlockRequest req;
  req.set_name(a[0]);
  req.set_unblock(unblock);
  arena::v1::BlockResponse r;
  if (!c.Call(&Stub::Block, req, &r)) return 1;
  std::printf("%s %s\n", unblock ? "unblocked" : "blocked", a[0].c_str());
  return 0;
}

int Invite(const Args& a) {
  if (a.size() != 1) return Usage("invite NAME");
  ArenaClient c;
  arena::v1::InviteRequest req;
  req.set_name(a[0]);
  arena::v1::InviteResponse r;
  if (!c.Call(&Stub::Invite, req, &r)) return 1;
  std::printf("%-12s %s\n", "INVITATION", "TO");
  std::printf("%-12lld %s\n", static_cast<long long>(r.invitation_id()), a[0].c_str());
  return 0;
}

int Invitations(const Args&) {
  ArenaClient c;
  arena::v1::ListInvitationsRequest req;
  req.set_limit(absl::GetFlag(FLAGS_limit));
  arena::v1::ListInvitationsResponse r;
  if (!c.Call(&Stub::ListInvitations, req, &r)) return 1;
  TextTable table({{"INVITATION", true}, {"AT (UTC)"}, {"FROM"}, {"NOTE"}});
  for (const auto& i : r.invitations()) {
    table.AddRow({std::to_string(i.invitation_id()), FormatTime(i.at()), i.from_name(), i.note()});
  }
  table.Print();
  return 0;
}

int CreateToken(const Args& a) {
  if (a.size() > 1) return Usage("create-token [LABEL]");
  ArenaClient c;
  arena::v1::CreateTokenRequest req;
  if (!a.empty()) req.set_label(a[0]);
  arena::v1::SessionToken t;
  if (!c.Call(&Stub::CreateToken, req, &t)) return 1;
  std::printf("%-22s %s\n", "TOKEN ID", "TOKEN (shown once)");
  std::printf("%-22s %s\n", t.token_id().c_str(), t.token().c_str());
  return 0;
}

int RevokeToken(const Args& a) {
  if (a.size() != 1) return Usage("revoke-token TOKEN_ID");
  ArenaClient c;
  arena::v1::RevokeTokenRequest req;
  req.set_token_id(a[0]);
  arena::v1::RevokeTokenResponse r;
  if (!c.Call(&Stub::RevokeToken, req, &r)) return 1;
  std::printf("revoked %s\n", a[0].c_str());
  return 0;
}

// --seat=N for watch and play (the flag is a text, since table create repeats it).
bool SeatNumber(const char* command, int* seat) {
  const std::string text = absl::GetFlag(FLAGS_seat);
  *seat = -1;
  if (text.empty()) return true;
  if (absl::SimpleAtoi(text, seat) && *seat >= 0) return true;
  std::fprintf(stderr, "arenactl %s: --seat=%s: a seat number (0, 1, ...)\n", command,
               text.c_str());
  return false;
}

using Command = std::function<int(const Args&)>;

const std::map<std::string, Command>& Commands() {
  static const auto* commands = new std::map<std::string, Command>{
      {"health", [](const Args&) { return Health() == 0 ? 0 : 1; }},
      {"signup", [](const Args& a) { return SignUpOrIn(a, true); }},
      {"signin", [](const Args& a) { return SignUpOrIn(a, false); }},
      {"guest", Guest},
      {"whoami", WhoAmI},
      {"create-token", CreateToken},
      {"revoke-token", RevokeToken},
      {"balance", Balance},
      {"history", History},
      {"donate", Donate},
      {"send", Send},
      {"block", [](const Args& a) { return Block(a, false); }},
      {"unblock", [](const Args& a) { return Block(a, true); }},
      {"invite", Invite},
      {"invitations", Invitations},
      {"grant", Grant},
      {"adjust", Adjust},
      {"freeze", [](const Args& a) { return Freeze(a, true); }},
      {"unfreeze", [](const Args& a) { return Freeze(a, false); }},
      {"allowance", Allowance},
      {"audit", Audit},
      {"ranked", arena::arenactl::RankedCommand},
      {"flags", arena::arenactl::FlagsCommand},
      {"review-flag", arena::arenactl::ReviewFlagCommand},
      {"league", arena::arenactl::LeagueCommand},
      {"standings", arena::arenactl::StandingsCommand},
      {"leaderboard", arena::arenactl::LeaderboardCommand},
      {"matches", arena::arenactl::MatchesCommand},
      {"export", arena::arenactl::ExportCommand},
      {"model-stats", arena::arenactl::ModelStatsCommand},
      {"models", arena::arenactl::ModelsCommand},
      {"table", arena::arenactl::TableCommand},
      {"supply-key", arena::arenactl::SupplyKeyCommand},
      {"clue", arena::arenactl::ClueCommand},
      {"demo",
       [](const Args&) {
         arena::arenactl::DemoOptions o;
         o.arena_addr = absl::GetFlag(FLAGS_arena_addr);
         o.game_state_addr = absl::GetFlag(FLAGS_game_state_addr);
         o.token = arena::arenactl::Token();
         o.game = absl::GetFlag(FLAGS_demo_game);
         o.variant = absl::GetFlag(FLAGS_demo_variant);
         o.level = absl::GetFlag(FLAGS_demo_level);
         o.move_delay_ms = absl::GetFlag(FLAGS_demo_move_delay_ms);
         o.max_actions = absl::GetFlag(FLAGS_demo_max_actions);
         o.stall_timeout = absl::Milliseconds(absl::GetFlag(FLAGS_demo_stall_ms));
         o.timeout = absl::Milliseconds(absl::GetFlag(FLAGS_timeout_ms));
         return arena::arenactl::RunDemo(o);
       }},
      {"watch",
       [](const Args& a) {
         arena::arenactl::WatchOptions o;
         o.once = absl::GetFlag(FLAGS_once);
         o.coordinates = absl::GetFlag(FLAGS_coords);
         if (!SeatNumber("watch", &o.seat)) return 2;
         if (a.size() > 1) return Usage("watch GAME_ID [--seat=N] [--coords] [--once]");
         return arena::arenactl::RunWatch(a.empty() ? "" : a[0], o);
       }},
      {"play",
       [](const Args& a) {
         arena::arenactl::PlayOptions o;
         o.coordinates = absl::GetFlag(FLAGS_coords);
         o.credential_file = absl::GetFlag(FLAGS_seat_credential_file);
         o.display_name = absl::GetFlag(FLAGS_display_name);
         if (!SeatNumber("play", &o.seat)) return 2;
         if (a.size() > 1) return Usage("play GAME_ID [--seat=N] [--coords]");
         return arena::arenactl::RunPlay(a.empty() ? "" : a[0], o);
       }},
      {"verify",
       [](const Args& a) {
         return arena::arenactl::RunVerify(absl::GetFlag(FLAGS_game_state_addr),
                                           a.empty() ? "" : a[0],
                                           absl::Milliseconds(absl::GetFlag(FLAGS_timeout_ms)));
       }},
  };
  return *commands;
}

constexpr char kUsage[] =
    "arenactl COMMAND [ARGS] [flags]\n\n"
    "Commands:\n"
    "  health                          health and version of every server\n"
    "  verify GAME                     recompute every random draw of a finished game\n"
    "  demo                            arena's bots play a game to watch (--demo_game, "
    "--demo_variant)\n"
    "  table create GAME --seat=me --seat=bot:2 [--variant=K=V,..] [--level=..]\n"
    "                                  a table of any seats: me, open, bot:LEVEL, "
    "model:ID[:donated|:KEY_FILE]\n"
    "  play GAME_ID [--seat=N] [--coords]  play your seat from the terminal\n"
    "  watch GAME_ID [--once] [--coords] [--seat=N]\n"
    "                                  follow a game: players, clocks, moves, reasoning, "
    "result\n"
    "  signup NAME | signin NAME       password from --password_file or stdin; the token is "
    "kept\n"
    "                                  in ~/.config/arenactl/token (--token_file, "
    "ARENA_TOKEN_FILE)\n"
    "  guest                           a guest token (play without an account)\n"
    "  whoami | create-token [LABEL] | revoke-token ID\n"
    "  balance [ACCOUNT] | history [ACCOUNT]\n"
    "  donate AMOUNT | send NAME AMOUNT\n"
    "  block NAME | unblock NAME | invite NAME | invitations\n"
    "Leagues and ratings:\n"
    "  league create --name=N --game=GAME --participants=bot:1,model:ID,... [league flags]\n"
    "  league run [same flags]         create, start, show progress until done, then standings\n"
    "  league start|pause|resume|cancel ID | league progress ID | league list\n"
    "    league flags: --variant=players=3,darts=on --format=round-robin|swiss\n"
    "    --games_per_pairing=N --concurrency=N --swiss_rounds=N --max_reschedules=N --seed=N\n"
    "    --per_move_ms=MS --move_cap=N\n"
    "    --level=beginner|advanced --illegal_policy=forfeit-turn|lose-game\n"
    "    --fault_policy=void|forfeit-turn --turn_cost_cap=CREDITS\n"
    "  standings ID | leaderboard GAME\n"
    "Matches and AI seats:\n"
    "  matches [--league=ID] [--participant=P] [--game=GAME] [--state=S]\n"
    "  export GAME [--pgn] | model-stats [MODEL] [--game=G] [--variant=K=V,..] | models\n"
    "  table GAME_ID\n"
    "  supply-key GAME SEAT --key_file=F      the key is read from F only, never echoed\n"
    "  clue GAME SEAT --seat_credential_file=F\n"
    "Admin commands (need --reason):\n"
    "  grant ACCOUNT AMOUNT | adjust ACCOUNT [-]AMOUNT | freeze ACCOUNT | unfreeze ACCOUNT\n"
    "    (a negative AMOUNT goes after \"--\": arenactl adjust --reason=R -- bob -1.5)\n"
    "  allowance ACCOUNT AMOUNT_PER_DAY | audit [ACCOUNT]\n"
    "Amounts are credits with up to 6 decimals; ACCOUNT is a name or an account id.";

}  // namespace

int main(int argc, char** argv) {
  // Help is ours, before absl's parser (whose --help lists every linked library's flags).
  if (std::string about; arena::arenactl::WantsHelp(argc, argv, &about)) {
    return arena::arenactl::PrintHelp(about, kUsage);
  }
  arena::arenactl::RememberSeatFlags(arena::arenactl::RepeatedFlagValues(argc, argv, "seat"));
  std::vector<std::string> args = arena::common::InitConfig(argc, argv, kUsage);
  if (sodium_init() < 0) return 1;
  if (args.size() < 2) {
    std::fprintf(stderr, "usage: arenactl COMMAND (arenactl --help lists them)\n");
    return 2;
  }
  const std::string& command = args[1];
  auto it = Commands().find(command);
  if (it == Commands().end()) {
    std::string names;
    for (const auto& [name, c] : Commands()) names += (names.empty() ? "" : ", ") + name;
    std::fprintf(stderr, "arenactl: unknown command '%s'; the commands are %s\n", command.c_str(),
                 names.c_str());
    return 2;
  }
  return it->second(Args(args.begin() + 2, args.end()));
}
