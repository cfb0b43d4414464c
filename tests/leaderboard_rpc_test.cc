// The leaderboard and model statistics through the real `arena` binary over gRPC and
// PostgreSQL (issue 19).
//
// The first test replays `scripts/up`'s demo league as the ratings store recorded it: three-seat
// Chestonia chess, bot:1 and bot:2 against two mock models that never won a game. Before
// Bradley–Terry had a prior, `arenactl leaderboard chestonia-chess` failed on exactly this with
// "INTERNAL: information matrix is singular".
#include <cmath>
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/arena/rating_store.h"
#include "tests/support/arena_client.h"
#include "tests/support/server_process.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace arena::testing {
namespace {

using ::testing::HasSubstr;
using Stub = v1::ArenaService::Stub;

constexpr char kMockCompetent[] = "model:mock-competent";
constexpr char kMockIllegal[] = "model:mock-illegal-then-legal";

class LeaderboardRpcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.ok());
    server_ = std::make_unique<ServerProcess>(ARENA_ARENA_BIN, ArenaFlags(db_.url()));
    ASSERT_TRUE(server_->ok());
    stub_ = v1::ArenaService::NewStub(server_->channel());
  }

  std::string Ctl(const std::vector<std::string>& args, int expect_code) {
    std::vector<std::string> argv = {ARENACTL_BIN, "--arena_addr=" + server_->address()};
    argv.insert(argv.end(), args.begin(), args.end());
    Subprocess p(argv);
    auto code = p.Wait(absl::Seconds(60));
    EXPECT_EQ(code.value_or(-1), expect_code) << p.Stderr();
    return p.Stderr();
  }

  TestDatabase db_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<Stub> stub_;
};

// The demo league's 24 games: every trio of {bot:1, bot:2, mock-competent,
// mock-illegal-then-legal} in all six seatings. Bots finish ahead of models, bot:2 ahead of
// bot:1, and two models at one table share last place: the models never win a pairing.
int RecordDemoLeague(pqxx::connection& c) {
  const std::vector<std::string> all = {"bot:1", "bot:2", kMockCompetent, kMockIllegal};
  auto place = [](const std::string& p) {
    return p == "bot:2" ? 0 : p == "bot:1" ? 1 : 2;  // lower is better
  };
  int recorded = 0;
  for (int leave_out = 0; leave_out < 4; ++leave_out) {
    std::vector<std::string> trio;
    for (int i = 0; i < 4; ++i) {
      if (i != leave_out) trio.push_back(all[i]);
    }
    std::sort(trio.begin(), trio.end());
    do {
      std::vector<int> ranks;
      for (const std::string& p : trio) {
        int better = 0;
        for (const std::string& q : trio) better += place(q) < place(p);
        ranks.push_back(better);
      }
      pqxx::work w(c);
      w.exec("SET LOCAL search_path TO arena, public");
      auto done = service::RecordRatedResult(w, "demo-" + std::to_string(recorded),
                                             "chestonia-chess", std::nullopt, trio, ranks);
      EXPECT_TRUE(done.ok() && *done);
      w.commit();
      ++recorded;
    } while (std::next_permutation(trio.begin(), trio.end()));
  }
  return recorded;
}

TEST_F(LeaderboardRpcTest, DemoLeagueWhereModelsNeverWonHasAFiniteLeaderboard) {
  pqxx::connection c(db_.url());
  ASSERT_EQ(RecordDemoLeague(c), 24);

  v1::LeaderboardRequest req;
  req.set_engine_game("chestonia-chess");
  v1::LeaderboardResponse board;
  grpc::Status s = CallAs(*stub_, &Stub::GetLeaderboard, As{}, req, &board);
  ASSERT_TRUE(s.ok()) << s.error_message();  // was INTERNAL: information matrix is singular
  ASSERT_EQ(board.ratings_size(), 4);
  EXPECT_THAT(board.scale(), HasSubstr("anchored on bot levels"));
  std::map<std::string, v1::Rating> by;
  for (const v1::Rating& r : board.ratings()) by[r.participant()] = r;
  ASSERT_EQ(by.size(), 4u);
  // Anchors: fixed at 800 + 150·level, no interval, no drifting Glicko-2 figure of their own.
  EXPECT_TRUE(by["bot:1"].anchor());
  EXPECT_EQ(by["bot:1"].bt_rating(), service::BotAnchorRating(1));
  EXPECT_EQ(by["bot:2"].bt_rating(), service::BotAnchorRating(2));
  EXPECT_EQ(by["bot:2"].glicko_rating(), 0);
  for (const char* m : {kMockCompetent, kMockIllegal}) {
    const v1::Rating& r = by[m];
    EXPECT_FALSE(r.anchor());
    EXPECT_TRUE(std::isfinite(r.bt_rating()) && std::isfinite(r.bt_low95()) &&
                std::isfinite(r.bt_high95()))
        << m;
    EXPECT_LT(r.bt_low95(), r.bt_rating()) << m;
    EXPECT_GT(r.bt_high95(), r.bt_rating()) << m;
    // Never won a pairing: below the weakest anchor it played.
    EXPECT_LT(r.bt_rating(), service::BotAnchorRating(1)) << m;
    EXPECT_EQ(r.games(), 18) << m;         // three trios of four, six seatings each
    EXPECT_GT(r.glicko_rating(), 0) << m;  // the live figure, shown second
  }
  // Ordered best first by the headline figure.
  for (int i = 1; i < board.ratings_size(); ++i) {
    EXPECT_GE(board.ratings(i - 1).bt_rating(), board.ratings(i).bt_rating());
  }

  // What a new user types after scripts/up.
  std::string out = Ctl({"leaderboard", "chestonia-chess"}, 0);
  EXPECT_THAT(out, HasSubstr("mock-illegal-then-legal"));
  EXPECT_THAT(out, HasSubstr("95% INTERVAL"));
  EXPECT_THAT(out, HasSubstr("GLICKO-2 LIVE, UNANCHORED"));
  EXPECT_THAT(out, HasSubstr("anchored on bot levels"));
  EXPECT_THAT(out, ::testing::Not(HasSubstr("singular")));
}

