#include "tools/arenactl/table_commands.h"

#include <sodium.h>

#include <fstream>
#include <sstream>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "clients/game_state_client.h"
#include "common/grpc_util.h"
#include "tools/arenactl/game_check.h"
#include "tools/arenactl/seat_arg.h"
#include "tools/arenactl/text_table.h"

ABSL_DECLARE_FLAG(std::string, variant);
ABSL_DECLARE_FLAG(int64_t, per_move_ms);
ABSL_DECLARE_FLAG(int, move_cap);
ABSL_DECLARE_FLAG(std::string, level);
ABSL_DECLARE_FLAG(std::string, illegal_policy);
ABSL_DECLARE_FLAG(std::string, turn_cost_cap);

ABSL_FLAG(std::string, key_file, "", "supply-key: file holding the model seat's API key.");
ABSL_FLAG(std::string, seat_credential_file, "",
          "clue, play: file holding the seat credential (default: the one table create or play "
          "stored).");
ABSL_FLAG(bool, clues, false, "table create: players may ask a bot for a clue.");
ABSL_FLAG(bool, private_table, false,
          "table create: only its players and host see it (default: anyone may watch).");

namespace arena::arenactl {
namespace {

// Reads a secret from the file named by --`flag`; prints why and returns false when the flag is
// unset, the file unreadable or empty. The secret itself is never printed.
bool ReadSecret(const std::string& path, const char* flag, std::string* secret) {
  if (path.empty()) {
    std::fprintf(stderr, "arenactl: --%s is required\n", flag);
    return false;
  }
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "arenactl: cannot read --%s %s\n", flag, path.c_str());
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  *secret = std::string(absl::StripAsciiWhitespace(text));
  sodium_memzero(text.data(), text.size());
  if (secret->empty()) {
    std::fprintf(stderr, "arenactl: --%s %s is empty\n", flag, path.c_str());
    return false;
  }
  return true;
}

void Wipe(std::string* s) {
  sodium_memzero(s->data(), s->size());
}

bool ParseSeat(const std::string& text, int* seat) {
  return absl::SimpleAtoi(text, seat) && *seat >= 0;
}

std::string OrDefault(const std::string& value) {
  return value.empty() ? "default" : value;
}

std::string OrDefault(int64_t value) {
  return value == 0 ? "default" : std::to_string(value);
}

constexpr char kCreateUsage[] =
    "table create GAME [--variant=K=V,...] --seat=S --seat=S ... [--level=beginner|advanced] "
    "[--per_move_ms=MS] [--move_cap=N] [--clues] [--private_table] [--illegal_policy=P] "
    "[--turn_cost_cap=CREDITS]\n"
    "  one --seat per seat, in seat order: me | open | bot:LEVEL | stockfish:ELO | "
    "model:MODEL_ID[:donated|:KEY_FILE]";

// The table settings of the create flags; INVALID_ARGUMENT names the bad flag.
absl::Status SettingsFromFlags(v1::ArenaCreateTableRequest* req) {
  v1::TableSettings* settings = req->mutable_settings();
  const std::string level = absl::GetFlag(FLAGS_level);
  if (level.empty() || level == "beginner") {
    settings->set_level(v1::TABLE_LEVEL_BEGINNER);
  } else if (level == "advanced") {
    settings->set_level(v1::TABLE_LEVEL_ADVANCED);
  } else {
    return absl::InvalidArgumentError("--level is beginner or advanced");
  }
  if (absl::GetFlag(FLAGS_per_move_ms) < 0 || absl::GetFlag(FLAGS_move_cap) < 0) {
    return absl::InvalidArgumentError("--per_move_ms and --move_cap cannot be negative");
  }
  settings->mutable_clock()->set_per_move_ms(absl::GetFlag(FLAGS_per_move_ms));
  settings->set_move_cap(absl::GetFlag(FLAGS_move_cap));
  settings->set_clues(absl::GetFlag(FLAGS_clues));
  settings->set_is_public(!absl::GetFlag(FLAGS_private_table));
  v1::AiPolicy* policy = req->mutable_policy();
  const std::string illegal = absl::GetFlag(FLAGS_illegal_policy);
  if (!illegal.empty() && illegal != "forfeit-turn" && illegal != "lose-game") {
    return absl::InvalidArgumentError("--illegal_policy is forfeit-turn or lose-game");
  }
  policy->set_illegal_move(illegal);
  const std::string cap = absl::GetFlag(FLAGS_turn_cost_cap);
  if (!cap.empty()) {
    int64_t micro = 0;
    if (!ParseCredits(cap, &micro) || micro < 0) {
      return absl::InvalidArgumentError(
          "--turn_cost_cap is an amount of credits with up to 6 decimals");
    }
    policy->set_turn_cost_cap_microcredits(micro);
  }
  return absl::OkStatus();
}

// What a seat is called in the summary: "me", "bot level 2", "model mock-competent (donated)".
std::string Describe(const SeatArg& s) {
  switch (s.kind) {
    case SeatArg::Kind::kMe:
      return "you";
    case SeatArg::Kind::kOpen:
      return "open";
    case SeatArg::Kind::kBot:
      return absl::StrCat("bot level ", s.bot_level);
    case SeatArg::Kind::kStockfish:
      return absl::StrCat("stockfish ", s.stockfish_elo);
    case SeatArg::Kind::kModel:
      return absl::StrCat("model ", s.model_id,
                          s.own_key_file.empty() ? " (donated credits)" : " (your key)");
  }
  return "";
}

int UsageError(const absl::Status& s) {
  std::fprintf(stderr, "arenactl: %s\n", std::string(s.message()).c_str());
  return 2;
}

int TableCreate(const Args& a) {
  if (a.size() != 1) return Usage(kCreateUsage);
  auto checked = CheckGame(a[0], absl::GetFlag(FLAGS_variant));
  if (!checked.ok()) return UsageError(checked.status());
  const int seats = checked->initial->NumSeats();
  const std::vector<engine::SeatInfo> names = checked->initial->Seats();
  std::vector<SeatArg> wanted;
  for (const std::string& text : SeatFlags()) {
    auto seat = ParseSeatArg(text);
    if (!seat.ok()) return UsageError(seat.status());
    wanted.push_back(*std::move(seat));
  }
  if (static_cast<int>(wanted.size()) != seats) {
    std::vector<std::string> seat_names;
    for (const engine::SeatInfo& s : names) seat_names.push_back(s.name);
    std::fprintf(stderr,
                 "arenactl: %s%s%s has %d seats (%s): give one --seat for each, in that order "
                 "(got %zu), e.g. --seat=me --seat=bot:2\n",
                 a[0].c_str(), absl::GetFlag(FLAGS_variant).empty() ? "" : " ",
                 absl::GetFlag(FLAGS_variant).c_str(), seats,
                 absl::StrJoin(seat_names, ", ").c_str(), wanted.size());
    return 2;
  }
  v1::ArenaCreateTableRequest req;
  req.mutable_settings()->set_engine_game(a[0]);
  *req.mutable_settings()->mutable_variant() = checked->variant;
  if (absl::Status s = SettingsFromFlags(&req); !s.ok()) return UsageError(s);

  // Who is asking: a member's seat is named for the account, a guest's is joined after.
  ArenaClient client;
  if (Token().empty()) {
    std::fprintf(stderr,
                 "arenactl: not signed in: arenactl signin NAME (or arenactl guest) first; the "
                 "token goes to %s\n",
                 TokenFilePath().c_str());
    return 1;
  }
  v1::WhoAmIResponse me;
  if (!client.Call(&Stub::WhoAmI, v1::WhoAmIRequest(), &me)) return 1;
  const bool guest = me.role() == "guest";
  for (const SeatArg& s : wanted) {
    v1::ArenaSeat* seat = req.add_seats();
    v1::SeatSpec* spec = seat->mutable_spec();
    switch (s.kind) {
      case SeatArg::Kind::kMe:
        spec->set_kind(guest ? v1::SEAT_KIND_GUEST : v1::SEAT_KIND_HUMAN);
        if (!guest) spec->set_account_id(me.account_id());
        spec->set_display_name(me.name().empty() ? "guest" : me.name());
        break;
      case SeatArg::Kind::kOpen:
        spec->set_kind(v1::SEAT_KIND_GUEST);
        break;
      case SeatArg::Kind::kBot:
        spec->set_kind(v1::SEAT_KIND_BOT);
        spec->set_bot_level(s.bot_level);
        break;
      case SeatArg::Kind::kStockfish:
        spec->set_kind(v1::SEAT_KIND_BOT);
        spec->set_stockfish_elo(s.stockfish_elo);
        break;
      case SeatArg::Kind::kModel:
        spec->set_kind(v1::SEAT_KIND_MODEL);
        spec->set_model_id(s.model_id);
        if (s.own_key_file.empty()) {
          spec->set_funding(v1::FUNDING_DONATED_CREDITS);
        } else {
          spec->set_funding(v1::FUNDING_OWN_KEY);
          if (!ReadSecret(ExpandHome(s.own_key_file), "seat", seat->mutable_own_api_key())) {
            return 2;
          }
        }
        break;
    }
  }
  // Where the credentials of your seats go, checked before the table exists.
  for (int i = 0; i < seats; ++i) {
    if (wanted[i].kind != SeatArg::Kind::kMe) continue;
    std::string why;
    if (!CheckWritable(SeatCredentialPath("probe", i), &why)) {
      std::fprintf(stderr, "arenactl: your seat's credential could not be kept: %s\n", why.c_str());
      return 2;
    }
  }
  v1::ArenaCreateTableResponse created;
  const bool ok = client.Call(&Stub::CreateTable, req, &created);
  for (v1::ArenaSeat& seat : *req.mutable_seats()) Wipe(seat.mutable_own_api_key());
  if (!ok) return 1;
  const std::string& id = created.game_id();
  clients::GameStateClient game_state(common::MakeChannel(absl::GetFlag(FLAGS_game_state_addr)),
                                      absl::Milliseconds(absl::GetFlag(FLAGS_timeout_ms)));
  int failures = 0;
  for (int i = 0; i < seats; ++i) {
    if (wanted[i].kind != SeatArg::Kind::kMe) continue;
    std::string credential =
        i < created.seat_credentials_size() ? created.seat_credentials(i) : std::string();
    if (credential.empty()) {  // a guest's seat: taken now
      v1::JoinTableRequest join;
      join.set_game_id(id);
      join.set_seat(i);
      join.set_display_name(me.name().empty() ? "guest" : me.name());
      v1::JoinTableResponse joined;
      grpc::Status s = game_state.Join(join, {}, &joined);
      if (!s.ok()) {
        PrintRpcError(s);
        ++failures;
        continue;
      }
      credential = joined.seat_credential();
    }
    std::string why;
    if (!WriteSecretFile(SeatCredentialPath(id, i), credential, &why)) {
      std::fprintf(stderr, "arenactl: %s\n", why.c_str());
      ++failures;
    }
    Wipe(&credential);
  }
  std::printf("game %s\n", id.c_str());
  TextTable table({{"SEAT", true}, {"NAME"}, {"WHO"}});
  for (int i = 0; i < seats; ++i) {
    table.AddRow({std::to_string(i), i < static_cast<int>(names.size()) ? names[i].name : "",
                  Describe(wanted[i])});
  }
  table.Print();
  std::printf("watch it:  arenactl watch %s\n", id.c_str());
  bool mine = false, open = false;
  for (const SeatArg& s : wanted) {
    mine |= s.kind == SeatArg::Kind::kMe;
    open |= s.kind == SeatArg::Kind::kOpen;
  }
  if (mine) std::printf("play it:   arenactl play %s\n", id.c_str());
  if (open) std::printf("others sit at the open seats with: arenactl play %s\n", id.c_str());
  return failures == 0 ? 0 : 1;
}

}  // namespace

