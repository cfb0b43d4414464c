#include "tools/arenactl/game_frame.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/board_view_proto.h"
#include "engine/core/board_view.h"
#include "nlohmann/json.hpp"

namespace arena::arenactl {
namespace {

bool Finished(const v1::GameView& view) {
  return view.status() != v1::GAME_STATUS_ACTIVE && view.status() != v1::GAME_STATUS_WAITING;
}

// What an action of a kind other than a move or a placement reads as.
std::string ActionWords(int kind, const std::string& text) {
  switch (kind) {
    case v1::ACTION_KIND_RESIGN:
      return "resigns";
    case v1::ACTION_KIND_OFFER_DRAW:
      return "offers a draw";
    case v1::ACTION_KIND_ACCEPT_DRAW:
      return "accepts the draw";
    case v1::ACTION_KIND_DECLINE_DRAW:
      return "declines the draw";
    case v1::ACTION_KIND_FORFEIT_TURN:
      return "forfeits the turn";
    default:
      return text;
  }
}

}  // namespace

std::string SeatName(const v1::GameView& view, int table_seat) {
  if (table_seat < 0 || table_seat >= view.seats_size()) return absl::StrCat("seat ", table_seat);
  const int engine_seat = view.seats(table_seat).engine_seat();
  if (engine_seat >= 0 && engine_seat < view.board().seats_size() &&
      !view.board().seats(engine_seat).name().empty()) {
    return view.board().seats(engine_seat).name();
  }
  return absl::StrCat("seat ", table_seat);
}

std::string PlayerOf(const v1::SeatView& seat) {
  const v1::SeatSpec& spec = seat.spec();
  std::string who = spec.display_name();
  switch (spec.kind()) {
    case v1::SEAT_KIND_BOT:
      if (spec.stockfish_elo() > 0) {
        absl::StrAppend(&who, who.empty() ? "" : " ", "(stockfish ", spec.stockfish_elo(), ")");
      } else {
        absl::StrAppend(&who, who.empty() ? "" : " ", "(bot level ", spec.bot_level(), ")");
      }
      break;
    case v1::SEAT_KIND_MODEL:
      absl::StrAppend(&who, who.empty() ? "" : " ", "(model ", spec.model_id(), ")");
      break;
    default:
      if (!seat.filled()) return "(open seat)";
      if (who.empty()) who = "guest";
      absl::StrAppend(&who, " (person)");
  }
  return who;
}

std::string ClockText(const v1::GameView& view, int table_seat, absl::Time now) {
  const v1::ClockSettings& c = view.settings().clock();
  if (c.initial_ms() <= 0 && c.per_move_ms() <= 0) return "";
  if (table_seat < 0 || table_seat >= view.seats_size()) return "";
  int64_t ms = view.seats(table_seat).clock_remaining_ms();
  if (!Finished(view) && view.to_move() == table_seat && view.turn_deadline_unix_ms() > 0) {
    ms = std::max<int64_t>(0, view.turn_deadline_unix_ms() - absl::ToUnixMillis(now));
  }
  const int64_t seconds = (ms + 999) / 1000;  // 0:00 only when the time is really gone
  return absl::StrFormat("%d:%02d", seconds / 60, seconds % 60);
}

std::string ResultInWords(const v1::GameView& view) {
  const v1::Outcome& o = view.outcome();
  auto named = [&](int seat) {
    return absl::StrCat(SeatName(view, seat), " (",
                        seat >= 0 && seat < view.seats_size()
                            ? view.seats(seat).spec().display_name()
                            : std::string("?"),
                        ")");
  };
  const std::string reason = o.reason().empty() ? "" : absl::StrCat(": ", o.reason());
  switch (view.status()) {
    case v1::GAME_STATUS_VOIDED:
      return absl::StrCat("voided, nobody won", reason);
    case v1::GAME_STATUS_ABORTED:
      return absl::StrCat("aborted, nobody won", reason);
    case v1::GAME_STATUS_FINISHED:
      break;
    default:
      return "";
  }
  std::string words;
  if (o.winners_size() == 0) {
    words = absl::StrCat("draw", reason);
  } else {
    std::vector<std::string> winners;
    for (int w : o.winners()) winners.push_back(named(w));
    words = absl::StrCat(absl::StrJoin(winners, " and "), o.winners_size() == 1 ? " wins" : " win",
                         reason);
  }
  if (view.seats_size() > 2 && o.ranks_size() == view.seats_size()) {
    std::vector<std::pair<int, int>> order;  // (rank, seat)
    for (int s = 0; s < o.ranks_size(); ++s) order.emplace_back(o.ranks(s), s);
    std::sort(order.begin(), order.end());
    std::vector<std::string> places;
    for (const auto& [rank, seat] : order)
      places.push_back(absl::StrCat(rank + 1, ". ", named(seat)));
    absl::StrAppend(&words, " (places: ", absl::StrJoin(places, ", "), ")");
  }
  if (o.adjudicated()) {
    absl::StrAppend(&words, "; adjudicated at the move cap by a search (", o.adjudication_cp(),
                    " centipawns for ", SeatName(view, 0), ")");
  }
  return words;
}

// --- The move list --------------------------------------------------------------------------

void MoveList::Add(const v1::GameEvent& e, const v1::GameView& view) {
  if (e.sequence() <= last_sequence_) return;  // a replay after a reconnect
  last_sequence_ = e.sequence();
  Entry entry;
  const std::string who = SeatName(view, e.seat());
  if (e.type() == "action") {
    auto detail = nlohmann::json::parse(e.detail_json(), nullptr, false);
    const int kind = detail.is_object() ? detail.value("kind", 0) : 0;
    entry.action_number = e.action_number();
    entry.text =
        absl::StrFormat("%4d. %-8s %s", e.action_number() + 1, who, ActionWords(kind, e.action()));
    entry.reasoning = e.annotation();
    ++moves_;
  } else if (e.type() == "chance") {
    // A dart's landing and any other draw of chance: nobody's move.
    entry.text = absl::StrCat("      chance:  ", e.action());
  } else if (e.type() == "timeout") {
    entry.text = absl::StrCat("      ", who, " ran out of time");
  } else if (e.type() == "disconnect") {
    entry.text = absl::StrCat("      ", who, " left the table");
  } else if (e.type() == "joined") {
    entry.text =
        absl::StrCat("      ",
                     PlayerOf(view.seats_size() > e.seat() && e.seat() >= 0 ? view.seats(e.seat())
                                                                            : v1::SeatView()),
                     " sat down");
  } else if (e.type() == "voided" || e.type() == "aborted") {
    entry.text = absl::StrCat("      the game was ", e.type());
  } else {
    return;  // created, leader, settings, clock, ended: the frame shows them
  }
  entries_.push_back(std::move(entry));
}

void MoveList::SetModelTurn(int64_t action_number, ModelTurn turn) {
  model_turns_[action_number] = std::move(turn);
}

std::string MoveList::Render(const Entry& e) const {
  std::string line = e.text;
  auto turn = model_turns_.find(e.action_number);
  if (e.action_number >= 0 && turn != model_turns_.end() && !turn->second.attempt_labels.empty()) {
    const auto& labels = turn->second.attempt_labels;
    absl::StrAppend(&line, "  [", labels.size(),
                    labels.size() == 1 ? " attempt: " : " attempts: ", absl::StrJoin(labels, ", "),
                    "]");
  }
  if (!e.reasoning.empty()) absl::StrAppend(&line, "\n        reasoning: ", e.reasoning);
  return line;
}

std::vector<std::string> MoveList::Lines(size_t last_n) const {
  std::vector<std::string> out;
  size_t first = last_n == 0 || entries_.size() <= last_n ? 0 : entries_.size() - last_n;
  for (size_t i = first; i < entries_.size(); ++i) out.push_back(Render(entries_[i]));
  return out;
}

std::string MoveList::LastLine() const {
  return entries_.empty() ? "" : Render(entries_.back());
}

// --- The frame ------------------------------------------------------------------------------

std::string SeatLines(const v1::GameView& view, const FrameOptions& o) {
  std::string out;
  for (const v1::SeatView& s : view.seats()) {
    const bool to_act = view.status() == v1::GAME_STATUS_ACTIVE && view.to_move() == s.seat();
    std::string clock = ClockText(view, s.seat(), o.now);
    absl::StrAppend(&out, to_act ? "> " : "  ",
                    absl::StrFormat("%-8s %s%s", SeatName(view, s.seat()), PlayerOf(s),
                                    s.seat() == o.viewer_seat ? "  <- you" : ""),
                    clock.empty() ? "" : "  " + clock, "\n");
  }
  return out;
}

std::string Frame(const v1::GameView& view, const MoveList& moves, const FrameOptions& o) {
  std::string out = absl::StrCat(
      view.engine_game(), view.variant_text().empty() ? "" : " " + view.variant_text(), "  game ",
      view.game_id(), "  ",
      view.settings().level() == v1::TABLE_LEVEL_ADVANCED ? "advanced" : "beginner",
      view.settings().move_cap() > 0 ? absl::StrCat("  move cap ", view.settings().move_cap()) : "",
      "\n");
  engine::BoardView board = common::FromProto(view.board());
  if (!board.cells.empty()) {
    out += engine::DrawBoardText(board, o.coordinates);  // with aim, landing and frozen armies
  } else {
    out += view.rendering();
  }
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += '\n';
  out += SeatLines(view, o);
  const std::vector<std::string> lines = moves.Lines(o.move_lines);
  if (!lines.empty()) {
    out += "\nmoves:\n";
    for (const std::string& line : lines) absl::StrAppend(&out, line, "\n");
  }
  out += '\n';
  if (Finished(view)) {
    absl::StrAppend(&out, "result: ", ResultInWords(view), "\n");
  } else if (view.status() == v1::GAME_STATUS_WAITING) {
    out += "waiting for every seat to be taken\n";
  } else if (view.to_move() >= 0) {
    absl::StrAppend(&out, "to act: ", SeatName(view, view.to_move()), " (", view.phase(), ")",
                    view.to_move() == o.viewer_seat ? " - your turn" : "", "\n");
  }
  return out;
}

}  // namespace arena::arenactl
