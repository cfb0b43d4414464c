// The fair-play check: against the real Stockfish (/usr/games/stockfish), a side that plays
// the engine's own moves is flagged and a side that plays random moves is not; short games are
// never flagged; bad input is refused. With a scripted engine (deterministic scores), each
// exclusion and the flag's thresholds behave as documented in fair_play.h.
#include "services/arena/ranked/fair_play.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>

#include "bots/chess/stockfish_player.h"
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace arena::ranked {
namespace {

namespace chess = engine::chess;

using ::testing::HasSubstr;

// The production depth: the flag tests check the default options. The engine side is generated
// at the same depth, as the check assumes of a cheater.
const int kDepth = FairPlayOptions{}.depth;

bool HaveStockfish() {
  return std::filesystem::exists(bots::StockfishPath());
}

chess::Position After(const std::string& fen, const std::vector<std::string>& moves) {
  auto pos = chess::Position::FromFen(fen);
  EXPECT_TRUE(pos.ok()) << pos.status();
  chess::Position p = *pos;
  for (const std::string& m : moves) {
    auto move = chess::ParseUci(p, m);
    EXPECT_TRUE(move.ok()) << m;
    chess::Position::Undo undo;
    p.DoMove(*move, undo);
  }
  return p;
}

std::vector<std::string> LegalUci(const chess::Position& pos) {
  chess::MoveList list;
  chess::GenerateLegal(pos, list);
  std::vector<std::string> out;
  for (chess::Move m : list) out.push_back(chess::MoveToUci(m));
  return out;
}

// A player: the next move (UCI) for the game so far.
using Player = std::function<std::string(const std::vector<std::string>& moves)>;

// Plays from the start position until the game ends or `max_plies` moves were made.
std::vector<std::string> PlayGame(const Player& white, const Player& black, int max_plies) {
  const std::string fen(chess::kStartFen);
  std::vector<std::string> moves;
  while (int(moves.size()) < max_plies) {
    if (LegalUci(After(fen, moves)).empty()) break;
    moves.push_back(moves.size() % 2 == 0 ? white(moves) : black(moves));
  }
  return moves;
}

Player StockfishPlayer(int elo, int depth) {
  return [elo, depth](const std::vector<std::string>& moves) {
    bots::StockfishRequest r;
    r.start_fen = std::string(chess::kStartFen);
    r.moves = moves;
    r.elo = elo;
    r.depth = depth;
    r.movetime_ms = 50;
    auto answer = bots::StockfishMove(r);
    EXPECT_TRUE(answer.ok()) << answer.status();
    return answer.ok() ? answer->move : std::string();
  };
}

Player RandomPlayer(uint32_t seed) {
  auto rng = std::make_shared<std::mt19937>(seed);
  return [rng](const std::vector<std::string>& moves) {
    std::vector<std::string> legal = LegalUci(After(std::string(chess::kStartFen), moves));
    return legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(*rng)];
  };
}

int CountExcluded(const FairPlayReport& r, int color, MoveExclusion e) {
  int n = 0;
  for (const MoveVerdict& m : r.moves) n += (m.color == color && m.excluded == e) ? 1 : 0;
  return n;
}

void Print(const char* what, const FairPlayReport& r, double seconds) {
  for (const PlayerFairPlay& p : r.players) {
    std::printf("%s: %s analysed %d of %d, match %.2f, acpl %.1f (limit %.1f), flagged %d\n", what,
                p.color == 0 ? "white" : "black", p.moves_analysed, p.moves_played, p.match_rate,
                p.acpl, p.acpl_limit, p.flagged);
  }
  std::printf("%s: %zu plies analysed at depth %d in %.2f s\n", what, r.moves.size(), r.depth,
              seconds);
}

absl::StatusOr<FairPlayReport> TimedAnalysis(const char* what, const FairPlayGame& game,
                                             const FairPlayOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  auto report = AnalyseFairPlay(game, options);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (report.ok()) Print(what, *report, s);
  return report;
}

// --- Against the real engine -----------------------------------------------------------------

TEST(FairPlayStockfish, TheSideThatPlaysTheEnginesMovesIsFlagged) {
  if (!HaveStockfish()) GTEST_SKIP() << "no " << bots::StockfishPath();
  // White, rated 1500: the engine at the analysis depth. Black, rated as the strong player it
  // is: the engine two plies shallower, strong enough to keep the game undecided for long
  // (against a weak opponent the engine wins before it has made enough analysed moves;
  // docs/ranked.md). Both sides search to a depth from an empty hash table, so the game is the
  // same on every run: with Stockfish's limited strength (UCI_Elo, by time) as black, the game
  // changed from run to run and sometimes left white 18 analysed moves, short of the 20 a flag
  // needs.
  FairPlayGame game;
  game.moves = PlayGame(StockfishPlayer(0, kDepth), StockfishPlayer(0, kDepth - 2), 100);
  game.ratings = {1500, bots::kStockfishMaxElo};
  // Timings as an engine user's might be: a steady few seconds a move.
  for (size_t i = 0; i < game.moves.size(); ++i) game.think_ms.push_back(3000 + 100 * (i % 3));
  FairPlayOptions options;
  auto report = TimedAnalysis("engine vs two plies less", game, options);
  ASSERT_TRUE(report.ok()) << report.status();
  const PlayerFairPlay& white = report->players[0];
  EXPECT_GE(white.moves_analysed, options.limits.min_moves);
  EXPECT_GE(white.match_rate, options.limits.min_match_rate);
  EXPECT_LE(white.acpl, white.acpl_limit);
  EXPECT_TRUE(white.flagged);
  // Black is a strong engine too, judged against its 2850 rating's strict limit: how it fares
  // there is the engine's business, not this check's, so it is not asserted.
  ASSERT_TRUE(white.median_think_ms.has_value());
  EXPECT_GE(*white.median_think_ms, 3000);
  EXPECT_LE(*white.median_think_ms, 3200);

  // The evidence repeats the figures, the thresholds and white's moves only.
  auto evidence = nlohmann::json::parse(white.evidence_json);
  EXPECT_EQ(evidence["flagged"], true);
  EXPECT_EQ(evidence["moves_analysed"], white.moves_analysed);
  EXPECT_EQ(evidence["thresholds"]["min_match_rate"], options.limits.min_match_rate);
  EXPECT_EQ(evidence["thresholds"]["depth"], kDepth);
  ASSERT_EQ(int(evidence["moves"].size()), white.moves_played);
  int analysed = 0;
  for (const auto& m : evidence["moves"]) {
    EXPECT_EQ(m["ply"].get<int>() % 2, 0);
    if (m["excluded"] == "none") {
      ++analysed;
      EXPECT_GE(m["cp_loss"].get<int>(), 0);
      EXPECT_TRUE(m.contains("best"));
    }
  }
  EXPECT_EQ(analysed, white.moves_analysed);
}

TEST(FairPlayStockfish, RandomMovesAreNotFlaggedAndLoseManyCentipawns) {
  if (!HaveStockfish()) GTEST_SKIP() << "no " << bots::StockfishPath();
  FairPlayGame game;
  game.moves = PlayGame(RandomPlayer(7), RandomPlayer(11), 80);
  FairPlayOptions options;
  options.depth = kDepth;
  // Random play leaves the balance quickly; a wide margin keeps its moves in the figures.
  options.decided_margin_cp = kClampCp;
  auto report = TimedAnalysis("random vs random", game, options);
  ASSERT_TRUE(report.ok()) << report.status();
  for (const PlayerFairPlay& p : report->players) {
    EXPECT_FALSE(p.flagged);
    ASSERT_GE(p.moves_analysed, 10);
    EXPECT_GT(p.acpl, 100);
    EXPECT_LT(p.match_rate, 0.4);
  }
}

TEST(FairPlayStockfish, ShortGamesAreNeverFlagged) {
  if (!HaveStockfish()) GTEST_SKIP() << "no " << bots::StockfishPath();
  // Both sides the engine: engine-like throughout, but only 36 plies, 10 analysed moves each.
  FairPlayGame game;
  game.moves = PlayGame(StockfishPlayer(0, kDepth), StockfishPlayer(0, kDepth), 36);
  ASSERT_EQ(game.moves.size(), 36u);
  FairPlayOptions options;
  options.depth = kDepth;
  auto report = AnalyseFairPlay(game, options);
  ASSERT_TRUE(report.ok()) << report.status();
  for (const PlayerFairPlay& p : report->players) {
    EXPECT_LT(p.moves_analysed, options.limits.min_moves);
    EXPECT_FALSE(p.flagged);
  }
}

TEST(FairPlayStockfish, TheEnginesScoresAreClampedAndAMatchLosesNothing) {
  if (!HaveStockfish()) GTEST_SKIP() << "no " << bots::StockfishPath();
  // White has a queen against a bare king: every position is far beyond the clamp.
  FairPlayGame game;
  game.start_fen = "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1";
  game.moves = {"g1g2", "h8h7", "g2g3", "h7h8"};
  FairPlayOptions options;
  options.depth = kDepth;
  options.book_plies = 0;
  auto report = AnalyseFairPlay(game, options);
  ASSERT_TRUE(report.ok()) << report.status();
  for (const MoveVerdict& m : report->moves) {
    EXPECT_EQ(std::abs(m.best_cp), kClampCp) << m.ply;
    EXPECT_EQ(std::abs(m.played_cp), kClampCp) << m.ply;
    EXPECT_NE(m.excluded, MoveExclusion::kNone) << m.ply;
    if (m.color == 0) {
      EXPECT_EQ(m.excluded, MoveExclusion::kDecided) << m.ply;
    }
    if (m.same_move) {
      EXPECT_EQ(m.cp_loss, 0);
    }
  }
  EXPECT_EQ(report->moves[1].excluded, MoveExclusion::kForced);  // h8h7, the only move
  EXPECT_EQ(report->players[0].moves_analysed, 0);
  EXPECT_EQ(report->players[1].moves_analysed, 0);
}

TEST(FairPlayStockfish, AMateEndingTheGameIsScoredAsAWin) {
  if (!HaveStockfish()) GTEST_SKIP() << "no " << bots::StockfishPath();
  // Fool's mate: black's last move mates; nothing is left to search after it.
  FairPlayGame game;
  game.moves = {"f2f3", "e7e5", "g2g4", "d8h4"};
  FairPlayOptions options;
  options.depth = kDepth;
  options.book_plies = 0;
  options.decided_margin_cp = 100000;
  auto report = AnalyseFairPlay(game, options);
  ASSERT_TRUE(report.ok()) << report.status();
  const MoveVerdict& mate = report->moves[3];
  EXPECT_EQ(mate.best, "d8h4");
  EXPECT_TRUE(mate.same_move);
  EXPECT_TRUE(mate.engine_match);
  EXPECT_EQ(mate.played_cp, kClampCp);
  EXPECT_EQ(mate.best_cp, kClampCp);
  EXPECT_EQ(mate.cp_loss, 0);
  // White's g2g4 allowed mate in one: the biggest loss there is, after clamping.
  const MoveVerdict& blunder = report->moves[2];
  EXPECT_EQ(blunder.played_cp, -kClampCp);
  EXPECT_EQ(blunder.cp_loss, blunder.best_cp + kClampCp);
}

// --- Refusals --------------------------------------------------------------------------------

// A scripted engine: the first legal move; the score of the position after the last move
// named in `score_after_move`, else by the number of moves played (`score_at`), else 0.
// Remembers the length of every line it was asked about.
struct ScriptedEngine {
  std::map<size_t, int> score_at;
  std::map<std::string, int> score_after_move;
  std::vector<size_t> asked;
  int ScoreOf(const std::vector<std::string>& moves) const {
    if (!moves.empty()) {
      auto it = score_after_move.find(moves.back());
      if (it != score_after_move.end()) return it->second;
    }
    auto it = score_at.find(moves.size());
    return it == score_at.end() ? 0 : it->second;
  }
  EngineSearch Search() {
    return [this](const std::string& fen, const std::vector<std::string>& moves,
                  int) -> absl::StatusOr<EngineSearchResult> {
      asked.push_back(moves.size());
      std::vector<std::string> legal = LegalUci(After(fen, moves));
      if (legal.empty()) return absl::InternalError("searched a finished game");
      return EngineSearchResult{legal[0], ScoreOf(moves)};
    };
  }
};

TEST(FairPlayRefusals, BadInputIsInvalidArgument) {
  ScriptedEngine engine;
  FairPlayOptions options;
  options.search = engine.Search();
  auto code = [&](const FairPlayGame& g, const FairPlayOptions& o) {
    return AnalyseFairPlay(g, o).status().code();
  };
  FairPlayGame ok;
  ok.moves = {"e2e4", "e7e5"};
  EXPECT_EQ(code(ok, options), absl::StatusCode::kOk);

  FairPlayGame illegal = ok;
  illegal.moves.push_back("e4e5");  // blocked by black's pawn
  auto status = AnalyseFairPlay(illegal, options).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("move 3"));

  FairPlayGame garbage = ok;
  garbage.moves[1] = "hello";
  EXPECT_EQ(code(garbage, options), absl::StatusCode::kInvalidArgument);

  FairPlayGame after_mate;
  after_mate.moves = {"f2f3", "e7e5", "g2g4", "d8h4", "e1f2"};
  EXPECT_EQ(code(after_mate, options), absl::StatusCode::kInvalidArgument);

  FairPlayGame bad_fen = ok;
  bad_fen.start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1";
  EXPECT_EQ(code(bad_fen, options), absl::StatusCode::kInvalidArgument);

  FairPlayGame timings = ok;
  timings.think_ms = {1000};
  status = AnalyseFairPlay(timings, options).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("1 given for 2 moves"));
  timings.think_ms = {1000, -1};
  EXPECT_EQ(code(timings, options), absl::StatusCode::kInvalidArgument);
  timings.think_ms = {1000, 0};
  EXPECT_EQ(code(timings, options), absl::StatusCode::kOk);

  FairPlayGame rating = ok;
  rating.ratings[1] = std::nan("");
  EXPECT_EQ(code(rating, options), absl::StatusCode::kInvalidArgument);

  FairPlayOptions depth = options;
  depth.depth = 0;
  EXPECT_EQ(code(ok, depth), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(engine.asked.empty());  // every move was in the book: nothing searched
}

