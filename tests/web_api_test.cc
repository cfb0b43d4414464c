// arena-web against the real servers: the JSON API maps arena's and game-state's RPCs with
// their own principal rules, game streams start with a snapshot, carry every move, keep alive,
// resume from Last-Event-ID and end with the game, and a private game's stream is refused.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/web_deployment.h"

namespace arena::testing {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

class WebApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { d_ = new WebDeployment(); }
  static void TearDownTestSuite() {
    delete d_;
    d_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(d_->ok()) << d_->Logs(); }

  static HttpReply Call(const std::string& method, const json& body, const std::string& token = "",
                        std::map<std::string, std::string> headers = {}) {
    if (!token.empty()) headers["Authorization"] = "Bearer " + token;
    return HttpCall(d_->web_port(), "POST", "/api/" + method, body.dump(), headers);
  }
  static json Ok(const HttpReply& r) {
    EXPECT_EQ(r.status, 200) << r.body;
    return json::parse(r.body, nullptr, false);
  }
  static std::string Guest() {
    return Ok(Call("arena/GuestToken", {{"display_name", "g"}}))["token"];
  }

  // A public two-guest hex tic-tac-toe table with both seats taken: id and credentials.
  struct Table {
    std::string id;
    std::vector<std::string> seats;
  };
  // Each seat is taken by a guest of its own through arena's JoinTable, as the page does.
  static Table NewTable(bool is_public = true) {
    std::string token = Guest();
    json spec = {{"spec", {{"kind", "SEAT_KIND_GUEST"}}}};
    json r = Ok(Call("arena/CreateTable",
                     {{"settings", {{"engine_game", "hex-tictactoe"}, {"is_public", is_public}}},
                      {"seats", {spec, spec}}},
                     token));
    Table t;
    t.id = r["game_id"];
    for (int s = 0; s < 2; ++s) {
      std::string cred = r["seat_credentials"].size() > static_cast<size_t>(s)
                             ? r["seat_credentials"][s].get<std::string>()
                             : "";
      if (cred.empty()) {
        cred = Ok(Call("arena/JoinTable", {{"game_id", t.id}, {"seat", s}},
                       s == 0 ? token : Guest()))["seat_credential"];
      }
      t.seats.push_back(cred);
    }
    return t;
  }
  // Plays the first legal move of whoever is to move; returns the action text.
  static std::string PlayOne(const Table& t) {
    json v = Ok(Call("game/GetGame", {{"game_id", t.id}}));
    EXPECT_FALSE(v["legal_moves"].empty()) << v.dump();
    int seat = v["to_move"];
    std::string move = v["legal_moves"][0];
    Ok(Call("game/SubmitAction",
            {{"game_id", t.id},
             {"seat", seat},
             {"kind", "ACTION_KIND_MOVE"},
             {"move", {{"text", move}}},
             {"expected_action_number", v["action_number"]}},
            "", {{"X-Arena-Seat-Credential", t.seats[seat]}}));
    return move;
  }

  static WebDeployment* d_;
};
WebDeployment* WebApiTest::d_ = nullptr;

TEST_F(WebApiTest, ThePageIsServedWithStrictHeaders) {
  HttpReply r = HttpCall(d_->web_port(), "GET", "/");
  EXPECT_EQ(r.status, 200);
  EXPECT_THAT(r.body, HasSubstr("<script type=\"module\" src=\"/js/app.js\"></script>"));
  EXPECT_THAT(r.headers["content-security-policy"], HasSubstr("script-src 'self'"));
  EXPECT_EQ(r.headers.count("access-control-allow-origin"), 0u);
  EXPECT_EQ(HttpCall(d_->web_port(), "GET", "/js/board.js").status, 200);
  json games = json::parse(HttpCall(d_->web_port(), "GET", "/api/web/games").body);
  bool toy = false;
  for (const auto& g : games) toy = toy || g["id"] == "hex-tictactoe";
  EXPECT_TRUE(toy) << games.dump();
}

TEST_F(WebApiTest, ArenaDecidesWhoMayCallWhat) {
  std::string guest = Guest();
  json me = Ok(Call("arena/WhoAmI", json::object(), guest));
  EXPECT_EQ(me["role"], "guest");
  HttpReply none = Call("arena/AdminAudit", json::object());
  EXPECT_EQ(none.status, 401) << none.body;
  EXPECT_EQ(json::parse(none.body)["code"], "UNAUTHENTICATED");
  HttpReply refused = Call("arena/AdminAudit", json::object(), guest);
  EXPECT_EQ(refused.status, 403) << refused.body;
  HttpReply forged = Call("arena/AdminAudit", json::object(), "not-a-token");
  EXPECT_EQ(forged.status, 401) << forged.body;
  // Service metadata sent by a browser is not passed on: a hold stays service-only.
  HttpReply hold = Call("arena/ReserveHold", {{"amount_microcredits", 1}}, guest,
                        {{"X-Arena-Service", "arena"}, {"X-Arena-Credential", "00"}});
  EXPECT_EQ(hold.status, 404);

  json admin = Ok(Call("arena/SignIn", {{"name", kAdminName}, {"password", kAdminPassword}}));
  json audit = Ok(Call("arena/AdminAudit", {{"limit", 5}}, admin["token"]));
  EXPECT_TRUE(audit.is_object());
  HttpReply bad = Call("arena/AdminGrant", {{"amount_microcredits", "lots"}}, admin["token"]);
  EXPECT_EQ(bad.status, 400) << bad.body;
}

