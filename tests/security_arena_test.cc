// Issue 28, arena side: the attacks that once worked against `arena` (alone, and with every
// other service for tables and leagues), replayed against the real binaries on PostgreSQL.
// Each asserts the refusal and that balances, tables and accounts did not move.
#include <map>
#include <thread>

#include "arena/v1/arena.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/common/service_auth.h"
#include "tests/support/arena_client.h"
#include "tests/support/server_process.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace arena::testing {
namespace {

using namespace std::string_literals;
using ::testing::HasSubstr;
using ::testing::Not;
using Stub = v1::ArenaService::Stub;
using Code = grpc::StatusCode;

constexpr char kPlatformKey[] = "plat-SECRET-sec-5d1e";

// arena (and, for tables and leagues, game-state, bot, gateway and the mock Abacus).
class Stack {
 public:
  explicit Stack(bool play, std::vector<std::string> arena_extra = {}) {
    if (!db_.ok()) return;
    std::vector<std::string> flags = ArenaFlags(db_.url());
    if (play) {
      std::string dir = MakeTempDir("sec-mock");
      mock_ = std::make_unique<Subprocess>(std::vector<std::string>{
          ARENA_MOCK_ABACUS_BIN, "--port=0", "--port_file=" + dir + "/port",
          std::string("--keys=") + kPlatformKey + ":1000000000"});
      int mock_port = WaitForPortFile(dir + "/port", absl::Seconds(30));
      std::ofstream(dir + "/key") << kPlatformKey << "\n";
      game_state_ = std::make_unique<ServerProcess>(
          ARENA_GAME_STATE_BIN,
          std::vector<std::string>{"--database_url=" + db_.url(), "--log_level=warning"});
      bot_ = std::make_unique<ServerProcess>(ARENA_BOT_BIN,
                                             std::vector<std::string>{"--log_level=warning"});
      gateway_ = std::make_unique<ServerProcess>(
          ARENA_GATEWAY_BIN,
          std::vector<std::string>{
              "--abacus_base_url=http://127.0.0.1:" + std::to_string(mock_port) + "/v1",
              "--abacus_api_key_file=" + dir + "/key", "--log_level=warning"});
      if (!game_state_->ok() || !bot_->ok() || !gateway_->ok()) return;
      flags.push_back("--game_state_addr=127.0.0.1:" + std::to_string(game_state_->port()));
      flags.push_back("--bot_addr=127.0.0.1:" + std::to_string(bot_->port()));
      flags.push_back("--gateway_addr=127.0.0.1:" + std::to_string(gateway_->port()));
      flags.push_back("--bot_time_cap_ms=100");
    }
    flags.insert(flags.end(), arena_extra.begin(), arena_extra.end());
    arena_ = std::make_unique<ServerProcess>(ARENA_ARENA_BIN, flags);
    if (arena_->ok()) stub_ = v1::ArenaService::NewStub(arena_->channel());
  }
  bool ok() const { return db_.ok() && arena_ && arena_->ok() && stub_; }
  Stub& stub() { return *stub_; }
  ServerProcess& arena() { return *arena_; }
  ServerProcess& game_state() { return *game_state_; }
  const TestDatabase& db() const { return db_; }

  v1::SessionToken SignUp(const std::string& name) {
    v1::SignUpRequest req;
    req.set_name(name);
    req.set_password("password-1");
    v1::SessionToken t;
    grpc::Status s = CallAs(*stub_, &Stub::SignUp, As{}, req, &t);
    EXPECT_TRUE(s.ok()) << name << ": " << s.error_message();
    return t;
  }
  grpc::Status SignIn(const std::string& name, const std::string& password,
                      v1::SessionToken* t = nullptr) {
    v1::SignInRequest req;
    req.set_name(name);
    req.set_password(password);
    v1::SessionToken local;
    return CallAs(*stub_, &Stub::SignIn, As{}, req, t ? t : &local);
  }
  std::string Admin() {
    v1::SessionToken t;
    EXPECT_TRUE(SignIn(kAdminName, kAdminPassword, &t).ok());
    return t.token();
  }
  int64_t Balance(const std::string& token) {
    v1::Balance b;
    EXPECT_TRUE(CallAs(*stub_, &Stub::GetBalance, As{token}, v1::BalanceRequest(), &b).ok());
    return b.posted_microcredits();
  }
  int64_t Rows(const std::string& sql) {
    pqxx::connection c(db_.url());
    pqxx::work w(c);
    return w.exec1(sql)[0].as<int64_t>();
  }

