#include "services/web/replay_boards.h"

#include "absl/strings/str_cat.h"
#include "common/board_view_proto.h"
#include "engine/core/game.h"
#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"

namespace arena::web {
namespace {

nlohmann::json JsonOf(const google::protobuf::Message& m) {
  std::string out;
  google::protobuf::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  opts.always_print_primitive_fields = true;
  (void)google::protobuf::util::MessageToJsonString(m, &out, opts);
  return nlohmann::json::parse(out);
}

}  // namespace

absl::StatusOr<std::string> ReplayBoardsJson(const v1::GameRecord& record, int perspective) {
  const v1::GameView& final_view = record.final_view();
  const engine::Game* game = engine::FindGame(final_view.engine_game());
  if (!game) {
    return absl::FailedPreconditionError("unknown game " + final_view.engine_game());
  }
  auto variant = engine::Variant::Parse(final_view.variant_text());
  if (!variant.ok()) return variant.status();
  const int n = record.seat_seeds_size() > 0 ? record.seat_seeds_size() : final_view.seats_size();
  if (n <= 0) return absl::FailedPreconditionError("the record has no seats");

  std::unique_ptr<engine::State> state;
  int leader = 0;
  nlohmann::json out;
  nlohmann::json positions = nlohmann::json::array();
  std::string aim;

  auto add_position = [&](const v1::GameEvent* ev, std::vector<std::string> cells,
                          std::string landing) {
    engine::BoardView b = state->Board(perspective);
    b.last_action_cells = std::move(cells);
    if (b.dart_aim.empty()) b.dart_aim = aim;
    b.dart_landing = std::move(landing);
    nlohmann::json j = JsonOf(common::ToProto(b));
    if (positions.empty()) {
      out["game"] = j["game"];
      out["shape"] = j["shape"];
      out["perspective"] = j["perspective"];
      out["seats"] = j["seats"];
      out["cells"] = j["cells"];
    }
    nlohmann::json p = {{"sequence", ev ? ev->sequence() : -1},
                        {"action", ev ? ev->action() : ""},
                        {"seat", ev ? ev->seat() : -1},
                        {"annotation", ev ? ev->annotation() : ""}};
    for (const char* k : {"pieces", "frozen_seats", "to_move", "phase", "last_action_cells",
                          "dart_aim", "dart_landing"}) {
      p[k] = j[k];
    }
    positions.push_back(std::move(p));
  };

  for (const v1::GameEvent& ev : record.events()) {
    nlohmann::json d =
        nlohmann::json::parse(ev.detail_json().empty() ? "{}" : ev.detail_json(), nullptr, false);
    if (d.is_discarded()) d = nlohmann::json::object();
    if (ev.type() == "leader") {
      leader = d.value("leader", 0);
      auto st = game->NewInitialState(*variant);
      if (!st.ok()) return st.status();
      state = *std::move(st);
      add_position(nullptr, {}, "");
      continue;
    }
    if (ev.type() == "settings" && d.value("restart_state", false)) {
      auto v = engine::Variant::Parse(d.value("variant", std::string()));
      if (v.ok()) {
        auto st = game->NewInitialState(*v);
        if (st.ok()) state = *std::move(st);
      }
      continue;
    }
    if (!state) continue;
    const int es = ((ev.seat() - leader) % n + n) % n;
    absl::Status s;
    std::vector<std::string> cells;
    std::string landing;
    if (ev.type() == "action") {
      switch (d.value("kind", 0)) {
        case v1::ACTION_KIND_RESIGN:
          s = state->ApplySeatEvent(es, engine::SeatEvent::kResign);
          break;
        case v1::ACTION_KIND_OFFER_DRAW:
          s = state->ApplySeatEvent(es, engine::SeatEvent::kOfferDraw);
          break;
        case v1::ACTION_KIND_ACCEPT_DRAW:
          s = state->ApplySeatEvent(es, engine::SeatEvent::kAcceptDraw);
          break;
        case v1::ACTION_KIND_DECLINE_DRAW:
          s = state->ApplySeatEvent(es, engine::SeatEvent::kDeclineDraw);
          break;
        case v1::ACTION_KIND_FORFEIT_TURN:
          s = state->ApplySeatEvent(es, engine::SeatEvent::kTimeout);
          break;
        default: {
          auto facts = state->DescribeAction(ev.action());
          if (facts.ok()) {
            cells = facts->cells;
            if (facts->kind == engine::kActionDartAim && !facts->cells.empty()) {
              aim = facts->cells[0];
            }
          }
          s = state->Apply(ev.action());
        }
      }
    } else if (ev.type() == "timeout") {
      s = state->ApplySeatEvent(es, engine::SeatEvent::kTimeout);
    } else if (ev.type() == "disconnect") {
      s = state->ApplySeatEvent(es, engine::SeatEvent::kResign);
    } else if (ev.type() == "chance") {
      auto facts = state->DescribeAction(ev.action());
      if (facts.ok() && facts->kind == engine::kActionDartLanding) {
        landing = facts->cells.empty() ? "miss" : facts->cells[0];
        cells = facts->cells;
      }
      s = state->Apply(ev.action());
      aim.clear();
    } else {
      continue;
    }
    if (!s.ok()) {
      return absl::FailedPreconditionError(
          absl::StrCat("event ", ev.sequence(), " does not replay: ", s.message()));
    }
    add_position(&ev, std::move(cells), std::move(landing));
  }
  if (positions.empty()) return absl::FailedPreconditionError("the game has not started");
  out["positions"] = std::move(positions);
  return out.dump();
}

}  // namespace arena::web