TEST_F(WebApiTest, SeatCredentialsGoWithTheRequestAndNowhereElse) {
  Table t = NewTable();
  // People sit down through arena only: game-state's own JoinTable is no way around it, from
  // the edge either (issue 17).
  HttpReply around = Call("game/JoinTable", {{"game_id", t.id}, {"seat", 0}}, Guest());
  EXPECT_EQ(around.status, 403) << around.body;
  json v = Ok(Call("game/GetGame", {{"game_id", t.id}}));
  int mover = v["to_move"];
  json submit = {{"game_id", t.id},
                 {"seat", mover},
                 {"kind", "ACTION_KIND_MOVE"},
                 {"move", {{"text", v["legal_moves"][0]}}},
                 {"expected_action_number", v["action_number"]}};
  EXPECT_EQ(Call("game/SubmitAction", submit).status, 401);
  EXPECT_EQ(Call("game/SubmitAction", submit, "", {{"X-Arena-Seat-Credential", t.seats[1 - mover]}})
                .status,
            403);
  json after = Ok(Call("game/GetGame", {{"game_id", t.id}}));
  EXPECT_EQ(after["action_number"], v["action_number"]) << "refusals changed nothing";
  Ok(Call("game/SubmitAction", submit, "", {{"X-Arena-Seat-Credential", t.seats[mover]}}));
  // The rules answer the page's clicks without it knowing the game.
  json now = Ok(Call("game/GetGame", {{"game_id", t.id}}));
  json described = Ok(Call("web/DescribeActions", {{"engine_game", now["engine_game"]},
                                                   {"variant_text", now["variant_text"]},
                                                   {"position", now["position"]},
                                                   {"actions", now["legal_moves"]}}));
  ASSERT_EQ(described["actions"].size(), now["legal_moves"].size());
  std::string cell = described["actions"][0]["cells"][0];
  json action = Ok(Call("web/ActionFor", {{"engine_game", now["engine_game"]},
                                          {"variant_text", now["variant_text"]},
                                          {"position", now["position"]},
                                          {"from", cell},
                                          {"to", cell}}));
  EXPECT_EQ(action["action"], described["actions"][0]["action"]);
  EXPECT_EQ(Call("web/ActionFor", {{"engine_game", now["engine_game"]},
                                   {"variant_text", now["variant_text"]},
                                   {"position", now["position"]},
                                   {"from", "99,99"},
                                   {"to", "99,99"}})
                .status,
            404);
}