 private:
  TestDatabase db_;
  std::unique_ptr<Subprocess> mock_;
  std::unique_ptr<ServerProcess> game_state_, bot_, gateway_, arena_;
  std::unique_ptr<Stub> stub_;
};

void Grant(Stack& s, const std::string& admin, const std::string& to, int64_t amount) {
  v1::AdminGrantRequest g;
  g.set_account_id(to);
  g.set_amount_microcredits(amount);
  g.set_reason("test funds");
  v1::TransferResponse tr;
  grpc::Status st = CallAs(s.stub(), &Stub::AdminGrant, As{admin}, g, &tr);
  ASSERT_TRUE(st.ok()) << st.error_message();
}

// --- Names and ids ---------------------------------------------------------------------------

TEST(SecurityArenaTest, NamesCannotTakeTheShapeOfIds) {
  Stack s(false);
  ASSERT_TRUE(s.ok());
  const std::string admin = s.Admin();
  auto victim = s.SignUp("victim");
  Grant(s, admin, victim.account_id(), 5'000'000);
  auto attacker = s.SignUp("attacker");

  // The attack: sign up with a name equal to the victim's id (or the admin's).
  v1::WhoAmIResponse admin_me;
  ASSERT_TRUE(CallAs(s.stub(), &Stub::WhoAmI, As{admin}, v1::WhoAmIRequest(), &admin_me).ok());
  for (const std::string& name : {victim.account_id(), admin_me.account_id(), "u_abc"s, "g_1x"s}) {
    v1::SignUpRequest req;
    req.set_name(name);
    req.set_password("password-1");
    v1::SessionToken t;
    grpc::Status st = CallAs(s.stub(), &Stub::SignUp, As{}, req, &t);
    EXPECT_EQ(st.error_code(), Code::INVALID_ARGUMENT) << name;
  }
  EXPECT_EQ(s.Rows("SELECT count(*) FROM arena.accounts WHERE name ~ '^[a-z]_'"), 0);
  // The victim's balance and history stay the victim's.
  v1::BalanceRequest breq;
  breq.set_account_id(victim.account_id());
  v1::Balance b;
  EXPECT_EQ(CallAs(s.stub(), &Stub::GetBalance, As{attacker.token()}, breq, &b).error_code(),
            Code::PERMISSION_DENIED);
  v1::HistoryRequest hreq;
  hreq.set_account_id(victim.account_id());
  v1::HistoryResponse h;
  EXPECT_EQ(CallAs(s.stub(), &Stub::GetHistory, As{attacker.token()}, hreq, &h).error_code(),
            Code::PERMISSION_DENIED);
  hreq.set_account_id("victim");
  EXPECT_EQ(CallAs(s.stub(), &Stub::GetHistory, As{attacker.token()}, hreq, &h).error_code(),
            Code::PERMISSION_DENIED);
  // One's own, by name or id, still works; credits sent to the victim's id reach the victim.
  breq.set_account_id("attacker");
  EXPECT_TRUE(CallAs(s.stub(), &Stub::GetBalance, As{attacker.token()}, breq, &b).ok());
  EXPECT_EQ(b.account_id(), attacker.account_id());
  Grant(s, admin, attacker.account_id(), 1'000'000);
  v1::SendCreditsRequest send;
  send.set_to_name(victim.account_id());
  send.set_amount_microcredits(400'000);
  v1::TransferResponse tr;
  ASSERT_TRUE(CallAs(s.stub(), &Stub::SendCredits, As{attacker.token()}, send, &tr).ok());
  EXPECT_EQ(s.Balance(victim.token()), 5'400'000);
  EXPECT_EQ(s.Balance(attacker.token()), 600'000);
}

// --- Text, integers, errors ------------------------------------------------------------------

TEST(SecurityArenaTest, PoisonedKeysMemosAndHugeAmountsChangeNothing) {
  Stack s(false);
  ASSERT_TRUE(s.ok());
  const std::string admin = s.Admin();
  auto alice = s.SignUp("alice");
  auto bob = s.SignUp("bob");
  Grant(s, admin, alice.account_id(), 1'000'000);
  const int64_t transfers = s.Rows("SELECT count(*) FROM arena.transfers");

  // A key cut at NUL would replay "k"'s payment: refused instead.
  v1::SendCreditsRequest send;
  send.set_to_name("bob");
  send.set_amount_microcredits(100);
  send.set_idempotency_key("k");
  v1::TransferResponse tr;
  ASSERT_TRUE(CallAs(s.stub(), &Stub::SendCredits, As{alice.token()}, send, &tr).ok());
  send.set_idempotency_key("k\0other"s);
  grpc::Status st = CallAs(s.stub(), &Stub::SendCredits, As{alice.token()}, send, &tr);
  EXPECT_EQ(st.error_code(), Code::INVALID_ARGUMENT);
  EXPECT_THAT(st.error_message(), HasSubstr("idempotency_key"));
  send.set_idempotency_key("k2");
  send.set_memo("thanks\0hidden"s);
  EXPECT_EQ(CallAs(s.stub(), &Stub::SendCredits, As{alice.token()}, send, &tr).error_code(),
            Code::INVALID_ARGUMENT);
  // Long inputs are refused without being echoed.
  send.set_memo(std::string(100000, 'M'));
  st = CallAs(s.stub(), &Stub::SendCredits, As{alice.token()}, send, &tr);
  EXPECT_EQ(st.error_code(), Code::INVALID_ARGUMENT);
  EXPECT_LT(st.error_message().size(), 200u);
  // A grant of INT64_MAX: INVALID_ARGUMENT, no SQL in the message.
  v1::AdminGrantRequest g;
  g.set_account_id("bob");
  g.set_amount_microcredits(INT64_MAX);
  st = CallAs(s.stub(), &Stub::AdminGrant, As{admin}, g, &tr);
  EXPECT_EQ(st.error_code(), Code::INVALID_ARGUMENT);
  EXPECT_THAT(st.error_message(), Not(HasSubstr("SELECT")));
  EXPECT_THAT(st.error_message(), Not(HasSubstr("INSERT")));
  // Nothing moved but the one honest payment.
  EXPECT_EQ(s.Rows("SELECT count(*) FROM arena.transfers"), transfers + 1);
  EXPECT_EQ(s.Balance(alice.token()), 1'000'000 - 100);
  EXPECT_EQ(s.Balance(bob.token()), 100);
}

TEST(SecurityArenaTest, HoldsAnswerAnotherServicePermissionDenied) {
  Stack s(false);
  ASSERT_TRUE(s.ok());
  auto alice = s.SignUp("alice");
  v1::ReserveHoldRequest r;
  r.set_account_id(alice.account_id());
  r.set_amount_microcredits(1);
  v1::HoldResponse h;
  for (const char* other : {"arena-bot", "arena-game-state", "arena-llm-gateway"}) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(20));
    auto id = common::ServiceIdentity::Load(TestSecretsDir(), other);
    ASSERT_TRUE(id.ok());
    id->Attach(ctx);
    EXPECT_EQ(s.stub().ReserveHold(&ctx, r, &h).error_code(), Code::PERMISSION_DENIED) << other;
  }
  EXPECT_EQ(s.Rows("SELECT count(*) FROM arena.holds"), 0);
}

// --- Throttling ------------------------------------------------------------------------------

TEST(SecurityArenaTest, SignUpsAndSignInsAreThrottledWithoutStarvingOthers) {
  // The shipped shape at test scale (later flags win over ArenaFlags' "off").
  Stack s(false, {"--signup_burst=5", "--signups_per_hour=0", "--failed_signin_burst=3",
                  "--failed_signins_per_minute=0", "--signin_burst=1000"});
  ASSERT_TRUE(s.ok());
  // Sign-ups per address: the sixth is refused at once, and no account is made.
  int made = 0;
  for (int i = 0; i < 8; ++i) {
    v1::SignUpRequest req;
    req.set_name("flood" + std::to_string(i));
    req.set_password("password-1");
    v1::SessionToken t;
    grpc::Status st = CallAs(s.stub(), &Stub::SignUp, As{}, req, &t);
    if (st.ok()) {
      ++made;
    } else {
      EXPECT_EQ(st.error_code(), Code::RESOURCE_EXHAUSTED);
      EXPECT_THAT(st.error_message(), HasSubstr("retry in"));
    }
  }
  EXPECT_EQ(made, 5);
  EXPECT_EQ(s.Rows("SELECT count(*) FROM arena.accounts WHERE name LIKE 'flood%'"), 5);

  // Wrong passwords for one name: after three, that name is refused even with the right one,
  // while another name signs in at once.
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(s.SignIn("flood0", "wrong-password").error_code(), Code::UNAUTHENTICATED);
  }
  EXPECT_EQ(s.SignIn("flood0", "password-1").error_code(), Code::RESOURCE_EXHAUSTED);
  // A flood at that name is answered without hashing and does not slow others.
  std::vector<std::thread> flood;
  for (int i = 0; i < 4; ++i) {
    flood.emplace_back([&] {
      for (int k = 0; k < 50; ++k) (void)s.SignIn("flood0", "wrong-password");
    });
  }
  absl::Time start = absl::Now();
  grpc::Status other = s.SignIn("flood1", "password-1");
  absl::Duration took = absl::Now() - start;
  for (auto& t : flood) t.join();
  EXPECT_TRUE(other.ok()) << other.error_message();
  EXPECT_LT(took, absl::Seconds(5));
}

