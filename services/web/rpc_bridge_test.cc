#include "services/web/rpc_bridge.h"

#include <future>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "services/web/fake_upstream_test.h"

namespace arena::web {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

JsonReply CallAndWait(const RpcBridge& bridge, const RpcRoute& route, std::string json,
                      std::vector<std::pair<std::string, std::string>> md = {}) {
  std::promise<JsonReply> p;
  bridge.Call(route, json, std::move(md), [&](JsonReply r) { p.set_value(std::move(r)); });
  return p.get_future().get();
}

TEST(RpcBridge, RoutesEveryPublicUnaryRpcAndNoServiceOnlyOne) {
  RpcBridge bridge(nullptr, nullptr, absl::Seconds(1));
  auto names = bridge.RoutedNames();
  for (const char* n : {"arena/SignIn", "arena/GuestToken", "arena/AdminGrant", "arena/AdminAudit",
                        "arena/CreateTable", "arena/GetClue", "arena/GetLeaderboard",
                        "arena/ExportGame", "game/GetGame", "game/SubmitAction", "game/GetRecord",
                        "game/ListGames", "game/JoinTable"}) {
    EXPECT_THAT(names, Contains(n));
  }
  for (const char* n : {"arena/ReserveHold", "arena/PostHold", "arena/VoidHold", "game/VoidGame",
                        "game/Pong", "game/WatchGame"}) {
    EXPECT_THAT(names, Not(Contains(n)));
  }
  EXPECT_EQ(bridge.Find("arena", "ReserveHold"), nullptr);
  EXPECT_EQ(bridge.Find("arena", "signin"), nullptr) << "names are exact";
  EXPECT_EQ(bridge.Find("bot", "ChooseMove"), nullptr);
  ASSERT_NE(bridge.Find("game", "GetGame"), nullptr);
  EXPECT_EQ(bridge.Find("game", "GetGame")->path, "/arena.v1.GameStateService/GetGame");
}

TEST(RpcBridge, ABodyThatIsNotTheRequestIsRefusedBeforeAnyCall) {
  RpcBridge bridge(nullptr, nullptr, absl::Seconds(1));  // no upstream: a call would be 503
  const RpcRoute* route = bridge.Find("arena", "SignIn");
  ASSERT_NE(route, nullptr);
  for (std::string body : {"{", "[]", "{\"name\": 5}", "{\"nmae\": \"x\"}", "\"x\""}) {
    JsonReply r = CallAndWait(bridge, *route, body);
    EXPECT_EQ(r.http_status, 400u) << body;
    auto j = nlohmann::json::parse(r.body);
    EXPECT_EQ(j["code"], "INVALID_ARGUMENT") << body;
    EXPECT_THAT(j["message"].get<std::string>(), HasSubstr("arena.v1.SignInRequest")) << body;
  }
  EXPECT_EQ(CallAndWait(bridge, *route, "{\"name\":\"a\"}").http_status, 503u);
}

TEST(RpcBridge, CallsCarryTheForwardedMetadataAndAnswerInJson) {
  testing::InProcessArena arena;
  RpcBridge bridge(arena.channel(), nullptr, absl::Seconds(5));
  JsonReply r = CallAndWait(bridge, *bridge.Find("arena", "WhoAmI"), "",
                            {{"authorization", "Bearer t0k"}, {"x-arena-seat-credential", "s1"}});
  ASSERT_EQ(r.http_status, 200u) << r.body;
  auto j = nlohmann::json::parse(r.body);
  EXPECT_EQ(j["name"], "Bearer t0k");
  EXPECT_EQ(j["account_id"], "s1");
  EXPECT_EQ(j["role"], "") << "every scalar is printed, the empty ones too";

  JsonReply refused = CallAndWait(bridge, *bridge.Find("arena", "Block"), "{\"name\":\"bob\"}");
  EXPECT_EQ(refused.http_status, 403u);
  auto e = nlohmann::json::parse(refused.body);
  EXPECT_EQ(e["code"], "PERMISSION_DENIED");
  EXPECT_EQ(e["message"], "admins only: bob");
}

}  // namespace
}  // namespace arena::web