TEST(FairPlayRefusals, AnEngineFailureIsUnavailable) {
  FairPlayOptions options;
  options.book_plies = 0;
  options.search = [](const std::string&, const std::vector<std::string>&,
                      int) -> absl::StatusOr<EngineSearchResult> {
    return absl::InternalError("engine crashed");
  };
  FairPlayGame game;
  game.moves = {"e2e4"};
  EXPECT_EQ(AnalyseFairPlay(game, options).status().code(), absl::StatusCode::kUnavailable);
}

// --- Exclusions and the flag, on a scripted engine ----------------------------------------------

TEST(FairPlayExclusions, BookMovesAreNotSearched) {
  ScriptedEngine engine;
  FairPlayOptions options;
  options.search = engine.Search();
  options.book_plies = 4;
  FairPlayGame game;
  game.moves = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"};
  auto report = AnalyseFairPlay(game, options);
  ASSERT_TRUE(report.ok()) << report.status();
  // Positions 4, 5 and the final one (6), and those after the engine's own moves where they
  // differ from the played ones: none before the end of the book.
  EXPECT_THAT(engine.asked, ::testing::Each(::testing::Ge(4u)));
  for (size_t i : {4u, 5u, 6u}) EXPECT_THAT(engine.asked, ::testing::Contains(i));
  for (const MoveVerdict& m : report->moves) {
    EXPECT_EQ(m.excluded == MoveExclusion::kBook, m.ply < 4) << m.ply;
    if (m.excluded == MoveExclusion::kBook) {
      EXPECT_TRUE(m.best.empty());
    }
  }
  EXPECT_EQ(report->players[0].moves_analysed, 1);
  EXPECT_EQ(report->players[1].moves_analysed, 1);
  EXPECT_EQ(report->players[0].moves_played, 3);
}

