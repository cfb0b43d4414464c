// The chess position: piece placement as bitboards plus a square-indexed board, side to move,
// castling rights, en-passant square, the fifty-move counter, the move number and the Zobrist
// key. It knows nothing of game history; the facade (chess_game.h) keeps that.
//
// Invariants: exactly one king per colour; by_type_/by_color_/board_ agree; key_ is the Zobrist
// hash of (placement, side, castling, ep). The ep square is set only when a pawn of the side
// to move attacks it (as in Stockfish), so positions that differ only by a useless ep square
// hash alike; whether that capture is also legal is decided by the generator and
// HasLegalEnPassant(). DoMove expects a legal move; UndoMove must get the same move and the
// Undo record DoMove filled.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "engine/chess/bitboard.h"
#include "engine/chess/types.h"

namespace arena::engine::chess {

inline constexpr std::string_view kStartFen =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

class Position {
 public:
  // What DoMove overwrites and UndoMove restores.
  struct Undo {
    uint64_t key;
    uint16_t rule50;
    Square ep;
    uint8_t castling;
    Piece captured;
  };

  Position() {
    InitBitboards();
    for (Piece& p : board_) p = kNoPiece;
  }
  static Position StartPosition();

  // --- FEN -----------------------------------------------------------------------------
  // Strict: six fields (the last two may be omitted and default to "0 1"); every error names
  // its field. Impossible positions are refused: a king count other than one per colour,
  // pawns on the first or last rank, more than 16 pieces or 8 pawns per side, the side not
  // to move in check, more than two checkers, castling rights without king and rook on their
  // home squares, an ep square without the pawn that just double-stepped, or a non-zero
  // fifty-move counter with an ep square.
  static absl::StatusOr<Position> FromFen(std::string_view fen);
  std::string Fen() const;

  // --- Queries -------------------------------------------------------------------------
  Color side_to_move() const { return side_; }
  Piece piece_on(Square s) const { return board_[s]; }
  Bitboard pieces() const { return by_color_[kWhite] | by_color_[kBlack]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType t) const { return by_type_[t]; }
  Bitboard pieces(Color c, PieceType t) const { return by_type_[t] & by_color_[c]; }
  Bitboard pieces(Color c, PieceType a, PieceType b) const {
    return (by_type_[a] | by_type_[b]) & by_color_[c];
  }
  Square king_square(Color c) const { return Lsb(pieces(c, kKing)); }
  Square ep_square() const { return ep_; }
  uint8_t castling_rights() const { return castling_; }
  int rule50() const { return rule50_; }
  int fullmove() const { return fullmove_; }
  uint64_t key() const { return key_; }

  // Pieces of either colour attacking `s` given occupancy `occupied`.
  Bitboard AttackersTo(Square s, Bitboard occupied) const;
  bool IsAttackedBy(Square s, Color by) const {
    return (AttackersTo(s, pieces()) & pieces(by)) != 0;
  }
  Bitboard Checkers() const { return AttackersTo(king_square(side_), pieces()) & pieces(~side_); }
  bool InCheck() const { return Checkers() != 0; }
  // True when the side to move has a legal en-passant capture.
  bool HasLegalEnPassant() const;
  // The key used for repetition: key() without the ep square when no ep capture is legal.
  uint64_t RepetitionKey() const;
  // True when neither side can ever mate: K v K, K+minor v K, or only same-coloured bishops.
  bool InsufficientMaterial() const;
  // True when colour c has no piece that could ever mate (lone king, or king + one minor).
  bool CannotMate(Color c) const;

  // --- Moves ---------------------------------------------------------------------------
  void DoMove(Move m, Undo& undo);
  void UndoMove(Move m, const Undo& undo);
  // The null move (for search): the other side to move, no en-passant square, nothing else
  // moved. The fifty-move counter restarts at 0 so a repetition check never looks back across
  // it. Only for a side not in check; UndoNullMove must get the Undo DoNullMove filled.
  void DoNullMove(Undo& undo);
  void UndoNullMove(const Undo& undo);

 private:
  void PutPiece(Piece p, Square s);
  void RemovePiece(Square s);
  void MovePiece(Square from, Square to);

  Bitboard by_type_[6] = {};
  Bitboard by_color_[2] = {};
  Piece board_[64];
  uint64_t key_ = 0;
  Color side_ = kWhite;
  Square ep_ = kNoSquare;
  uint8_t castling_ = 0;
  uint16_t rule50_ = 0;
  int fullmove_ = 1;
};

namespace zobrist {
uint64_t Piece(Piece p, Square s);
uint64_t Castling(uint8_t rights);
uint64_t EnPassant(int file);
uint64_t Side();
}  // namespace zobrist

std::string SquareName(Square s);
// "e4" -> square; kNoSquare when malformed.
Square ParseSquare(std::string_view text);

}  // namespace arena::engine::chess
