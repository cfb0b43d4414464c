// End to end (issue 17, Deliver 5): at a clue table every seat gets clues, model seats included,
// in their prompt. Two chess tables of two mock models on the real services, one with clues on
// and one without. At the clue table every model turn's request to the mock upstream carried
// the clue line — the gateway's record of what it sent (arena.ai_turns, the attempt's prompt)
// has it, and the mock's own reply names the clue it read in the request it received — and the
// clue is the move arena's clue bot suggests. At the other table neither has any clue.
#include <string>
#include <vector>

#include "arena/v1/arena.grpc.pb.h"
#include "gateway/prompt.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "pqxx/pqxx"
#include "tests/support/arena_client.h"
#include "tests/support/deployment.h"

namespace arena::testing {
namespace {

using Stub = v1::ArenaService::Stub;
using ::testing::HasSubstr;
using ::testing::Not;

// A model turn as arena recorded it.
struct ModelTurnRecord {
  std::string outcome;
  std::string reasoning;   // the model's, as the mock upstream wrote it
  std::string first_user;  // the user message of the turn's first call, as the gateway sent it
};

std::vector<ModelTurnRecord> ModelTurns(const std::string& db_url, const std::string& game_id) {
  pqxx::connection c(db_url);
  pqxx::work t(c);
  std::vector<ModelTurnRecord> out;
  for (const auto& row : t.exec_params(
           "SELECT outcome, reasoning, attempts_json FROM arena.ai_turns WHERE game_id = $1 "
           "AND state = 'submitted' ORDER BY turn_seq",
           game_id)) {
    ModelTurnRecord r;
    r.outcome = row[0].as<std::string>();
    r.reasoning = row[1].as<std::string>();
    nlohmann::json attempts = nlohmann::json::parse(row[2].as<std::string>(), nullptr, false);
    if (attempts.is_array() && !attempts.empty() && attempts[0].contains("prompt")) {
      // The attempt's prompt is the messages of the call, as JSON.
      nlohmann::json messages =
          nlohmann::json::parse(attempts[0]["prompt"].get<std::string>(), nullptr, false);
      if (messages.is_array()) {
        for (const auto& m : messages) {
          if (m.value("role", "") == "user") r.first_user += m.value("content", "") + "\n";
        }
      }
    }
    out.push_back(std::move(r));
  }
  t.commit();
  return out;
}

TEST(ModelCluesTest, ModelSeatsGetTheClueInTheirPromptOnlyAtClueTables) {
  Deployment d;
  ASSERT_TRUE(d.ok()) << d.AllLogs().substr(0, 5000);
  auto stub = d.Arena();
  v1::SignUpRequest up;
  up.set_name("erin");
  up.set_password("erin-password-1");
  v1::SessionToken erin;
  ASSERT_TRUE(CallAs(*stub, &Stub::SignUp, As{}, up, &erin).ok());

  auto create = [&](bool clues) {
    v1::ArenaCreateTableRequest req;
    req.mutable_settings()->set_engine_game("chess");
    req.mutable_settings()->set_clues(clues);
    req.mutable_settings()->set_move_cap(6);
    req.mutable_settings()->mutable_clock()->set_per_move_ms(30000);
    for (int i = 0; i < 2; ++i) {
      v1::ArenaSeat* seat = req.add_seats();
      seat->mutable_spec()->set_kind(v1::SEAT_KIND_MODEL);
      seat->mutable_spec()->set_model_id("mock-competent");
      seat->mutable_spec()->set_funding(v1::FUNDING_OWN_KEY);
      seat->set_own_api_key(kOwnKey);
    }
    v1::ArenaCreateTableResponse table;
    grpc::Status s = CallAs(*stub, &Stub::CreateTable, As{erin.token()}, req, &table);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return table.game_id();
  };
  const std::string with_clues = create(true);
  const std::string without_clues = create(false);
  ASSERT_FALSE(with_clues.empty());
  ASSERT_FALSE(without_clues.empty());

  auto gs = d.GameState();
  auto finished = [&](const std::string& game) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(20));
    v1::GetGameRequest get;
    get.set_game_id(game);
    v1::GameView view;
    return gs->GetGame(&ctx, get, &view).ok() && view.status() != v1::GAME_STATUS_ACTIVE;
  };
  for (absl::Time end = absl::Now() + absl::Minutes(4);
       absl::Now() < end && !(finished(with_clues) && finished(without_clues));) {
    absl::SleepFor(absl::Milliseconds(100));
  }
  ASSERT_TRUE(finished(with_clues) && finished(without_clues)) << d.AllLogs().substr(0, 5000);
  // The driver marks a turn submitted just after game-state applied it: wait for the last.
  auto unsettled = [&] {
    pqxx::connection c(d.db().url());
    pqxx::work t(c);
    return t
        .exec_params(
            "SELECT count(*) FROM arena.ai_turns WHERE game_id IN ($1, $2) AND "
            "state <> 'submitted'",
            with_clues, without_clues)[0][0]
        .as<int>();
  };
  for (absl::Time end = absl::Now() + absl::Seconds(20); absl::Now() < end && unsettled() > 0;) {
    absl::SleepFor(absl::Milliseconds(50));
  }
  ASSERT_EQ(unsettled(), 0);

  // The clue table: every model turn's first request carried one clue line (the level-4 clue
  // bot's move, a legal move: the gateway leaves out any other), and the mock upstream's reply
  // says it received exactly that clue.
  const std::vector<ModelTurnRecord> clued = ModelTurns(d.db().url(), with_clues);
  ASSERT_GE(clued.size(), 6u);
  for (const ModelTurnRecord& r : clued) {
    ASSERT_EQ(r.outcome, "ok");
    auto clue = gateway::FindPromptedClue(r.first_user);
    ASSERT_TRUE(clue.ok()) << "no clue line in the prompt:\n" << r.first_user;
    EXPECT_EQ(clue->level, 4);
    EXPECT_THAT(r.first_user, HasSubstr(gateway::ClueLine(clue->move, 4) + "\n"));
    EXPECT_THAT(r.reasoning, HasSubstr("My prompt's clue: " + clue->move + " (level 4)."));
  }

  // The table without clues: no clue line went out, and the upstream received none.
  const std::vector<ModelTurnRecord> plain = ModelTurns(d.db().url(), without_clues);
  ASSERT_GE(plain.size(), 6u);
  for (const ModelTurnRecord& r : plain) {
    ASSERT_EQ(r.outcome, "ok");
    ASSERT_THAT(r.first_user, HasSubstr("POSITION>>>"));  // the prompt was read back
    EXPECT_FALSE(gateway::FindPromptedClue(r.first_user).ok()) << r.first_user;
    EXPECT_THAT(r.first_user, Not(HasSubstr(gateway::kClueLinePrefix)));
    EXPECT_THAT(r.reasoning, Not(HasSubstr("clue")));
  }

  // Every clue was had: no model turn went on without one.
  const std::string logs = d.AllLogs();
  EXPECT_THAT(logs, Not(HasSubstr("no clue for the model's turn")));
  EXPECT_THAT(logs, Not(HasSubstr("clue is not a legal action")));
  EXPECT_THAT(logs, Not(HasSubstr(kOwnKey)));
}

}  // namespace
}  // namespace arena::testing
