#include "engine/chess/position.h"

#include <array>
#include <cassert>
#include <cctype>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/chess/movegen.h"
#include "engine/core/game.h"

namespace arena::engine::chess {

// --- Zobrist keys ---------------------------------------------------------------------
// Fixed pseudo-random numbers (splitmix64 from a constant seed), computed at compile time so
// hashes are stable across runs and builds.
namespace {

struct ZobristTable {
  uint64_t piece[16][64];
  uint64_t castling[16];
  uint64_t ep[8];
  uint64_t side;
};

constexpr uint64_t SplitMix(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

constexpr ZobristTable MakeZobrist() {
  ZobristTable t{};
  uint64_t state = 0x0C4E55A7E5A1ULL;
  for (auto& row : t.piece) {
    for (uint64_t& v : row) v = SplitMix(state);
  }
  // Castling keys are the xor of one key per right, so updating a subset is consistent.
  uint64_t right_keys[4] = {SplitMix(state), SplitMix(state), SplitMix(state), SplitMix(state)};
  for (int r = 0; r < 16; ++r) {
    t.castling[r] = 0;
    for (int b = 0; b < 4; ++b) {
      if (r & (1 << b)) t.castling[r] ^= right_keys[b];
    }
  }
  for (uint64_t& v : t.ep) v = SplitMix(state);
  t.side = SplitMix(state);
  return t;
}

constexpr ZobristTable kZobrist = MakeZobrist();

// Rights lost when a piece moves from or to each square.
constexpr std::array<uint8_t, 64> MakeCastlingMask() {
  std::array<uint8_t, 64> m{};
  m[4] = kWhiteOO | kWhiteOOO;
  m[7] = kWhiteOO;
  m[0] = kWhiteOOO;
  m[60] = kBlackOO | kBlackOOO;
  m[63] = kBlackOO;
  m[56] = kBlackOOO;
  return m;
}
constexpr std::array<uint8_t, 64> kCastlingMask = MakeCastlingMask();

constexpr std::string_view kPieceChars = "PNBRQK  pnbrqk";

}  // namespace

namespace zobrist {
uint64_t Piece(chess::Piece p, Square s) {
  return kZobrist.piece[p][s];
}
uint64_t Castling(uint8_t rights) {
  return kZobrist.castling[rights & 15];
}
uint64_t EnPassant(int file) {
  return kZobrist.ep[file];
}
uint64_t Side() {
  return kZobrist.side;
}
}  // namespace zobrist

std::string SquareName(Square s) {
  if (s >= 64) return "-";
  return {char('a' + FileOf(s)), char('1' + RankOf(s))};
}

Square ParseSquare(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8') {
    return kNoSquare;
  }
  return MakeSquare(text[0] - 'a', text[1] - '1');
}

// --- Board editing -------------------------------------------------------------------------

inline void Position::PutPiece(Piece p, Square s) {
  board_[s] = p;
  by_type_[TypeOf(p)] |= SquareBB(s);
  by_color_[ColorOf(p)] |= SquareBB(s);
}

inline void Position::RemovePiece(Square s) {
  Piece p = board_[s];
  by_type_[TypeOf(p)] ^= SquareBB(s);
  by_color_[ColorOf(p)] ^= SquareBB(s);
  board_[s] = kNoPiece;
}

inline void Position::MovePiece(Square from, Square to) {
  Piece p = board_[from];
  Bitboard both = SquareBB(from) | SquareBB(to);
  by_type_[TypeOf(p)] ^= both;
  by_color_[ColorOf(p)] ^= both;
  board_[from] = kNoPiece;
  board_[to] = p;
}

Position Position::StartPosition() {
  auto pos = FromFen(kStartFen);
  return *pos;
}

// --- FEN -----------------------------------------------------------------------------------

absl::StatusOr<Position> Position::FromFen(std::string_view fen) {
  std::vector<absl::string_view> fields = absl::StrSplit(ToAbsl(fen), ' ', absl::SkipEmpty());
  if (fields.size() != 6 && fields.size() != 4) {
    return absl::InvalidArgumentError(absl::StrCat(
        "FEN must have 6 fields (placement, side, castling, en passant, halfmove clock, "
        "fullmove number), got ",
        fields.size()));
  }
  Position pos;

  // Field 1: piece placement, rank 8 first.
  {
    std::vector<absl::string_view> ranks = absl::StrSplit(fields[0], '/');
    if (ranks.size() != 8) {
      return absl::InvalidArgumentError(absl::StrCat(
          "FEN piece placement: expected 8 ranks separated by '/', got ", ranks.size()));
    }
    for (int i = 0; i < 8; ++i) {
      int rank = 7 - i;
      int file = 0;
      bool last_was_digit = false;
      for (char c : ranks[i]) {
        if (c >= '1' && c <= '8') {
          if (last_was_digit) {
            return absl::InvalidArgumentError(
                absl::StrCat("FEN piece placement: rank ", rank + 1, " has two digits in a row"));
          }
          file += c - '0';
          last_was_digit = true;
        } else {
          size_t idx = kPieceChars.find(c);
          if (idx == std::string_view::npos || c == ' ') {
            return absl::InvalidArgumentError(absl::StrCat(
                "FEN piece placement: unknown piece character '", std::string(1, c), "'"));
          }
          if (file >= 8) {
            return absl::InvalidArgumentError(
                absl::StrCat("FEN piece placement: rank ", rank + 1, " has more than 8 squares"));
          }
          pos.PutPiece(Piece(idx), MakeSquare(file, rank));
          ++file;
          last_was_digit = false;
        }
        if (file > 8) {
          return absl::InvalidArgumentError(
              absl::StrCat("FEN piece placement: rank ", rank + 1, " has more than 8 squares"));
        }
      }
      if (file != 8) {
        return absl::InvalidArgumentError(
            absl::StrCat("FEN piece placement: rank ", rank + 1, " has ", file, " squares, not 8"));
      }
    }
    for (Color c : {kWhite, kBlack}) {
      const char* name = c == kWhite ? "white" : "black";
      int kings = PopCount(pos.pieces(c, kKing));
      if (kings != 1) {
        return absl::InvalidArgumentError(absl::StrCat("FEN piece placement: ", name, " has ",
                                                       kings, " kings, needs exactly one"));
      }
      if (PopCount(pos.pieces(c, kPawn)) > 8) {
        return absl::InvalidArgumentError(
            absl::StrCat("FEN piece placement: ", name, " has more than 8 pawns"));
      }
      if (PopCount(pos.pieces(c)) > 16) {
        return absl::InvalidArgumentError(
            absl::StrCat("FEN piece placement: ", name, " has more than 16 pieces"));
      }
    }
    if (pos.pieces(kPawn) & (kRank1 | kRank8)) {
      return absl::InvalidArgumentError(
          "FEN piece placement: a pawn stands on the first or last rank");
    }
  }

  // Field 2: side to move.
  if (fields[1] == "w") {
    pos.side_ = kWhite;
  } else if (fields[1] == "b") {
    pos.side_ = kBlack;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("FEN side to move: expected 'w' or 'b', got '", fields[1], "'"));
  }
  if (pos.IsAttackedBy(pos.king_square(~pos.side_), pos.side_)) {
    return absl::InvalidArgumentError("FEN side to move: the side not to move is in check");
  }
  if (PopCount(pos.Checkers()) > 2) {
    return absl::InvalidArgumentError(
        "FEN side to move: the king is attacked by more than two pieces");
  }

