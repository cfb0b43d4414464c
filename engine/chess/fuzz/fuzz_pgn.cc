// PGN reader: never crashes; an accepted game exports to PGN that imports to the same moves,
// start position, clocks and result.
#include <string>

#include "engine/chess/fuzz/fuzz_common.h"
#include "engine/chess/pgn.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace arena::engine::chess;
  if (size > 8192) return 0;  // long inputs add no new paths, only time
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto game = ImportPgn(text);
  if (!game.ok()) return 0;
  const std::string exported = ExportPgn(*game);
  auto again = ImportPgn(exported);
  ARENA_FUZZ_CHECK(again.ok());
  ARENA_FUZZ_CHECK(again->moves == game->moves);
  ARENA_FUZZ_CHECK(again->result == game->result);
  ARENA_FUZZ_CHECK(Position::FromFen(again->start_fen)->Fen() ==
                   Position::FromFen(game->start_fen)->Fen());
  ARENA_FUZZ_CHECK(ExportPgn(*again) == exported);
  return 0;
}