TEST(FairPlayExclusions, ForcedAndDecidedMovesAreLeftOut) {
  ScriptedEngine engine;
  FairPlayOptions options;
  options.search = engine.Search();
  options.book_plies = 0;
  options.decided_margin_cp = 500;
  // White's rook checks; black's king has one square (a7). Then quiet moves.
  FairPlayGame game;
  game.start_fen = "k7/8/2K5/8/8/8/8/3R4 w - - 0 1";
  game.moves = {"d1d8", "a8a7", "d8d1", "a7a6", "d1d2", "a6a5"};
  // Scores by position (moves played so far), for the mover: white's moves at positions 0, 2, 4;
  // black's at 1, 3, 5. Position 2: white +501 (decided); position 4: white +500 (not decided).
  engine.score_at = {{0, 300}, {1, -300}, {2, 501}, {3, -200}, {4, 500}, {5, -100}, {6, 0}};
  // White's first move is worse than the engine's (the first legal move): after it black's
  // score is +50, after the engine's move -300, so it loses 350.
  // White's decided move d8d1 is worse still: black +400 after it, 600 lost.
  engine.score_after_move = {{"d1d8", 50}, {"d8d1", 400}};
  auto report = AnalyseFairPlay(game, options);
  ASSERT_TRUE(report.ok()) << report.status();
  const auto& m = report->moves;
  EXPECT_EQ(m[0].excluded, MoveExclusion::kNone);
  EXPECT_EQ(m[1].excluded, MoveExclusion::kForced);  // a8a7 is the only move
  EXPECT_EQ(m[2].excluded, MoveExclusion::kDecided);
  EXPECT_EQ(m[3].excluded, MoveExclusion::kNone);
  EXPECT_EQ(m[4].excluded, MoveExclusion::kNone);
  EXPECT_EQ(m[5].excluded, MoveExclusion::kNone);
  ASSERT_NE(m[0].best, "d1d8");
  EXPECT_EQ(m[0].played_cp, -50);
  EXPECT_EQ(m[0].best_cp, 300);
  EXPECT_EQ(m[0].cp_loss, 350);
  // Every move: the played and the engine's move scored from the positions they lead to.
  for (const MoveVerdict& v : m) {
    std::vector<std::string> line(game.moves.begin(), game.moves.begin() + v.ply + 1);
    EXPECT_EQ(v.played_cp, -engine.ScoreOf(line)) << v.ply;
    line.back() = v.best;
    EXPECT_EQ(v.best_cp, -engine.ScoreOf(line)) << v.ply;
    EXPECT_EQ(v.cp_loss, std::max(0, v.best_cp - v.played_cp)) << v.ply;
    EXPECT_EQ(v.engine_match, v.cp_loss == 0) << v.ply;
    EXPECT_EQ(v.same_move, v.played == v.best) << v.ply;
  }
  // White's figures cover plies 0 and 4 only; the decided ply 2's loss is not in them.
  if (!m[2].same_move) {
    EXPECT_EQ(m[2].cp_loss, 600);
  }
  const PlayerFairPlay& white = report->players[0];
  EXPECT_EQ(white.moves_analysed, 2);
  EXPECT_DOUBLE_EQ(white.acpl, (m[0].cp_loss + m[4].cp_loss) / 2.0);
  EXPECT_EQ(CountExcluded(*report, 0, MoveExclusion::kDecided), 1);
  EXPECT_EQ(CountExcluded(*report, 1, MoveExclusion::kForced), 1);
  auto evidence = nlohmann::json::parse(report->players[1].evidence_json);
  EXPECT_EQ(evidence["moves"][0]["excluded"], "forced");
}

