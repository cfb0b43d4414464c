#include "engine/chess/position.h"

#include <string>

#include "engine/chess/movegen.h"
#include "gtest/gtest.h"

namespace arena::engine::chess {
namespace {

TEST(FenTest, RoundTripsCanonicalFens) {
  for (const char* fen : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
           "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
           "8/8/8/8/8/8/8/K6k b - - 99 120",
           "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
       }) {
    auto pos = Position::FromFen(fen);
    ASSERT_TRUE(pos.ok()) << pos.status() << " " << fen;
    EXPECT_EQ(pos->Fen(), fen);
  }
}

TEST(FenTest, FourFieldsDefaultTheCounters) {
  auto pos = Position::FromFen("8/8/8/8/8/8/8/K6k w - -");
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(pos->Fen(), "8/8/8/8/8/8/8/K6k w - - 0 1");
}

TEST(FenTest, UselessEpSquareIsDropped) {
  // After 1.e4 no black pawn can capture on e3: the square is recorded as '-'.
  auto pos = Position::FromFen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(pos->ep_square(), kNoSquare);
  EXPECT_EQ(pos->Fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  auto plain = Position::FromFen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(plain->key(), pos->key());
}

struct BadFen {
  const char* fen;
  const char* field;  // the error must name this field
};

class FenErrorTest : public testing::TestWithParam<BadFen> {};

TEST_P(FenErrorTest, NamesTheField) {
  auto pos = Position::FromFen(GetParam().fen);
  ASSERT_FALSE(pos.ok()) << GetParam().fen;
  EXPECT_EQ(pos.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(pos.status().message()).find(GetParam().field), std::string::npos)
      << pos.status();
}

INSTANTIATE_TEST_SUITE_P(
    Cases, FenErrorTest,
    testing::Values(
        BadFen{"", "6 fields"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "6 fields"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement"},
        BadFen{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement"},
        BadFen{"rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement"},
        BadFen{"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement"},
        BadFen{"rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece placement"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w kq - 0 1", "kings"},
        BadFen{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "kings"},
        BadFen{"rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "first or last rank"},
        BadFen{"4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "first or last rank"},
        BadFen{"4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "8 pawns"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
        BadFen{"4k3/8/8/8/8/8/8/4K2r b - - 0 1", "side not to move is in check"},
        BadFen{"4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling rights"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling rights"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QKkq - 0 1", "castling rights"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKQkq - 0 1", "castling rights"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en passant"},
        BadFen{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", "en passant"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "en passant"},
        BadFen{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 5 1", "halfmove clock"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "halfmove clock"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove number"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x", "fullmove number"},
        BadFen{"4k3/8/8/8/8/3n1n2/8/r3K3 w - - 0 1", "more than two"}));

TEST(PositionTest, AttackQueries) {
  auto pos = Position::FromFen("4k3/8/8/3q4/8/8/8/R3K3 w - - 0 1");
  ASSERT_TRUE(pos.ok());
  EXPECT_TRUE(pos->IsAttackedBy(Square(3 + 8 * 0), kBlack));   // d1 by the queen
  EXPECT_TRUE(pos->IsAttackedBy(Square(0 + 8 * 7), kWhite));   // a8 by the rook
  EXPECT_FALSE(pos->IsAttackedBy(Square(7 + 8 * 7), kWhite));  // h8
  EXPECT_FALSE(pos->InCheck());
}

TEST(PositionTest, InsufficientMaterial) {
  struct Case {
    const char* fen;
    bool insufficient;
  };
  for (const Case& c : {
           Case{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
           Case{"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},
           Case{"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},
           Case{"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},    // same-coloured bishops
           Case{"4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false},  // opposite colours
           Case{"4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false},
           Case{"4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false},
           Case{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
           Case{"4k3/8/8/8/8/8/8/4K2R w - - 0 1", false},
       }) {
    auto pos = Position::FromFen(c.fen);
    ASSERT_TRUE(pos.ok()) << c.fen;
    EXPECT_EQ(pos->InsufficientMaterial(), c.insufficient) << c.fen;
  }
}

TEST(PositionTest, RepetitionKeyIgnoresAnEpSquareNoCaptureCanUse) {
  // d6 is attacked by the e5 pawn, but capturing exposes the king on a5 to the rook on h5.
  auto pinned = Position::FromFen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
  ASSERT_TRUE(pinned.ok()) << pinned.status();
  EXPECT_NE(pinned->ep_square(), kNoSquare);
  EXPECT_FALSE(pinned->HasLegalEnPassant());
  auto without = Position::FromFen("8/8/8/K2pP2r/8/8/8/7k w - - 0 1");
  EXPECT_EQ(pinned->RepetitionKey(), without->RepetitionKey());
  EXPECT_NE(pinned->key(), without->key());

  auto legal = Position::FromFen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
  ASSERT_TRUE(legal.ok());
  EXPECT_TRUE(legal->HasLegalEnPassant());
  auto plain = Position::FromFen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
  EXPECT_NE(legal->RepetitionKey(), plain->RepetitionKey());
}

TEST(PositionTest, NullMoveRoundTrip) {
  // With an ep square (black to move may take on e3), in the middle of a game.
  auto pos = Position::FromFen("rnbqkbnr/ppp1pppp/8/8/3pP3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 3");
  ASSERT_TRUE(pos.ok()) << pos.status();
  ASSERT_NE(pos->ep_square(), kNoSquare);
  const std::string fen = pos->Fen();
  const uint64_t key = pos->key();
  Position::Undo undo;
  pos->DoNullMove(undo);
  EXPECT_EQ(pos->side_to_move(), kWhite);
  EXPECT_EQ(pos->ep_square(), kNoSquare);
  EXPECT_EQ(pos->rule50(), 0);
  EXPECT_EQ(pos->fullmove(), 4);
  // The incremental key is the key of the same placement with White to move and no ep square.
  auto passed = Position::FromFen("rnbqkbnr/ppp1pppp/8/8/3pP3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 4");
  ASSERT_TRUE(passed.ok());
  EXPECT_EQ(pos->key(), passed->key());
  EXPECT_EQ(pos->Fen(), passed->Fen());
  pos->UndoNullMove(undo);
  EXPECT_EQ(pos->Fen(), fen);
  EXPECT_EQ(pos->key(), key);
  // Moves still make and unmake after a null move.
  pos->DoNullMove(undo);
  MoveList list;
  GenerateLegal(*pos, list);
  EXPECT_EQ(list.size(), CountLegal(*passed));
  pos->UndoNullMove(undo);
  EXPECT_EQ(pos->Fen(), fen);
}

// En-passant legality edge cases, each checked by its exact legal move count.
TEST(MovegenEdgeTest, EnPassantPins) {
  struct Case {
    const char* fen;
    int moves;
    bool ep_legal;
  };
  for (const Case& c : {
           // Rank pin through both pawns: ep illegal.
           Case{"8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", 6, false},
           // Diagonal pin of the capturing pawn along the capture: ep legal (stays on line).
           Case{"8/8/8/5k2/3Pp3/8/8/1B2K3 b - d3 0 1", -1, true},
           // Capturing pawn pinned on a diagonal that the capture leaves: ep illegal.
           Case{"8/8/8/3k4/3Pp3/8/8/4K2B b - d3 0 1", -1, false},
           // Ep captures the checking pawn: legal.
           Case{"8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", -1, true},
           // Ep does not resolve a rook check: illegal.
           Case{"8/8/R2k4/8/2pP4/8/8/4K3 b - d3 0 1", -1, false},
       }) {
    auto pos = Position::FromFen(c.fen);
    ASSERT_TRUE(pos.ok()) << pos.status() << " " << c.fen;
    if (c.moves >= 0) {
      EXPECT_EQ(CountLegal(*pos), c.moves) << c.fen;
    }
    EXPECT_EQ(pos->HasLegalEnPassant(), c.ep_legal) << c.fen;
  }
}

TEST(MovegenEdgeTest, CastlingConditions) {
  struct Case {
    const char* fen;
    int castles;  // legal castling moves for the side to move
  };
  for (const Case& c : {
           Case{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 2},
           Case{"r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", 1},
           Case{"r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1", 1},  // b1 blocked
           Case{"r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1", 1},  // g1 blocked
           Case{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 2},
           Case{"r3k2r/8/8/8/4r3/8/8/R3K2R w KQ - 0 1", 0},  // in check
           Case{"r3k2r/8/8/8/5r2/8/8/R3K2R w KQ - 0 1", 1},  // f1 attacked
           Case{"r3k2r/8/8/8/6r1/8/8/R3K2R w KQ - 0 1", 1},  // g1 attacked
           Case{"r3k2r/8/8/8/1r6/8/8/R3K2R w KQ - 0 1", 2},  // b1 attacked: O-O-O fine
           Case{"r3k2r/8/8/8/2r5/8/8/R3K2R w KQ - 0 1", 1},  // c1 attacked
           Case{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", 2},
       }) {
    auto pos = Position::FromFen(c.fen);
    ASSERT_TRUE(pos.ok()) << pos.status() << " " << c.fen;
    MoveList list;
    GenerateLegal(*pos, list);
    int castles = 0;
    for (Move m : list) castles += m.kind() == kCastling;
    EXPECT_EQ(castles, c.castles) << c.fen;
  }
}

TEST(MovegenEdgeTest, PromotionsToAllFourPieces) {
  auto pos = Position::FromFen("8/P6k/8/8/8/8/8/K7 w - - 0 1");
  ASSERT_TRUE(pos.ok());
  MoveList list;
  GenerateLegal(*pos, list);
  int promotions = 0, mask = 0;
  for (Move m : list) {
    if (m.kind() != kPromotion) continue;
    ++promotions;
    mask |= 1 << m.promotion();
  }
  EXPECT_EQ(promotions, 4);
  EXPECT_EQ(mask, (1 << kKnight) | (1 << kBishop) | (1 << kRook) | (1 << kQueen));
}

}  // namespace
}  // namespace arena::engine::chess
