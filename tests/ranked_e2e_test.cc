// End to end (issue 26): ranked chess for people on every real server and PostgreSQL.
//
// 200 simulated players queue in two cities at all three staked time controls, sit down at
// the tables arena makes, play (a mate, resignations, an agreed draw, a first move never made)
// and queue again, while arena is killed and restarted twice mid-run. Then, from the stored
// rows and the ledger: every pairing was within both players' windows at the time and under
// the daily cap; nobody was in two games at once; every game's money ended settled (the pot
// less the fee to the winner, full refunds otherwise); the books balance to the micro-credit.
#include <grpcpp/grpcpp.h>

#include <atomic>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/arena/ranked/matchmaker.h"
#include "tests/support/deployment.h"

namespace arena::testing {
namespace {

using Stub = v1::ArenaService::Stub;
using GsStub = v1::GameStateService::Stub;
using ::testing::HasSubstr;

constexpr int kPlayers = 200;
constexpr int64_t kTallinnStake = 1'000'000;  // 1 credit, 5% fee
constexpr int64_t kTartuStake = 250'000;      // a quarter credit, no fee
constexpr int64_t kGrant = 40'000'000;
const char* const kTimeControls[] = {"3+2", "5+0", "10+0"};

v1::City MakeCity(const std::string& id, const std::string& name, int64_t stake, int fee_bps) {
  v1::City c;
  c.set_city_id(id);
  c.set_name(name);
  c.set_stake_microcredits(stake);
  c.set_fee_bps(fee_bps);
  c.set_active(true);
  return c;
}

struct Player {
  std::string name, account_id, token;
  double rating = 1500;
  int quota = 3;  // games to play (money games or aborts) before stopping
};

// What one game's white player does, by the pairing id: the game's end varies.
enum class Plan { kMate, kWhiteResigns, kBlackResigns, kDraw, kNoFirstMove };
Plan PlanOf(int64_t pairing_id) {
  switch (pairing_id % 9) {
    case 0:
    case 5:
      return Plan::kMate;
    case 1:
    case 6:
      return Plan::kWhiteResigns;
    case 2:
    case 7:
      return Plan::kBlackResigns;
    case 3:
    case 8:
      return Plan::kDraw;
    default:
      return Plan::kNoFirstMove;  // 1 in 9: the 20 s first-move abort
  }
}

class RankedRun {
 public:
  explicit RankedRun(Deployment& d)
      : d_(d),
        arena_(v1::ArenaService::NewStub(
            grpc::CreateChannel(d.Address("arena"), grpc::InsecureChannelCredentials()))),
        gs_(v1::GameStateService::NewStub(
            grpc::CreateChannel(d.Address("game-state"), grpc::InsecureChannelCredentials()))) {}

  Stub& arena() { return *arena_; }

  // Calls until the answer is not UNAVAILABLE (arena restarting) or 60 s pass.
  template <typename Method, typename Req, typename Resp>
  grpc::Status Call(Method method, const std::string& token, const Req& req, Resp* resp) {
    grpc::Status s;
    for (absl::Time end = absl::Now() + absl::Seconds(60); absl::Now() < end;) {
      s = CallAs(*arena_, method, As{token}, req, resp);
      if (s.error_code() != grpc::StatusCode::UNAVAILABLE &&
          s.error_code() != grpc::StatusCode::DEADLINE_EXCEEDED) {
        return s;
      }
      absl::SleepFor(absl::Milliseconds(200));
    }
    return s;
  }

