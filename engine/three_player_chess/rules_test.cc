// One test per rule of docs/rules/three-player-chess.md: the board and its names, the centre,
// every piece's movement through it, pawn directions, castling, en passant, checkmate and
// inheritance, skips, the second checkmate and the draws, and the text forms.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/three_player_chess/movegen.h"
#include "engine/three_player_chess/notation.h"
#include "engine/three_player_chess/test_util.h"
#include "engine/three_player_chess/three_player_chess_game.h"
#include "gtest/gtest.h"

namespace arena::engine::three_player_chess {
namespace {

using testing_util::Build;
using testing_util::Moves;
using testing_util::Play;
using testing_util::TargetsFrom;
using Cells = std::vector<std::string>;

int Cell(const std::string& name) {
  absl::StatusOr<int> cell = ParseCell(name);
  EXPECT_TRUE(cell.ok()) << name;
  return cell.ok() ? *cell : 0;
}

// Kings out of the way of the pieces under test.
const Cells kFarKings = {"wKH1", "bKL8", "rKL12"};
Cells With(Cells pieces, const Cells& more = kFarKings) {
  pieces.insert(pieces.end(), more.begin(), more.end());
  return pieces;
}

// --- The board ------------------------------------------------------------------------------

TEST(Board, NinetySixNamedCellsAndFortyEightMissingNames) {
  std::set<std::string> names;
  for (int cell = 0; cell < kNumCells; ++cell) {
    names.insert(CellName(cell));
    absl::StatusOr<int> back = ParseCell(CellName(cell));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, cell);
  }
  EXPECT_EQ(names.size(), 96u);
  int missing = 0;
  for (char letter = 'A'; letter <= 'L'; ++letter) {
    for (int number = 1; number <= 12; ++number) {
      const std::string name = std::string(1, letter) + std::to_string(number);
      absl::StatusOr<int> cell = ParseCell(name);
      const bool exists = (letter <= 'H' && number <= 4) ||
                          ((letter <= 'D' || letter >= 'I') && number >= 5 && number <= 8) ||
                          (letter >= 'E' && number >= 9);
      EXPECT_EQ(cell.ok(), exists) << name;
      if (!cell.ok()) {
        EXPECT_EQ(cell.status().code(), absl::StatusCode::kInvalidArgument);
        ++missing;
      }
    }
  }
  EXPECT_EQ(missing, 48);
  for (const char* bad : {"M1", "A0", "A13", "E", "", "A01", "e5", "I4", "D9"}) {
    EXPECT_EQ(ParseCell(bad).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(*ParseCell("e4"), Cell("E4"));
}

TEST(Board, SegmentFramesAndColours) {
  // Black's frame runs L K J I D C B A from its left, rows 8 down to 5; Red's H G F E I J K L.
  EXPECT_EQ(CellName(CellAt(1, 0, 0)), "L8");
  EXPECT_EQ(CellName(CellAt(1, 3, 4)), "D5");
  EXPECT_EQ(CellName(CellAt(2, 0, 0)), "H12");
  EXPECT_EQ(CellName(CellAt(2, 3, 4)), "I9");
  EXPECT_FALSE(IsLight(Cell("A1")));
  EXPECT_TRUE(IsLight(Cell("B1")));
}

TEST(Board, CentreCellsMeetInCyclicOrder) {
  const Cells ring = {"D4", "E4", "E9", "I9", "I5", "D5"};
  for (int i = 0; i < 6; ++i) {
    const int cell = Cell(ring[i]);
    std::set<int> straight, diagonal;
    for (auto [dv, ds] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
      straight.insert(StraightStep(cell, dv, ds).cell);
    }
    for (auto [dv, ds] : {std::pair{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}) {
      for (const StepResult& s : DiagonalStep(cell, dv, ds)) diagonal.insert(s.cell);
    }
    EXPECT_TRUE(straight.count(Cell(ring[(i + 1) % 6]))) << ring[i];
    EXPECT_TRUE(straight.count(Cell(ring[(i + 5) % 6]))) << ring[i];
    EXPECT_TRUE(diagonal.count(Cell(ring[(i + 2) % 6]))) << ring[i];
    EXPECT_TRUE(diagonal.count(Cell(ring[(i + 4) % 6]))) << ring[i];
    EXPECT_FALSE(straight.count(Cell(ring[(i + 3) % 6])) || diagonal.count(Cell(ring[(i + 3) % 6])))
        << ring[i] << " touches the opposite centre cell";
    for (int d : diagonal) {
      if (d != kNoCell) {
        EXPECT_EQ(IsLight(d), IsLight(cell)) << "diagonals keep the colour";
      }
    }
  }
}

// --- Pieces ---------------------------------------------------------------------------------

TEST(Pieces, WhiteHasTwentyFirstMovesAndSoDoTheOthers) {
  Position pos = Position::Initial();
  EXPECT_EQ(Moves(pos).size(), 20u);
  for (int p = 1; p < 3; ++p) {
    pos.turn = static_cast<int8_t>(p);
    EXPECT_EQ(Moves(pos).size(), 20u) << ColourName(p);
  }
  // Back ranks from each owner's left: Black K D8 Q I8, Red K I12 Q E12.
  const Position start = Position::Initial();
  EXPECT_EQ(start.cells[Cell("D8")], MakePiece(1, kKing));
  EXPECT_EQ(start.cells[Cell("I8")], MakePiece(1, kQueen));
  EXPECT_EQ(start.cells[Cell("I12")], MakePiece(2, kKing));
  EXPECT_EQ(start.cells[Cell("E12")], MakePiece(2, kQueen));
  EXPECT_EQ(start.cells[Cell("E1")], MakePiece(0, kKing));
  EXPECT_EQ(start.cells[Cell("D1")], MakePiece(0, kQueen));
}

TEST(Pieces, RookGoesStraightAcrossTheCentre) {
  EXPECT_EQ(
      TargetsFrom(Build(With({"wRD4"}), 0), "D4"),
      (Cells{"A4", "B4", "C4", "D1", "D2", "D3", "D5", "D6", "D7", "D8", "E4", "F4", "G4", "H4"}));
  const Cells e_file = TargetsFrom(Build(With({"wRE2"}), 0), "E2");
  for (const char* cell : {"E3", "E4", "E9", "E10", "E11", "E12", "E1"}) {
    EXPECT_NE(std::find(e_file.begin(), e_file.end(), cell), e_file.end()) << cell;
  }
  EXPECT_EQ(std::find(e_file.begin(), e_file.end(), "E5"), e_file.end());
}

TEST(Pieces, BishopBranchesAtTheCentre) {
  const Cells kings = {"wKH1", "bKA8", "rKL12"};
  const Cells targets = TargetsFrom(Build(With({"wBC3"}, kings), 0), "C3");
  EXPECT_EQ(targets, (Cells{"A1", "A5", "B2", "B4", "D2", "D4", "E1", "E9", "F10", "G11", "H12",
                            "I5", "J6", "K7", "L8"}));
  // One piece on D4 blocks both branches.
  const Cells blocked = TargetsFrom(Build(With({"wBC3", "bND4"}, kings), 0), "C3");
  EXPECT_EQ(std::count(blocked.begin(), blocked.end(), "E9"), 0);
  EXPECT_EQ(std::count(blocked.begin(), blocked.end(), "I5"), 0);
  EXPECT_EQ(std::count(blocked.begin(), blocked.end(), "D4"), 1);
  // A piece on one branch leaves the other open.
  const Cells one = TargetsFrom(Build(With({"wBC3", "rPF10"}, kings), 0), "C3");
  EXPECT_EQ(one,
            (Cells{"A1", "A5", "B2", "B4", "D2", "D4", "E1", "E9", "F10", "I5", "J6", "K7", "L8"}));
}

TEST(Pieces, QueenAndKingOnACentreCell) {
  const Cells king = TargetsFrom(Build({"wKD4", "bKL8", "rKL12"}, 0), "D4");
  EXPECT_EQ(king, (Cells{"C3", "C4", "C5", "D3", "D5", "E3", "E4", "E9", "I5"}));
  const Cells queen = TargetsFrom(Build(With({"wQD4"}), 0), "D4");
  EXPECT_EQ(queen.size(), 14u /*rook*/ + 2 /*C3 B2 A1*/ + 1 + 2 /*E3 F2 G1*/ + 3 /*C5 B6 A7*/ + 3 +
                              2 + 3 /*E9 F10 G11 H12, I5 J6 K7, L8 is a king*/);
}

TEST(Pieces, KnightNearTheCentre) {
  EXPECT_EQ(TargetsFrom(Build(With({"wND3"}), 0), "D3"),
            (Cells{"B2", "B4", "C1", "C5", "E1", "E9", "F2", "F4", "I5"}));
}

TEST(Pieces, PiecesNeverCaptureKingsNorTheirOwnerPieces) {
  // The rook sees the black king on D8 down the column but may not take it.
  const Position pos = Build({"wRD4", "bKD8", "wKH1", "rKL12", "wND2"}, 0);
  const Cells rook = TargetsFrom(pos, "D4");
  EXPECT_EQ(std::count(rook.begin(), rook.end(), "D8"), 0);
  EXPECT_EQ(std::count(rook.begin(), rook.end(), "D2"), 0);
  EXPECT_EQ(std::count(rook.begin(), rook.end(), "D7"), 1);
}

// --- Pawns ----------------------------------------------------------------------------------

TEST(Pawns, ThreeCapturesOnACentreCell) {
  const Position pos = Build(With({"wPD4", "bPC5", "rPE9", "bNI5"}), 0);
  EXPECT_EQ(TargetsFrom(pos, "D4"), (Cells{"C5", "D5", "E9", "I5"}));
  const Position e4 = Build(With({"wPE4", "bPD5", "rPF9", "rNI9"}), 0);
  EXPECT_EQ(TargetsFrom(e4, "E4"), (Cells{"D5", "E9", "F9", "I9"}));
}

TEST(Pawns, DirectionTurnsAfterCrossing) {
  Position pos = Build(With({"wPD4", "bPC6", "bNI6"}), 0);
  Play(pos, "D4D5");
  pos.turn = 0;
  // Across, it heads for Black's back rank and captures toward it.
  EXPECT_EQ(TargetsFrom(pos, "D5"), (Cells{"C6", "D6", "I6"}));
  // A black pawn in White's segment heads for White's back rank and promotes there.
  Position black = Build(With({"bPD2"}), 1);
  EXPECT_EQ(Moves(black).size(), Moves(Build(kFarKings, 1)).size() + 4);
  Play(black, "D2D1=N");
  EXPECT_EQ(black.cells[Cell("D1")], MakePiece(1, kKnight));
  // Red pawns on the I-L columns cross into Black's segment, on E-H into White's.
  EXPECT_EQ(TargetsFrom(Build(With({"rPI9"}), 2), "I9"), (Cells{"I5"}));
  EXPECT_EQ(TargetsFrom(Build(With({"rPE9"}), 2), "E9"), (Cells{"E4"}));
}

TEST(Pawns, DoubleStepOnlyFromTheStartRow) {
  EXPECT_EQ(TargetsFrom(Build(With({"wPC2"}), 0), "C2"), (Cells{"C3", "C4"}));
  EXPECT_EQ(TargetsFrom(Build(With({"wPC3"}), 0), "C3"), (Cells{"C4"}));
  EXPECT_EQ(TargetsFrom(Build(With({"wPC2", "bNC4"}), 0), "C2"), (Cells{"C3"}));
  EXPECT_EQ(TargetsFrom(Build(With({"wPC2", "bNC3"}), 0), "C2"), (Cells{}));
  // A red pawn that has come into White's segment passes row 2 without a double step.
  EXPECT_EQ(TargetsFrom(Build(With({"rPC2"}), 2), "C2").size(), 1u);
}

TEST(Pawns, PromotionOnAnyOtherSegmentsBackRank) {
  Position pos = Build(With({"wPA7"}, {"wKH1", "bKL8", "rKL12"}), 0);
  const Cells moves = Moves(pos);
  for (const char* m : {"A7A8=Q", "A7A8=R", "A7A8=B", "A7A8=N"}) {
    EXPECT_NE(std::find(moves.begin(), moves.end(), m), moves.end()) << m;
  }
  EXPECT_EQ(std::find(moves.begin(), moves.end(), "A7A8"), moves.end());
  Play(pos, "A7A8=Q");
  EXPECT_EQ(pos.cells[Cell("A8")], MakePiece(0, kQueen));
}

TEST(Pawns, EnPassantOnEachEnemysNextTurn) {
  const Cells pieces = {"wKA1", "wPE2", "bPD4", "rPF4", "bKL8", "rKL12", "wNH1"};
  Position pos = Build(pieces, 0);
  Play(pos, "E2E4");
  EXPECT_EQ(pos.ep[0], Cell("E3"));
  Cells black = Moves(pos);
  EXPECT_NE(std::find(black.begin(), black.end(), "D4E3"), black.end());
  Position taken = pos;
  Play(taken, "D4E3");
  EXPECT_EQ(taken.cells[Cell("E4")], kEmpty) << "the passing pawn is taken";
  EXPECT_EQ(taken.cells[Cell("E3")], MakePiece(1, kPawn));
  // Black declines; Red may still take on its turn.
  Play(pos, "L8K8");
  Cells red = Moves(pos);
  EXPECT_NE(std::find(red.begin(), red.end(), "F4E3"), red.end());
  Play(pos, "L12K12");
  Play(pos, "H1G3");
  pos.turn = 1;
  black = Moves(pos);
  EXPECT_EQ(std::find(black.begin(), black.end(), "D4E3"), black.end()) << "White moved again";
}

// --- Castling -------------------------------------------------------------------------------

TEST(Castling, BothSidesInTheOwnersFrame) {
  const Cells pieces = {"wKE1", "wRA1", "wRH1", "bKD8", "bRL8", "bRA8", "rKL12"};
  const Position pos = Build(pieces, 0, 0x0f);
  Cells moves = Moves(pos);
  EXPECT_NE(std::find(moves.begin(), moves.end(), "E1G1"), moves.end());
  EXPECT_NE(std::find(moves.begin(), moves.end(), "E1C1"), moves.end());
  Position castled = pos;
  Play(castled, "E1G1");
  EXPECT_EQ(castled.cells[Cell("F1")], MakePiece(0, kRook));
  EXPECT_EQ(castled.cells[Cell("G1")], MakePiece(0, kKing));
  EXPECT_EQ(castled.castling & 3, 0);
  // Black: king D8, short side toward A8 (B8), long toward L8 (J8).
  Position black = pos;
  black.turn = 1;
  moves = Moves(black);
  EXPECT_NE(std::find(moves.begin(), moves.end(), "D8B8"), moves.end());
  EXPECT_NE(std::find(moves.begin(), moves.end(), "D8J8"), moves.end());
  Play(black, "D8J8");
  EXPECT_EQ(black.cells[Cell("I8")], MakePiece(1, kRook));
}

TEST(Castling, NotThroughAnAttackedCell) {
  // A red rook on F10 looks down column F through the centre onto F1.
  const Position pos = Build({"wKE1", "wRA1", "wRH1", "bKL8", "rKL12", "rRF10"}, 0, 0x03);
  const Cells moves = Moves(pos);
  EXPECT_EQ(std::find(moves.begin(), moves.end(), "E1G1"), moves.end());
  EXPECT_NE(std::find(moves.begin(), moves.end(), "E1C1"), moves.end());
  const Position check = Build({"wKE1", "wRA1", "wRH1", "bKL8", "rKL12", "rRE10"}, 0, 0x03);
  const Cells none = Moves(check);
  EXPECT_EQ(std::find(none.begin(), none.end(), "E1C1"), none.end());
}

// --- Checkmate, inheritance, skips, the win -------------------------------------------------

TEST(Checkmate, TheMatedArmyPassesToTheMover) {
  Position pos = Build({"wKE1", "wQB5", "wRB2", "bKA8", "bNB8", "bNL5", "rKL12", "rPL11"}, 0);
  Play(pos, "B5B7");
  EXPECT_FALSE(pos.In(1));
  EXPECT_EQ(pos.king[1], kNoCell);
  EXPECT_EQ(pos.cells[Cell("A8")], kEmpty) << "the mated king leaves the board";
  EXPECT_EQ(pos.owner[1], 0);
  EXPECT_EQ(pos.out_order[0], 1);
  EXPECT_EQ(pos.turn, 2) << "Black is out and skipped";
  EXPECT_FALSE(pos.Over());
  Play(pos, "L12K12");
  ASSERT_EQ(pos.turn, 0);
  const Cells moves = Moves(pos);
  // White moves the black knights too, and never captures its own black pieces.
  EXPECT_NE(std::find(moves.begin(), moves.end(), "L5K7"), moves.end());
  EXPECT_EQ(std::find(moves.begin(), moves.end(), "B7B8"), moves.end());
  // Inherited pawns keep their colour's direction.
  Position pawns = Build({"wKE1", "bPC7", "rKL12", "rNL11"}, 0, 0, "wwr");
  EXPECT_EQ(TargetsFrom(pawns, "C7"), (Cells{"C5", "C6"}));
}

TEST(Checkmate, TheSecondCheckmateWins) {
  Position pos = Build({"wKE1", "wQK10", "bRK7", "rKL12"}, 0, 0, "wwr");
  ASSERT_FALSE(pos.Over());
  Play(pos, "K10K11");
  EXPECT_TRUE(pos.Over());
  EXPECT_EQ(pos.status, Status::kCheckmate);
  EXPECT_EQ(pos.Winner(), 0);
  EXPECT_EQ(pos.out_order[0], 1);
  EXPECT_EQ(pos.out_order[1], 2);
}

TEST(Checkmate, EveryOpponentIsTestedAfterEachMove) {
  // White mates Red although Black moves next; Black plays on against White's two armies.
  Position pos = Build({"wKE1", "wQK10", "wRK7", "bKA8", "bPB7", "rKL12", "rNH12"}, 0);
  Play(pos, "K10K11");
  EXPECT_FALSE(pos.In(2));
  EXPECT_EQ(pos.owner[2], 0);
  EXPECT_TRUE(pos.In(1));
  EXPECT_EQ(pos.turn, 1);
  EXPECT_FALSE(pos.Over());
}

TEST(Stalemate, APlayerWithoutAMoveIsSkipped) {
  Position pos = Build({"wKH1", "wQC7", "bKA8", "rKL12"}, 0);
  Play(pos, "H1G1");
  EXPECT_TRUE(pos.In(1));
  EXPECT_EQ(pos.turn, 2);
  EXPECT_FALSE(pos.Over());
}

// --- Draws ----------------------------------------------------------------------------------

TEST(Draws, InsufficientMaterial) {
  EXPECT_EQ(Build({"wKH1", "bKL8", "rKL12", "wNA1"}, 0).status, Status::kInsufficientMaterial);
  EXPECT_EQ(Build({"wKH1", "bKL8", "rKL12", "wBA1"}, 0).status, Status::kInsufficientMaterial);
  EXPECT_EQ(Build({"wKH1", "bKL8", "rKL12", "wBA1", "bNA8"}, 0).status, Status::kPlaying);
  EXPECT_EQ(Build({"wKH1", "bKL8", "rKL12", "wPA2"}, 0).status, Status::kPlaying);
}

TEST(Draws, SeventyFiveMovesWithoutProgress) {
  Position pos = Build({"wKH1", "bKL8", "rKL12", "wRA1"}, 0);
  pos.no_progress = 74;
  Position pawn = Build({"wKH1", "bKL8", "rKL12", "wRA1", "wPC2"}, 0);
  pawn.no_progress = 74;
  Play(pos, "A1A2");
  EXPECT_EQ(pos.status, Status::kNoProgress);
  Play(pawn, "C2C3");
  EXPECT_EQ(pawn.status, Status::kPlaying);
  EXPECT_EQ(pawn.no_progress, 0);
}

TEST(Draws, ThreefoldRepetitionOnClaim) {
  const Game& game = ThreePlayerChessGame::Instance();
  std::unique_ptr<State> state = *game.NewInitialState(Variant());
  EXPECT_EQ(state->ApplySeatEvent(0, SeatEvent::kOfferDraw).code(),
            absl::StatusCode::kFailedPrecondition);
  for (int round = 0; round < 2; ++round) {
    for (const char* m : {"B1A3", "K8J6", "G12H10", "A3B1", "J6K8", "H10G12"}) {
      ASSERT_TRUE(state->Apply(m).ok()) << m;
    }
  }
  EXPECT_EQ(state->ApplySeatEvent(1, SeatEvent::kOfferDraw).code(),
            absl::StatusCode::kFailedPrecondition)
      << "only the seat to move claims";
  ASSERT_TRUE(state->ApplySeatEvent(0, SeatEvent::kOfferDraw).ok());
  EXPECT_EQ(state->GetOutcome().kind, Outcome::Kind::kDraw);
  EXPECT_EQ(state->GetOutcome().reason, "threefold-repetition");
  // The claim replays.
  std::unique_ptr<State> again = *game.Parse(state->Serialize(), Variant());
  EXPECT_EQ(again->GetOutcome().reason, "threefold-repetition");
}

// --- Text forms -----------------------------------------------------------------------------

TEST(Notation, MovesInLongForm) {
  absl::StatusOr<Move> m = ParseMoveText("D7D8=Q");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(MoveText(*m), "D7D8=Q");
  EXPECT_EQ(MoveText(*ParseMoveText("e2e4")), "E2E4");
  EXPECT_EQ(MoveText(*ParseMoveText("L11L10")), "L11L10");
  for (const char* bad : {"E2", "E2E", "E2E5", "E2E4=K", "E2E4=", "E2E4Q", "Z1A1", ""}) {
    EXPECT_EQ(ParseMoveText(bad).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

TEST(Notation, PositionTextRoundTrips) {
  const std::string start = PositionText(Position::Initial());
  EXPECT_EQ(start,
            "wRwNwBwQwKwBwNwR/wPwPwPwPwPwPwPwP/8/8/bRbNbBbQbKbBbNbR/bPbPbPbPbPbPbPbP/8/8/"
            "rRrNrBrQrKrBrNrR/rPrPrPrPrPrPrPrP/8/8 w wbr wKwQbKbQrKrQ - 0 0 -");
  absl::StatusOr<Position> back = ParsePositionText(start);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(PositionText(*back), start);
  Position pos = Build({"wKE1", "wQB5", "wRB2", "bKA8", "bNB8", "bNL5", "rKL12", "rPL11"}, 0);
  Play(pos, "B5B7");
  absl::StatusOr<Position> inherited = ParsePositionText(PositionText(pos));
  ASSERT_TRUE(inherited.ok()) << inherited.status();
  EXPECT_EQ(PositionText(*inherited), PositionText(pos));
}

TEST(Notation, BadPositionTextIsRefused) {
  const std::string start = PositionText(Position::Initial());
  for (std::string bad : {std::string("nonsense"), start.substr(0, start.size() - 2),
                          "9/" + start.substr(start.find('/') + 1)}) {
    EXPECT_EQ(ParsePositionText(bad).status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
  std::string no_king = start;
  no_king.replace(no_king.find("wK"), 2, "wQ");
  EXPECT_FALSE(ParsePositionText(no_king).ok());
  std::string bad_ep = start;
  bad_ep.replace(bad_ep.find(" - "), 3, " E3 ");
  EXPECT_FALSE(ParsePositionText(bad_ep).ok());
}

TEST(Facade, ApplyRefusesPreciselyAndChangesNothing) {
  std::unique_ptr<State> state = *ThreePlayerChessGame::Instance().NewInitialState(Variant());
  const std::string before = state->Serialize();
  EXPECT_EQ(state->Apply("E2E5").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(state->Apply("E2E1").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(state->Apply("D7D5").code(), absl::StatusCode::kFailedPrecondition) << "not White's";
  EXPECT_EQ(state->Serialize(), before);
  EXPECT_EQ(state->LegalActions().size(), 20u);
  EXPECT_EQ(FindGame("three-player-chess"), &ThreePlayerChessGame::Instance());
}

TEST(Perft, StartCounts) {
  const Position start = Position::Initial();
  EXPECT_EQ(Perft(start, 1), 20u);
  EXPECT_EQ(Perft(start, 2), 400u);
  EXPECT_EQ(Perft(start, 3), 8000u);
  EXPECT_EQ(Perft(start, 4), 178080u);
}

}  // namespace
}  // namespace arena::engine::three_player_chess
