#include "engine/three_player_chess/position.h"

#include "engine/three_player_chess/movegen.h"

namespace arena::engine::three_player_chess {
namespace {

// Back rank from each owner's left: R N B Q K B N R.
constexpr PieceType kBackRank[8] = {kRook, kKnight, kBishop, kQueen,
                                    kKing, kBishop, kKnight, kRook};

// splitmix64: the fixed Zobrist keys, the same in every process.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::string_view ColourName(int colour) {
  static constexpr std::string_view kNames[kNumColours] = {"white", "black", "red"};
  return colour >= 0 && colour < kNumColours ? kNames[colour] : "none";
}

char ColourLetter(int colour) {
  return "wbr"[colour];
}

int ColourFromLetter(char letter) {
  switch (letter) {
    case 'w':
      return 0;
    case 'b':
      return 1;
    case 'r':
      return 2;
    default:
      return -1;
  }
}

std::string_view StatusReason(Status status) {
  switch (status) {
    case Status::kPlaying:
      return "ongoing";
    case Status::kCheckmate:
      return "checkmate";
    case Status::kNoProgress:
      return "seventy-five-move";
    case Status::kInsufficientMaterial:
      return "insufficient-material";
    case Status::kNobodyCanMove:
      return "no-legal-move";
    case Status::kResignation:
      return "resignation";
    case Status::kTimeout:
      return "timeout";
    case Status::kThreefoldRepetition:
      return "threefold-repetition";
  }
  return "ongoing";
}

Position Position::Initial() {
  Position pos;
  for (int k = 0; k < kNumColours; ++k) {
    for (int c = 0; c < 8; ++c) {
      pos.Put(CellAt(k, 0, c), MakePiece(k, kBackRank[c]));
      pos.Put(CellAt(k, 1, c), MakePiece(k, kPawn));
    }
  }
  pos.castling = 0x3f;
  return pos;
}

int Position::Winner() const {
  if (status != Status::kCheckmate && status != Status::kResignation &&
      status != Status::kTimeout) {
    return -1;
  }
  for (int p = 0; p < kNumColours; ++p) {
    if (In(p)) return p;
  }
  return -1;
}

void Position::Put(int cell, Piece p) {
  cells[cell] = p;
  if (TypeOf(p) == kKing) king[ColourOf(p)] = static_cast<int8_t>(cell);
}

void Position::Remove(int cell) {
  const Piece p = cells[cell];
  if (TypeOf(p) == kKing && king[ColourOf(p)] == cell) king[ColourOf(p)] = kNoCell;
  cells[cell] = kEmpty;
}

uint64_t Position::Key() const {
  uint64_t key = Mix(0x3c11e55ULL + static_cast<uint64_t>(turn));
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (cells[cell] != kEmpty) key ^= Mix(static_cast<uint64_t>(cell) << 8 | cells[cell]);
  }
  for (int k = 0; k < kNumColours; ++k) {
    key ^= Mix(0x10000ULL + static_cast<uint64_t>(k * 4 + owner[k]));
    if (ep[k] != kNoCell) key ^= Mix(0x20000ULL + static_cast<uint64_t>(k * 128 + ep[k]));
  }
  return key ^ Mix(0x30000ULL + castling);
}

void Position::ApplyMove(Move m) {
  const int mover = turn;
  const Piece moving = cells[m.from];
  const bool progress = TypeOf(moving) == kPawn || cells[m.to] != kEmpty || m.flag == kEnPassant;
  ep[mover] = kNoCell;
  for (int q = 0; q < kNumColours; ++q) {
    // The double-stepped pawn was taken, or its passed cell filled: no en passant any more.
    if (ep[q] != kNoCell && (m.to == ep[q] || m.to == EnPassantPawnCell(ep[q]))) ep[q] = kNoCell;
  }
  MovePieces(*this, m);
  if (m.flag == kDoublePush) {
    ep[mover] = BoardTables::Get().pawn[ColourOf(moving)][m.from].push;
  }
  // Castling rights: a king that moves, a rook that moves or is taken on its corner.
  if (TypeOf(moving) == kKing) castling &= ~(3u << (2 * ColourOf(moving)));
  for (int k = 0; k < kNumColours; ++k) {
    for (int side = 0; side < 2; ++side) {
      const int corner = CellAt(k, 0, side == 0 ? 7 : 0);
      if (m.from == corner || m.to == corner) castling &= ~(1u << (2 * k + side));
    }
  }
  no_progress = progress ? 0 : static_cast<int16_t>(no_progress + 1);
  ++moves_played;
  TestCheckmates(mover);
  if (NumIn() == 1) {
    status = Status::kCheckmate;
    return;
  }
  EndIfDrawn();
  if (Over()) return;
  SettleTurn((mover + 1) % kNumColours);
}