  v1::GameView View(const std::string& game) {
    v1::GameView v;
    for (int i = 0; i < 50; ++i) {
      grpc::ClientContext ctx;
      common::SetDeadline(ctx, absl::Seconds(10));
      v1::GetGameRequest r;
      r.set_game_id(game);
      if (gs_->GetGame(&ctx, r, &v).ok()) return v;
      absl::SleepFor(absl::Milliseconds(100));
    }
    ADD_FAILURE() << "GetGame " << game << " kept failing";
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

  // Waits (up to 30 s) until `seat` is to move in `game`; its view then.
  std::optional<v1::GameView> WaitTurn(const std::string& game, int seat) {
    for (absl::Time end = absl::Now() + absl::Seconds(30); absl::Now() < end;) {
      v1::GameView v = View(game);
      if (v.status() != v1::GAME_STATUS_ACTIVE && v.status() != v1::GAME_STATUS_WAITING) {
        return std::nullopt;
      }
      if (v.status() == v1::GAME_STATUS_ACTIVE && v.to_move() == seat) return v;
      absl::SleepFor(absl::Milliseconds(50));
    }
    return std::nullopt;
  }

  bool Move(const std::string& game, int seat, const std::string& uci, const std::string& cred) {
    auto v = WaitTurn(game, seat);
    if (!v) return false;
    grpc::Status s = Act(game, seat, v1::ACTION_KIND_MOVE, uci, v->action_number(), cred);
    EXPECT_TRUE(s.ok()) << game << " " << uci << ": " << s.error_message();
    return s.ok();
  }

  bool SeatEvent(const std::string& game, int seat, v1::ActionKind kind, const std::string& cred) {
    v1::GameView v = View(game);
    grpc::Status s = Act(game, seat, kind, "", v.action_number(), cred);
    EXPECT_TRUE(s.ok()) << game << " kind " << kind << ": " << s.error_message();
    return s.ok();
  }

  // White runs the game's plan once both seats' credentials are known.
  void PlayAsWhite(int64_t pairing_id, const std::string& game, const std::string& white_cred) {
    std::string black_cred;
    for (absl::Time end = absl::Now() + absl::Seconds(30); absl::Now() < end;) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (black_credentials_.count(game)) {
          black_cred = black_credentials_[game];
          break;
        }
      }
      absl::SleepFor(absl::Milliseconds(50));
    }
    if (black_cred.empty()) return;  // black never sat down: the table is voided
    switch (PlanOf(pairing_id)) {
      case Plan::kMate:
        if (Move(game, 0, "f2f3", white_cred) && Move(game, 1, "e7e5", black_cred) &&
            Move(game, 0, "g2g4", white_cred)) {
          Move(game, 1, "d8h4", black_cred);
        }
        break;
      case Plan::kWhiteResigns:
        if (Move(game, 0, "e2e4", white_cred) && Move(game, 1, "e7e5", black_cred)) {
          SeatEvent(game, 0, v1::ACTION_KIND_RESIGN, white_cred);
        }
        break;
      case Plan::kBlackResigns:
        if (Move(game, 0, "d2d4", white_cred))
          SeatEvent(game, 1, v1::ACTION_KIND_RESIGN, black_cred);
        break;
      case Plan::kDraw:
        if (Move(game, 0, "e2e4", white_cred) && Move(game, 1, "c7c5", black_cred) &&
            SeatEvent(game, 0, v1::ACTION_KIND_OFFER_DRAW, white_cred)) {
          SeatEvent(game, 1, v1::ACTION_KIND_ACCEPT_DRAW, black_cred);
        }
        break;
      case Plan::kNoFirstMove:
        break;  // game-state aborts the game 20 s after it began
    }
  }

