#include "engine/three_player_chess/notation.h"

#include <cctype>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/three_player_chess/movegen.h"

namespace arena::engine::three_player_chess {
namespace {

absl::Status Bad(std::string_view what, std::string_view text) {
  return absl::InvalidArgumentError(absl::StrCat(absl::string_view(what.data(), what.size()), ": '",
                                                 absl::string_view(text.data(), text.size()), "'"));
}

// Splits a leading cell name ("E2", "L12") off `text`.
absl::StatusOr<int> TakeCell(std::string_view& text) {
  size_t n = 1;
  while (n < text.size() && n < 3 && std::isdigit(static_cast<unsigned char>(text[n]))) ++n;
  absl::StatusOr<int> cell = ParseCell(text.substr(0, n));
  if (cell.ok()) text.remove_prefix(n);
  return cell;
}

}  // namespace

char PieceLetter(int type) {
  return " PNBRQK"[type];
}

int PieceTypeFromLetter(char c) {
  switch (std::toupper(static_cast<unsigned char>(c))) {
    case 'P':
      return kPawn;
    case 'N':
      return kKnight;
    case 'B':
      return kBishop;
    case 'R':
      return kRook;
    case 'Q':
      return kQueen;
    case 'K':
      return kKing;
    default:
      return kEmpty;
  }
}

std::string MoveText(Move m) {
  std::string out = CellName(m.from) + CellName(m.to);
  if (m.promotion != kEmpty) absl::StrAppend(&out, "=", std::string(1, PieceLetter(m.promotion)));
  return out;
}

absl::StatusOr<Move> ParseMoveText(std::string_view text) {
  std::string_view rest = text;
  absl::StatusOr<int> from = TakeCell(rest);
  if (!from.ok()) return Bad("a move is <from><to>[=Q|R|B|N], e.g. E2E4 or D7D8=Q", text);
  absl::StatusOr<int> to = TakeCell(rest);
  if (!to.ok()) return Bad("a move is <from><to>[=Q|R|B|N], e.g. E2E4 or D7D8=Q", text);
  Move m{static_cast<int8_t>(*from), static_cast<int8_t>(*to)};
  if (!rest.empty()) {
    const int type = rest.size() == 2 && rest[0] == '=' ? PieceTypeFromLetter(rest[1]) : kEmpty;
    if (type == kEmpty || type == kPawn || type == kKing) {
      return Bad("a promotion is =Q, =R, =B or =N", text);
    }
    m.promotion = static_cast<uint8_t>(type);
  }
  return m;
}

std::string PositionText(const Position& pos) {
  std::vector<std::string> rows;
  for (int seg = 0; seg < kNumColours; ++seg) {
    for (int r = 0; r < 4; ++r) {
      std::string row;
      int empty = 0;
      for (int c = 0; c < 8; ++c) {
        const Piece p = pos.cells[CellAt(seg, r, c)];
        if (p == kEmpty) {
          ++empty;
          continue;
        }
        if (empty) absl::StrAppend(&row, empty);
        empty = 0;
        row += ColourLetter(ColourOf(p));
        row += PieceLetter(TypeOf(p));
      }
      if (empty) absl::StrAppend(&row, empty);
      rows.push_back(row);
    }
  }
  std::string owners, castling, out;
  std::vector<std::string> ep;
  for (int k = 0; k < kNumColours; ++k) {
    owners += ColourLetter(pos.owner[k]);
    if (pos.castling >> (2 * k) & 1)
      absl::StrAppend(&castling, std::string(1, ColourLetter(k)), "K");
    if (pos.castling >> (2 * k + 1) & 1) {
      absl::StrAppend(&castling, std::string(1, ColourLetter(k)), "Q");
    }
  }
  for (int k = 0; k < kNumColours; ++k) {
    if (pos.ep[k] != kNoCell) ep.push_back(CellName(pos.ep[k]));
    if (pos.out_order[k] >= 0) out += ColourLetter(pos.out_order[k]);
  }
  return absl::StrCat(absl::StrJoin(rows, "/"), " ", std::string(1, ColourLetter(pos.turn)), " ",
                      owners, " ", castling.empty() ? "-" : castling, " ",
                      ep.empty() ? "-" : absl::StrJoin(ep, ","), " ", pos.no_progress, " ",
                      pos.moves_played, " ", out.empty() ? "-" : out);
}

absl::StatusOr<Position> ParsePositionText(std::string_view text) {
  const std::vector<std::string> fields =
      absl::StrSplit(absl::string_view(text.data(), text.size()), ' ', absl::SkipEmpty());
  if (fields.size() != 8) return Bad("position text needs 8 fields", text);
  Position pos;
  const std::vector<std::string> rows = absl::StrSplit(fields[0], '/');
  if (rows.size() != 12) return Bad("the board needs 12 rows joined by '/'", fields[0]);
  for (int i = 0; i < 12; ++i) {
    const std::string& row = rows[i];
    int c = 0;
    for (size_t j = 0; j < row.size();) {
      if (row[j] >= '1' && row[j] <= '8') {
        c += row[j] - '0';
        ++j;
        continue;
      }
      const int colour = ColourFromLetter(row[j]);
      const int type = j + 1 < row.size() ? PieceTypeFromLetter(row[j + 1]) : kEmpty;
      if (colour < 0 || type == kEmpty || !std::isupper(static_cast<unsigned char>(row[j + 1])) ||
          c > 7) {
        return Bad("a row holds pieces like wP, bK, rQ and digits 1-8", row);
      }
      const int cell = CellAt(i / 4, i % 4, c);
      if (type == kKing && pos.king[colour] != kNoCell) {
        return Bad("two kings of one colour", row);
      }
      if (type == kPawn && BoardTables::PromotesOn(colour, cell)) {
        return Bad("a pawn stands on a cell where it would have promoted", CellName(cell));
      }
      pos.Put(cell, MakePiece(colour, type));
      ++c;
      j += 2;
    }
    if (c != 8) return Bad("a row has 8 cells", row);
  }
  if (fields[1].size() != 1 || ColourFromLetter(fields[1][0]) < 0) {
    return Bad("the turn is w, b or r", fields[1]);
  }
  pos.turn = static_cast<int8_t>(ColourFromLetter(fields[1][0]));
  if (fields[2].size() != 3) return Bad("owners are three letters, e.g. wbr", fields[2]);
  for (int k = 0; k < kNumColours; ++k) {
    const int o = ColourFromLetter(fields[2][k]);
    if (o < 0) return Bad("owners are three letters, e.g. wbr", fields[2]);
    pos.owner[k] = static_cast<int8_t>(o);
  }
  for (int k = 0; k < kNumColours; ++k) {
    const bool in = pos.owner[k] == k;
    if (in != (pos.king[k] != kNoCell)) {
      return Bad("a player is in exactly while it moves its own army and has its king", text);
    }
    if (!in && !pos.In(pos.owner[k])) return Bad("an army's owner is out", fields[2]);
  }
  if (!pos.In(pos.turn) && pos.NumIn() > 1) return Bad("the player to move is out", fields[1]);
  if (fields[3] != "-") {
    if (fields[3].size() % 2 != 0) return Bad("castling rights are like wKwQbK", fields[3]);
    for (size_t j = 0; j < fields[3].size(); j += 2) {
      const int k = ColourFromLetter(fields[3][j]);
      const char side = fields[3][j + 1];
      if (k < 0 || (side != 'K' && side != 'Q')) {
        return Bad("castling rights are like wKwQbK", fields[3]);
      }
      const int bit = 2 * k + (side == 'Q' ? 1 : 0);
      if (pos.cells[CellAt(k, 0, 4)] != MakePiece(k, kKing) ||
          pos.cells[CellAt(k, 0, side == 'K' ? 7 : 0)] != MakePiece(k, kRook)) {
        return Bad("a castling right needs its king and rook at home", fields[3]);
      }
      pos.castling |= static_cast<uint8_t>(1u << bit);
    }
  }
  if (fields[4] != "-") {
    for (absl::string_view name : absl::StrSplit(fields[4], ',')) {
      absl::StatusOr<int> cell = ParseCell(std::string_view(name.data(), name.size()));
      if (!cell.ok()) return cell.status();
      const int victim = EnPassantPawnCell(*cell);
      const Piece p = pos.cells[victim];
      if (RowOf(*cell) != 2 || pos.cells[*cell] != kEmpty || TypeOf(p) != kPawn ||
          ColourOf(p) != SegmentOf(*cell)) {
        return Bad("an en passant cell is an empty row-3 cell with a pawn past it", fields[4]);
      }
      const int player = pos.OwnerAt(victim);
      if (pos.ep[player] != kNoCell) return Bad("one en passant cell per player", fields[4]);
      pos.ep[player] = static_cast<int8_t>(*cell);
    }
  }
  int no_progress = 0, moves = 0;
  if (!absl::SimpleAtoi(fields[5], &no_progress) || no_progress < 0 || no_progress > 10000) {
    return Bad("the no-progress count is a number", fields[5]);
  }
  if (!absl::SimpleAtoi(fields[6], &moves) || moves < 0) {
    return Bad("the move count is a number", fields[6]);
  }
  pos.no_progress = static_cast<int16_t>(no_progress);
  pos.moves_played = moves;
  if (fields[7] != "-") {
    if (fields[7].size() > 2) return Bad("at most two players are out", fields[7]);
    for (size_t j = 0; j < fields[7].size(); ++j) {
      const int p = ColourFromLetter(fields[7][j]);
      if (p < 0 || pos.In(p)) return Bad("the players out are the ones without a king", fields[7]);
      pos.out_order[j] = static_cast<int8_t>(p);
    }
  }
  if (static_cast<int>(fields[7] == "-" ? 0 : fields[7].size()) != 3 - pos.NumIn()) {
    return Bad("the players out are the ones without a king", fields[7]);
  }
  pos.Settle();
  return pos;
}

std::string RenderBoard(const Position& pos, bool coordinates) {
  // cell_at[row number][letter]
  int cell_at[13][12];
  for (auto& row : cell_at) {
    for (int& c : row) c = kNoCell;
  }
  for (int cell = 0; cell < kNumCells; ++cell)
    cell_at[RowNumber(cell)][ColumnLetter(cell) - 'A'] = cell;
  std::string out;
  for (int number = 12; number >= 1; --number) {
    std::string line = coordinates ? absl::StrCat(number < 10 ? " " : "", number, " ") : "";
    for (int letter = 0; letter < 12; ++letter) {
      const int cell = cell_at[number][letter];
      std::string token = "  ";
      if (cell != kNoCell) {
        const Piece p = pos.cells[cell];
        token = p == kEmpty ? ".." : std::string{ColourLetter(ColourOf(p)), PieceLetter(TypeOf(p))};
      }
      absl::StrAppend(&line, token, letter < 11 ? " " : "");
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    absl::StrAppend(&out, line, "\n");
  }
  if (coordinates) absl::StrAppend(&out, "   A  B  C  D  E  F  G  H  I  J  K  L\n");
  return out;
}

}  // namespace arena::engine::three_player_chess
