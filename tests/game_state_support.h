// Shared helpers of the game-state integration tests: a real arena-game-state process on a
// fresh database, stubs with credentials in metadata, and random legal play.
#pragma once

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "arena/v1/game_state.grpc.pb.h"
#include "clients/game_state_client.h"
#include "common/grpc_util.h"
#include "common/proto_words.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "pqxx/pqxx"
#include "services/common/service_auth.h"
#include "tests/support/server_process.h"
#include "tests/support/test_database.h"

namespace arena::testing {

struct Creds {
  Creds() = default;
  Creds(std::string seat_credential, std::string host_credential = "",
        std::string service_name = "")
      : seat(std::move(seat_credential)),
        host(std::move(host_credential)),
        service(std::move(service_name)) {}
  std::string seat;
  std::string host;
  std::string service;  // "arena", "arena-bot", ... (its secret from the test secrets dir)
};

class GameStateHarness {
 public:
  // Flags that make rule windows short enough for tests.
  static std::vector<std::string> FastFlags() {
    return {"--first_move_abort_ms=800", "--disconnect_loss_ms=800", "--keepalive_ms=100",
            "--restart_grace_ms=300", "--delay_credit_cap_ms=1000",
            // Every test client is one loopback address: quotas off (security_test has them on).
            "--anonymous_table_burst=1000000", "--watch_streams_per_address=1000000"};
  }

  explicit GameStateHarness(std::vector<std::string> extra = {}) {
    if (!db_.ok()) return;
    Start(std::move(extra));
  }

  void Start(std::vector<std::string> extra = {}) {
    std::vector<std::string> flags = FastFlags();
    flags.push_back("--database_url=" + db_.url());
    flags.insert(flags.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ServerProcess>(ARENA_GAME_STATE_BIN, flags);
    stub_ = v1::GameStateService::NewStub(server_->channel());
  }

  bool ok() const { return db_.ok() && server_ && server_->ok(); }
  ServerProcess& server() { return *server_; }
  v1::GameStateService::Stub& stub() { return *stub_; }
  const TestDatabase& db() const { return db_; }

  static void Attach(grpc::ClientContext& ctx, const Creds& c) {
    common::SetDeadline(ctx, absl::Seconds(20));
    absl::StatusOr<common::ServiceIdentity> id = absl::NotFoundError("no service");
    if (!c.service.empty()) id = common::ServiceIdentity::Load(TestSecretsDir(), c.service);
    clients::Credentials{.service = id.ok() ? &*id : nullptr, .seat = c.seat, .host = c.host}
        .Attach(ctx);
  }

  grpc::Status Create(const v1::CreateTableRequest& req, v1::CreateTableResponse* resp,
                      const Creds& c = {}) {
    grpc::ClientContext ctx;
    Attach(ctx, c);
    return stub_->CreateTable(&ctx, req, resp);
  }
  // Joins as arena does for a person (only arena may join a seat on game-state).
  grpc::Status Join(const std::string& game, int seat, std::string* cred,
                    const std::string& seed = "") {
    grpc::ClientContext ctx;
    Attach(ctx, {"", "", "arena"});
    v1::JoinTableRequest req;
    req.set_game_id(game);
    req.set_seat(seat);
    req.set_seat_seed(seed);
    v1::JoinTableResponse resp;
    grpc::Status s = stub_->JoinTable(&ctx, req, &resp);
    *cred = resp.seat_credential();
    return s;
  }
  grpc::Status Get(const std::string& game, v1::GameView* view, const Creds& c = {}) {
    grpc::ClientContext ctx;
    Attach(ctx, c);
    v1::GetGameRequest req;
    req.set_game_id(game);
    return stub_->GetGame(&ctx, req, view);
  }
  grpc::Status Submit(const std::string& game, int seat, v1::ActionKind kind,
                      const std::string& text, int64_t number, const Creds& c,
                      v1::SubmitActionResponse* resp = nullptr,
                      const std::string& annotation = "") {
    grpc::ClientContext ctx;
    Attach(ctx, c);
    v1::SubmitActionRequest req;
    req.set_game_id(game);
    req.set_seat(seat);
    req.set_kind(kind);
    req.mutable_move()->set_text(text);
    req.set_expected_action_number(number);
    req.set_annotation(annotation);
    v1::SubmitActionResponse local;
    return stub_->SubmitAction(&ctx, req, resp ? resp : &local);
  }
  grpc::Status Record(const std::string& game, v1::GameRecord* rec, const Creds& c = {}) {
    grpc::ClientContext ctx;
    Attach(ctx, c);
    v1::GetRecordRequest req;
    req.set_game_id(game);
    return stub_->GetRecord(&ctx, req, rec);
  }

  // A table of `game` with `n` guest seats, joined; returns id, host and seat credentials.
  struct Table {
    std::string id;
    std::string host;
    std::vector<std::string> seats;
  };
  Table NewTable(const std::string& game, int n, const v1::ClockSettings& clock = {},
                 std::map<std::string, std::string> variant = {}, int move_cap = 0,
                 const Creds& creator = {}, bool is_public = true) {
    v1::CreateTableRequest req;
    req.mutable_settings()->set_engine_game(game);
    *req.mutable_settings()->mutable_clock() = clock;
    req.mutable_settings()->set_level(v1::TABLE_LEVEL_BEGINNER);
    req.mutable_settings()->set_is_public(is_public);
    req.mutable_settings()->set_move_cap(move_cap);
    for (auto& [k, v] : variant)
      (*req.mutable_settings()->mutable_variant()->mutable_options())[k] = v;
    for (int i = 0; i < n; ++i) req.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
    v1::CreateTableResponse resp;
    grpc::Status s = Create(req, &resp, creator);
    EXPECT_TRUE(s.ok()) << s.error_message();
    Table t{resp.game_id(), resp.host_credential(), {}};
    for (int i = 0; i < n; ++i) {
      std::string cred;
      grpc::Status js = Join(t.id, i, &cred, "seed-of-seat-" + std::to_string(i));
      EXPECT_TRUE(js.ok()) << js.error_message();
      t.seats.push_back(cred);
    }
    return t;
  }

  // The action kind of a legal action's text.
  static v1::ActionKind KindOf(const std::string& text) { return common::ActionKindOfText(text); }

  // Plays random legal actions until the game ends or `max_actions`; returns actions played.
  int PlayRandom(const Table& t, int max_actions, std::mt19937& rng) {
    int played = 0;
    for (; played < max_actions; ++played) {
      v1::GameView v;
      grpc::Status s = Get(t.id, &v);
      if (!s.ok()) {
        ADD_FAILURE() << s.error_message();
        return played;
      }
      if (v.status() != v1::GAME_STATUS_ACTIVE) return played;
      if (v.to_move() < 0 || v.legal_moves().empty()) {
        ADD_FAILURE() << "active game with nobody to move";
        return played;
      }
      const std::string& m = v.legal_moves(rng() % v.legal_moves_size());
      grpc::Status a =
          Submit(t.id, v.to_move(), KindOf(m), m, v.action_number(), {t.seats[v.to_move()]});
      if (!a.ok()) {
        ADD_FAILURE() << "legal action " << m << " refused: " << a.error_message();
        return played;
      }
    }
    return played;
  }

  int64_t CountRows(const std::string& sql) {
    pqxx::connection c(db_.url());
    pqxx::work w(c);
    return w.exec1(sql)[0].as<int64_t>();
  }

 private:
  TestDatabase db_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<v1::GameStateService::Stub> stub_;
};

}  // namespace arena::testing