  // One player's life: queue, sit, play, again, until the quota or the deadline.
  void Live(Player& p, int index, absl::Time deadline) {
    std::mt19937 rng(1000 + index);
    int played = 0;
    int64_t last_pairing = 0;
    while (played < p.quota && absl::Now() < deadline) {
      v1::JoinRankedQueueRequest join;
      join.set_city_id(rng() % 2 ? "tallinn" : "tartu");
      join.set_time_control(kTimeControls[rng() % 3]);
      if (index < 2) {  // the twins always meet in one queue
        join.set_city_id("tallinn");
        join.set_time_control("5+0");
      }
      v1::RankedStatus st;
      grpc::Status s = Call(&Stub::JoinRankedQueue, p.token, join, &st);
      if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
        // The last game's pairing is still being settled: ask again shortly.
        absl::SleepFor(absl::Milliseconds(200));
        continue;
      }
      if (!s.ok()) {
        ADD_FAILURE() << p.name << " join: " << s.error_message();
        return;
      }
      if (index >= 2 &&
          rng() % 10 == 0) {  // changes their mind: leave (twice: idempotent), then join again
        v1::RankedStatus left;
        EXPECT_TRUE(
            Call(&Stub::LeaveRankedQueue, p.token, v1::LeaveRankedQueueRequest(), &left).ok());
        EXPECT_TRUE(
            Call(&Stub::LeaveRankedQueue, p.token, v1::LeaveRankedQueueRequest(), &left).ok());
        leaves_++;
        continue;
      }
      // Searching until paired and the table exists.
      while (absl::Now() < deadline + absl::Seconds(60)) {
        s = Call(&Stub::GetRankedStatus, p.token, v1::RankedStatusRequest(), &st);
        if (!s.ok()) {
          ADD_FAILURE() << p.name << " status: " << s.error_message();
          return;
        }
        if (st.state() == "searching") {
          EXPECT_GE(st.window(), ranked::kInitialWindow);
          EXPECT_LE(st.window(), ranked::kMaxWindow);
          if (absl::Now() > deadline) {  // the run is over: stop waiting
            v1::RankedStatus left;
            (void)Call(&Stub::LeaveRankedQueue, p.token, v1::LeaveRankedQueueRequest(), &left);
            if (left.left()) return;
          }
        }
        if (st.state() == "playing" && st.pairing_id() != last_pairing) break;
        absl::SleepFor(absl::Milliseconds(150));
      }
      if (st.state() != "playing") return;
      last_pairing = st.pairing_id();
      v1::ArenaJoinTableRequest sit;
      sit.set_game_id(st.game_id());
      sit.set_seat(st.seat());
      v1::ArenaJoinTableResponse seated;
      s = Call(&Stub::JoinTable, p.token, sit, &seated);
      // Around an arena restart a sit may have gone through before the answer was lost ("seat
      // already taken"), or come after the table was voided for a no-show: the pairing then
      // ends aborted, which the checks below cover.
      if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
        sits_refused_++;
      } else {
        EXPECT_TRUE(s.ok()) << p.name << " sit: " << s.error_message();
        if (!s.ok()) return;
      }
      if (!s.ok()) {
      } else if (st.seat() == 0) {
        PlayAsWhite(st.pairing_id(), st.game_id(), seated.seat_credential());
      } else {
        std::lock_guard<std::mutex> lock(mu_);
        black_credentials_[st.game_id()] = seated.seat_credential();
      }
      // Until the pairing is settled (the next join is refused until then anyway).
      for (absl::Time end = absl::Now() + absl::Seconds(90); absl::Now() < end;) {
        s = Call(&Stub::GetRankedStatus, p.token, v1::RankedStatusRequest(), &st);
        if (s.ok() && st.pairing_id() != last_pairing) break;
        absl::SleepFor(absl::Milliseconds(200));
      }
      ++played;
      games_++;
    }
  }

  std::atomic<int> games_{0};
  std::atomic<int> leaves_{0};
  std::atomic<int> sits_refused_{0};

 private:
  Deployment& d_;
  std::unique_ptr<Stub> arena_;
  std::unique_ptr<GsStub> gs_;
  std::mutex mu_;
  std::map<std::string, std::string> black_credentials_;
};

void Grant(Stub& stub, const std::string& admin, const std::string& account, int64_t amount) {
  v1::AdminGrantRequest g;
  g.set_account_id(account);
  g.set_amount_microcredits(amount);
  g.set_reason("ranked e2e");
  v1::TransferResponse tr;
  grpc::Status s = CallAs(stub, &Stub::AdminGrant, As{admin}, g, &tr);
  ASSERT_TRUE(s.ok()) << s.error_message();
}