int TableCommand(const Args& a) {
  if (!a.empty() && a[0] == "create") return TableCreate(Args(a.begin() + 1, a.end()));
  if (a.size() != 1) return Usage("table GAME | table create GAME --seat=... (see --help)");
  ArenaClient client;
  v1::TableRef ref;
  ref.set_game_id(a[0]);
  v1::ArenaTable t;
  if (!client.Call(&Stub::GetTable, ref, &t)) return 1;
  TextTable table({{"GAME ID"}, {"GAME"}, {"STATE"}, {"LEAGUE"}, {"OWNER"}});
  table.AddRow({t.game_id(), t.engine_game(), t.state(),
                t.league_id().empty() ? "-" : t.league_id(), t.owner_account()});
  table.Print();

  const v1::AiPolicy& p = t.policy();
  std::printf("\n");
  TextTable policy({{"ILLEGAL MOVE"},
                    {"PROVIDER FAULT"},
                    {"REPROMPTS", true},
                    {"RETRIES", true},
                    {"TURN COST CAP", true}});
  policy.AddRow(
      {OrDefault(p.illegal_move()), OrDefault(p.provider_fault()), OrDefault(p.max_reprompts()),
       OrDefault(p.provider_retries()),
       p.turn_cost_cap_microcredits() == 0 ? "none" : Credits(p.turn_cost_cap_microcredits())});
  policy.Print();

  std::printf("\n");
  TextTable seats({{"SEAT", true},
                   {"PARTICIPANT"},
                   {"STATE"},
                   {"TURNS", true},
                   {"FORFEITS", true},
                   {"COST", true}});
  for (const v1::AiSeatStatus& s : t.ai_seats()) {
    seats.AddRow({std::to_string(s.seat()), s.participant(), s.state(), std::to_string(s.turns()),
                  std::to_string(s.forfeits()), Credits(s.cost_microcredits())});
  }
  seats.Print();
  return 0;
}

