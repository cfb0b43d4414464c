// `arenactl watch GAME`: follows a game from its first move to its end. It reads the history
// (GetRecord), then the live stream (WatchGame from the next event), and draws each change
// with game_frame: on a terminal the frame is redrawn in place and the clock ticks every
// second; into a file or a pipe (and with --once) it writes plain text without terminal codes:
// one frame, then one line per event, then the final frame.
#pragma once

#include <memory>
#include <string>

#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "tools/arenactl/game_frame.h"

namespace arena::arenactl {

struct WatchOptions {
  bool once = false;         // draw the current position and exit
  bool coordinates = false;  // label the board's rows with their first and last cells
  int seat = -1;             // turn the board to this engine seat's edge (-1: the first)
};

// What watch and play both keep of a game: its view, its move list and the model turns' attempts.
class GameFollower {
 public:
  GameFollower(std::string game_id, std::string seat_credential);

  // Loads the history so far. False (and the error printed) when the game cannot be read.
  bool Load(int perspective);
  // Takes one event from the stream; refreshes the view. False when the view could not be read.
  bool Take(const v1::GameEvent& event, int perspective);
  // Re-reads the attempts of model turns from arena (ExportGame); silent when arena cannot say.
  void RefreshModelTurns();

  const v1::GameView& view() const { return view_; }
  const MoveList& moves() const { return moves_; }
  v1::GameStateService::Stub& game_state() { return *game_state_; }
  const std::string& game_id() const { return game_id_; }
  const std::string& seat_credential() const { return seat_credential_; }
  bool HasModelSeat() const;
  // Whether the event was a model seat's action (its attempts are worth fetching).
  bool IsModelAction(const v1::GameEvent& event) const;
  grpc::Status Fetch(int perspective);

 private:
  std::string game_id_;
  std::string seat_credential_;
  std::unique_ptr<v1::GameStateService::Stub> game_state_;
  v1::GameView view_;
  MoveList moves_;
};

int RunWatch(const std::string& game_id, const WatchOptions& options);

// Whether the game is over (finished, aborted or voided).
bool GameOver(const v1::GameView& view);

}  // namespace arena::arenactl
