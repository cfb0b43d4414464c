// Issue 28's "done when": a randomised run of thousands of well-formed and poisoned submissions
// across 200 games on a real arena-game-state (and PostgreSQL) leaves every honest game's
// actions committed, in order, with unchanged clocks.
//
// Each game belongs to one player thread. Round by round the thread reads the game, sends a few
// poisoned submissions it knows must be refused (each with its exact status), reads the game
// again — same action number, same event sequence, same seat to move, the same turn deadline,
// the other seat's bank unchanged and the mover's only run down by the time that passed — and
// then plays a random legal move with a reasoning that must be accepted. Meanwhile attacker
// threads send poison whose refusal does not depend on the game's state (bad text, bad
// credentials) at random games, so refusals and honest commits interleave in the group commit.
//
// The integration label runs 200 games for a few rounds (CI); `poison_flood_slow_test` plays
// them much deeper (POISON_FLOOD_ROUNDS).
#include <atomic>
#include <random>
#include <thread>

#include "absl/strings/str_cat.h"
#include "engine/core/game.h"
#include "google/protobuf/stubs/logging.h"
#include "tests/game_state_support.h"

#ifndef POISON_FLOOD_ROUNDS
#define POISON_FLOOD_ROUNDS 4
#endif

namespace arena::testing {
namespace {

using namespace std::string_literals;
using Code = grpc::StatusCode;

constexpr int kGames = 200;
constexpr int kRounds = POISON_FLOOD_ROUNDS;
constexpr int kPlayers = 4;         // threads playing the honest moves, each its share of games
constexpr int kAttackers = 2;       // threads sending state-independent poison all the while
constexpr int kPoisonPerRound = 3;  // per game and round, from the game's own player

enum Poison {
  kNulInReasoning,
  kControlInReasoning,
  kOversizeReasoning,
  kNulInMove,
  kOversizeMove,
  kReasoningNotUtf8,
  kAnotherSeatsCredential,
  kForgedCredential,
  kNoCredential,
  // Below: refusals that depend on the game's state; only the game's own player sends them.
  kGarbageMove,
  kIllegalMove,
  kOutOfTurn,
  kFutureActionNumber,
  kPoisons
};
constexpr int kStateIndependent = kGarbageMove;

struct PoisonCase {
  const char* name;
  Code expected;
};
const PoisonCase kCases[kPoisons] = {
    {"NUL in the reasoning", Code::INVALID_ARGUMENT},
    {"control character in the reasoning", Code::INVALID_ARGUMENT},
    {"reasoning over 4096 bytes", Code::INVALID_ARGUMENT},
    {"NUL in the move", Code::INVALID_ARGUMENT},
    {"move text over 200 bytes", Code::INVALID_ARGUMENT},
    // Not parsed by gRPC: see docs/security.md ("Requests that do not parse").
    {"reasoning not UTF-8", Code::UNIMPLEMENTED},
    {"another seat's credential", Code::PERMISSION_DENIED},
    {"forged seat credential", Code::UNAUTHENTICATED},
    {"no credential", Code::UNAUTHENTICATED},
    {"a move that is no move", Code::INVALID_ARGUMENT},
    {"an illegal move", Code::FAILED_PRECONDITION},
    {"a move out of turn", Code::FAILED_PRECONDITION},
    {"a future action number", Code::FAILED_PRECONDITION},
};

v1::ClockSettings Fischer() {
  v1::ClockSettings c;
  c.set_initial_ms(600000);
  c.set_increment_ms(2000);
  return c;
}

// Sends poison `p` for `seat` (the seat to move, for the state-dependent kinds) of game `t`
// whose last read is `v`; returns the status.
grpc::Status SendPoison(GameStateHarness& h, const GameStateHarness::Table& t, int seat,
                        const v1::GameView& v, Poison p, std::mt19937& rng) {
  const std::string legal =
      v.legal_moves_size() > 0 ? v.legal_moves(rng() % v.legal_moves_size()) : "e2e4";
  std::string move = legal, reasoning = "plain", cred = t.seats[seat];
  int64_t number = v.action_number();
  switch (p) {
    case kNulInReasoning:
      reasoning = "because\0then"s;
      break;
    case kControlInReasoning:
      reasoning = rng() % 2 ? "\x1b[2J" : "ring\x07";
      break;
    case kOversizeReasoning:
      reasoning = std::string(4097, 'r');
      break;
    case kNulInMove:
      move = legal + "\0x"s;
      break;
    case kOversizeMove:
      move = std::string(201, 'm');
      break;
    case kReasoningNotUtf8:
      reasoning = rng() % 2 ? "\xc0\xaf"s : "\xff\xfe"s;
      break;
    case kAnotherSeatsCredential:
      cred = t.seats[1 - seat];
      break;
    case kForgedCredential:
      cred = std::string(cred.size(), 'f');
      break;
    case kNoCredential:
      cred.clear();
      break;
    case kGarbageMove:
      move = "zz99";
      break;
    case kIllegalMove: {
      move.clear();
      for (const char* m : {"e1e8", "a1a8", "h1h6", "d1d7", "b1b5", "g1g4", "a2a6", "h2h7"}) {
        bool is_legal = false;
        for (const auto& l : v.legal_moves()) is_legal = is_legal || l == m;
        if (!is_legal) {
          move = m;
          break;
        }
      }
      break;
    }
    case kOutOfTurn:
      seat = 1 - seat;
      cred = t.seats[seat];
      break;
    case kFutureActionNumber:
      number += 1;
      break;
    case kPoisons:
      break;
  }
  return h.Submit(t.id, seat, GameStateHarness::KindOf(move), move, number, {cred}, nullptr,
                  reasoning);
}

TEST(PoisonFloodTest, HonestGamesKeepEveryActionInOrderAndTheirClocks) {
  if (engine::FindGame("chess") == nullptr) GTEST_SKIP();
  GameStateHarness h;
  ASSERT_TRUE(h.ok());
  // This process's protobuf logs every reasoning that is not UTF-8 as it sends it: hundreds of
  // lines that say nothing here.
  google::protobuf::LogSilencer quiet;
  const absl::Time started = absl::Now();

  std::vector<GameStateHarness::Table> tables(kGames);
  std::vector<std::vector<std::string>> played(kGames);
  std::atomic<int> honest{0}, poisoned{0}, ready{0};
  std::atomic<bool> stop{false};

  // Attackers: state-independent poison at random seats of random games, all the time.
  std::vector<std::thread> attackers;
  for (int a = 0; a < kAttackers; ++a) {
    attackers.emplace_back([&, a] {
      std::mt19937 rng(1000 + a);
      while (ready < kPlayers) absl::SleepFor(absl::Milliseconds(20));
      v1::GameView none;
      while (!stop) {
        const auto& t = tables[rng() % kGames];
        const int seat = int(rng() % 2);
        const Poison p = static_cast<Poison>(rng() % kStateIndependent);
        grpc::Status s = SendPoison(h, t, seat, none, p, rng);
        EXPECT_EQ(s.error_code(), kCases[p].expected)
            << "attacker: " << kCases[p].name << ": " << s.error_message();
        ++poisoned;
      }
    });
  }

  std::vector<std::thread> players;
  for (int pl = 0; pl < kPlayers; ++pl) {
    players.emplace_back([&, pl] {
      std::mt19937 rng(7 + pl);
      for (int g = pl; g < kGames; g += kPlayers) tables[g] = h.NewTable("chess", 2, Fischer());
      ++ready;
      while (ready < kPlayers) absl::SleepFor(absl::Milliseconds(20));
      for (int round = 0; round < kRounds; ++round) {
        for (int g = pl; g < kGames; g += kPlayers) {
          const auto& t = tables[g];
          v1::GameView before, after;
          const absl::Time t0 = absl::Now();
          if (!h.Get(t.id, &before).ok()) {
            ADD_FAILURE() << t.id << " cannot be read";
            continue;
          }
          if (before.status() != v1::GAME_STATUS_ACTIVE) continue;
          const int mover = before.to_move();
          for (int k = 0; k < kPoisonPerRound; ++k) {
            const Poison p = static_cast<Poison>(rng() % kPoisons);
            grpc::Status s = SendPoison(h, t, mover, before, p, rng);
            EXPECT_EQ(s.error_code(), kCases[p].expected)
                << t.id << " round " << round << ": " << kCases[p].name << ": "
                << s.error_message();
            ++poisoned;
          }
          EXPECT_TRUE(h.Get(t.id, &after).ok());
          const int64_t waited = absl::ToInt64Milliseconds(absl::Now() - t0);
          // Nothing the refusals did shows: the same turn, the same deadline, the same banks.
          const std::string at = absl::StrCat(t.id, " round ", round);
          EXPECT_EQ(after.action_number(), before.action_number()) << at;
          EXPECT_EQ(after.last_sequence(), before.last_sequence()) << at;
          EXPECT_EQ(after.to_move(), mover) << at;
          EXPECT_EQ(after.status(), v1::GAME_STATUS_ACTIVE) << at;
          EXPECT_NE(before.turn_deadline_unix_ms(), 0) << at;
          EXPECT_EQ(after.turn_deadline_unix_ms(), before.turn_deadline_unix_ms()) << at;
          EXPECT_EQ(after.seats(1 - mover).clock_remaining_ms(),
                    before.seats(1 - mover).clock_remaining_ms())
              << at;
          EXPECT_LE(after.seats(mover).clock_remaining_ms(),
                    before.seats(mover).clock_remaining_ms())
              << at;
          EXPECT_GE(after.seats(mover).clock_remaining_ms(),
                    before.seats(mover).clock_remaining_ms() - waited - 2)
              << at;

          if (after.legal_moves_size() == 0) {
            ADD_FAILURE() << at << ": an active game with no legal move";
            continue;
          }
          // The honest move, with a multi-line reasoning: always accepted.
          const std::string& m = after.legal_moves(rng() % after.legal_moves_size());
          grpc::Status s =
              h.Submit(t.id, mover, GameStateHarness::KindOf(m), m, after.action_number(),
                       {t.seats[mover]}, nullptr, "reasoning:\n\tmove " + m);
          EXPECT_TRUE(s.ok()) << at << ": honest move " << m << " refused: " << s.error_message();
          if (s.ok()) {
            played[g].push_back(m);
            ++honest;
          }
        }
      }
    });
  }
  for (auto& p : players) p.join();
  stop = true;
  for (auto& a : attackers) a.join();

  // Thousands of submissions; every honest one was accepted.
  EXPECT_GE(honest.load() + poisoned.load(), 3000);
  EXPECT_GE(poisoned.load(), kGames * kRounds * kPoisonPerRound);
  int expected_honest = 0;
  for (int g = 0; g < kGames; ++g) expected_honest += int(played[g].size());
  EXPECT_EQ(honest.load(), expected_honest);
  EXPECT_GT(honest.load(), kGames * kRounds * 9 / 10);  // games rarely end this early

  // Every honest action is in the durable record, in order, with its reasoning; no other.
  for (int g = 0; g < kGames; ++g) {
    v1::GameRecord rec;
    ASSERT_TRUE(h.Record(tables[g].id, &rec).ok());
    std::vector<std::string> logged;
    for (const auto& e : rec.events()) {
      if (e.type() != "action") continue;
      logged.push_back(e.action());
      EXPECT_EQ(e.annotation(), "reasoning:\n\tmove " + e.action());
    }
    EXPECT_EQ(logged, played[g]) << tables[g].id;
  }
  EXPECT_EQ(h.CountRows("SELECT count(*) FROM game.events WHERE type = 'action'"), honest.load());
  const std::string log = h.server().process().Stderr();
  EXPECT_EQ(log.find("event batch failed"), std::string::npos);
  EXPECT_EQ(log.find("event items failed"), std::string::npos);
  std::printf("%d games, %d rounds: %d honest actions, %d poisoned submissions in %.1f s\n", kGames,
              kRounds, honest.load(), poisoned.load(),
              absl::ToDoubleSeconds(absl::Now() - started));
}

}  // namespace
}  // namespace arena::testing
