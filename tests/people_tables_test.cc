// End to end (issue 17): people at tables on the real services and PostgreSQL. Two people, a
// guest and a model sit at tables through arena; a blocked person is refused a seat at the
// table of the person who blocked them, by arena and by game-state directly; an invitation
// reserves a seat (another expires) and then fills it; a mid-game board and darts change
// reaches every watcher and the game goes on under it; both people's records list the game
// and their ratings move.
#include <atomic>
#include <mutex>
#include <thread>

#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "common/proto_words.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/support/arena_client.h"
#include "tests/support/deployment.h"

namespace arena::testing {
namespace {

using Stub = v1::ArenaService::Stub;
using ::testing::HasSubstr;
using Code = grpc::StatusCode;

// A WatchGame stream read on its own thread: every event it delivers, until cancelled.
class StreamReader {
 public:
  StreamReader(v1::GameStateService::Stub& stub, const std::string& game_id,
               const std::string& seat_credential) {
    common::SetDeadline(ctx_, absl::Seconds(60));
    if (!seat_credential.empty()) ctx_.AddMetadata("x-arena-seat-credential", seat_credential);
    v1::WatchGameRequest req;
    req.set_game_id(game_id);
    req.set_seat_credential(seat_credential);
    stream_ = stub.WatchGame(&ctx_, req);
    thread_ = std::thread([this] {
      v1::GameEvent e;
      while (stream_->Read(&e)) {
        std::lock_guard<std::mutex> lock(mu_);
        events_.push_back(e);
      }
    });
  }
  ~StreamReader() {
    ctx_.TryCancel();
    thread_.join();
    (void)stream_->Finish();
  }
  // The "settings" events seen so far that carried `key` in their detail.
  int SettingsWith(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    int n = 0;
    for (const auto& e : events_) {
      if (e.type() != "settings") continue;
      nlohmann::json d = nlohmann::json::parse(e.detail_json(), nullptr, false);
      if (d.is_object() && d.contains(key) && e.has_snapshot()) ++n;
    }
    return n;
  }
  bool WaitFor(const std::string& key, int count) {
    for (absl::Time end = absl::Now() + absl::Seconds(10); absl::Now() < end;) {
      if (SettingsWith(key) >= count) return true;
      absl::SleepFor(absl::Milliseconds(20));
    }
    return false;
  }

 private:
  grpc::ClientContext ctx_;
  std::unique_ptr<grpc::ClientReader<v1::GameEvent>> stream_;
  std::thread thread_;
  std::mutex mu_;
  std::vector<v1::GameEvent> events_;
};

class PeopleTablesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(d_.ok()) << d_.AllLogs().substr(0, 5000);
    stub_ = d_.Arena();
    gs_ = d_.GameState();
  }

  v1::SessionToken SignUp(const std::string& name) {
    v1::SignUpRequest r;
    r.set_name(name);
    r.set_password(name + "-password-1");
    v1::SessionToken t;
    grpc::Status s = CallAs(*stub_, &Stub::SignUp, As{}, r, &t);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return t;
  }

  grpc::Status Join(const v1::SessionToken& who, const std::string& game, int seat,
                    v1::ArenaJoinTableResponse* resp) {
    v1::ArenaJoinTableRequest r;
    r.set_game_id(game);
    r.set_seat(seat);
    return CallAs(*stub_, &Stub::JoinTable, As{who.token()}, r, resp);
  }

