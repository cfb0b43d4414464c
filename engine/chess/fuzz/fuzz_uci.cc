// UCI move reader: never crashes; an accepted move is legal and writes back to the same text.
#include <string>

#include "engine/chess/fuzz/fuzz_common.h"
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace arena::engine::chess;
  Position pos = arena::fuzz::PickPosition(data, size);
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto move = ParseUci(pos, text);
  if (!move.ok()) return 0;
  MoveList legal;
  GenerateLegal(pos, legal);
  ARENA_FUZZ_CHECK(legal.contains(*move));
  ARENA_FUZZ_CHECK(MoveToUci(*move) == text);
  return 0;
}