  // Field 3: castling rights, in KQkq order.
  if (fields[2] != "-") {
    static constexpr char kOrder[] = "KQkq";
    int next = 0;
    for (char c : fields[2]) {
      const char* at = std::find(kOrder + next, kOrder + 4, c);
      if (at == kOrder + 4) {
        return absl::InvalidArgumentError(absl::StrCat(
            "FEN castling rights: '", fields[2], "' is not '-' or a subset of KQkq in order"));
      }
      next = int(at - kOrder) + 1;
      pos.castling_ |= uint8_t(1 << (at - kOrder));
    }
    if (fields[2].empty()) {
      return absl::InvalidArgumentError("FEN castling rights: empty");
    }
    struct Need {
      uint8_t right;
      Color color;
      Square king, rook;
      const char* name;
    };
    static constexpr Need kNeeds[] = {{kWhiteOO, kWhite, Square(4), Square(7), "K"},
                                      {kWhiteOOO, kWhite, Square(4), Square(0), "Q"},
                                      {kBlackOO, kBlack, Square(60), Square(63), "k"},
                                      {kBlackOOO, kBlack, Square(60), Square(56), "q"}};
    for (const Need& n : kNeeds) {
      if (!(pos.castling_ & n.right)) continue;
      if (pos.board_[n.king] != MakePiece(n.color, kKing) ||
          pos.board_[n.rook] != MakePiece(n.color, kRook)) {
        return absl::InvalidArgumentError(absl::StrCat("FEN castling rights: '", n.name,
                                                       "' needs the king on ", SquareName(n.king),
                                                       " and a rook on ", SquareName(n.rook)));
      }
    }
  }

