// Basic chess vocabulary shared by every file of the chess engine: colours, piece types,
// pieces, squares and the 16-bit move encoding.
//
// Squares run a1 = 0, b1 = 1, ..., h8 = 63. A Move packs from (6 bits), to (6 bits), a kind
// (normal, promotion, en passant, castling) and the promotion piece; castling is encoded as
// the king's two-square step (e1g1), as in UCI. Move 0 is "no move".
#pragma once

#include <cstdint>

namespace arena::engine::chess {

using Bitboard = uint64_t;

enum Color : uint8_t { kWhite, kBlack };
constexpr Color operator~(Color c) {
  return Color(c ^ 1);
}

enum PieceType : uint8_t { kPawn, kKnight, kBishop, kRook, kQueen, kKing, kNoPieceType };

// Piece = colour * 8 + type; kNoPiece marks an empty square.
enum Piece : uint8_t { kNoPiece = 15 };
constexpr Piece MakePiece(Color c, PieceType t) {
  return Piece(c * 8 + t);
}
constexpr Color ColorOf(Piece p) {
  return Color(p >> 3);
}
constexpr PieceType TypeOf(Piece p) {
  return PieceType(p & 7);
}

enum Square : uint8_t { kA1 = 0, kNoSquare = 64 };
constexpr Square MakeSquare(int file, int rank) {
  return Square(rank * 8 + file);
}
constexpr int FileOf(Square s) {
  return s & 7;
}
constexpr int RankOf(Square s) {
  return s >> 3;
}
constexpr Bitboard SquareBB(Square s) {
  return Bitboard{1} << s;
}
// The rank as seen by colour c (rank 1 for white is rank 8 for black).
constexpr int RelativeRank(Color c, int rank) {
  return c == kWhite ? rank : 7 - rank;
}

// Castling rights: one bit per side and wing.
enum CastlingRight : uint8_t {
  kWhiteOO = 1,
  kWhiteOOO = 2,
  kBlackOO = 4,
  kBlackOOO = 8,
  kAllCastling = 15,
};

enum MoveKind : uint16_t {
  kNormal = 0,
  kPromotion = 1 << 14,
  kEnPassant = 2 << 14,
  kCastling = 3 << 14,
};

class Move {
 public:
  constexpr Move() = default;
  constexpr Move(Square from, Square to, MoveKind kind = kNormal, PieceType promo = kKnight)
      : data_(uint16_t(from | (to << 6) | ((promo - kKnight) << 12) | kind)) {}

  constexpr Square from() const { return Square(data_ & 63); }
  constexpr Square to() const { return Square((data_ >> 6) & 63); }
  constexpr MoveKind kind() const { return MoveKind(data_ & (3 << 14)); }
  constexpr PieceType promotion() const { return PieceType(((data_ >> 12) & 3) + kKnight); }
  constexpr uint16_t raw() const { return data_; }
  constexpr bool is_none() const { return data_ == 0; }
  constexpr bool operator==(const Move& o) const = default;

 private:
  uint16_t data_ = 0;
};

// Upper bound of legal moves in any chess position (218 is the known maximum).
inline constexpr int kMaxMoves = 256;

}  // namespace arena::engine::chess
