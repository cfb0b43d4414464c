// FEN reader: never crashes; whatever it accepts writes back to a FEN that reads to the same
// position, and the generator's list and count agree on it.
#include <string>

#include "engine/chess/fuzz/fuzz_common.h"
#include "engine/chess/movegen.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace arena::engine::chess;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto pos = Position::FromFen(text);
  if (!pos.ok()) return 0;
  const std::string fen = pos->Fen();
  auto again = Position::FromFen(fen);
  ARENA_FUZZ_CHECK(again.ok());
  ARENA_FUZZ_CHECK(again->Fen() == fen);
  ARENA_FUZZ_CHECK(again->key() == pos->key());
  MoveList list;
  GenerateLegal(*pos, list);
  ARENA_FUZZ_CHECK(list.size() == CountLegal(*pos));
  Position work = *pos;
  Perft(work, 2);
  ARENA_FUZZ_CHECK(work.Fen() == fen && work.key() == pos->key());
  return 0;
}