void Position::Settle() {
  if (Over()) return;
  if (NumIn() <= 1) {
    status = Status::kCheckmate;
    return;
  }
  EndIfDrawn();
  if (!Over()) SettleTurn(turn);
}

void Position::Withdraw(int player, Status why) {
  for (int cell = 0; cell < kNumCells; ++cell) {
    if (cells[cell] != kEmpty && OwnerAt(cell) == player) Remove(cell);
  }
  king[player] = kNoCell;
  castling &= ~(3u << (2 * player));
  ep[player] = kNoCell;
  // Its armies are empty now; they are handed to a player still in, so every army's owner is.
  int heir = (player + 1) % kNumColours;
  if (!In(heir)) heir = (player + 2) % kNumColours;
  for (int8_t& o : owner) {
    if (o == player) o = static_cast<int8_t>(heir);
  }
  for (int8_t& slot : out_order) {
    if (slot < 0) {
      slot = static_cast<int8_t>(player);
      break;
    }
  }
  if (NumIn() == 1) {
    status = why;
    return;
  }
  EndIfDrawn();
  if (!Over()) SettleTurn(turn == player ? (player + 1) % kNumColours : turn);
}

void Position::TestCheckmates(int mover) {
  // A mated king comes off the board, which may open a line onto the other opponent, so the
  // test repeats until nothing changes.
  bool changed = true;
  while (changed) {
    changed = false;
    for (int i = 1; i < kNumColours; ++i) {
      const int q = (mover + i) % kNumColours;
      if (In(q) && InCheck(*this, q) && !HasLegalMove(*this, q)) {
        Eliminate(q, mover);
        changed = true;
      }
    }
  }
}

void Position::Eliminate(int player, int by) {
  Remove(king[player]);
  for (int8_t& o : owner) {
    if (o == player) o = static_cast<int8_t>(by);
  }
  castling &= ~(3u << (2 * player));
  ep[player] = kNoCell;
  for (int8_t& slot : out_order) {
    if (slot < 0) {
      slot = static_cast<int8_t>(player);
      break;
    }
  }
}

void Position::EndIfDrawn() {
  int minors = 0;
  bool mating_material = false;
  for (const Piece p : cells) {
    const int type = TypeOf(p);
    if (type == kPawn || type == kRook || type == kQueen) mating_material = true;
    if (type == kBishop || type == kKnight) ++minors;
  }
  if (!mating_material && minors <= 1) {
    status = Status::kInsufficientMaterial;
  } else if (no_progress >= kNoProgressLimit) {
    status = Status::kNoProgress;
  }
}

void Position::SettleTurn(int first) {
  for (int i = 0; i < kNumColours; ++i) {
    const int p = (first + i) % kNumColours;
    if (!In(p)) continue;
    if (HasLegalMove(*this, p)) {
      turn = static_cast<int8_t>(p);
      return;
    }
    if (InCheck(*this, p)) {
      // Only reachable when a line opened without a move of the checking side (a mated king
      // or a withdrawn army came off): the player owning a checking piece mates.
      for (int q = 0; q < kNumColours; ++q) {
        if (q != p && In(q) && IsAttacked(*this, king[p], 1u << q)) {
          Eliminate(p, q);
          if (NumIn() == 1) {
            status = Status::kCheckmate;
            return;
          }
          SettleTurn(first);
          return;
        }
      }
    }
  }
  status = Status::kNobodyCanMove;
}

}  // namespace arena::engine::three_player_chess