  // Field 4: en-passant target square.
  Square ep = kNoSquare;
  if (fields[3] != "-") {
    ep = ParseSquare(ToStd(fields[3]));
    if (ep == kNoSquare) {
      return absl::InvalidArgumentError(
          absl::StrCat("FEN en passant: '", fields[3], "' is not '-' or a square"));
    }
    Color us = pos.side_;
    int push = us == kWhite ? 8 : -8;
    if (RelativeRank(us, RankOf(ep)) != 5) {
      return absl::InvalidArgumentError(absl::StrCat("FEN en passant: ", fields[3],
                                                     " is not on the rank behind a pawn that "
                                                     "the opponent just moved two squares"));
    }
    Square pawn = Square(ep - push), origin = Square(ep + push);
    if (pos.board_[pawn] != MakePiece(~us, kPawn) || pos.board_[ep] != kNoPiece ||
        pos.board_[origin] != kNoPiece) {
      return absl::InvalidArgumentError(
          absl::StrCat("FEN en passant: ", fields[3],
                       " is inconsistent with the placement (needs an enemy pawn in front of it "
                       "and it and the square behind it empty)"));
    }
  }

  // Fields 5 and 6: halfmove clock and fullmove number.
  int rule50 = 0, fullmove = 1;
  if (fields.size() == 6) {
    if (!absl::SimpleAtoi(fields[4], &rule50) || rule50 < 0 || rule50 > 10000 ||
        !std::isdigit(static_cast<unsigned char>(fields[4][0]))) {
      return absl::InvalidArgumentError(
          absl::StrCat("FEN halfmove clock: '", fields[4], "' is not a small non-negative number"));
    }
    if (!absl::SimpleAtoi(fields[5], &fullmove) || fullmove < 1 || fullmove > 100000 ||
        !std::isdigit(static_cast<unsigned char>(fields[5][0]))) {
      return absl::InvalidArgumentError(
          absl::StrCat("FEN fullmove number: '", fields[5], "' is not a positive number"));
    }
    if (ep != kNoSquare && rule50 != 0) {
      return absl::InvalidArgumentError(
          "FEN halfmove clock: must be 0 right after a double pawn step (ep square set)");
    }
  }
  pos.rule50_ = uint16_t(rule50);
  pos.fullmove_ = fullmove;

  // Keep the ep square only when a pawn of the side to move attacks it.
  if (ep != kNoSquare && (PawnAttacks(~pos.side_, ep) & pos.pieces(pos.side_, kPawn))) {
    pos.ep_ = ep;
  }