// --- Tables and leagues ----------------------------------------------------------------------

v1::ArenaCreateTableRequest ChessAgainstBot() {
  v1::ArenaCreateTableRequest req;
  req.mutable_settings()->set_engine_game("chess");
  req.mutable_settings()->mutable_clock()->set_per_move_ms(60000);
  req.add_seats()->mutable_spec()->set_kind(v1::SEAT_KIND_HUMAN);
  auto* bot = req.add_seats()->mutable_spec();
  bot->set_kind(v1::SEAT_KIND_BOT);
  bot->set_bot_level(1);
  return req;
}

TEST(SecurityArenaTest, TablesKeepAiSeatsAccountSeatsAndPrivateDetailsToThemselves) {
  Stack s(true, {"--table_burst=6", "--tables_per_minute=0"});
  ASSERT_TRUE(s.ok());
  auto alice = s.SignUp("alice");
  auto bob = s.SignUp("bob");

  // The creator gets no credential for the bot seat.
  v1::ArenaCreateTableRequest req = ChessAgainstBot();
  v1::ArenaCreateTableResponse resp;
  grpc::Status st = CallAs(s.stub(), &Stub::CreateTable, As{alice.token()}, req, &resp);
  ASSERT_TRUE(st.ok()) << st.error_message();
  ASSERT_EQ(resp.seat_credentials_size(), 2);
  EXPECT_TRUE(resp.seat_credentials(1).empty());

  // Seating another account (bob) is refused; seating oneself gives one's own credential.
  req.mutable_seats(0)->mutable_spec()->set_account_id(bob.account_id());
  st = CallAs(s.stub(), &Stub::CreateTable, As{alice.token()}, req, &resp);
  EXPECT_EQ(st.error_code(), Code::PERMISSION_DENIED);
  req.mutable_seats(0)->mutable_spec()->set_account_id(alice.account_id());
  req.mutable_settings()->set_is_public(false);
  st = CallAs(s.stub(), &Stub::CreateTable, As{alice.token()}, req, &resp);
  ASSERT_TRUE(st.ok()) << st.error_message();
  EXPECT_FALSE(resp.seat_credentials(0).empty());
  EXPECT_TRUE(resp.seat_credentials(1).empty());
  const std::string private_game = resp.game_id();

  // Unknown seat kinds are refused.
  v1::ArenaCreateTableRequest odd = ChessAgainstBot();
  odd.mutable_seats(0)->mutable_spec()->set_kind(static_cast<v1::SeatKind>(99));
  EXPECT_EQ(CallAs(s.stub(), &Stub::CreateTable, As{alice.token()}, odd, &resp).error_code(),
            Code::INVALID_ARGUMENT);

  // GetTable of a private table: the owner sees the owner; anyone else does not.
  v1::TableRef ref;
  ref.set_game_id(private_game);
  v1::ArenaTable seen;
  ASSERT_TRUE(CallAs(s.stub(), &Stub::GetTable, As{alice.token()}, ref, &seen).ok());
  EXPECT_EQ(seen.owner_account(), alice.account_id());
  ASSERT_TRUE(CallAs(s.stub(), &Stub::GetTable, As{bob.token()}, ref, &seen).ok());
  EXPECT_TRUE(seen.owner_account().empty());
  EXPECT_FALSE(seen.has_policy());
  ASSERT_TRUE(CallAs(s.stub(), &Stub::GetTable, As{}, ref, &seen).ok());
  EXPECT_TRUE(seen.owner_account().empty());

  // Table creation per caller: alice's four attempts (two refused) took four of six, so two
  // more, then none; bob is not slowed by alice.
  int more = 0;
  for (int i = 0; i < 4; ++i) {
    st = CallAs(s.stub(), &Stub::CreateTable, As{alice.token()}, ChessAgainstBot(), &resp);
    if (st.ok()) {
      ++more;
    } else {
      EXPECT_EQ(st.error_code(), Code::RESOURCE_EXHAUSTED) << st.error_message();
    }
  }
  EXPECT_EQ(more, 2);
  EXPECT_TRUE(CallAs(s.stub(), &Stub::CreateTable, As{bob.token()}, ChessAgainstBot(), &resp).ok());
  EXPECT_EQ(s.Rows("SELECT count(*) FROM game.games"), 5);

  // A league too big to schedule is refused before anything is written.
  v1::CreateLeagueRequest league;
  league.set_name("too big");
  league.mutable_settings()->set_engine_game("chess");
  for (int i = 0; i < 64; ++i) {
    auto* p = league.add_participants()->mutable_spec();
    p->set_kind(v1::SEAT_KIND_MODEL);
    p->set_model_id("mock-competent-" + std::to_string(i));
  }
  league.set_games_per_pairing(20);
  v1::League made;
  st = CallAs(s.stub(), &Stub::CreateLeague, As{alice.token()}, league, &made);
  EXPECT_EQ(st.error_code(), Code::INVALID_ARGUMENT) << st.error_message();
  EXPECT_EQ(s.Rows("SELECT count(*) FROM arena.leagues"), 0);
}

}  // namespace
}  // namespace arena::testing