  v1::GameView View(const std::string& game) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    v1::GetGameRequest r;
    r.set_game_id(game);
    v1::GameView v;
    grpc::Status s = gs_->GetGame(&ctx, r, &v);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return v;
  }

  grpc::Status Act(const std::string& game, int seat, v1::ActionKind kind, const std::string& text,
                   int64_t number, const std::string& credential) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    ctx.AddMetadata("x-arena-seat-credential", credential);
    v1::SubmitActionRequest r;
    r.set_game_id(game);
    r.set_seat(seat);
    r.set_kind(kind);
    r.mutable_move()->set_text(text);
    r.set_expected_action_number(number);
    v1::SubmitActionResponse resp;
    return gs_->SubmitAction(&ctx, r, &resp);
  }

  // The seat to move plays its first legal action; false when the game is not waiting on one
  // of `credentials` (a model's turn, or over).
  bool PlayOne(const std::string& game, const std::map<int, std::string>& credentials) {
    v1::GameView v = View(game);
    if (v.status() != v1::GAME_STATUS_ACTIVE || !credentials.count(v.to_move()) ||
        v.legal_moves().empty()) {
      return false;
    }
    const std::string m = v.legal_moves(0);
    grpc::Status s = Act(game, v.to_move(), common::ActionKindOfText(m), m, v.action_number(),
                         credentials.at(v.to_move()));
    EXPECT_TRUE(s.ok()) << m << ": " << s.error_message();
    return s.ok();
  }

  // Polls the record of `who` until it lists `game`.
  v1::AccountRecord RecordWith(const v1::SessionToken& who, const std::string& name,
                               const std::string& game) {
    v1::AccountRecord rec;
    for (absl::Time end = absl::Now() + absl::Seconds(15); absl::Now() < end;) {
      v1::AccountRecordRequest r;
      r.set_name(name);
      rec.Clear();
      if (CallAs(*stub_, &Stub::GetAccountRecord, As{who.token()}, r, &rec).ok()) {
        for (const auto& g : rec.games()) {
          if (g.game_id() == game) return rec;
        }
      }
      absl::SleepFor(absl::Milliseconds(100));
    }
    ADD_FAILURE() << name << "'s record never listed " << game;
    return rec;
  }

  static const v1::RecordedGame* Find(const v1::AccountRecord& rec, const std::string& game) {
    for (const auto& g : rec.games()) {
      if (g.game_id() == game) return &g;
    }
    return nullptr;
  }

  Deployment d_;
  std::unique_ptr<Stub> stub_;
  std::unique_ptr<v1::GameStateService::Stub> gs_;
};