TEST(RankedE2eTest, TwoHundredPlayersAcrossCitiesWithArenaRestarts) {
  Deployment d({"--ranked_tick_ms=200", "--ranked_show_up_s=15"});
  ASSERT_TRUE(d.ok()) << d.AllLogs().substr(0, 5000);
  RankedRun run(d);
  Stub& stub = run.arena();
  const std::string admin = AdminToken(stub);

  // Cities: only admins make them, with a reason.
  v1::AdminPutCityRequest put;
  *put.mutable_city() = MakeCity("tallinn", "Tallinn", kTallinnStake, 500);
  put.set_reason("ranked e2e");
  v1::City city;
  v1::SessionToken outsider = SignUpPerson(stub, "outsider");
  EXPECT_EQ(CallAs(stub, &Stub::AdminPutCity, As{outsider.token()}, put, &city).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  put.clear_reason();
  EXPECT_EQ(CallAs(stub, &Stub::AdminPutCity, As{admin}, put, &city).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  put.set_reason("ranked e2e");
  ASSERT_TRUE(CallAs(stub, &Stub::AdminPutCity, As{admin}, put, &city).ok());
  *put.mutable_city() = MakeCity("tartu", "Tartu", kTartuStake, 0);
  ASSERT_TRUE(CallAs(stub, &Stub::AdminPutCity, As{admin}, put, &city).ok());
  v1::ListCitiesResponse cities;
  ASSERT_TRUE(CallAs(stub, &Stub::ListCities, As{}, v1::ListCitiesRequest(), &cities).ok());
  ASSERT_EQ(cities.cities_size(), 2);

  // Refusals that change nothing.
  v1::JoinRankedQueueRequest bad;
  bad.set_city_id("tallinn");
  bad.set_time_control("1+0");
  v1::RankedStatus st;
  EXPECT_EQ(CallAs(stub, &Stub::JoinRankedQueue, As{outsider.token()}, bad, &st).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);  // no bullet for stakes
  bad.set_time_control("5+0");
  EXPECT_EQ(CallAs(stub, &Stub::JoinRankedQueue, As{outsider.token()}, bad, &st).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);  // no credits to cover the stake
  bad.set_city_id("narva");
  EXPECT_EQ(CallAs(stub, &Stub::JoinRankedQueue, As{outsider.token()}, bad, &st).error_code(),
            grpc::StatusCode::NOT_FOUND);
  v1::GuestTokenRequest guest_req;
  v1::SessionToken guest;
  ASSERT_TRUE(CallAs(stub, &Stub::GuestToken, As{}, guest_req, &guest).ok());
  bad.set_city_id("tartu");
  EXPECT_EQ(CallAs(stub, &Stub::JoinRankedQueue, As{guest.token()}, bad, &st).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(
      CallAs(stub, &Stub::GetRankedStatus, As{outsider.token()}, v1::RankedStatusRequest(), &st)
          .ok());
  EXPECT_EQ(st.state(), "idle");

  // A player who gives their credits away after queueing: the pairing aborts, nothing moves.
  {
    v1::SessionToken giver = SignUpPerson(stub, "giver"), taker = SignUpPerson(stub, "taker");
    Grant(stub, admin, giver.account_id(), kTallinnStake);
    Grant(stub, admin, taker.account_id(), kTallinnStake);
    v1::JoinRankedQueueRequest j;
    j.set_city_id("tallinn");
    j.set_time_control("10+0");
    ASSERT_TRUE(CallAs(stub, &Stub::JoinRankedQueue, As{giver.token()}, j, &st).ok());
    EXPECT_EQ(st.state(), "searching");
    EXPECT_EQ(st.window(), ranked::kInitialWindow);
    v1::SendCreditsRequest send;
    send.set_to_name("outsider");
    send.set_amount_microcredits(kTallinnStake);
    v1::TransferResponse tr;
    ASSERT_TRUE(CallAs(stub, &Stub::SendCredits, As{giver.token()}, send, &tr).ok());
    ASSERT_TRUE(CallAs(stub, &Stub::JoinRankedQueue, As{taker.token()}, j, &st).ok());
    v1::RankedGamesResponse games;
    for (absl::Time end = absl::Now() + absl::Seconds(30); absl::Now() < end;) {
      v1::RankedGamesRequest gr;
      ASSERT_TRUE(CallAs(stub, &Stub::ListRankedGames, As{taker.token()}, gr, &games).ok());
      if (games.games_size() == 1 && games.games(0).state() == "aborted") break;
      absl::SleepFor(absl::Milliseconds(100));
    }
    ASSERT_EQ(games.games_size(), 1);
    EXPECT_EQ(games.games(0).state(), "aborted");
    EXPECT_THAT(games.games(0).reason(), HasSubstr("stake-not-covered: giver"));
    EXPECT_EQ(games.ratings_size(), 3);
    v1::Balance b;
    v1::BalanceRequest br;
    ASSERT_TRUE(CallAs(stub, &Stub::GetBalance, As{taker.token()}, br, &b).ok());
    EXPECT_EQ(b.available_microcredits(), kTallinnStake);  // the taker's hold was released
    // Another player's ranked games are for admins only.
    v1::RankedGamesRequest theirs;
    theirs.set_account("taker");
    EXPECT_EQ(CallAs(stub, &Stub::ListRankedGames, As{giver.token()}, theirs, &games).error_code(),
              grpc::StatusCode::PERMISSION_DENIED);
    EXPECT_TRUE(CallAs(stub, &Stub::ListRankedGames, As{admin}, theirs, &games).ok());
  }

  // The players: ratings spread over 1300..1700 (so windows matter), and two "twins" rated
  // far above everyone, who can only meet each other: the daily cap stops them at 6 games.
  std::vector<Player> players(kPlayers);
  std::mt19937 rng(26);
  pqxx::connection conn(d.db().url());
  for (int i = 0; i < kPlayers; ++i) {
    Player& p = players[i];
    p.name = absl::StrCat("player", i);
    v1::SessionToken t = SignUpPerson(stub, p.name);
    p.account_id = t.account_id();
    p.token = t.token();
    Grant(stub, admin, p.account_id, kGrant);
    p.rating = i < 2 ? 2600 : 1300 + static_cast<double>(rng() % 400);
    if (i < 2) p.quota = 9;
    pqxx::work txn(conn);
    for (const char* tc : kTimeControls) {
      txn.exec_params(
          "INSERT INTO arena.person_ratings (account_id, engine_game, time_control, rating, "
          "deviation, volatility, games) VALUES ($1, 'chess', $2, $3, 90, 0.06, 20)",
          p.account_id, std::string(tc) + " ranked", p.rating);
    }
    txn.commit();
  }

  // Everyone lives on their own thread; arena is killed twice along the way.
  const absl::Time start = absl::Now();
  const absl::Time deadline = start + absl::Seconds(110);
  std::vector<std::thread> threads;
  for (int i = 0; i < kPlayers; ++i) {
    threads.emplace_back([&, i] { run.Live(players[i], i, deadline); });
  }
  absl::SleepFor(absl::Seconds(25));
  d.KillAndRestart("arena");
  ASSERT_TRUE(d.server("arena").ok()) << d.AllLogs().substr(0, 3000);
  absl::SleepFor(absl::Seconds(35));
  d.KillAndRestart("arena");
  ASSERT_TRUE(d.server("arena").ok()) << d.AllLogs().substr(0, 3000);
  for (std::thread& t : threads) t.join();

  // Every open pairing settles (a table still running ends by its clock or the show-up void).
  pqxx::work wait_txn(conn);
  wait_txn.commit();
  for (absl::Time end = absl::Now() + absl::Seconds(240); absl::Now() < end;) {
    pqxx::work t(conn);
    int64_t open =
        t.exec("SELECT count(*) FROM arena.ranked_pairings WHERE state IN ('paired', 'playing')")
            [0][0]
                .as<int64_t>();
    t.commit();
    if (open == 0) break;
    absl::SleepFor(absl::Milliseconds(500));
  }
  std::cerr << "games played " << run.games_ << ", leaves " << run.leaves_ << ", in "
            << absl::ToDoubleSeconds(absl::Now() - start) << " s\n";

  pqxx::work txn(conn);
  pqxx::result rows = txn.exec(
      "SELECT pairing_id, city_id, time_control, stake, fee_bps, player_a, player_b, rating_a, "
      "  rating_b, (extract(epoch FROM joined_a) * 1e6)::bigint, "
      "  (extract(epoch FROM joined_b) * 1e6)::bigint, rating_window, "
      "  (extract(epoch FROM paired_at) * 1e6)::bigint, state, coalesce(result, ''), end_reason, "
      "  payout_a, payout_b, fee, coalesce(white, ''), coalesce(game_id, ''), hold_a, hold_b, "
      "  (extract(epoch FROM recorded_at) * 1e6)::bigint, "
      "  coalesce((extract(epoch FROM ended_at) * 1e6)::bigint, 0) "
      "FROM arena.ranked_pairings ORDER BY pairing_id");
  ASSERT_GE(rows.size(), 150u) << "too few games to say anything";
  std::map<std::string, int64_t> expected;  // account -> balance the pairings imply
  std::map<std::pair<std::string, std::string>, int> money_games;
  std::map<std::string, std::vector<std::pair<int64_t, int64_t>>> busy;  // account -> intervals
  int64_t fees = 0;
  int finished = 0, aborted = 0, draws = 0, mates = 0;
  std::set<std::string> reasons;
  for (const pqxx::row& r : rows) {
    const int64_t id = r[0].as<int64_t>();
    const std::string city = r[1].as<std::string>();
    const int64_t stake = r[3].as<int64_t>();
    const int fee_bps = r[4].as<int>();
    const std::string a = r[5].as<std::string>(), b = r[6].as<std::string>();
    SCOPED_TRACE(absl::StrCat("pairing ", id));
    EXPECT_EQ(stake, city == "tallinn" ? kTallinnStake : kTartuStake);
    // The window: within both players' windows at the moment of pairing.
    ranked::QueueEntry ea, eb;
    ea.rating = r[7].as<double>();
    eb.rating = r[8].as<double>();
    ea.joined_at = absl::FromUnixMicros(r[9].as<int64_t>());
    eb.joined_at = absl::FromUnixMicros(r[10].as<int64_t>());
    const absl::Time paired_at = absl::FromUnixMicros(r[12].as<int64_t>());
    const int window =
        std::min(ranked::CurrentWindow(ea, paired_at), ranked::CurrentWindow(eb, paired_at));
    EXPECT_EQ(r[11].as<int>(), window);
    EXPECT_LE(std::abs(ea.rating - eb.rating), window);
    const std::string state = r[13].as<std::string>();
    ASSERT_TRUE(state == "finished" || state == "aborted") << state;
    const std::string result = r[14].as<std::string>();
    reasons.insert(r[15].as<std::string>());
    const int64_t pa = r[16].as<int64_t>(), pb = r[17].as<int64_t>(), fee = r[18].as<int64_t>();
    const std::string white = r[19].as<std::string>();
    if (state == "aborted") {
      ++aborted;
      EXPECT_EQ(result, "aborted");
      EXPECT_EQ(pa + pb + fee, 0);
    } else {
      ++finished;
      ++money_games[{a, b}];
      const int64_t pot = 2 * stake;
      const int64_t want_fee = result == "draw" ? 0 : pot * fee_bps / 10000;
      EXPECT_EQ(fee, want_fee);
      EXPECT_EQ(pa + pb + fee, pot);
      if (result == "draw") {
        ++draws;
        EXPECT_EQ(pa, stake);
        EXPECT_EQ(pb, stake);
      } else {
        ASSERT_TRUE(result == "white" || result == "black") << result;
        const std::string winner = result == "white" ? white : (white == a ? b : a);
        EXPECT_EQ(winner == a ? pa : pb, pot - want_fee);
        EXPECT_EQ(winner == a ? pb : pa, 0);
      }
      if (r[15].as<std::string>() == "checkmate") ++mates;
      expected[a] += pa - stake;
      expected[b] += pb - stake;
      fees += fee;
    }
    busy[a].push_back({r[23].as<int64_t>(), r[24].as<int64_t>()});
    busy[b].push_back({r[23].as<int64_t>(), r[24].as<int64_t>()});
  }
  std::cerr << finished << " settled games (" << draws << " draws, " << mates << " mates), "
            << aborted << " aborted\n";
  EXPECT_GT(finished, 100);
  EXPECT_GT(aborted, 5);  // first-move aborts (and the stake not covered)
  EXPECT_GT(draws, 5);
  EXPECT_GT(mates, 5);
  // The daily cap; the twins reach it exactly.
  for (const auto& [pair, n] : money_games) {
    EXPECT_LE(n, ranked::kMaxMoneyGamesPerPairPerDay) << pair.first << " " << pair.second;
  }
  // (The cap reached exactly, and the day turning, are ranked_store_test's, on a simulated
  // clock.)
  // Nobody in two games at once: each player's pairings, by the database's clock, end before
  // the next begins.
  for (auto& [who, spans] : busy) {
    std::sort(spans.begin(), spans.end());
    for (size_t i = 1; i < spans.size(); ++i) {
      EXPECT_LE(spans[i - 1].second, spans[i].first) << who;
    }
  }
  // The books: every balance is what the grants and the pairings imply; escrow is empty;
  // fees hold exactly the fees; no hold is left open; everything sums to zero.
  for (const Player& p : players) {
    pqxx::result b = txn.exec_params(
        "SELECT balance, held FROM arena.ledger_accounts WHERE name = $1", p.account_id);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b[0][0].as<int64_t>(), kGrant + expected[p.account_id]) << p.name;
    EXPECT_EQ(b[0][1].as<int64_t>(), 0) << p.name;
  }
  pqxx::result sys = txn.exec(
      "SELECT name, balance, held FROM arena.ledger_accounts "
      "WHERE name IN ('system:escrow', 'system:fees')");
  for (const pqxx::row& r : sys) {
    EXPECT_EQ(r[1].as<int64_t>(), r[0].as<std::string>() == "system:fees" ? fees : 0)
        << r[0].as<std::string>();
    EXPECT_EQ(r[2].as<int64_t>(), 0);
  }
  EXPECT_EQ(
      txn.exec("SELECT coalesce(sum(balance), 0) FROM arena.ledger_accounts")[0][0].as<int64_t>(),
      0);
  EXPECT_EQ(txn.exec("SELECT count(*) FROM arena.holds WHERE state = 'open'")[0][0].as<int64_t>(),
            0);
  // Rated: each finished game moved its players' ratings at its time control.
  EXPECT_GT(txn.exec("SELECT count(*) FROM arena.account_games WHERE rated AND "
                     "time_control LIKE '% ranked'")[0][0]
                .as<int64_t>(),
            100);
  EXPECT_TRUE(reasons.count("first-move-abort")) << "no first-move abort seen";

  // A player's history shows each staked game's money.
  v1::RankedGamesResponse mine;
  ASSERT_TRUE(
      CallAs(stub, &Stub::ListRankedGames, As{players[0].token}, v1::RankedGamesRequest(), &mine)
          .ok());
  int in_rows = 0, money0 = 0;
  for (const pqxx::row& r : rows) {
    const bool mine0 = r[5].as<std::string>() == players[0].account_id ||
                       r[6].as<std::string>() == players[0].account_id;
    in_rows += mine0;
    money0 += mine0 && r[13].as<std::string>() == "finished";
  }
  EXPECT_EQ(mine.games_size(), in_rows);
  v1::HistoryResponse history;
  ASSERT_TRUE(
      CallAs(stub, &Stub::GetHistory, As{players[0].token}, v1::HistoryRequest(), &history).ok());
  int stakes_seen = 0;
  for (const auto& e : history.entries()) {
    if (e.memo().find("ranked game") != std::string::npos) ++stakes_seen;
  }
  EXPECT_GE(stakes_seen, money0);  // each money game's stake, at least
}

}  // namespace
}  // namespace arena::testing
