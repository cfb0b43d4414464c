// Shared helpers of the chess fuzz targets: a fixed set of positions the move-text targets
// pick from with their first input byte, and ARENA_FUZZ_CHECK (tools/fuzz/fuzz_check.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "engine/chess/position.h"
#include "tools/fuzz/fuzz_check.h"

namespace arena::fuzz {

inline constexpr std::string_view kFuzzPositions[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1",
};

// Splits the input: the first byte picks a position, the rest is the text.
inline engine::chess::Position PickPosition(const uint8_t*& data, size_t& size) {
  size_t index = 0;
  if (size > 0) {
    index = data[0] % std::size(kFuzzPositions);
    ++data;
    --size;
  }
  return *engine::chess::Position::FromFen(kFuzzPositions[index]);
}

}  // namespace arena::fuzz
