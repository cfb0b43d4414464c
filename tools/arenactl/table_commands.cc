#include "tools/arenactl/table_commands.h"

#include <sodium.h>

#include <fstream>
#include <sstream>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "tools/arenactl/text_table.h"

ABSL_FLAG(std::string, key_file, "", "supply-key: file holding the model seat's API key.");
ABSL_FLAG(std::string, seat_credential_file, "", "clue: file holding the seat credential.");

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

}  // namespace

int TableCommand(const Args& a) {
  if (a.size() != 1) return Usage("table GAME");
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
