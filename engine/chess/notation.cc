#include "engine/chess/notation.h"

#include "absl/strings/str_cat.h"
#include "engine/chess/movegen.h"
#include "engine/core/game.h"

namespace arena::engine::chess {
namespace {

constexpr char kPromotionChars[] = "nbrq";  // indexed by PieceType - kKnight
constexpr char kSanLetters[] = "PNBRQK";    // indexed by PieceType

PieceType PieceFromSanLetter(char c) {
  for (int t = kKnight; t <= kKing; ++t) {
    if (kSanLetters[t] == c) return PieceType(t);
  }
  return kNoPieceType;
}

PieceType PromotionFromChar(char c) {
  switch (c) {
    case 'n':
    case 'N':
      return kKnight;
    case 'b':
    case 'B':
      return kBishop;
    case 'r':
    case 'R':
      return kRook;
    case 'q':
    case 'Q':
      return kQueen;
    default:
      return kNoPieceType;
  }
}

bool IsFile(char c) {
  return c >= 'a' && c <= 'h';
}
bool IsRank(char c) {
  return c >= '1' && c <= '8';
}

std::string Quoted(std::string_view text) {
  // Keep error messages readable for garbage input.
  std::string out;
  for (char c : text.substr(0, 32)) {
    out.push_back((c >= 32 && c < 127) ? c : '?');
  }
  if (text.size() > 32) out += "...";
  return absl::StrCat("'", out, "'");
}

}  // namespace

std::string MoveToUci(Move m) {
  std::string out = SquareName(m.from()) + SquareName(m.to());
  if (m.kind() == kPromotion) out.push_back(kPromotionChars[m.promotion() - kKnight]);
  return out;
}

absl::StatusOr<Move> ParseUci(const Position& pos, std::string_view text) {
  if (text.size() != 4 && text.size() != 5) {
    return absl::InvalidArgumentError(absl::StrCat(Quoted(text), " is not a UCI move"));
  }
  Square from = ParseSquare(text.substr(0, 2)), to = ParseSquare(text.substr(2, 2));
  PieceType promo = kNoPieceType;
  if (text.size() == 5) {
    promo = PromotionFromChar(text[4]);
    if (promo == kNoPieceType || text[4] != kPromotionChars[promo - kKnight]) promo = kKing;
  }
  if (from == kNoSquare || to == kNoSquare || promo == kKing || from == to) {
    return absl::InvalidArgumentError(absl::StrCat(Quoted(text), " is not a UCI move"));
  }
  MoveList legal;
  GenerateLegal(pos, legal);
  for (Move m : legal) {
    if (m.from() != from || m.to() != to) continue;
    if ((m.kind() == kPromotion) != (promo != kNoPieceType)) continue;
    if (m.kind() == kPromotion && m.promotion() != promo) continue;
    return m;
  }
  return absl::FailedPreconditionError(
      absl::StrCat("move ", Quoted(text), " is not legal in ", pos.Fen()));
}

std::string MoveToSan(const Position& pos, Move m) {
  std::string out;
  const Square from = m.from(), to = m.to();
  const PieceType type = TypeOf(pos.piece_on(from));
  if (m.kind() == kCastling) {
    out = to > from ? "O-O" : "O-O-O";
  } else {
    const bool capture = m.kind() == kEnPassant || pos.piece_on(to) != kNoPiece;
    if (type == kPawn) {
      if (capture) {
        out.push_back(char('a' + FileOf(from)));
        out.push_back('x');
      }
      out += SquareName(to);
      if (m.kind() == kPromotion) {
        out.push_back('=');
        out.push_back(kSanLetters[m.promotion()]);
      }
    } else {
      out.push_back(kSanLetters[type]);
      // Disambiguate among other pieces of the same type that can reach `to`.
      MoveList legal;
      GenerateLegal(pos, legal);
      bool clash = false, same_file = false, same_rank = false;
      for (Move o : legal) {
        if (o.to() != to || o.from() == from || TypeOf(pos.piece_on(o.from())) != type) continue;
        clash = true;
        same_file |= FileOf(o.from()) == FileOf(from);
        same_rank |= RankOf(o.from()) == RankOf(from);
      }
      if (clash) {
        if (!same_file) {
          out.push_back(char('a' + FileOf(from)));
        } else if (!same_rank) {
          out.push_back(char('1' + RankOf(from)));
        } else {
          out += SquareName(from);
        }
      }
      if (capture) out.push_back('x');
      out += SquareName(to);
    }
  }
  Position after = pos;
  Position::Undo undo;
  after.DoMove(m, undo);
  if (after.InCheck()) out.push_back(CountLegal(after) == 0 ? '#' : '+');
  return out;
}

absl::StatusOr<Move> ParseSan(const Position& pos, std::string_view text) {
  std::string_view s = text;
  while (!s.empty() && (s.back() == '+' || s.back() == '#' || s.back() == '!' || s.back() == '?')) {
    s.remove_suffix(1);
  }
  if (s.empty() || s.size() > 8) {
    return absl::InvalidArgumentError(absl::StrCat(Quoted(text), " is not a SAN move"));
  }
  MoveList legal;
  GenerateLegal(pos, legal);

  if (s == "O-O" || s == "0-0" || s == "O-O-O" || s == "0-0-0") {
    const bool king_side = s.size() == 3;
    for (Move m : legal) {
      if (m.kind() == kCastling && (m.to() > m.from()) == king_side) return m;
    }
    return absl::FailedPreconditionError(
        absl::StrCat("castling ", Quoted(text), " is not legal in ", pos.Fen()));
  }

  // [Piece][from file][from rank][x]to-square[[=]promotion]
  PieceType type = kPawn;
  size_t i = 0;
  if (PieceFromSanLetter(s[0]) != kNoPieceType) {
    type = PieceFromSanLetter(s[0]);
    i = 1;
  }
  PieceType promo = kNoPieceType;
  if (type == kPawn && s.size() >= 3) {
    char last = s.back();
    if (PromotionFromChar(last) != kNoPieceType && last >= 'A' && last <= 'Z') {
      promo = PromotionFromChar(last);
      s.remove_suffix(1);
      if (!s.empty() && s.back() == '=') s.remove_suffix(1);
    }
  }
  if (s.size() < i + 2 || !IsFile(s[s.size() - 2]) || !IsRank(s.back())) {
    return absl::InvalidArgumentError(absl::StrCat(Quoted(text), " is not a SAN move"));
  }
  const Square to = ParseSquare(s.substr(s.size() - 2));
  std::string_view middle = s.substr(i, s.size() - 2 - i);
  bool capture = false;
  if (!middle.empty() && middle.back() == 'x') {
    capture = true;
    middle.remove_suffix(1);
  }
  int from_file = -1, from_rank = -1;
  if (middle.size() == 2 && IsFile(middle[0]) && IsRank(middle[1])) {
    from_file = middle[0] - 'a';
    from_rank = middle[1] - '1';
  } else if (middle.size() == 1 && IsFile(middle[0])) {
    from_file = middle[0] - 'a';
  } else if (middle.size() == 1 && IsRank(middle[0])) {
    from_rank = middle[0] - '1';
  } else if (!middle.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(Quoted(text), " is not a SAN move"));
  }
  if (type == kPawn && capture && from_file < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(Quoted(text), " is not a SAN move (a pawn capture names its file)"));
  }

  Move found;
  int matches = 0;
  for (Move m : legal) {
    if (m.to() != to || TypeOf(pos.piece_on(m.from())) != type || m.kind() == kCastling) continue;
    if (from_file >= 0 && FileOf(m.from()) != from_file) continue;
    if (from_rank >= 0 && RankOf(m.from()) != from_rank) continue;
    if ((m.kind() == kPromotion) != (promo != kNoPieceType)) continue;
    if (m.kind() == kPromotion && m.promotion() != promo) continue;
    const bool is_capture = m.kind() == kEnPassant || pos.piece_on(m.to()) != kNoPiece;
    if (type == kPawn && is_capture != capture) continue;  // "exd5" vs "e5" differ for pawns
    found = m;
    ++matches;
  }
  if (matches == 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("move ", Quoted(text), " is not legal in ", pos.Fen()));
  }
  if (matches > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("move ", Quoted(text), " is ambiguous in ", pos.Fen()));
  }
  return found;
}

absl::StatusOr<Move> ParseMove(const Position& pos, std::string_view text) {
  auto uci = ParseUci(pos, text);
  if (uci.ok() || absl::IsFailedPrecondition(uci.status())) {
    // A well-formed UCI move that is illegal might still be a SAN move ("Bb2c3" is 5 chars).
    if (uci.ok()) return uci;
    auto san = ParseSan(pos, text);
    return san.ok() ? san : uci;
  }
  return ParseSan(pos, text);
}

}  // namespace arena::engine::chess
