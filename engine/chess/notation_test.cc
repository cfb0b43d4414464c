#include "engine/chess/notation.h"

#include <random>
#include <set>

#include "engine/chess/movegen.h"
#include "engine/chess/pgn.h"
#include "gtest/gtest.h"

namespace arena::engine::chess {
namespace {

Position FromFen(const char* fen) {
  auto pos = Position::FromFen(fen);
  EXPECT_TRUE(pos.ok()) << pos.status() << " " << fen;
  return pos.ok() ? *pos : Position::StartPosition();
}

std::string San(const char* fen, const char* uci) {
  Position pos = FromFen(fen);
  auto move = ParseUci(pos, uci);
  EXPECT_TRUE(move.ok()) << move.status();
  return move.ok() ? MoveToSan(pos, *move) : "";
}

TEST(UciTest, WritesAndReads) {
  Position pos = Position::StartPosition();
  auto m = ParseUci(pos, "e2e4");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(MoveToUci(*m), "e2e4");
  Position promo = FromFen("8/P6k/8/8/8/8/8/K7 w - - 0 1");
  auto q = ParseUci(promo, "a7a8n");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->kind(), kPromotion);
  EXPECT_EQ(q->promotion(), kKnight);
  EXPECT_EQ(MoveToUci(*q), "a7a8n");
  Position castle = FromFen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  auto oo = ParseUci(castle, "e1g1");
  ASSERT_TRUE(oo.ok());
  EXPECT_EQ(oo->kind(), kCastling);
}

TEST(UciTest, Errors) {
  Position pos = Position::StartPosition();
  for (const char* bad : {"", "e2", "e2e9", "i2i4", "e2e4x", "e2e4qq", "e2e2", "E2E4", "e7e8Q"}) {
    auto m = ParseUci(pos, bad);
    EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  for (const char* illegal : {"e2e5", "e1e2", "a7a8q", "e2e4q"}) {
    auto m = ParseUci(pos, illegal);
    EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition) << illegal;
  }
  Position promo = FromFen("8/P6k/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(ParseUci(promo, "a7a8").status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(SanTest, WritesStandardForms) {
  const char* start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_EQ(San(start, "e2e4"), "e4");
  EXPECT_EQ(San(start, "g1f3"), "Nf3");
  EXPECT_EQ(San("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"), "O-O");
  EXPECT_EQ(San("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"), "O-O-O");
  EXPECT_EQ(San("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
  EXPECT_EQ(San("8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7a8q"), "a8=Q");
  EXPECT_EQ(San("1r5k/P7/8/8/8/8/8/K7 w - - 0 1", "a7b8n"), "axb8=N");
  // Disambiguation by file, by rank, and by both.
  EXPECT_EQ(San("4k3/8/8/8/8/8/K7/R6R w - - 0 1", "a1d1"), "Rad1");
  EXPECT_EQ(San("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "b1d2"), "Nbd2");
  EXPECT_EQ(San("4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a2"), "R1a2");
  EXPECT_EQ(San("2k5/8/8/8/4Q2Q/8/K7/7Q w - - 0 1", "h4e1"), "Qh4e1");
  // Check and mate.
  EXPECT_EQ(San("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4"), "Qh4#");
  EXPECT_EQ(San("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), "O-O-O");
  EXPECT_EQ(San("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), "O-O-O+");
}

TEST(SanTest, ReadsVariants) {
  Position pos = Position::StartPosition();
  for (const char* text : {"Nf3", "Nf3+", "Nf3!?", "Ngf3", "Ng1f3", "N1f3"}) {
    auto m = ParseSan(pos, text);
    ASSERT_TRUE(m.ok()) << text << " " << m.status();
    EXPECT_EQ(MoveToUci(*m), "g1f3");
  }
  Position castle = FromFen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(MoveToUci(*ParseSan(castle, "0-0")), "e1g1");
  EXPECT_EQ(MoveToUci(*ParseSan(castle, "O-O-O")), "e1c1");
  Position promo = FromFen("8/P6k/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(MoveToUci(*ParseSan(promo, "a8=R")), "a7a8r");
  EXPECT_EQ(MoveToUci(*ParseSan(promo, "a8B")), "a7a8b");
}

TEST(SanTest, Errors) {
  Position pos = Position::StartPosition();
  for (const char* bad : {"", "Zf3", "N", "xe4", "Nf9", "e4e5e6", "K@e2", "Nxxf3", "ex"}) {
    EXPECT_EQ(ParseSan(pos, bad).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  for (const char* illegal : {"e5", "Nf4", "O-O", "Ke2", "exd5", "e8=Q"}) {
    EXPECT_EQ(ParseSan(pos, illegal).status().code(), absl::StatusCode::kFailedPrecondition)
        << illegal;
  }
  Position two = FromFen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
  EXPECT_EQ(ParseSan(two, "Nd2").status().code(), absl::StatusCode::kInvalidArgument);
}

// Every legal move in many random positions survives SAN and UCI round trips, and the SAN
// of distinct moves is distinct.
TEST(NotationTest, RoundTripsInRandomGames) {
  std::mt19937_64 rng(7);
  int checked = 0;
  for (int game = 0; game < 40; ++game) {
    Position pos = Position::StartPosition();
    for (int ply = 0; ply < 120; ++ply) {
      MoveList list;
      GenerateLegal(pos, list);
      if (list.empty()) break;
      std::set<std::string> sans;
      for (Move m : list) {
        std::string san = MoveToSan(pos, m);
        EXPECT_TRUE(sans.insert(san).second) << san << " twice in " << pos.Fen();
        auto back = ParseSan(pos, san);
        ASSERT_TRUE(back.ok()) << back.status() << " " << san;
        EXPECT_EQ(*back, m) << san << " in " << pos.Fen();
        auto uci = ParseUci(pos, MoveToUci(m));
        ASSERT_TRUE(uci.ok());
        EXPECT_EQ(*uci, m);
        ++checked;
      }
      Position::Undo undo;
      pos.DoMove(list[int(rng() % uint64_t(list.size()))], undo);
    }
  }
  EXPECT_GT(checked, 10000);
}

TEST(PgnTest, ExportAndImportRoundTrip) {
  Position pos = Position::StartPosition();
  PgnGame game;
  game.tags = {
      {"Event", "Arena"}, {"White", "Alice"}, {"Black", "Bob \"B\""}, {"TimeControl", "180+2"}};
  for (const char* san : {"f3", "e5", "g4", "Qh4#"}) {
    auto m = ParseSan(pos, san);
    ASSERT_TRUE(m.ok());
    game.moves.push_back(*m);
    Position::Undo undo;
    pos.DoMove(*m, undo);
  }
  game.clocks = {180, 179, std::nullopt, 3725};
  game.result = "0-1";
  const std::string text = ExportPgn(game);
  EXPECT_NE(text.find("[Event \"Arena\"]\n[Site \"?\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("[Black \"Bob \\\"B\\\"\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("[Result \"0-1\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("[TimeControl \"180+2\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("1. f3 { [%clk 0:03:00] } e5 { [%clk 0:02:59] } 2. g4 Qh4# "
                      "{ [%clk 1:02:05] } 0-1"),
            std::string::npos)
      << text;
  auto back = ImportPgn(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->moves, game.moves);
  EXPECT_EQ(back->clocks, game.clocks);
  EXPECT_EQ(back->result, "0-1");
  ASSERT_NE(back->Tag("Black"), nullptr);
  EXPECT_EQ(*back->Tag("Black"), "Bob \"B\"");
  EXPECT_EQ(ExportPgn(*back), text);
}

// A model's reasoning is a comment after its move, beside the clock reading; a '}' in it cannot
// end the comment early, and the moves and clocks still read back.
TEST(PgnTest, CommentsFollowTheirMoves) {
  Position pos = Position::StartPosition();
  PgnGame game;
  for (const char* san : {"e4", "e5"}) {
    auto m = ParseSan(pos, san);
    ASSERT_TRUE(m.ok());
    game.moves.push_back(*m);
    Position::Undo undo;
    pos.DoMove(*m, undo);
  }
  game.clocks = {std::nullopt, 59};
  game.comments = {"", "It keeps {the} centre\nbalanced."};
  const std::string text = ExportPgn(game);
  EXPECT_NE(text.find("1. e4 e5 { [%clk 0:00:59] It keeps {the) centre balanced. } *"),
            std::string::npos)
      << text;
  auto back = ImportPgn(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->moves, game.moves);
  EXPECT_EQ(back->clocks, game.clocks);
}

// Whole random games (castling, ep, promotions, long move lists) survive export and import.
TEST(PgnTest, RandomGamesRoundTrip) {
  std::mt19937_64 rng(11);
  for (int g = 0; g < 30; ++g) {
    PgnGame game;
    game.start_fen = g % 2 ? "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
                           : std::string(kStartFen);
    Position pos = FromFen(game.start_fen.c_str());
    for (int ply = 0; ply < 200; ++ply) {
      MoveList list;
      GenerateLegal(pos, list);
      if (list.empty()) break;
      Move m = list[int(rng() % uint64_t(list.size()))];
      game.moves.push_back(m);
      game.clocks.push_back(int64_t(rng() % 4000));
      Position::Undo undo;
      pos.DoMove(m, undo);
    }
    const std::string text = ExportPgn(game);
    auto back = ImportPgn(text);
    ASSERT_TRUE(back.ok()) << back.status() << "\n" << text;
    EXPECT_EQ(back->moves, game.moves);
    EXPECT_EQ(back->clocks, game.clocks);
    EXPECT_EQ(ExportPgn(*back), text);
  }
}

TEST(PgnTest, ExportFromFenStartsWithBlackMoveNumber) {
  PgnGame game;
  game.start_fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 12";
  Position pos = FromFen(game.start_fen.c_str());
  auto m = ParseSan(pos, "Kd7");
  ASSERT_TRUE(m.ok());
  game.moves = {*m};
  const std::string text = ExportPgn(game);
  EXPECT_NE(text.find("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 12\"]"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("12... Kd7 *"), std::string::npos) << text;
  auto back = ImportPgn(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->start_fen, game.start_fen);
  EXPECT_EQ(back->moves, game.moves);
}

TEST(PgnTest, ImportSkipsCommentsVariationsAndNags) {
  auto game = ImportPgn(
      "[Event \"x\"]\n[Result \"1/2-1/2\"]\n\n"
      "1. e4 $1 {best by test} (1. d4 d5 (1... Nf6) 2. c4) 1... e5 ; a comment\n"
      "2.Nf3 Nc6 3. Bb5 a6 1/2-1/2\n");
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ(game->moves.size(), 6u);
  EXPECT_EQ(game->result, "1/2-1/2");
}

TEST(PgnTest, ImportErrorsNameTheMove) {
  auto bad = ImportPgn("1. e4 e5 2. Ke3 *");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.status().message()).find("move 3"), std::string::npos) << bad.status();
  EXPECT_FALSE(ImportPgn("[Event \"x\"\n1. e4").ok());
  EXPECT_FALSE(ImportPgn("1. e4 {unterminated").ok());
  EXPECT_FALSE(ImportPgn("1. e4 (1. d4").ok());
  EXPECT_FALSE(ImportPgn("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4").ok());
}

}  // namespace
}  // namespace arena::engine::chess