TEST_F(WebApiTest, AStreamStartsWithASnapshotCarriesMovesKeepsAliveAndEnds) {
  Table t = NewTable();
  SseReader sse(d_->web_port(), "/api/games/" + t.id + "/events");
  ASSERT_EQ(sse.status(), 200);
  auto first = sse.Next(absl::Seconds(20));
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->event, "snapshot");
  EXPECT_EQ(json::parse(first->data)["game_id"], t.id);
  // The history before the snapshot follows it (created, joined, leader, ...).
  std::string move = PlayOne(t);
  bool saw_move = false, saw_view = false, saw_keepalive = false;
  std::string move_id;
  absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (absl::Now() < deadline && !(saw_move && saw_view && saw_keepalive)) {
    auto f = sse.Next(absl::Seconds(5));
    ASSERT_TRUE(f.has_value()) << "the stream stalled";
    if (f->event == "comment") saw_keepalive = true;
    if (f->event == "event") {
      json e = json::parse(f->data);
      if (e["type"] == "action" && e["action"] == move) {
        saw_move = true;
        move_id = f->id;
        EXPECT_EQ(e["sequence"].get<std::string>(), f->id) << "64-bit integers are JSON strings";
      }
    }
    if (f->event == "view" && saw_move) saw_view = json::parse(f->data)["action_number"] == "1";
  }
  EXPECT_TRUE(saw_move && saw_view && saw_keepalive) << saw_move << saw_view << saw_keepalive;

  // Resuming after the event before the move gets the move first, no snapshot.
  SseReader resumed(d_->web_port(), "/api/games/" + t.id + "/events",
                    {{"Last-Event-ID", std::to_string(std::stoll(move_id) - 1)}});
  auto r1 = resumed.Next(absl::Seconds(20));
  ASSERT_TRUE(r1.has_value());
  EXPECT_EQ(r1->event, "event");
  EXPECT_EQ(r1->id, move_id);

  // Play to the end: every stream gets `end`, and the replay has every position.
  int played = 1;
  for (int i = 0; i < 200; ++i) {
    json v = Ok(Call("game/GetGame", {{"game_id", t.id}}));
    if (v["status"] != "GAME_STATUS_ACTIVE") break;
    PlayOne(t);
    played++;
  }
  // Every action reaches the stream before `end`, the last one (that ended the game) too.
  int actions_seen = 1;  // the first move, read above
  bool ended = false;
  deadline = absl::Now() + absl::Seconds(30);
  while (absl::Now() < deadline && !ended) {
    auto f = sse.Next(absl::Seconds(10));
    if (!f) break;
    if (f->event == "event" && json::parse(f->data)["type"] == "action") actions_seen++;
    ended = f->event == "end";
    if (ended) {
      EXPECT_THAT(f->data, HasSubstr("GAME_STATUS_FINISHED"));
    }
  }
  EXPECT_TRUE(ended);
  EXPECT_EQ(actions_seen, played);
  EXPECT_FALSE(sse.Next(absl::Seconds(2)).has_value()) << "the stream closes after `end`";
  json replay = Ok(Call("web/ReplayBoards", {{"game_id", t.id}, {"perspective", 1}}));
  EXPECT_EQ(replay["positions"].size(), static_cast<size_t>(played + 1));
  EXPECT_EQ(replay["shape"], "hex");
  EXPECT_EQ(replay["perspective"], 1);
  EXPECT_FALSE(replay["cells"].empty());
  // A finished game's stream: snapshot, the history, then `end`.
  SseReader late(d_->web_port(), "/api/games/" + t.id + "/events");
  auto l1 = late.Next(absl::Seconds(20));
  // A keep-alive comment may come first on a loaded machine (one every 400 ms here).
  while (l1.has_value() && l1->event == "comment") l1 = late.Next(absl::Seconds(20));
  ASSERT_TRUE(l1.has_value());
  EXPECT_EQ(l1->event, "snapshot");
}

// A stream opened mid-game gets the moves before it from the record and the rest live: every
// action once, in order, each with the table seat that played it, whoever drew the lead.
TEST_F(WebApiTest, AStreamJoinedMidGameHasEveryMoveWithItsSeat) {
  for (int round = 0; round < 4; ++round) {
    Table t = NewTable();
    std::vector<std::pair<std::string, int>> played;  // action, table seat
    auto play = [&] {
      json v = Ok(Call("game/GetGame", {{"game_id", t.id}}));
      int seat = v["to_move"];
      played.emplace_back(PlayOne(t), seat);
    };
    play();
    play();
    SseReader sse(d_->web_port(), "/api/games/" + t.id + "/events");
    ASSERT_EQ(sse.status(), 200);
    for (int i = 0; i < 30; ++i) {
      json v = Ok(Call("game/GetGame", {{"game_id", t.id}}));
      if (v["status"] != "GAME_STATUS_ACTIVE") break;
      play();
    }
    std::vector<std::pair<std::string, int>> seen;
    bool ended = false;
    absl::Time deadline = absl::Now() + absl::Seconds(30);
    while (absl::Now() < deadline && !ended) {
      auto f = sse.Next(absl::Seconds(10));
      if (!f) break;
      if (f->event == "snapshot") seen.clear();
      if (f->event == "event") {
        json e = json::parse(f->data);
        if (e["type"] == "action") seen.emplace_back(e["action"], e["seat"].get<int>());
      }
      ended = f->event == "end";
    }
    EXPECT_TRUE(ended);
    EXPECT_EQ(seen, played) << "round " << round;
  }
}

TEST_F(WebApiTest, APrivateGamesStreamIsRefused) {
  Table t = NewTable(/*is_public=*/false);
  SseReader sse(d_->web_port(), "/api/games/" + t.id + "/events");
  ASSERT_EQ(sse.status(), 200);
  auto f = sse.Next(absl::Seconds(20));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->event, "failure");
  EXPECT_THAT(f->data, HasSubstr("PERMISSION_DENIED"));
  SseReader missing(d_->web_port(), "/api/games/no-such-game/events");
  auto m = missing.Next(absl::Seconds(20));
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->event, "failure");
  EXPECT_THAT(m->data, HasSubstr("NOT_FOUND"));
}

}  // namespace
}  // namespace arena::testing
