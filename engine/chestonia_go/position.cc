#include "engine/chestonia_go/position.h"

#include <algorithm>
#include <utility>

#include "engine/hex/dart.h"

namespace arena::engine::chestonia_go {

const hex::Grid& BoardGrid() {
  static const hex::Grid& grid = hex::Grid::Get(kRadius);
  return grid;
}

const Neighbours& NeighbourTable() {
  static const Neighbours table = [] {
    Neighbours t;
    const hex::Grid& g = BoardGrid();
    for (int c = 0; c < kNumCells; ++c) {
      for (int d = 0; d < 6; ++d) t.of[c][d] = static_cast<int16_t>(g.Step(c, d));
    }
    return t;
  }();
  return table;
}

uint64_t ZobristKey(int cell, int seat) {
  static const std::array<uint64_t, kNumCells* kMaxSeats> keys = [] {
    std::array<uint64_t, kNumCells * kMaxSeats> k{};
    uint64_t x = 0x43686573746f6e69ULL;  // "Chestoni"
    for (uint64_t& key : k) {
      // splitmix64
      uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      key = z ^ (z >> 31);
    }
    return k;
  }();
  return keys[cell * kMaxSeats + seat];
}

std::string_view EndReasonName(EndReason reason) {
  switch (reason) {
    case EndReason::kNone:
      return "";
    case EndReason::kCount:
      return "count";
    case EndReason::kCut:
      return "cut";
    case EndReason::kResignation:
      return "resignation";
    case EndReason::kMoveCap:
      return "move-cap";
  }
  return "?";
}

// --- History -------------------------------------------------------------------------------

void BoardHistory::Clear() {
  order_.clear();
  sorted_.clear();
}

void BoardHistory::Add(uint64_t hash) {
  order_.push_back(hash);
  sorted_.insert(std::lower_bound(sorted_.begin(), sorted_.end(), hash), hash);
}

bool BoardHistory::Contains(uint64_t hash) const {
  return std::binary_search(sorted_.begin(), sorted_.end(), hash);
}

// --- Chains --------------------------------------------------------------------------------

int Position::Liberties(int cell) const {
  std::array<uint64_t, 3> seen{};
  int libs = 0;
  const auto& nb = NeighbourTable().of;
  int c = chain_head[cell];
  const int head = c;
  do {
    for (int n : nb[c]) {
      if (n >= 0 && stone[n] == 0 && !((seen[n >> 6] >> (n & 63)) & 1)) {
        seen[n >> 6] |= uint64_t{1} << (n & 63);
        ++libs;
      }
    }
    c = chain_next[c];
  } while (c != head);
  return libs;
}

int Position::StoneCount(int seat) const {
  int n = 0;
  for (uint8_t s : stone) n += s == seat + 1;
  return n;
}

bool Position::IsLegalIgnoringSuperko(int cell, int seat, uint64_t* hash_after) const {
  if (stone[cell] != 0) return false;
  const auto& nb = NeighbourTable().of[cell];
  uint64_t h = hash ^ ZobristKey(cell, seat);
  bool breathes = false;
  std::array<int16_t, 6> heads;
  int num_heads = 0;
  for (int n : nb) {
    if (n < 0) continue;
    if (stone[n] == 0) {
      breathes = true;
      continue;
    }
    const int head = chain_head[n];
    if (std::find(heads.begin(), heads.begin() + num_heads, head) != heads.begin() + num_heads) {
      continue;
    }
    heads[num_heads++] = static_cast<int16_t>(head);
    // The chain's pseudo-liberties on `cell` are its stones next to it; any more are liberties
    // elsewhere.
    int adjacent = 0;
    for (int m : nb) adjacent += m >= 0 && stone[m] != 0 && chain_head[m] == head;
    const int owner = stone[n] - 1;
    if (owner == seat) {
      if (chain_libs[head] > adjacent) breathes = true;
    } else if (Active(owner) && chain_libs[head] == adjacent) {
      breathes = true;  // the play captures it
      int c = head;
      do {
        h ^= ZobristKey(c, owner);
        c = chain_next[c];
      } while (c != head);
    }
  }
  if (hash_after) *hash_after = h;
  return breathes;
}

bool Position::IsLegalPlay(int cell, int seat, const BoardHistory& history) const {
  uint64_t after = 0;
  return IsLegalIgnoringSuperko(cell, seat, &after) && !history.Contains(after);
}

void Position::RemoveChain(int head, int seat) {
  std::array<int16_t, kNumCells> cells;
  int n = 0;
  int c = head;
  do {
    cells[n++] = static_cast<int16_t>(c);
    c = chain_next[c];
  } while (c != head);
  for (int i = 0; i < n; ++i) {
    stone[cells[i]] = 0;
    hash ^= ZobristKey(cells[i], seat);
  }
  const auto& nb = NeighbourTable().of;
  for (int i = 0; i < n; ++i) {
    for (int m : nb[cells[i]]) {
      if (m >= 0 && stone[m] != 0) ++chain_libs[chain_head[m]];
    }
  }
}

int Position::PlaceStone(int cell, int seat) {
  const auto& nb = NeighbourTable().of[cell];
  const uint8_t me = static_cast<uint8_t>(seat + 1);
  stone[cell] = me;
  hash ^= ZobristKey(cell, seat);
  chain_head[cell] = static_cast<int16_t>(cell);
  chain_next[cell] = static_cast<int16_t>(cell);
  chain_size[cell] = 1;
  int16_t libs = 0;
  for (int n : nb) {
    if (n < 0) continue;
    if (stone[n] == 0) {
      ++libs;
    } else {
      --chain_libs[chain_head[n]];
    }
  }
  chain_libs[cell] = libs;
  for (int n : nb) {
    if (n < 0 || stone[n] != me) continue;
    int a = chain_head[cell], b = chain_head[n];
    if (a == b) continue;
    if (chain_size[a] < chain_size[b]) std::swap(a, b);
    // Relabel b's ring into a, then splice the two rings.
    int c = b;
    do {
      chain_head[c] = static_cast<int16_t>(a);
      c = chain_next[c];
    } while (c != b);
    std::swap(chain_next[a], chain_next[b]);
    chain_size[a] = static_cast<int16_t>(chain_size[a] + chain_size[b]);
    chain_libs[a] = static_cast<int16_t>(chain_libs[a] + chain_libs[b]);
  }
  int captured = 0;
  for (int n : nb) {
    if (n < 0 || stone[n] == 0 || stone[n] == me) continue;
    const int owner = stone[n] - 1;
    const int head = chain_head[n];
    if (!Active(owner) || chain_libs[head] != 0) continue;
    captured += chain_size[head];
    RemoveChain(head, owner);
  }
  return captured;
}

void Position::RebuildChains() {
  hash = 0;
  std::array<bool, kNumCells> done{};
  std::array<int16_t, kNumCells> stack;
  const auto& nb = NeighbourTable().of;
  for (int c = 0; c < kNumCells; ++c) {
    if (stone[c] == 0) continue;
    hash ^= ZobristKey(c, stone[c] - 1);
    if (done[c]) continue;
    // Flood the chain through c, linking its ring as it goes.
    int top = 0, size = 0, libs = 0, prev = c;
    stack[top++] = static_cast<int16_t>(c);
    done[c] = true;
    while (top > 0) {
      const int x = stack[--top];
      chain_head[x] = static_cast<int16_t>(c);
      chain_next[prev] = static_cast<int16_t>(x);
      prev = x;
      ++size;
      for (int n : nb[x]) {
        if (n < 0) continue;
        if (stone[n] == 0) {
          ++libs;
        } else if (stone[n] == stone[c] && !done[n]) {
          done[n] = true;
          stack[top++] = static_cast<int16_t>(n);
        }
      }
    }
    chain_next[prev] = static_cast<int16_t>(c);
    chain_size[c] = static_cast<int16_t>(size);
    chain_libs[c] = static_cast<int16_t>(libs);
  }
}

void Position::LiftStone(int cell) {
  stone[cell] = 0;
  RebuildChains();
}

// --- Scoring -------------------------------------------------------------------------------

std::array<int, kMaxSeats> Position::Areas(std::array<int8_t, kNumCells>* owner) const {
  std::array<int, kMaxSeats> area{};
  if (owner) owner->fill(-1);
  for (int c = 0; c < kNumCells; ++c) {
    if (stone[c] != 0 && Active(stone[c] - 1)) {
      ++area[stone[c] - 1];
      if (owner) (*owner)[c] = static_cast<int8_t>(stone[c] - 1);
    }
  }
  std::array<bool, kNumCells> seen{};
  std::array<int16_t, kNumCells> region;
  const auto& nb = NeighbourTable().of;
  for (int c = 0; c < kNumCells; ++c) {
    if (stone[c] != 0 || seen[c]) continue;
    int size = 0, scan = 0;
    unsigned borders = 0;  // bit s: a stone of active seat s touches the region
    region[size++] = static_cast<int16_t>(c);
    seen[c] = true;
    while (scan < size) {
      const int x = region[scan++];
      for (int n : nb[x]) {
        if (n < 0) continue;
        if (stone[n] == 0) {
          if (!seen[n]) {
            seen[n] = true;
            region[size++] = static_cast<int16_t>(n);
          }
        } else if (Active(stone[n] - 1)) {
          borders |= 1u << (stone[n] - 1);
        }
      }
    }
    if (std::popcount(borders) != 1) continue;
    const int seat = std::countr_zero(borders);
    area[seat] += size;
    if (owner) {
      for (int i = 0; i < size; ++i) (*owner)[region[i]] = static_cast<int8_t>(seat);
    }
  }
  return area;
}

std::array<int, kMaxSeats> Position::Ranks() const {
  std::array<int, kMaxSeats> ranks{};
  int next_rank = 1;
  if (!draw) {
    for (int s = 0; s < rules.players; ++s) {
      if (s != winner && Active(s)) {
        ranks[s] = 1;
        next_rank = 2;
      }
    }
  }
  for (int event = out_events; event >= 1; --event) {
    bool any = false;
    for (int s = 0; s < rules.players; ++s) {
      if (out[s] == event && s != winner) {
        ranks[s] = next_rank;
        any = true;
      }
    }
    if (any) ++next_rank;
  }
  return ranks;
}

// --- Turn structure ------------------------------------------------------------------------

Position Position::Initial(const Rules& rules) {
  Position pos(rules);
  pos.active = static_cast<uint8_t>((1u << rules.players) - 1);
  pos.turn = static_cast<int8_t>(rules.first);
  pos.BeginTurnFromSetup();
  return pos;
}

void Position::BeginTurnFromSetup() {
  if (phase == Phase::kOver) return;
  if (Active(turn)) {
    BeginTurn();
  } else {
    AdvanceTurn();
  }
}

void Position::AdvanceTurn() {
  // Terminates: at least two seats are in while the game goes on.
  for (;;) {
    turn = static_cast<int8_t>((turn + 1) % rules.players);
    if (turn == rules.first && OnRoundBoundary()) return;
    if (!Active(turn)) continue;
    BeginTurn();
    return;
  }
}

bool Position::OnRoundBoundary() {
  if (!rules.darts) return false;
  if (!dart_round && rounds_since_dart < kMaxRoundsBetweenDarts) ++rounds_since_dart;
  dart_round = false;
  if (rounds_since_dart >= hex::kMinRoundsBeforeDart) {
    phase = Phase::kRoundChance;
    return true;
  }
  return false;
}

void Position::BeginTurn() {
  phase = dart_round ? Phase::kAim : Phase::kMove;
}

void Position::PutOut(int seat) {
  active &= static_cast<uint8_t>(~(1u << seat));
  out[seat] = out_events;
}

void Position::FinishWin(int seat, EndReason why) {
  phase = Phase::kOver;
  draw = false;
  winner = static_cast<int8_t>(seat);
  reason = why;
}

void Position::FinishDraw(EndReason why) {
  phase = Phase::kOver;
  draw = true;
  winner = -1;
  reason = why;
}

void Position::Count() {
  const std::array<int, kMaxSeats> area = Areas();
  ++counts;
  passes = 0;
  // Read upside down in reverse: the key is what a seat wants to be large.
  std::array<int, kMaxSeats> key{};
  int low = 1 << 20, high = -(1 << 20);
  for (int s = 0; s < rules.players; ++s) {
    if (!Active(s)) {
      count_score[s] = -1;
      continue;
    }
    count_score[s] = static_cast<int16_t>(ScoreHalfPoints(s, area[s]));
    key[s] = rules.reverse ? -count_score[s] : count_score[s];
    low = std::min(low, key[s]);
    high = std::max(high, key[s]);
  }
  if (low == high) return FinishDraw(EndReason::kCount);
  if (NumActive() == 2) {
    for (int s = 0; s < rules.players; ++s) {
      if (Active(s) && key[s] == high) return FinishWin(s, EndReason::kCount);
    }
  }
  // Three in: the cut. The bottom goes out; two level at the bottom both go out.
  ++out_events;
  int bottom = 0, top = -1;
  for (int s = 0; s < rules.players; ++s) {
    if (!Active(s)) continue;
    if (key[s] == low) {
      ++bottom;
    } else {
      top = s;
    }
  }
  for (int s = 0; s < rules.players; ++s) {
    if (Active(s) && key[s] == low) PutOut(s);
  }
  if (bottom == 2) FinishWin(top, EndReason::kCut);
}

void Position::EndTurnAfterPass() {
  ++moves_played;
  last_play = -1;
  if (++passes >= NumActive()) {
    Count();
    if (phase == Phase::kOver) return;
  }
  if (rules.movecap > 0 && moves_played >= rules.movecap) return FinishDraw(EndReason::kMoveCap);
  AdvanceTurn();
}

// --- Actions -------------------------------------------------------------------------------

void Position::ApplyPlay(int cell) {
  PlaceStone(cell, turn);
  passes = 0;
  last_play = static_cast<int16_t>(cell);
  ++moves_played;
  if (rules.movecap > 0 && moves_played >= rules.movecap) return FinishDraw(EndReason::kMoveCap);
  AdvanceTurn();
}

void Position::ApplyPass() {
  EndTurnAfterPass();
}

void Position::ApplyRoundChance(bool is_dart_round) {
  dart_round = is_dart_round;
  if (is_dart_round) rounds_since_dart = 0;
  if (Active(turn)) {
    BeginTurn();
  } else {
    AdvanceTurn();
  }
}

void Position::ApplyAim(int cell) {
  aim = static_cast<int16_t>(cell);
  phase = Phase::kLanding;
}

void Position::ApplyLanding(int cell) {
  aim = -1;
  if (cell < 0) {
    phase = StoneCount(turn) > 0 ? Phase::kPenalty : Phase::kMove;
    return;
  }
  if (stone[cell] != 0 && !Frozen(cell)) {
    LiftStone(cell);
    passes = 0;
  }
  phase =
      hex::DartZonePays(hex::DartZone(BoardGrid().Ring(cell))) ? Phase::kPlacement : Phase::kMove;
}

void Position::ApplyPlacement(int cell) {
  PlaceStone(cell, turn);
  passes = 0;
  last_play = static_cast<int16_t>(cell);
  phase = Phase::kMove;
}

void Position::ApplySkipPlacement() {
  phase = Phase::kMove;
}

void Position::ApplyPenalty(int cell) {
  LiftStone(cell);
  passes = 0;
  phase = Phase::kMove;
}

int Position::ServicePenaltyStone(int seat) const {
  const hex::Grid& g = BoardGrid();
  const int sixths = hex::SeatSixths(rules.players, seat);
  int best = -1;
  std::pair<int, int> best_key{1 << 20, 1 << 20};
  for (int c = 0; c < kNumCells; ++c) {
    if (stone[c] != seat + 1) continue;
    // In the seat's own frame its edge is r = -7 and its right is the low-q end of each row.
    const hex::Axial a = hex::Rotate(g.At(c), -sixths);
    const std::pair<int, int> key{a.r + kRadius, a.q};
    if (key < best_key) {
      best_key = key;
      best = c;
    }
  }
  return best;
}

void Position::ApplyTimeout() {
  if (phase == Phase::kPenalty) {
    const int taken = ServicePenaltyStone(turn);
    if (taken >= 0) {
      LiftStone(taken);
      passes = 0;
    }
  }
  aim = -1;
  EndTurnAfterPass();
}

void Position::ApplyResign(int seat) {
  ++out_events;
  PutOut(seat);
  passes = 0;
  if (NumActive() == 1)
    return FinishWin(std::countr_zero(static_cast<unsigned>(active)), EndReason::kResignation);
  if (seat == turn && phase != Phase::kRoundChance) {
    aim = -1;
    AdvanceTurn();
  }
}

}  // namespace arena::engine::chestonia_go