  pos.key_ = 0;
  for (Bitboard b = pos.pieces(); b;) {
    Square s = PopLsb(b);
    pos.key_ ^= zobrist::Piece(pos.board_[s], s);
  }
  pos.key_ ^= zobrist::Castling(pos.castling_);
  if (pos.ep_ != kNoSquare) pos.key_ ^= zobrist::EnPassant(FileOf(pos.ep_));
  if (pos.side_ == kBlack) pos.key_ ^= zobrist::Side();
  return pos;
}

std::string Position::Fen() const {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      Piece p = board_[MakeSquare(file, rank)];
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) out.push_back(char('0' + empty));
      empty = 0;
      out.push_back(kPieceChars[p]);
    }
    if (empty) out.push_back(char('0' + empty));
    if (rank) out.push_back('/');
  }
  out += side_ == kWhite ? " w " : " b ";
  if (!castling_) out.push_back('-');
  if (castling_ & kWhiteOO) out.push_back('K');
  if (castling_ & kWhiteOOO) out.push_back('Q');
  if (castling_ & kBlackOO) out.push_back('k');
  if (castling_ & kBlackOOO) out.push_back('q');
  absl::StrAppend(&out, " ", SquareName(ep_), " ", rule50_, " ", fullmove_);
  return out;
}

// --- Queries -------------------------------------------------------------------------------

Bitboard Position::AttackersTo(Square s, Bitboard occupied) const {
  return (PawnAttacks(kBlack, s) & pieces(kWhite, kPawn)) |
         (PawnAttacks(kWhite, s) & pieces(kBlack, kPawn)) | (KnightAttacks(s) & by_type_[kKnight]) |
         (KingAttacks(s) & by_type_[kKing]) |
         (BishopAttacks(s, occupied) & (by_type_[kBishop] | by_type_[kQueen])) |
         (RookAttacks(s, occupied) & (by_type_[kRook] | by_type_[kQueen]));
}

bool Position::HasLegalEnPassant() const {
  if (ep_ == kNoSquare) return false;
  MoveList moves;
  GenerateLegal(*this, moves);
  for (Move m : moves) {
    if (m.kind() == kEnPassant) return true;
  }
  return false;
}

uint64_t Position::RepetitionKey() const {
  if (ep_ != kNoSquare && !HasLegalEnPassant()) return key_ ^ zobrist::EnPassant(FileOf(ep_));
  return key_;
}

bool Position::CannotMate(Color c) const {
  Bitboard others = pieces(c) & ~pieces(c, kKing);
  if (!others) return true;
  return !MoreThanOne(others) && (others & (by_type_[kKnight] | by_type_[kBishop]));
}

bool Position::InsufficientMaterial() const {
  if (by_type_[kPawn] | by_type_[kRook] | by_type_[kQueen]) return false;
  Bitboard minors = by_type_[kKnight] | by_type_[kBishop];
  if (!MoreThanOne(minors)) return true;  // K v K or K+minor v K
  // Only bishops, all on squares of one colour: no mate is possible.
  if (by_type_[kKnight]) return false;
  Bitboard bishops = by_type_[kBishop];
  return (bishops & kDarkSquares) == 0 || (bishops & ~kDarkSquares) == 0;
}

// --- Make / unmake -------------------------------------------------------------------------