MoveVerdict Analysed(int ply, int cp_loss, bool match, int64_t think_ms = -1) {
  MoveVerdict v;
  v.ply = ply;
  v.color = ply % 2;
  v.played = "a1a2";
  v.best = match ? "a1a2" : "b1b2";
  v.cp_loss = cp_loss;
  v.engine_match = match;
  v.same_move = match;
  v.think_ms = think_ms;
  return v;
}

TEST(FairPlayFlag, NeedsEnoughMovesAHighMatchRateAndALowAcplForTheRating) {
  const FairPlayOptions options;  // min 20 moves, match >= 0.65, acpl <= 0.35 × expected
  // White: `n` moves, 80% matches, the rest losing 20 cp: ACPL 4.
  auto game = [](int n, int miss_loss) {
    std::vector<MoveVerdict> moves;
    for (int i = 0; i < n; ++i) {
      const bool match = i % 5 != 0;
      moves.push_back(Analysed(2 * i, match ? 0 : miss_loss, match));
      moves.push_back(Analysed(2 * i + 1, 50, false));
    }
    return moves;
  };
  EXPECT_FALSE(SummarisePlayer(game(19, 20), 0, 1500, options).flagged);
  const PlayerFairPlay twenty = SummarisePlayer(game(20, 20), 0, 1500, options);
  EXPECT_TRUE(twenty.flagged);
  EXPECT_DOUBLE_EQ(twenty.match_rate, 0.8);
  EXPECT_DOUBLE_EQ(twenty.acpl, 4.0);
  EXPECT_DOUBLE_EQ(twenty.expected_acpl, 60.0);
  EXPECT_DOUBLE_EQ(twenty.acpl_limit, 21.0);
  // Black, 0% matches at 50 cp a move: not flagged.
  EXPECT_FALSE(SummarisePlayer(game(30, 20), 1, 1500, options).flagged);
  // The same 80% with 110 cp misses: ACPL 22 > 21 at 1500; a stronger player is expected to
  // lose fewer, so the limit at 2000 is lower still (40 × 0.35 = 14).
  EXPECT_FALSE(SummarisePlayer(game(30, 110), 0, 1500, options).flagged);
  EXPECT_FALSE(SummarisePlayer(game(30, 110), 0, 2000, options).flagged);
  EXPECT_TRUE(SummarisePlayer(game(30, 100), 0, 1500, options).flagged);  // ACPL 20
  // A weak player's limit is higher: 80 × 0.35 = 28 at 1000.
  EXPECT_TRUE(SummarisePlayer(game(30, 110), 0, 1000, options).flagged);
  // Low ACPL alone is not enough: 60% matches.
  std::vector<MoveVerdict> careful;
  for (int i = 0; i < 30; ++i) careful.push_back(Analysed(2 * i, i % 5 < 2 ? 5 : 0, i % 5 >= 2));
  EXPECT_FALSE(SummarisePlayer(careful, 0, 1500, options).flagged);
}