TEST_F(LeaderboardRpcTest, AnEmptyGameHasAnEmptyLeaderboard) {
  v1::LeaderboardRequest req;
  req.set_engine_game("chess");
  v1::LeaderboardResponse board;
  grpc::Status s = CallAs(*stub_, &Stub::GetLeaderboard, As{}, req, &board);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(board.ratings_size(), 0);
}

// Model statistics by model, game and variant: three tables of one model, two games, two
// variants; each filter counts only its own turns.
TEST_F(LeaderboardRpcTest, ModelStatsFilterByGameAndVariant) {
  {
    pqxx::connection c(db_.url());
    pqxx::work w(c);
    struct Table {
      const char* id;
      const char* game;
      const char* variant;
      int turns;
      int illegal;
    };
    for (const Table& t :
         {Table{"g-hex3", "chestonia-chess", R"({"players":"3","darts":"on"})", 5, 1},
          Table{"g-hex2", "chestonia-chess", R"({"players":"2"})", 3, 0},
          Table{"g-chess", "chess", "{}", 4, 2}}) {
      w.exec_params(
          "INSERT INTO arena.driven_tables (game_id, engine_game, settings_json, policy_json, "
          "state) VALUES ($1, $2, $3, '{}', 'finished')",
          t.id, t.game,
          std::string(R"({"engine_game":")") + t.game + R"(","variant":{"options":)" + t.variant +
              "}}");
      for (int i = 0; i < t.turns; ++i) {
        w.exec_params(
            "INSERT INTO arena.ai_turns (game_id, turn_seq, action_number, seat, participant, "
            "state, illegal, tokens) VALUES ($1, $2, $2, 0, $3, 'submitted', $4, 10)",
            t.id, i, kMockCompetent, i < t.illegal ? 1 : 0);
      }
    }
    w.commit();
  }
  auto stats = [&](const std::string& game, std::map<std::string, std::string> variant) {
    v1::ModelStatsRequest req;
    req.set_model_id("mock-competent");
    req.set_engine_game(game);
    for (const auto& [k, v] : variant) (*req.mutable_variant()->mutable_options())[k] = v;
    v1::ModelStatsResponse resp;
    grpc::Status s = CallAs(*stub_, &Stub::GetModelStats, As{}, req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp;
  };
  auto all = stats("", {});
  ASSERT_EQ(all.models_size(), 1);
  EXPECT_EQ(all.models(0).moves(), 12);
  EXPECT_EQ(all.models(0).games(), 3);
  auto hex = stats("chestonia-chess", {});
  ASSERT_EQ(hex.models_size(), 1);
  EXPECT_EQ(hex.models(0).moves(), 8);
  EXPECT_EQ(hex.models(0).games(), 2);
  auto hex3 = stats("chestonia-chess", {{"players", "3"}});
  ASSERT_EQ(hex3.models_size(), 1);
  EXPECT_EQ(hex3.models(0).moves(), 5);
  EXPECT_NEAR(hex3.models(0).illegal_per_1000_moves(), 200.0, 1e-9);
  auto chess = stats("chess", {});
  ASSERT_EQ(chess.models_size(), 1);
  EXPECT_NEAR(chess.models(0).illegal_per_1000_moves(), 500.0, 1e-9);
  EXPECT_EQ(stats("chess", {{"players", "3"}}).models_size(), 0);

  std::string out =
      Ctl({"model-stats", "mock-competent", "--game=chestonia-chess", "--variant=players=3"}, 0);
  EXPECT_THAT(out, HasSubstr("variant: players=3"));
  EXPECT_THAT(out, HasSubstr("200.0"));
  Ctl({"model-stats", "--variant=players"}, 2);
}

}  // namespace
}  // namespace arena::testing