void Position::DoMove(Move m, Undo& undo) {
  undo.key = key_;
  undo.rule50 = rule50_;
  undo.ep = ep_;
  undo.castling = castling_;
  undo.captured = kNoPiece;

  const Color us = side_, them = ~us;
  const Square from = m.from(), to = m.to();
  const Piece pc = board_[from];
  assert(pc != kNoPiece && ColorOf(pc) == us);
  assert(board_[to] == kNoPiece || (ColorOf(board_[to]) == them && TypeOf(board_[to]) != kKing));
  uint64_t key = key_ ^ kZobrist.side;
  if (ep_ != kNoSquare) {
    key ^= kZobrist.ep[FileOf(ep_)];
    ep_ = kNoSquare;
  }
  ++rule50_;

  if (m.kind() == kCastling) {
    const bool king_side = to > from;
    const Square rook_from = Square(king_side ? from + 3 : from - 4);
    const Square rook_to = Square(king_side ? from + 1 : from - 1);
    const Piece rook = board_[rook_from];
    MovePiece(from, to);
    MovePiece(rook_from, rook_to);
    key ^= kZobrist.piece[pc][from] ^ kZobrist.piece[pc][to] ^ kZobrist.piece[rook][rook_from] ^
           kZobrist.piece[rook][rook_to];
  } else {
    const Square cap_sq = m.kind() == kEnPassant ? Square(to ^ 8) : to;
    const Piece captured = board_[cap_sq];
    if (captured != kNoPiece) {
      RemovePiece(cap_sq);
      key ^= kZobrist.piece[captured][cap_sq];
      rule50_ = 0;
      undo.captured = captured;
    }
    MovePiece(from, to);
    key ^= kZobrist.piece[pc][from] ^ kZobrist.piece[pc][to];
    if (TypeOf(pc) == kPawn) {
      rule50_ = 0;
      if ((from ^ to) == 16) {
        const Square ep = Square(to ^ 8);
        if (PawnAttacks(us, ep) & pieces(them, kPawn)) {
          ep_ = ep;
          key ^= kZobrist.ep[FileOf(ep)];
        }
      } else if (m.kind() == kPromotion) {
        const Piece promoted = MakePiece(us, m.promotion());
        RemovePiece(to);
        PutPiece(promoted, to);
        key ^= kZobrist.piece[pc][to] ^ kZobrist.piece[promoted][to];
      }
    }
  }
  const uint8_t lost = castling_ & (kCastlingMask[from] | kCastlingMask[to]);
  if (lost) {
    key ^= kZobrist.castling[castling_];
    castling_ ^= lost;
    key ^= kZobrist.castling[castling_];
  }
  if (us == kBlack) ++fullmove_;
  side_ = them;
  key_ = key;
}

void Position::UndoMove(Move m, const Undo& undo) {
  side_ = ~side_;
  const Color us = side_;
  if (us == kBlack) --fullmove_;
  const Square from = m.from(), to = m.to();
  if (m.kind() == kCastling) {
    const bool king_side = to > from;
    const Square rook_from = Square(king_side ? from + 3 : from - 4);
    const Square rook_to = Square(king_side ? from + 1 : from - 1);
    MovePiece(to, from);
    MovePiece(rook_to, rook_from);
  } else {
    if (m.kind() == kPromotion) {
      RemovePiece(to);
      PutPiece(MakePiece(us, kPawn), to);
    }
    MovePiece(to, from);
    if (undo.captured != kNoPiece) {
      PutPiece(undo.captured, m.kind() == kEnPassant ? Square(to ^ 8) : to);
    }
  }
  key_ = undo.key;
  rule50_ = undo.rule50;
  ep_ = undo.ep;
  castling_ = undo.castling;
}

void Position::DoNullMove(Undo& undo) {
  assert(!InCheck());
  undo.key = key_;
  undo.rule50 = rule50_;
  undo.ep = ep_;
  undo.castling = castling_;
  undo.captured = kNoPiece;
  uint64_t key = key_ ^ kZobrist.side;
  if (ep_ != kNoSquare) {
    key ^= kZobrist.ep[FileOf(ep_)];
    ep_ = kNoSquare;
  }
  rule50_ = 0;
  if (side_ == kBlack) ++fullmove_;
  side_ = ~side_;
  key_ = key;
}

void Position::UndoNullMove(const Undo& undo) {
  side_ = ~side_;
  if (side_ == kBlack) --fullmove_;
  key_ = undo.key;
  rule50_ = undo.rule50;
  ep_ = undo.ep;
  castling_ = undo.castling;
}

}  // namespace arena::engine::chess
