#include "tools/arenactl/play.h"

#include <dirent.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "clients/game_state_client.h"
#include "clients/game_watch.h"
#include "common/grpc_util.h"
#include "common/proto_words.h"
#include "tools/arenactl/client.h"
#include "tools/arenactl/play_input.h"
#include "tools/arenactl/terminal_line.h"
#include "tools/arenactl/watch.h"

namespace arena::arenactl {
namespace {

constexpr char kClearScreen[] = "\033[H\033[2J";
constexpr size_t kListAllUpTo = 80;  // more legal actions than this: a count and a hint

constexpr char kHelp[] =
    "type an action as the list shows it (a move, \"aim 0,0\" or just \"0,0\" when a dart is\n"
    "owed, a placement, a penalty choice), or one of:\n"
    "  moves [CELL]  the legal actions (of the piece on CELL)   clue     a bot's suggestion\n"
    "  draw          offer a draw       accept | decline  answer an offer\n"
    "  resign        give up the game   coords   board coordinates on/off\n"
    "  help          this text          quit     leave (your seat stays yours: play again)";

// The seats whose credentials this machine keeps for the game: ConfigDir()/seats/GAME.N.
std::map<int, std::string> KeptSeats(const std::string& game_id) {
  std::map<int, std::string> seats;
  const std::string dir = ConfigDir() + "/seats";
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return seats;
  const std::string prefix = game_id + ".";
  while (dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    int seat = -1;
    if (name.rfind(prefix, 0) != 0 || !absl::SimpleAtoi(name.substr(prefix.size()), &seat)) {
      continue;
    }
    std::string credential = ReadFileTrimmed(dir + "/" + name);
    if (!credential.empty()) seats[seat] = credential;
  }
  ::closedir(d);
  return seats;
}

std::string NameToShow(const PlayOptions& o) {
  if (!o.display_name.empty()) return o.display_name;
  if (Token().empty()) return "guest";
  ArenaClient arena;
  v1::WhoAmIResponse me;
  if (arena.Try(&Stub::WhoAmI, v1::WhoAmIRequest(), &me).ok() && !me.name().empty()) {
    return me.name();
  }
  return "guest";
}

// Takes an open seat (the one asked for, else the first); its credential is kept for later.
bool TakeOpenSeat(const std::string& game_id, const PlayOptions& o,
                  std::map<int, std::string>* seats) {
  clients::GameStateClient gs(common::MakeChannel(absl::GetFlag(FLAGS_game_state_addr)),
                              absl::Milliseconds(absl::GetFlag(FLAGS_timeout_ms)));
  v1::GetGameRequest get;
  get.set_game_id(game_id);
  v1::GameView view;
  if (grpc::Status s = gs.Get(get, {}, &view); !s.ok()) {
    PrintRpcError(s);
    return false;
  }
  int seat = -1;
  std::vector<std::string> open;
  for (const v1::SeatView& s : view.seats()) {
    const bool free = !s.filled() && s.spec().account_id().empty() &&
                      s.spec().kind() != v1::SEAT_KIND_BOT &&
                      s.spec().kind() != v1::SEAT_KIND_MODEL;
    if (free) open.push_back(std::to_string(s.seat()));
    if (free && seat < 0 && (o.seat < 0 || o.seat == s.seat())) seat = s.seat();
  }
  if (seat < 0) {
    if (o.seat >= 0) {
      std::fprintf(stderr, "arenactl: seat %d of %s is not open (open seats: %s)\n", o.seat,
                   game_id.c_str(), open.empty() ? "none" : absl::StrJoin(open, ", ").c_str());
    } else {
      std::fprintf(stderr,
                   "arenactl: no seat of yours at %s on this machine and no open seat; watch it "
                   "with arenactl watch %s\n",
                   game_id.c_str(), game_id.c_str());
    }
    return false;
  }
  v1::JoinTableRequest join;
  join.set_game_id(game_id);
  join.set_seat(seat);
  join.set_display_name(NameToShow(o));
  v1::JoinTableResponse joined;
  if (grpc::Status s = gs.Join(join, {}, &joined); !s.ok()) {
    PrintRpcError(s);
    return false;
  }
  std::string why;
  if (!WriteSecretFile(SeatCredentialPath(game_id, seat), joined.seat_credential(), &why)) {
    std::fprintf(stderr, "arenactl: %s (you hold seat %d for this run only)\n", why.c_str(), seat);
  }
  (*seats)[seat] = joined.seat_credential();
  return true;
}

}  // namespace

int RunPlay(const std::string& game_id, const PlayOptions& o) {
  if (game_id.empty()) {
    std::fprintf(stderr,
                 "usage: arenactl play GAME [--seat=N] [--coords] [--seat_credential_file=F] "
                 "[--display_name=NAME]\n");
    return 2;
  }
  std::map<int, std::string> seats;  // table seat -> credential
  if (!o.credential_file.empty()) {
    std::string credential = ReadFileTrimmed(ExpandHome(o.credential_file));
    if (credential.empty()) {
      std::fprintf(stderr, "arenactl: cannot read --seat_credential_file %s\n",
                   o.credential_file.c_str());
      return 2;
    }
    seats[-1] = credential;  // the seat is the one the server says it is
  } else {
    seats = KeptSeats(game_id);
    if (o.seat >= 0) {
      auto kept = seats.find(o.seat);
      std::map<int, std::string> only;
      if (kept != seats.end()) only.insert(*kept);
      seats = std::move(only);
    }
    if (seats.empty() && !TakeOpenSeat(game_id, o, &seats)) return 1;
  }

  GameFollower game(game_id, seats.begin()->second);
  if (!game.Load(-1)) return 1;
  if (seats.count(-1) != 0) {
    if (!game.view().has_viewer_seat()) {
      std::fprintf(stderr, "arenactl: the seat credential matches no seat of %s\n",
                   game_id.c_str());
      return 2;
    }
    seats = {{game.view().viewer_seat(), seats[-1]}};
  }
  const int my_first_seat = seats.begin()->first;
  TerminalLine input(STDIN_FILENO);
  const bool terminal = input.is_terminal() && isatty(STDOUT_FILENO) != 0;
  bool coordinates = o.coordinates;
  std::string message;  // the answer to the last thing typed, shown under the frame

  // The seat to act for: the one to move if it is ours, else our first.
  auto acting_seat = [&]() {
    const int to_move = game.view().to_move();
    return seats.count(to_move) != 0 ? to_move : my_first_seat;
  };
  // In a game of three or more a seat can be put out (checkmated, timed out, resigned) while
  // the others play on; once every seat this terminal holds is out, there is nothing to play.
  auto all_my_seats_out = [&] {
    if (game.view().status() != v1::GAME_STATUS_ACTIVE) return false;
    for (const v1::SeatView& s : game.view().seats()) {
      if (seats.count(s.seat()) != 0 && s.in_game()) return false;
    }
    return true;
  };
  auto my_turn = [&] {
    return game.view().status() == v1::GAME_STATUS_ACTIVE &&
           seats.count(game.view().to_move()) != 0;
  };
  auto prompt = [&]() {
    std::string clocks;
    for (const v1::SeatView& s : game.view().seats()) {
      const std::string c = ClockText(game.view(), s.seat(), absl::Now());
      if (!c.empty())
        absl::StrAppend(&clocks, clocks.empty() ? "" : " | ", SeatName(game.view(), s.seat()), " ",
                        c);
    }
    return absl::StrCat(clocks.empty() ? "" : "[" + clocks + "] ",
                        my_turn() ? absl::StrCat("your ", game.view().phase()) : "wait", "> ");
  };
  auto legal_text = [&]() -> std::string {
    const auto& legal = game.view().legal_moves();
    if (!my_turn()) return "";
    if (legal.empty()) {
      return game.view().settings().level() == v1::TABLE_LEVEL_ADVANCED
                 ? "advanced table: no list of legal actions (a refused one costs nothing)\n"
                 : "";
    }
    std::vector<std::string> all(legal.begin(), legal.end());
    if (all.size() > kListAllUpTo) {
      return absl::StrCat("legal: ", all.size(), " actions, e.g. ",
                          absl::StrJoin(all.begin(), all.begin() + 12, "  "),
                          " ... (moves CELL lists one piece's)\n");
    }
    return absl::StrCat("legal: ", absl::StrJoin(all, "  "), "\n");
  };
  auto draw = [&](bool full) {
    FrameOptions f;
    f.coordinates = coordinates;
    f.viewer_seat = acting_seat();
    f.move_lines = 10;
    if (terminal) {
      std::printf("%s%s%s%s%s%s", kClearScreen, Frame(game.view(), game.moves(), f).c_str(),
                  legal_text().c_str(), message.empty() ? "" : (message + "\n").c_str(),
                  prompt().c_str(), input.pending().c_str());
    } else if (full) {
      std::printf("%s%s%s%s", Frame(game.view(), game.moves(), f).c_str(), legal_text().c_str(),
                  message.empty() ? "" : (message + "\n").c_str(), prompt().c_str());
    }
    std::fflush(stdout);
  };
  auto redraw_prompt = [&] {
    if (!terminal) return;
    std::printf("\r\033[K%s%s", prompt().c_str(), input.pending().c_str());
    std::fflush(stdout);
  };

  const std::string out_note = absl::StrCat(
      "\nyour seat is out of ", game_id, "; the others play on (arenactl watch ", game_id, ")\n");
  if (GameOver(game.view()) || all_my_seats_out()) {
    draw(true);
    if (!GameOver(game.view())) std::printf("%s", out_note.c_str());
    return 0;
  }

  // The stream (with the seat's credential: presence, pings) is read on its own thread; a
  // pipe wakes the main loop, which also waits on the keyboard and ticks the clock.
  int wake[2];
  if (::pipe(wake) != 0) return 1;
  v1::WatchGameRequest req;
  req.set_game_id(game_id);
  req.set_from_sequence(game.moves().last_sequence() + 1);
  req.set_seat_credential(game.seat_credential());
  clients::GameWatch stream(game.game_state(), req);  // follows a replica's redirect
  std::mutex mu;
  std::vector<v1::GameEvent> queue;
  std::atomic<bool> ended{false};
  std::thread reader([&] {
    v1::GameEvent e;
    while (stream.Read(&e)) {
      if (e.type() == "ping") {
        grpc::ClientContext pctx;
        common::SetDeadline(pctx, absl::Seconds(5));
        pctx.AddMetadata("x-arena-seat-credential", game.seat_credential());
        v1::PongRequest pong;
        pong.set_game_id(game_id);
        pong.set_ping_id(e.ping_id());
        pong.set_seat(e.seat());
        v1::PongResponse ignored;
        (void)game.game_state().Pong(&pctx, pong, &ignored);
        continue;
      }
      if (e.type() == "keepalive" || e.has_snapshot()) continue;
      {
        std::lock_guard<std::mutex> lock(mu);
        queue.push_back(e);
      }
      (void)!::write(wake[1], "e", 1);
    }
    ended = true;
    (void)!::write(wake[1], "x", 1);
  });

  auto submit = [&](v1::ActionKind kind, const std::string& text) {
    const int seat = acting_seat();
    v1::SubmitActionRequest sub;
    sub.set_game_id(game_id);
    sub.set_seat(seat);
    sub.set_kind(kind);
    sub.mutable_move()->set_text(text);
    sub.set_expected_action_number(game.view().action_number());
    clients::GameStateClient gs(common::MakeChannel(absl::GetFlag(FLAGS_game_state_addr)),
                                absl::Milliseconds(absl::GetFlag(FLAGS_timeout_ms)));
    clients::Credentials as;
    as.seat = seats[seat];
    v1::SubmitActionResponse resp;
    grpc::Status s = gs.Submit(sub, as, &resp);
    message = s.ok() ? "" : absl::StrCat("refused: ", s.error_message());
  };

  draw(true);
  int code = 0;
  bool quit = false;
  while (!quit) {
    pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {wake[0], POLLIN, 0}};
    const int ready = ::poll(fds, 2, 1000);
    if (ready < 0) continue;  // a signal
    bool changed = false;
    if (fds[1].revents & POLLIN) {
      char drain[64];
      (void)!::read(wake[0], drain, sizeof drain);
      std::vector<v1::GameEvent> batch;
      {
        std::lock_guard<std::mutex> lock(mu);
        batch.swap(queue);
      }
      for (const v1::GameEvent& e : batch) {
        if (!game.Take(e, -1)) {
          code = 1;
          quit = true;
          break;
        }
        changed = true;
        if (!terminal) std::printf("%s\n", game.moves().LastLine().c_str());
      }
      if (GameOver(game.view()) || all_my_seats_out()) break;
      if (ended && !quit) {
        if (game.Fetch(-1).ok() && GameOver(game.view())) break;
        std::fprintf(stderr, "\narenactl play: the stream ended before the game did\n");
        code = 1;
        break;
      }
    }
    if (fds[0].revents & (POLLIN | POLLHUP)) {
      bool closed = false;
      for (const std::string& line : input.Read(&closed)) {
        if (terminal) std::printf("\n");
        const PlayInput in =
            ParsePlayInput(line, game.view().phase(),
                           {game.view().legal_moves().begin(), game.view().legal_moves().end()});
        message.clear();
        switch (in.kind) {
          case PlayInput::Kind::kNothing:
            break;
          case PlayInput::Kind::kHelp:
            message = kHelp;
            break;
          case PlayInput::Kind::kQuit:
            quit = true;
            break;
          case PlayInput::Kind::kCoords:
            coordinates = !coordinates;
            game.Fetch(-1);
            break;
          case PlayInput::Kind::kMoves: {
            grpc::ClientContext mctx;
            common::SetDeadline(mctx, absl::Milliseconds(absl::GetFlag(FLAGS_timeout_ms)));
            mctx.AddMetadata("x-arena-seat-credential", seats[acting_seat()]);
            v1::GetGameRequest get;
            get.set_game_id(game_id);
            get.set_piece_cell(in.text);
            v1::GameView v;
            grpc::Status s = game.game_state().GetGame(&mctx, get, &v);
            if (!s.ok()) {
              message = absl::StrCat("moves: ", s.error_message());
            } else if (v.legal_moves().empty()) {
              message = v.settings().level() == v1::TABLE_LEVEL_ADVANCED
                            ? "an advanced table lists no legal actions"
                        : in.text.empty() ? "nothing to do now"
                                          : "no legal action there";
            } else {
              message = absl::StrCat("legal: ", absl::StrJoin(v.legal_moves(), "  "));
            }
            break;
          }
          case PlayInput::Kind::kClue: {
            ArenaClient arena;
            v1::ClueRequest clue;
            clue.set_game_id(game_id);
            clue.set_seat(acting_seat());
            clue.set_seat_credential(seats[acting_seat()]);
            v1::ClueResponse r;
            grpc::Status s = arena.Try(&Stub::GetClue, clue, &r);
            message = s.ok() ? absl::StrCat("clue (bot level ", r.level(), "): ", r.move().text())
                             : absl::StrCat("clue: ", s.error_message());
            break;
          }
          case PlayInput::Kind::kResign:
            submit(v1::ACTION_KIND_RESIGN, "");
            break;
          case PlayInput::Kind::kOfferDraw:
            submit(v1::ACTION_KIND_OFFER_DRAW, "");
            break;
          case PlayInput::Kind::kAccept:
            submit(v1::ACTION_KIND_ACCEPT_DRAW, "");
            break;
          case PlayInput::Kind::kDecline:
            submit(v1::ACTION_KIND_DECLINE_DRAW, "");
            break;
          case PlayInput::Kind::kAction:
            if (!my_turn()) {
              message = absl::StrCat(
                  "not your turn: ", SeatName(game.view(), game.view().to_move()), " is to act");
            } else {
              submit(common::ActionKindOfText(in.text), in.text);
            }
            break;
        }
        changed = true;
        if (!terminal && !message.empty()) std::printf("%s\n", message.c_str());
      }
      if (closed) quit = true;
    }
    if (changed) {
      draw(!terminal && my_turn());
    } else {
      redraw_prompt();  // the clock ticks
    }
  }
  stream.Cancel();
  reader.join();
  ::close(wake[0]);
  ::close(wake[1]);
  // The last frame, from this terminal's first seat, with every move when not on a terminal.
  if (GameOver(game.view()) || (code == 0 && all_my_seats_out())) {
    FrameOptions f;
    f.coordinates = coordinates;
    f.viewer_seat = my_first_seat;
    f.move_lines = terminal ? 10 : 0;
    std::printf("%s%s", terminal ? kClearScreen : "\n",
                Frame(game.view(), game.moves(), f).c_str());
    if (!GameOver(game.view())) std::printf("%s", out_note.c_str());
    std::fflush(stdout);
    return code;
  }
  if (code == 0) {
    std::printf("\nyou left %s; the game goes on (your seat stays yours: arenactl play %s)\n",
                game_id.c_str(), game_id.c_str());
  }
  return code;
}

}  // namespace arena::arenactl