TEST(FairPlayFlag, ExpectedAcplFallsWithRatingWithinItsBounds) {
  EXPECT_DOUBLE_EQ(ExpectedAcpl(1000), 80);
  EXPECT_DOUBLE_EQ(ExpectedAcpl(2000), 40);
  EXPECT_DOUBLE_EQ(ExpectedAcpl(0), 100);
  EXPECT_DOUBLE_EQ(ExpectedAcpl(3000), 15);
  for (double r = 0; r < 3000; r += 50) EXPECT_GE(ExpectedAcpl(r), ExpectedAcpl(r + 50));
}

TEST(FairPlayFlag, TimingFiguresCoverTheAnalysedMoves) {
  const FairPlayOptions options;
  std::vector<MoveVerdict> moves = {Analysed(0, 0, true, 100), Analysed(2, 0, true, 300),
                                    Analysed(4, 0, true, 200)};
  MoveVerdict book = Analysed(6, 0, true, 90000);
  book.excluded = MoveExclusion::kBook;
  moves.push_back(book);
  const PlayerFairPlay p = SummarisePlayer(moves, 0, 1500, options);
  ASSERT_TRUE(p.median_think_ms.has_value());
  EXPECT_DOUBLE_EQ(*p.median_think_ms, 200);
  ASSERT_TRUE(p.think_time_cv.has_value());
  EXPECT_NEAR(*p.think_time_cv, std::sqrt(20000.0 / 3) / 200, 1e-12);
  // Without timings: no figures, null in the evidence.
  for (MoveVerdict& m : moves) m.think_ms = -1;
  const PlayerFairPlay untimed = SummarisePlayer(moves, 0, 1500, options);
  EXPECT_FALSE(untimed.median_think_ms.has_value());
  EXPECT_FALSE(untimed.think_time_cv.has_value());
  EXPECT_TRUE(nlohmann::json::parse(untimed.evidence_json)["median_think_ms"].is_null());
}

TEST(FairPlayFlag, ThinkTimesReachTheVerdicts) {
  ScriptedEngine engine;
  FairPlayOptions options;
  options.search = engine.Search();
  options.book_plies = 0;
  FairPlayGame game;
  game.moves = {"e2e4", "e7e5", "g1f3", "b8c6"};
  game.think_ms = {500, 700, 1500, 0};
  auto report = AnalyseFairPlay(game, options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->moves[2].think_ms, 1500);
  EXPECT_DOUBLE_EQ(*report->players[0].median_think_ms, 1000);
  EXPECT_DOUBLE_EQ(*report->players[1].median_think_ms, 350);
}

}  // namespace
}  // namespace arena::ranked
