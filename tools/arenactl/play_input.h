// What a line typed in `arenactl play` asks for: an action in the engine's text, or one of the
// words resign, draw, accept, decline, clue, moves [CELL], coords, help, quit.
#pragma once

#include <string>
#include <vector>

namespace arena::arenactl {

// What a typed line asks for.
struct PlayInput {
  enum class Kind {
    kAction,
    kResign,
    kOfferDraw,
    kAccept,
    kDecline,
    kClue,
    kMoves,
    kCoords,
    kHelp,
    kQuit,
    kNothing
  };
  Kind kind = Kind::kNothing;
  std::string text;  // the action in engine text (kAction), the piece's cell (kMoves)
};

// Reads one line typed while `phase` is owed: a short form is completed as the wire allows
// ("0,0" while a dart aim is owed is "aim 0,0"; see common/proto_words.h) unless it is itself
// one of the `legal` actions (empty: none listed, as at advanced tables).
PlayInput ParsePlayInput(const std::string& line, const std::string& phase,
                         const std::vector<std::string>& legal);

}  // namespace arena::arenactl