TEST_F(PeopleTablesTest, TwoPeopleAGuestAndAModelAtTables) {
  v1::SessionToken alice = SignUp("alice");
  v1::SessionToken bob = SignUp("bob");
  v1::SessionToken carol = SignUp("carol");
  v1::SessionToken guest;
  {
    v1::GuestTokenRequest r;
    r.set_display_name("Gus");
    ASSERT_TRUE(CallAs(*stub_, &Stub::GuestToken, As{}, r, &guest).ok());
  }
  {
    v1::BlockRequest r;
    r.set_name("carol");
    v1::BlockResponse resp;
    ASSERT_TRUE(CallAs(*stub_, &Stub::Block, As{alice.token()}, r, &resp).ok());
  }

  // alice's three-handed Chestonia table: her own seat (blue, the first), one for an account,
  // one for anyone.
  v1::ArenaCreateTableRequest create;
  create.mutable_settings()->set_engine_game("chestonia-chess");
  auto& options = *create.mutable_settings()->mutable_variant()->mutable_options();
  options["players"] = "3";
  options["board"] = "alternating";
  options["darts"] = "off";
  create.mutable_settings()->set_is_public(true);
  v1::ArenaSeat* own = create.add_seats();
  own->mutable_spec()->set_kind(v1::SEAT_KIND_HUMAN);
  own->mutable_spec()->set_account_id(alice.account_id());
  create.add_seats()->mutable_spec()->set_kind(v1::SEAT_KIND_HUMAN);
  create.add_seats()->mutable_spec()->set_kind(v1::SEAT_KIND_GUEST);
  v1::ArenaCreateTableResponse table;
  grpc::Status s = CallAs(*stub_, &Stub::CreateTable, As{alice.token()}, create, &table);
  ASSERT_TRUE(s.ok()) << s.error_message();
  const std::string game = table.game_id();
  ASSERT_EQ(table.seat_credentials_size(), 3);
  ASSERT_FALSE(table.seat_credentials(0).empty());

  // An invitation that expires: the seat is reserved, then open again.
  {
    v1::InviteRequest r;
    r.set_name("bob");
    r.set_game_id(game);
    r.set_seat(2);
    r.set_ttl_seconds(1);
    v1::InviteResponse resp;
    ASSERT_TRUE(CallAs(*stub_, &Stub::Invite, As{alice.token()}, r, &resp).ok());
    v1::ArenaJoinTableResponse joined;
    s = Join(guest, game, 2, &joined);
    EXPECT_EQ(s.error_code(), Code::PERMISSION_DENIED);
    EXPECT_THAT(s.error_message(), HasSubstr("reserved for bob"));
    absl::SleepFor(absl::Milliseconds(1500));
    v1::AnswerInvitationRequest a;
    a.set_invitation_id(resp.invitation_id());
    a.set_accept(true);
    v1::AnswerInvitationResponse answered;
    EXPECT_EQ(CallAs(*stub_, &Stub::AnswerInvitation, As{bob.token()}, a, &answered).error_code(),
              Code::FAILED_PRECONDITION);
  }

  // The invitation that fills seat 1.
  int64_t invitation = 0;
  {
    v1::InviteRequest r;
    r.set_name("bob");
    r.set_game_id(game);
    r.set_seat(1);
    r.set_note("a three-handed game?");
    v1::InviteResponse resp;
    s = CallAs(*stub_, &Stub::Invite, As{alice.token()}, r, &resp);
    ASSERT_TRUE(s.ok()) << s.error_message();
    invitation = resp.invitation_id();
    EXPECT_TRUE(resp.has_expires_at());
  }
  {  // bob sees it pending; GetTable shows the seat reserved for him.
    v1::ListInvitationsResponse list;
    ASSERT_TRUE(
        CallAs(*stub_, &Stub::ListInvitations, As{bob.token()}, v1::ListInvitationsRequest(), &list)
            .ok());
    ASSERT_EQ(list.invitations_size(), 1);
    EXPECT_EQ(list.invitations(0).invitation_id(), invitation);
    EXPECT_EQ(list.invitations(0).game_id(), game);
    EXPECT_EQ(list.invitations(0).seat(), 1);
    EXPECT_EQ(list.invitations(0).from_name(), "alice");
    EXPECT_EQ(list.invitations(0).state(), v1::INVITATION_STATE_PENDING);
    v1::TableRef ref;
    ref.set_game_id(game);
    v1::ArenaTable t;
    ASSERT_TRUE(CallAs(*stub_, &Stub::GetTable, As{}, ref, &t).ok());
    ASSERT_EQ(t.seats_size(), 3);
    EXPECT_TRUE(t.seats(1).reserved());
    EXPECT_EQ(t.seats(1).reserved_for(), "bob");
    EXPECT_TRUE(t.seats(0).filled());
    EXPECT_EQ(t.seats(0).name(), "alice");
  }

  // carol, blocked by alice, is refused a seat: by arena, and by game-state directly.
  v1::ArenaJoinTableResponse joined;
  s = Join(carol, game, 2, &joined);
  EXPECT_EQ(s.error_code(), Code::PERMISSION_DENIED);
  EXPECT_THAT(s.error_message(), HasSubstr("alice, who hosts or sits at this table, has blocked"));
  {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    ctx.AddMetadata("authorization", "Bearer " + carol.token());
    v1::JoinTableRequest r;
    r.set_game_id(game);
    r.set_seat(2);
    v1::JoinTableResponse resp;
    grpc::Status direct = gs_->JoinTable(&ctx, r, &resp);
    EXPECT_EQ(direct.error_code(), Code::PERMISSION_DENIED);
    EXPECT_THAT(direct.error_message(), HasSubstr("seats are taken through arena"));
  }
  // Invitations are refused both ways too.
  {
    v1::InviteRequest r;
    r.set_name("carol");
    r.set_game_id(game);
    r.set_seat(2);
    v1::InviteResponse resp;
    s = CallAs(*stub_, &Stub::Invite, As{alice.token()}, r, &resp);
    EXPECT_EQ(s.error_code(), Code::PERMISSION_DENIED);
    EXPECT_THAT(s.error_message(), HasSubstr("you blocked carol"));
    r.set_name("alice");
    r.clear_game_id();
    s = CallAs(*stub_, &Stub::Invite, As{carol.token()}, r, &resp);
    EXPECT_EQ(s.error_code(), Code::PERMISSION_DENIED);
  }
  // Seat 1 is for an account: a guest cannot take it.
  s = Join(guest, game, 1, &joined);
  EXPECT_EQ(s.error_code(), Code::PERMISSION_DENIED);
  EXPECT_THAT(s.error_message(), HasSubstr("signed-in account"));

  // bob accepts and is seated; alice sees the answer; the guest takes the last seat.
  std::map<int, std::string> credentials = {{0, table.seat_credentials(0)}};
  {
    v1::AnswerInvitationRequest a;
    a.set_invitation_id(invitation);
    a.set_accept(true);
    v1::AnswerInvitationResponse answered;
    s = CallAs(*stub_, &Stub::AnswerInvitation, As{bob.token()}, a, &answered);
    ASSERT_TRUE(s.ok()) << s.error_message();
    ASSERT_FALSE(answered.seat_credential().empty());
    EXPECT_EQ(answered.invitation().state(), v1::INVITATION_STATE_ACCEPTED);
    credentials[1] = answered.seat_credential();
    v1::ListInvitationsRequest sent;
    sent.set_sent(true);
    v1::ListInvitationsResponse list;
    ASSERT_TRUE(CallAs(*stub_, &Stub::ListInvitations, As{alice.token()}, sent, &list).ok());
    ASSERT_EQ(list.invitations_size(), 2);
    EXPECT_EQ(list.invitations(0).state(), v1::INVITATION_STATE_ACCEPTED);
    EXPECT_EQ(list.invitations(0).to_name(), "bob");
    EXPECT_EQ(list.invitations(1).state(), v1::INVITATION_STATE_EXPIRED);
  }
  s = Join(guest, game, 2, &joined);
  ASSERT_TRUE(s.ok()) << s.error_message();
  credentials[2] = joined.seat_credential();
  EXPECT_EQ(joined.display_name(), "Gus");

  v1::GameView v = View(game);
  ASSERT_EQ(v.status(), v1::GAME_STATUS_ACTIVE);
  EXPECT_EQ(v.seats(0).spec().account_id(), alice.account_id());
  EXPECT_EQ(v.seats(1).spec().account_id(), bob.account_id());
  EXPECT_EQ(v.seats(1).spec().kind(), v1::SEAT_KIND_HUMAN);

  // Watchers: a spectator and bob at his seat.
  StreamReader spectator(*gs_, game, "");
  StreamReader bob_stream(*gs_, game, credentials[1]);
  ASSERT_TRUE(PlayOne(game, credentials));
  ASSERT_TRUE(PlayOne(game, credentials));

  // The host changes board and darts mid-game: everyone is told at once, and it takes effect
  // when the turn passes.
  {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    ctx.AddMetadata("x-arena-host-credential", table.host_credential());
    v1::UpdateSettingsRequest r;
    r.set_game_id(game);
    auto& o = *r.mutable_settings()->mutable_variant()->mutable_options();
    o["players"] = "3";
    o["board"] = "plain";
    o["darts"] = "on";
    v1::GameView after;
    grpc::Status u = gs_->UpdateSettings(&ctx, r, &after);
    ASSERT_TRUE(u.ok()) << u.error_message();
  }
  EXPECT_TRUE(spectator.WaitFor("pending_variant", 1));
  EXPECT_TRUE(bob_stream.WaitFor("pending_variant", 1));
  EXPECT_THAT(View(game).variant_text(), HasSubstr("board=alternating"));
  ASSERT_TRUE(PlayOne(game, credentials));  // the turn under way ends under the old board
  EXPECT_TRUE(spectator.WaitFor("applied_variant", 1));
  EXPECT_TRUE(bob_stream.WaitFor("applied_variant", 1));
  v = View(game);
  EXPECT_THAT(v.variant_text(), HasSubstr("board=plain"));
  EXPECT_THAT(v.variant_text(), HasSubstr("darts=on"));
  EXPECT_THAT(v.position(), HasSubstr("board=plain"));
  // The game goes on under the new settings.
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(PlayOne(game, credentials)) << i;
  EXPECT_THAT(View(game).position(), HasSubstr("darts=on"));

  // bob and the guest resign: alice wins.
  v = View(game);
  ASSERT_TRUE(Act(game, 1, v1::ACTION_KIND_RESIGN, "", v.action_number(), credentials[1]).ok());
  v = View(game);
  ASSERT_TRUE(Act(game, 2, v1::ACTION_KIND_RESIGN, "", v.action_number(), credentials[2]).ok());
  v = View(game);
  ASSERT_EQ(v.status(), v1::GAME_STATUS_FINISHED);

  // Both people's records list the game; their ratings moved.
  v1::AccountRecord a_rec = RecordWith(alice, "", game);
  v1::AccountRecord b_rec = RecordWith(bob, "", game);
  const v1::RecordedGame* a_game = Find(a_rec, game);
  const v1::RecordedGame* b_game = Find(b_rec, game);
  ASSERT_NE(a_game, nullptr);
  ASSERT_NE(b_game, nullptr);
  EXPECT_EQ(a_game->result(), "win");
  EXPECT_EQ(b_game->result(), "loss");
  EXPECT_EQ(a_game->seat(), 0);
  EXPECT_FALSE(a_game->record_link().empty());
  ASSERT_EQ(a_game->opponents_size(), 2);
  EXPECT_EQ(a_game->opponents(0).name(), "bob");
  EXPECT_EQ(a_game->opponents(1).name(), "Gus");
  EXPECT_EQ(a_game->time_control(), "untimed");
  EXPECT_TRUE(a_game->rated());
  EXPECT_GT(a_game->rating_after(), a_game->rating_before());
  EXPECT_LT(b_game->rating_after(), b_game->rating_before());
  ASSERT_EQ(a_rec.ratings_size(), 1);
  EXPECT_EQ(a_rec.ratings(0).engine_game(), "chestonia-chess");
  EXPECT_EQ(a_rec.ratings(0).games(), 1);
  EXPECT_TRUE(a_rec.ratings(0).provisional());
  EXPECT_GT(a_rec.ratings(0).rating(), 1500);
  // Another member sees alice's public games too; the table shows ratings beside names.
  v1::AccountRecord seen = RecordWith(carol, "alice", game);
  EXPECT_EQ(seen.name(), "alice");
  {
    v1::TableRef ref;
    ref.set_game_id(game);
    v1::ArenaTable t;
    ASSERT_TRUE(CallAs(*stub_, &Stub::GetTable, As{}, ref, &t).ok());
    ASSERT_EQ(t.seats_size(), 3);
    EXPECT_THAT(t.seats(0).label(), HasSubstr("alice ("));
    EXPECT_TRUE(t.seats(0).rating().provisional());
    EXPECT_EQ(t.seats(2).name(), "Gus");
  }

  // bob at a table with a model: he resigns, the model wins; his record lists the model.
  v1::ArenaCreateTableRequest vs_model;
  vs_model.mutable_settings()->set_engine_game("chess");
  v1::ArenaSeat* mine = vs_model.add_seats();
  mine->mutable_spec()->set_kind(v1::SEAT_KIND_HUMAN);
  mine->mutable_spec()->set_account_id(bob.account_id());
  v1::ArenaSeat* model = vs_model.add_seats();
  model->mutable_spec()->set_kind(v1::SEAT_KIND_MODEL);
  model->mutable_spec()->set_model_id("mock-competent");
  model->mutable_spec()->set_funding(v1::FUNDING_OWN_KEY);
  model->set_own_api_key(kOwnKey);
  v1::ArenaCreateTableResponse t2;
  s = CallAs(*stub_, &Stub::CreateTable, As{bob.token()}, vs_model, &t2);
  ASSERT_TRUE(s.ok()) << s.error_message();
  // The model may move meanwhile: a resignation with a stale action number is retried.
  bool resigned = false;
  for (int attempt = 0; attempt < 20 && !resigned; ++attempt) {
    v = View(t2.game_id());
    ASSERT_EQ(v.status(), v1::GAME_STATUS_ACTIVE);
    resigned =
        Act(t2.game_id(), 0, v1::ACTION_KIND_RESIGN, "", v.action_number(), t2.seat_credentials(0))
            .ok();
  }
  ASSERT_TRUE(resigned);
  b_rec = RecordWith(bob, "", t2.game_id());
  const v1::RecordedGame* vs = Find(b_rec, t2.game_id());
  ASSERT_NE(vs, nullptr);
  EXPECT_EQ(vs->result(), "loss");
  ASSERT_EQ(vs->opponents_size(), 1);
  EXPECT_EQ(vs->opponents(0).participant(), "model:mock-competent");
  EXPECT_EQ(vs->opponents(0).kind(), v1::SEAT_KIND_MODEL);
  EXPECT_EQ(b_rec.games(0).game_id(), t2.game_id());  // newest first
}

}  // namespace
}  // namespace arena::testing
