#include "common/board_view_proto.h"

namespace arena::common {

v1::BoardView ToProto(const engine::BoardView& view) {
  v1::BoardView out;
  out.set_game(view.game);
  out.set_shape(view.shape);
  out.set_perspective(view.perspective);
  for (const engine::SeatInfo& s : view.seats) {
    v1::SeatLook* look = out.add_seats();
    look->set_name(s.name);
    look->set_colour(s.colour);
  }
  for (const engine::BoardCell& c : view.cells) {
    v1::BoardCell* cell = out.add_cells();
    cell->set_id(c.id);
    cell->set_x(c.x);
    cell->set_y(c.y);
    cell->set_shade(c.shade);
  }
  for (const engine::BoardPiece& p : view.pieces) {
    v1::BoardPiece* piece = out.add_pieces();
    piece->set_cell(p.cell);
    piece->set_seat(p.seat);
    piece->set_kind(p.kind);
    piece->set_symbol(p.symbol);
    piece->set_frozen(p.frozen);
  }
  for (int s : view.frozen_seats) out.add_frozen_seats(s);
  out.set_to_move(view.to_move);
  out.set_phase(view.phase);
  for (const std::string& c : view.last_action_cells) out.add_last_action_cells(c);
  out.set_dart_aim(view.dart_aim);
  out.set_dart_landing(view.dart_landing);
  return out;
}

engine::BoardView FromProto(const v1::BoardView& in) {
  engine::BoardView view;
  view.game = in.game();
  view.shape = in.shape();
  view.perspective = in.perspective();
  for (const v1::SeatLook& s : in.seats()) view.seats.push_back({s.name(), s.colour()});
  for (const v1::BoardCell& c : in.cells()) view.cells.push_back({c.id(), c.x(), c.y(), c.shade()});
  for (const v1::BoardPiece& p : in.pieces()) {
    view.pieces.push_back({p.cell(), p.seat(), p.kind(), p.symbol(), p.frozen()});
  }
  view.frozen_seats.assign(in.frozen_seats().begin(), in.frozen_seats().end());
  view.to_move = in.to_move();
  view.phase = in.phase();
  view.last_action_cells.assign(in.last_action_cells().begin(), in.last_action_cells().end());
  view.dart_aim = in.dart_aim();
  view.dart_landing = in.dart_landing();
  return view;
}

}  // namespace arena::common
