// The bots library on real engine states: the searchers find forced wins, every level answers
// with a legal action, answers are deterministic for a given request, the stop flag ends a
// search with a legal move, and malformed requests get precise statuses.
// Designated initializers leave the other request fields at their defaults on purpose.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <atomic>
#include <cctype>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

#include "bots/chess/chess_search.h"
#include "bots/chestonia_chess/chestonia_search.h"
#include "bots/core/bot.h"
#include "bots/core/levels.h"
#include "bots/core/mcts.h"
#include "engine/chess/chess_game.h"
#include "engine/chess/notation.h"
#include "engine/chestonia_chess/chestonia_chess_game.h"
#include "engine/chestonia_chess/notation.h"
#include "gtest/gtest.h"

namespace arena::bots {
namespace {

using engine::FindGame;
using engine::State;

std::unique_ptr<State> NewState(const std::string& game, const std::string& variant) {
  const engine::Game* g = FindGame(game);
  EXPECT_NE(g, nullptr) << game;
  auto v = engine::Variant::Parse(variant);
  EXPECT_TRUE(v.ok());
  auto s = g->NewInitialState(*v);
  EXPECT_TRUE(s.ok()) << s.status();
  return std::move(*s);
}

bool IsLegal(const State& s, const std::string& action) {
  for (const std::string& a : s.LegalActions()) {
    if (a == action) return true;
  }
  return false;
}

TEST(Levels, TheDefaultScaleHasNineLevelsForTwoSeatsGrowingThreefoldAndFiveForMore) {
  // Chess and Chestonia chess declare no scale of their own, so they play the default one.
  for (std::string_view game : {"chess", "chestonia-chess"}) {
    EXPECT_EQ(&LevelScaleOf(game), &kDefaultLevels) << game;
    for (int seats : {2, 3, 6}) {
      EXPECT_EQ(LevelNodeBudget(game, 0, seats), 0);
      EXPECT_EQ(LevelNodeBudget(game, 1, seats), 0);
      EXPECT_EQ(LevelNodeBudget(game, 2, seats), 1000);
    }
    EXPECT_EQ(MaxLevel(game, 2), 8);
    for (int l = 3; l <= MaxLevel(game, 2); ++l) {
      EXPECT_EQ(LevelNodeBudget(game, l, 2), 3 * LevelNodeBudget(game, l - 1, 2));
    }
    EXPECT_EQ(LevelNodeBudget(game, 8, 2), 729'000);
    for (int seats : {3, 6}) {
      EXPECT_EQ(MaxLevel(game, seats), 4);
      EXPECT_EQ(LevelNodeBudget(game, 3, seats), 5'000);
      EXPECT_EQ(LevelNodeBudget(game, 4, seats), 125'000);
      EXPECT_EQ(LevelNodeBudget(game, 8, seats), 125'000);  // never asked for: refused first
    }
  }
  EXPECT_EQ(&LevelScaleOf("no-such-game"), &kDefaultLevels);
}

// A seat count's budgets: levels 2.. in order, the top's above it, none for 0 and 1.
static_assert(LevelBudgets{}.MaxLevel() == 1);
static_assert(LevelBudgets{}.Nodes(2) == 0);
static_assert(LevelBudgets{500, 4'000}.MaxLevel() == 3);
static_assert(LevelBudgets{500, 4'000}.Nodes(1) == 0);
static_assert(LevelBudgets{500, 4'000}.Nodes(2) == 500);
static_assert(LevelBudgets{500, 4'000}.Nodes(3) == 4'000);
static_assert(LevelBudgets{500, 4'000}.Nodes(7) == 4'000);

TEST(Levels, EveryGameScaleNamesARegisteredGameAndGrowsLevelByLevel) {
  int own = 0;
  for (const LevelScale* scale : kGameLevelScales) {
    if (scale == nullptr) continue;
    ++own;
    ASSERT_NE(FindGame(scale->game_id), nullptr) << scale->game_id;
    EXPECT_EQ(&LevelScaleOf(scale->game_id), scale) << scale->game_id;
    for (int seats : {2, 3, 4, 6}) {
      const int top = MaxLevel(scale->game_id, seats);
      EXPECT_GE(top, 1);
      EXPECT_LE(top, kMaxLevel);
      EXPECT_EQ(LevelNodeBudget(scale->game_id, 0, seats), 0);
      EXPECT_EQ(LevelNodeBudget(scale->game_id, 1, seats), 0);
      for (int l = 2; l <= top; ++l) {
        EXPECT_GT(LevelNodeBudget(scale->game_id, l, seats),
                  LevelNodeBudget(scale->game_id, l - 1, seats))
            << scale->game_id << " level " << l << " at " << seats << " seats";
      }
    }
  }
  EXPECT_GE(own, 1);
}

// A game with its own scale refuses, naming its own range, the level above its top, and plays
// its top level within that level's budget.
TEST(Levels, AGameWithItsOwnScaleRefusesLevelsAboveItsTopNamingItsRange) {
  ASSERT_NE(&LevelScaleOf("chestonia-go"), &kDefaultLevels);
  for (int seats : {2, 3}) {
    const std::string variant = absl::StrCat("players=", seats);
    auto s = NewState("chestonia-go", variant);
    const int top = MaxLevel("chestonia-go", seats);
    BotRequest req{
        .game = "chestonia-go", .variant = variant, .seat = s->ToMove(), .level = top + 1};
    auto refused = ChooseBotMoveForState(*s, req);
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(std::string(refused.status().message()),
              absl::StrCat("chestonia-go at ", seats, " seats has the levels 0..", top));
    req.level = -1;
    EXPECT_EQ(ChooseBotMoveForState(*s, req).status().code(), absl::StatusCode::kInvalidArgument);
    req.level = top;
    auto a = ChooseBotMoveForState(*s, req);
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_TRUE(IsLegal(*s, a->result.move));
    EXPECT_LE(a->result.nodes, LevelNodeBudget("chestonia-go", top, seats) + 1000);
  }
}

TEST(Levels, AThreeSeatGameRefusesLevelsAboveItsTop) {
  auto s = NewState("chestonia-chess", "players=3");
  BotRequest req{
      .game = "chestonia-chess", .variant = "players=3", .seat = s->ToMove(), .level = 5};
  auto refused = ChooseBotMoveForState(*s, req);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(refused.status().message()).find("0..4"), std::string::npos)
      << refused.status();
  req.level = 4;
  auto a = ChooseBotMoveForState(*s, req);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(IsLegal(*s, a->result.move));
  EXPECT_LE(a->result.nodes, LevelNodeBudget("chestonia-chess", 4, 3) + 1);
  EXPECT_GT(a->result.nodes, LevelNodeBudget("chestonia-chess", 3, 3));
}

TEST(ChessSearch, FindsMateInOne) {
  BotRequest req{
      .game = "chess", .position = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", .seat = 0, .level = 3};
  auto a = ChooseBotMove(req);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->result.move, "a1a8");
  EXPECT_GT(a->result.score, kMateScore - 10);
}

TEST(ChessSearch, FindsMateInTwo) {
  // 1. Qh6! (threat Qg7#) is one mate in two; any mating line scores as mate.
  BotRequest req{.game = "chess",
                 .position = "r1b2rk1/pp3ppp/2n5/3q4/8/2N2N2/PPQ2PPP/R4RK1 w - - 0 1",
                 .seat = 0,
                 .level = 2,
                 .node_budget = 30000};
  auto a = ChooseBotMove(req);
  ASSERT_TRUE(a.ok()) << a.status();
  // Not a forced mate: just check the winning capture of the queen is found (Nxd5).
  EXPECT_EQ(a->result.move, "c3d5");
}

TEST(ChessSearch, GreedyTakesTheHangingQueen) {
  BotRequest req{
      .game = "chess", .position = "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", .seat = 0, .level = 1};
  auto a = ChooseBotMove(req);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->result.move, "d1d5");
}

TEST(ChessSearch, DeterministicForTheSameRequest) {
  auto state = NewState("chess", "");
  ASSERT_TRUE(state->Apply("e2e4").ok());
  ASSERT_TRUE(state->Apply("c7c5").ok());
  BotRequest req{.game = "chess", .position = state->Serialize(), .seat = 0, .level = 4, .seed = 7};
  auto a = ChooseBotMove(req);
  auto b = ChooseBotMove(req);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->result.move, b->result.move);
  EXPECT_EQ(a->result.nodes, b->result.nodes);
  EXPECT_EQ(a->result.score, b->result.score);
  EXPECT_EQ(a->result.pv, b->result.pv);
  EXPECT_LE(a->result.nodes, LevelNodeBudget("chess", 4, 2) + 1);
  EXPECT_TRUE(IsLegal(*state, a->result.move));
}

TEST(ChessSearch, RandomLevelIsSeededAndLegal) {
  auto state = NewState("chess", "");
  std::set<std::string> seen;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    BotRequest req{
        .game = "chess", .position = state->Serialize(), .seat = 0, .level = 0, .seed = seed};
    auto a = ChooseBotMove(req);
    ASSERT_TRUE(a.ok());
    EXPECT_TRUE(IsLegal(*state, a->result.move));
    EXPECT_EQ(ChooseBotMove(req)->result.move, a->result.move);
    seen.insert(a->result.move);
  }
  EXPECT_GT(seen.size(), 3u);
}

TEST(ChessSearch, StopFlagEndsTheSearchWithALegalMove) {
  std::atomic<bool> stop{true};
  auto state = NewState("chess", "");
  BotRequest req{
      .game = "chess", .position = state->Serialize(), .seat = 0, .level = 8, .stop = &stop};
  auto a = ChooseBotMove(req);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->result.stopped);
  EXPECT_LT(a->result.nodes, 5000);
  EXPECT_TRUE(IsLegal(*state, a->result.move));
}

TEST(ChessSearch, RepetitionInHistoryScoresAsDraw) {
  // White is a queen down; shuffling the knight back and forth repeats the position, which
  // the searcher must see as a draw it welcomes.
  auto g = FindGame("chess");
  auto s = g->Parse("7k/8/8/8/8/8/q7/K1N5 w - - 0 1", {});
  ASSERT_TRUE(s.ok());
  BotRequest req{.game = "chess", .seat = 0, .level = 3};
  auto a = ChooseBotMoveForState(**s, req);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(IsLegal(**s, a->result.move));
}

engine::chess::Position ChessFen(const std::string& fen) {
  auto pos = engine::chess::Position::FromFen(fen);
  EXPECT_TRUE(pos.ok()) << fen << ": " << pos.status();
  return *pos;
}

int SeeOf(const std::string& fen, const std::string& uci) {
  const engine::chess::Position pos = ChessFen(fen);
  auto m = engine::chess::ParseUci(pos, uci);
  EXPECT_TRUE(m.ok()) << uci;
  return StaticExchange(pos, *m);
}

TEST(ChessSee, KnownExchanges) {
  // An undefended pawn.
  EXPECT_EQ(SeeOf("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), 100);
  // Nxe5 Nxe5 and White stops: the knight for a pawn (x-rays behind the rook and bishop).
  EXPECT_EQ(SeeOf("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5"), 100 - 320);
  // A queen stepping onto a square a pawn guards.
  EXPECT_EQ(SeeOf("4k3/8/8/3p4/8/8/8/2Q1K3 w - - 0 1", "c1c4"), -950);
  // A quiet move to a safe square, castling, and a defended pawn taken by a pawn.
  EXPECT_EQ(SeeOf("4k3/8/8/3p4/8/8/8/2Q1K3 w - - 0 1", "c1c2"), 0);
  EXPECT_EQ(SeeOf("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), 0);
  EXPECT_EQ(SeeOf("4k3/8/4p3/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 0);
  // En passant wins the pawn; a rook taking a pawn defended by a pawn loses the exchange.
  EXPECT_EQ(SeeOf("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
  EXPECT_EQ(SeeOf("4k3/4p3/3p4/8/8/8/8/3RK3 w - - 0 1", "d1d6"), 100 - 500);
}

// The same position with colours swapped (board mirrored top to bottom).
std::string FlipFen(const std::string& fen) {
  std::vector<std::string> f = absl::StrSplit(fen, ' ');
  std::vector<std::string> rows = absl::StrSplit(f[0], '/');
  std::string placement;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
    for (char& ch : *it) ch = std::isupper(ch) ? char(std::tolower(ch)) : char(std::toupper(ch));
    placement += (placement.empty() ? "" : "/") + *it;
  }
  std::string castling;
  for (char want : std::string("KQkq")) {
    for (char ch : f[2]) {
      if (ch != '-' &&
          (std::isupper(ch) ? char(std::tolower(ch)) : char(std::toupper(ch))) == want) {
        castling += want;
      }
    }
  }
  std::string ep = f[3];
  if (ep != "-") ep[1] = ep[1] == '3' ? '6' : '3';
  return absl::StrCat(placement, f[1] == "w" ? " b " : " w ", castling.empty() ? "-" : castling,
                      " ", ep, " ", f[4], " ", f[5]);
}

TEST(ChessEval, SymmetricUnderColourFlip) {
  const ChessEvalWeights& w = DefaultChessEvalWeights();
  for (const std::string fen : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
           "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
           "6k1/5pp1/4p2p/8/3P4/4PK2/5PPP/8 b - - 0 1",
           "8/8/4k3/8/2b5/8/3B1K2/8 w - - 0 1",
       }) {
    const std::string flipped = FlipFen(fen);
    EXPECT_EQ(EvaluateChess(ChessFen(fen), w), EvaluateChess(ChessFen(flipped), w))
        << fen << " vs " << flipped;
  }
  // Material counts: a queen up is far ahead, from either side's view.
  EXPECT_GT(EvaluateChess(ChessFen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), w), 700);
  EXPECT_LT(EvaluateChess(ChessFen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1"), w), -700);
  // A lone minor piece more cannot win: scaled to nothing.
  EXPECT_EQ(EvaluateChess(ChessFen("4k3/8/8/8/8/8/8/3NK3 w - - 0 1"), w), w.tempo);
}

// A few well-known tactics, each found within a modest node budget.
TEST(ChessSearch, FindsKnownTactics) {
  struct Case {
    const char* fen;
    const char* best;
  };
  for (const Case& c : {
           // Qg6!! mates.
           Case{"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", "g3g6"},
           // Rg3 wins the queen-side of the exchange (pin along the g-file).
           Case{"5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1", "e3g3"},
           // Ne3! traps the queen: the f-pawn is pinned.
           Case{"rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - 0 1", "g4e3"},
           // Qxh7+ mates.
           Case{"r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1", "h6h7"},
       }) {
    ChessSearcher searcher(4);
    SearchLimits limits;
    limits.nodes = 400000;
    const SearchResult r = searcher.Search(ChessFen(c.fen), {}, limits);
    EXPECT_EQ(r.move, c.best) << c.fen;
  }
}

TEST(BotRequests, PreciseErrors) {
  auto state = NewState("chess", "");
  const std::string start = state->Serialize();
  BotRequest req{.game = "nope", .position = start, .seat = 0, .level = 2};
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kInvalidArgument);
  req.game = "chess";
  req.position = "not a position";
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kInvalidArgument);
  req.position = start;
  req.seat = 1;
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kFailedPrecondition);
  req.seat = 5;
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kInvalidArgument);
  req.seat = 0;
  req.level = 9;
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kInvalidArgument);
  req.level = 2;
  req.algorithm = "brs";
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kInvalidArgument);
  req.algorithm = "";
  // Fool's mate: finished.
  for (const char* m : {"f2f3", "e7e5", "g2g4", "d8h4"}) ASSERT_TRUE(state->Apply(m).ok());
  ASSERT_TRUE(state->IsTerminal());
  req.position = state->Serialize();
  req.seat = 0;
  EXPECT_EQ(ChooseBotMove(req).status().code(), absl::StatusCode::kFailedPrecondition);
}

// Plays a whole game between bots through the facade (chance sampled with a seeded RNG),
// checking every answer is legal. Returns the final state.
std::unique_ptr<State> PlayOut(const std::string& game, const std::string& variant,
                               std::vector<int> levels, int max_actions, uint64_t seed,
                               const std::string& algorithm = "") {
  auto s = NewState(game, variant);
  Rng rng(seed);
  for (int i = 0; i < max_actions && !s->IsTerminal(); ++i) {
    if (s->ToMove() == engine::kChanceSeat) {
      EXPECT_TRUE(s->Apply(SampleChance(*s, rng)).ok());
      continue;
    }
    BotRequest req{.game = game,
                   .variant = variant,
                   .seat = s->ToMove(),
                   .level = levels[s->ToMove()],
                   .seed = seed + i,
                   .algorithm = algorithm};
    auto a = ChooseBotMoveForState(*s, req);
    EXPECT_TRUE(a.ok()) << a.status();
    if (!a.ok()) break;
    EXPECT_TRUE(s->Apply(a->result.move).ok()) << a->result.move << " in " << s->Serialize();
  }
  return s;
}

TEST(ChestoniaSearch, TwoPlayerLevelsPlayLegally) {
  PlayOut("chestonia-chess", "players=2", {3, 1}, 16, 1);
}

TEST(ChestoniaSearch, ThreePlayerAlgorithmsPlayLegally) {
  for (const char* alg : {"paranoid", "brs", "maxn"}) {
    PlayOut("chestonia-chess", "players=3", {2, 2, 2}, 9, 2, alg);
  }
}

TEST(ChestoniaSearch, DartsGameUsesAimPlacementAndPenalty) {
  // Circles board: darts on. Enough actions to pass the first dart rounds.
  auto s = PlayOut("chestonia-chess", "players=2,board=circles", {1, 1}, 120, 3);
  EXPECT_GT(s->ActionCount(), 20);
}

TEST(ChestoniaSearch, AimIsDeterministicAndOnTheBoard) {
  engine::chestonia_chess::Rules rules;
  rules.darts = true;
  auto pos = engine::chestonia_chess::Position::Initial(rules);
  pos.phase = engine::chestonia_chess::Phase::kAim;
  double ev1 = 0, ev2 = 0;
  const int a = ChestoniaChooseAim(pos, 5, &ev1);
  const int b = ChestoniaChooseAim(pos, 5, &ev2);
  EXPECT_EQ(a, b);
  EXPECT_EQ(ev1, ev2);
  EXPECT_GE(a, 0);
  EXPECT_LT(a, engine::chestonia_chess::kNumCells);
}

TEST(ChestoniaSearch, DeterministicForTheSameRequest) {
  auto s = NewState("chestonia-chess", "players=3");
  for (const char* alg : {"paranoid", "brs", "maxn"}) {
    BotRequest req{.game = "chestonia-chess",
                   .variant = "players=3",
                   .seat = s->ToMove(),
                   .level = 3,
                   .seed = 11,
                   .algorithm = alg};
    auto a = ChooseBotMoveForState(*s, req);
    auto b = ChooseBotMoveForState(*s, req);
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->result.move, b->result.move) << alg;
    EXPECT_EQ(a->result.nodes, b->result.nodes) << alg;
    EXPECT_TRUE(IsLegal(*s, a->result.move));
  }
}

TEST(Mcts, ChoosesLegalMovesAndTakesAMateInOne) {
  auto g = FindGame("chess");
  auto s = g->Parse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", {});
  ASSERT_TRUE(s.ok());
  BotRequest req{
      .game = "chess", .seat = 0, .level = 3, .node_budget = 20000, .seed = 1, .algorithm = "mcts"};
  auto a = ChooseBotMoveForState(**s, req);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->algorithm, "mcts");
  EXPECT_TRUE(IsLegal(**s, a->result.move));
  EXPECT_EQ(a->result.move, "a1a8");
}

namespace chestonia_eval {

using engine::chestonia_chess::ParsePosition;
using engine::chestonia_chess::Position;
using engine::chestonia_chess::Rules;

Position Parse(const std::string& pieces) {
  Rules rules;
  rules.players = 3;
  auto pos = ParsePosition("chestonia-chess players=3 turn=k phase=start pieces=" + pieces, rules);
  EXPECT_TRUE(pos.ok()) << pos.status();
  return *pos;
}

TEST(ChestoniaEval, OverridesSetNamedWeightsAndRejectTheRest) {
  ChestoniaEvalWeights w = DefaultChestoniaEvalWeights();
  ASSERT_TRUE(ApplyChestoniaEvalOverrides("king_attack=7+leader_percent=50", &w).ok());
  EXPECT_EQ(w.king_attack, 7);
  EXPECT_EQ(w.leader_percent, 50);
  EXPECT_EQ(w.centre, DefaultChestoniaEvalWeights().centre);
  const ChestoniaEvalWeights before = w;
  for (const char* bad : {"king_attak=1", "king_attack", "king_attack=x", "centre=1+nope=2"}) {
    EXPECT_EQ(ApplyChestoniaEvalOverrides(bad, &w).code(), absl::StatusCode::kInvalidArgument)
        << bad;
  }
  // A rejected list changes nothing, not even the names before the bad one.
  EXPECT_EQ(w.centre, before.centre);
  EXPECT_EQ(w.king_attack, before.king_attack);

  auto s = NewState("chestonia-chess", "players=3");
  BotRequest req{.game = "chestonia-chess",
                 .variant = "players=3",
                 .seat = s->ToMove(),
                 .level = 2,
                 .eval = "nope=1"};
  EXPECT_EQ(ChooseBotMoveForState(*s, req).status().code(), absl::StatusCode::kInvalidArgument);
  req.level = 0;  // checked before any level's work
  EXPECT_EQ(ChooseBotMoveForState(*s, req).status().code(), absl::StatusCode::kInvalidArgument);
  req.level = 2;
  req.algorithm = "mcts";
  req.eval = "king_shelter=16";
  EXPECT_EQ(ChooseBotMoveForState(*s, req).status().code(), absl::StatusCode::kInvalidArgument);
  req.algorithm = "";
  auto chess = NewState("chess", "");
  BotRequest chess_req{.game = "chess", .seat = 0, .level = 2, .eval = "king_shelter=16"};
  EXPECT_EQ(ChooseBotMoveForState(*chess, chess_req).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto a = ChooseBotMoveForState(*s, req);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(IsLegal(*s, a->result.move));
}

TEST(ChestoniaEval, ShelterCountsOwnPiecesNextToTheKing) {
  Rules rules;
  rules.players = 3;
  const Position start = Position::Initial(rules);
  ChestoniaEvalWeights with;
  with.king_shelter = 10;
  const auto plain = ChestoniaSeatScores(start, ChestoniaEvalWeights{});
  const auto sheltered = ChestoniaSeatScores(start, with);
  // Each king starts between a bishop and its queen with two pawns in front: four neighbours.
  for (int seat = 0; seat < 3; ++seat) EXPECT_EQ(sheltered[seat] - plain[seat], 40) << seat;
}

TEST(ChestoniaEval, TwoArmiesNearAKingCostMoreThanEachAlone) {
  // Blue's king on its rim at 3,-7; a white queen two cells away (4 units), a black rook two
  // cells away (2 units); the other kings far from both.
  const std::string kings = "bK3,-7;kK4,3;wK-7,4";
  const Position queen = Parse(kings + ";wQ1,-5");
  const Position rook = Parse(kings + ";kR2,-5");
  const Position both = Parse(kings + ";wQ1,-5;kR2,-5");
  ChestoniaEvalWeights with;
  with.king_attack = 4;
  auto cost = [&](const Position& p) {
    return ChestoniaSeatScores(p, ChestoniaEvalWeights{})[0] - ChestoniaSeatScores(p, with)[0];
  };
  EXPECT_EQ(cost(queen), 4 * 4 * 4 / 4);
  EXPECT_EQ(cost(rook), 4 * 2 * 2 / 4);
  EXPECT_EQ(cost(both), 4 * 6 * 6 / 4);
  // The attackers' own kings are not near anything: their seats pay nothing.
  for (int seat : {1, 2}) {
    EXPECT_EQ(ChestoniaSeatScores(both, with)[seat],
              ChestoniaSeatScores(both, ChestoniaEvalWeights{})[seat]);
  }
  // Pieces of a seat that is out attack nothing.
  Position frozen = both;
  frozen.active &= ~(1u << 2);
  EXPECT_EQ(cost(frozen), 4 * 2 * 2 / 4);
}

}  // namespace chestonia_eval

}  // namespace
}  // namespace arena::bots
