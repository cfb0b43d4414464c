#include "engine/three_player_chess/movegen.h"

#include <cassert>

namespace arena::engine::three_player_chess {
namespace {

constexpr uint8_t kPromotions[4] = {kQueen, kRook, kBishop, kKnight};

// Whether the piece on `cell` may be taken by `player`: another player's, and not a king.
bool Capturable(const Position& pos, int cell, int player) {
  const Piece p = pos.cells[cell];
  return p != kEmpty && TypeOf(p) != kKing && pos.OwnerAt(cell) != player;
}

void AddPawnMove(int colour, int from, int to, MoveList& list) {
  if (BoardTables::PromotesOn(colour, to)) {
    for (uint8_t type : kPromotions) {
      list.Add(Move{static_cast<int8_t>(from), static_cast<int8_t>(to), type, kNormal});
    }
  } else {
    list.Add(Move{static_cast<int8_t>(from), static_cast<int8_t>(to), kEmpty, kNormal});
  }
}

// Whether an en passant capture onto `to` is open to `player`: some other player's last move
// was a double step over `to`, and that pawn still stands past it.
bool EnPassantOpen(const Position& pos, int to, int player) {
  for (int q = 0; q < kNumColours; ++q) {
    if (pos.ep[q] != to || q == player || pos.cells[to] != kEmpty) continue;
    const int victim = EnPassantPawnCell(to);
    const Piece p = pos.cells[victim];
    if (TypeOf(p) == kPawn && pos.OwnerAt(victim) != player) return true;
  }
  return false;
}

void GeneratePawn(const Position& pos, int player, int from, MoveList& list) {
  const int colour = ColourOf(pos.cells[from]);
  const PawnTable& t = BoardTables::Get().pawn[colour][from];
  if (t.push != kNoCell && pos.cells[t.push] == kEmpty) {
    AddPawnMove(colour, from, t.push, list);
    if (t.double_push != kNoCell && pos.cells[t.double_push] == kEmpty) {
      list.Add(Move{static_cast<int8_t>(from), t.double_push, kEmpty, kDoublePush});
    }
  }
  for (int to : t.captures) {
    if (Capturable(pos, to, player)) {
      AddPawnMove(colour, from, to, list);
    } else if (EnPassantOpen(pos, to, player)) {
      list.Add(Move{static_cast<int8_t>(from), static_cast<int8_t>(to), kEmpty, kEnPassant});
    }
  }
}

void GenerateSlider(const Position& pos, int player, int from, bool straight, bool diagonal,
                    MoveList& list) {
  const auto& sets = BoardTables::Get().rays[from];
  for (int d = 0; d < kNumDirections; ++d) {
    if (IsDiagonal(d) ? !diagonal : !straight) continue;
    const RaySet& set = sets[d];
    for (int b = 0; b < set.count; ++b) {
      const Ray& ray = set.rays[b];
      for (int i = 0; i < ray.length; ++i) {
        const int to = ray.cells[i];
        const bool fresh = i >= ray.shared;  // cells before `shared` the previous branch gave
        if (pos.cells[to] == kEmpty) {
          if (fresh) list.Add(Move{static_cast<int8_t>(from), static_cast<int8_t>(to)});
          continue;
        }
        if (fresh && Capturable(pos, to, player)) {
          list.Add(Move{static_cast<int8_t>(from), static_cast<int8_t>(to)});
        }
        break;
      }
    }
  }
}

void GenerateCastling(const Position& pos, int player, MoveList& list) {
  const int k = player;
  const int king = CellAt(k, 0, 4);
  if ((pos.castling >> (2 * k) & 3) == 0 || pos.king[k] != king) return;
  const unsigned enemies = OthersThan(player);
  if (IsAttacked(pos, king, enemies)) return;
  auto empty = [&](int c) { return pos.cells[CellAt(k, 0, c)] == kEmpty; };
  auto safe = [&](int c) { return !IsAttacked(pos, CellAt(k, 0, c), enemies); };
  if ((pos.castling >> (2 * k) & 1) && pos.cells[CellAt(k, 0, 7)] == MakePiece(k, kRook) &&
      empty(5) && empty(6) && safe(5) && safe(6)) {
    list.Add(Move{static_cast<int8_t>(king), static_cast<int8_t>(CellAt(k, 0, 6)), kEmpty,
                  kCastleShort});
  }
  if ((pos.castling >> (2 * k + 1) & 1) && pos.cells[CellAt(k, 0, 0)] == MakePiece(k, kRook) &&
      empty(1) && empty(2) && empty(3) && safe(3) && safe(2)) {
    list.Add(
        Move{static_cast<int8_t>(king), static_cast<int8_t>(CellAt(k, 0, 2)), kEmpty, kCastleLong});
  }
}

}  // namespace

void GeneratePseudoMoves(const Position& pos, int player, MoveList& list) {
  const BoardTables& t = BoardTables::Get();
  for (int from = 0; from < kNumCells; ++from) {
    const Piece p = pos.cells[from];
    if (p == kEmpty || pos.owner[ColourOf(p)] != player) continue;
    switch (TypeOf(p)) {
      case kPawn:
        GeneratePawn(pos, player, from, list);
        break;
      case kKnight:
        for (int to : t.knight[from]) {
          if (pos.cells[to] == kEmpty || Capturable(pos, to, player)) {
            list.Add(Move{static_cast<int8_t>(from), static_cast<int8_t>(to)});
          }
        }
        break;
      case kBishop:
        GenerateSlider(pos, player, from, false, true, list);
        break;
      case kRook:
        GenerateSlider(pos, player, from, true, false, list);
        break;
      case kQueen:
        GenerateSlider(pos, player, from, true, true, list);
        break;
      case kKing:
        for (int to : t.king[from]) {
          if (pos.cells[to] == kEmpty || Capturable(pos, to, player)) {
            list.Add(Move{static_cast<int8_t>(from), static_cast<int8_t>(to)});
          }
        }
        if (ColourOf(p) == player) GenerateCastling(pos, player, list);
        break;
      default:
        break;
    }
  }
}

void MovePieces(Position& pos, Move m) {
  Piece p = pos.cells[m.from];
  if (m.flag == kEnPassant) pos.Remove(EnPassantPawnCell(m.to));
  if (pos.cells[m.to] != kEmpty) pos.Remove(m.to);
  pos.Remove(m.from);
  if (m.promotion != kEmpty) p = MakePiece(ColourOf(p), m.promotion);
  pos.Put(m.to, p);
  if (m.flag == kCastleShort || m.flag == kCastleLong) {
    const int k = ColourOf(p);
    const int rook_from = CellAt(k, 0, m.flag == kCastleShort ? 7 : 0);
    const int rook_to = CellAt(k, 0, m.flag == kCastleShort ? 5 : 3);
    pos.Remove(rook_from);
    pos.Put(rook_to, MakePiece(k, kRook));
  }
}

void GenerateLegalMoves(const Position& pos, int player, MoveList& list) {
  MoveList pseudo;
  GeneratePseudoMoves(pos, player, pseudo);
  for (const Move m : pseudo) {
    Position after = pos;
    MovePieces(after, m);
    if (!InCheck(after, player)) list.Add(m);
  }
}

bool HasLegalMove(const Position& pos, int player) {
  MoveList pseudo;
  GeneratePseudoMoves(pos, player, pseudo);
  for (const Move m : pseudo) {
    Position after = pos;
    MovePieces(after, m);
    if (!InCheck(after, player)) return true;
  }
  return false;
}

bool IsAttacked(const Position& pos, int cell, unsigned attackers) {
  const BoardTables& t = BoardTables::Get();
  auto by = [&](int from, int type) {
    const Piece p = pos.cells[from];
    return TypeOf(p) == type && ((attackers >> pos.OwnerAt(from)) & 1);
  };
  for (int from : t.knight[cell]) {
    if (by(from, kKnight)) return true;
  }
  for (int from : t.king[cell]) {
    if (by(from, kKing)) return true;
  }
  for (int colour = 0; colour < kNumColours; ++colour) {
    if (!((attackers >> pos.owner[colour]) & 1)) continue;
    const Piece pawn = MakePiece(colour, kPawn);
    for (int from : t.pawn[colour][cell].attacked_from) {
      if (pos.cells[from] == pawn) return true;
    }
  }
  for (int d = 0; d < kNumDirections; ++d) {
    const int line = IsDiagonal(d) ? kBishop : kRook;
    const RaySet& set = t.rays[cell][d];
    for (int b = 0; b < set.count; ++b) {
      const Ray& ray = set.rays[b];
      for (int i = 0; i < ray.length; ++i) {
        const int from = ray.cells[i];
        const Piece p = pos.cells[from];
        if (p == kEmpty) continue;
        if (i >= ray.shared && (TypeOf(p) == line || TypeOf(p) == kQueen) &&
            ((attackers >> pos.OwnerAt(from)) & 1)) {
          return true;
        }
        break;
      }
    }
  }
  return false;
}

bool InCheck(const Position& pos, int player) {
  const int king = pos.king[player];
  return king != kNoCell && IsAttacked(pos, king, OthersThan(player));
}

uint64_t Perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (pos.Over()) return 0;
  MoveList list;
  GenerateLegalMoves(pos, list);
  if (depth == 1) return static_cast<uint64_t>(list.size);
  uint64_t nodes = 0;
  for (const Move m : list) {
    Position next = pos;
    next.ApplyMove(m);
    nodes += Perft(next, depth - 1);
  }
  return nodes;
}

}  // namespace arena::engine::three_player_chess