int SupplyKeyCommand(const Args& a) {
  int seat = 0;
  if (a.size() != 2 || !ParseSeat(a[1], &seat)) return Usage("supply-key GAME SEAT --key_file=F");
  v1::SupplyKeyRequest req;
  req.set_game_id(a[0]);
  req.set_seat(seat);
  if (!ReadSecret(absl::GetFlag(FLAGS_key_file), "key_file", req.mutable_api_key())) return 2;
  ArenaClient client;
  v1::SupplyKeyResponse r;
  const bool ok = client.Call(&Stub::SupplyKey, req, &r);
  Wipe(req.mutable_api_key());
  if (!ok) return 1;
  std::printf("key supplied for seat %d of %s\n", seat, a[0].c_str());
  return 0;
}

int ClueCommand(const Args& a) {
  int seat = 0;
  if (a.size() != 2 || !ParseSeat(a[1], &seat)) {
    return Usage("clue GAME SEAT --seat_credential_file=F");
  }
  v1::ClueRequest req;
  req.set_game_id(a[0]);
  req.set_seat(seat);
  if (!ReadSecret(absl::GetFlag(FLAGS_seat_credential_file), "seat_credential_file",
                  req.mutable_seat_credential())) {
    return 2;
  }
  ArenaClient client;
  v1::ClueResponse r;
  const bool ok = client.Call(&Stub::GetClue, req, &r);
  Wipe(req.mutable_seat_credential());
  if (!ok) return 1;
  TextTable table({{"MOVE"}, {"BOT LEVEL", true}});
  table.AddRow({r.move().text(), std::to_string(r.level())});
  table.Print();
  return 0;
}

}  // namespace arena::arenactl
