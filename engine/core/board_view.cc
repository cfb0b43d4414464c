#include "engine/core/board_view.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"

namespace arena::engine {

namespace {

using nlohmann::json;

json SeatJson(const SeatInfo& s) {
  return {{"name", s.name}, {"colour", s.colour}};
}

}  // namespace

std::string BoardView::ToJson() const {
  json j;
  j["game"] = game;
  j["shape"] = shape;
  j["perspective"] = perspective;
  j["seats"] = json::array();
  for (const SeatInfo& s : seats) j["seats"].push_back(SeatJson(s));
  j["cells"] = json::array();
  for (const BoardCell& c : cells) {
    json cell = {{"id", c.id}, {"x", c.x}, {"y", c.y}, {"shade", c.shade}};
    if (c.territory >= 0) cell["territory"] = c.territory;
    j["cells"].push_back(std::move(cell));
  }
  j["pieces"] = json::array();
  for (const BoardPiece& p : pieces) {
    j["pieces"].push_back({{"cell", p.cell},
                           {"seat", p.seat},
                           {"kind", p.kind},
                           {"symbol", p.symbol},
                           {"frozen", p.frozen}});
  }
  j["frozen_seats"] = frozen_seats;
  j["to_move"] = to_move;
  j["phase"] = phase;
  j["last_action_cells"] = last_action_cells;
  j["dart_aim"] = dart_aim;
  j["dart_landing"] = dart_landing;
  return j.dump();
}

absl::StatusOr<BoardView> BoardView::FromJson(const std::string& text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return absl::InvalidArgumentError("board view: not a JSON object");
  }
  try {
    BoardView v;
    v.game = j.at("game").get<std::string>();
    v.shape = j.at("shape").get<std::string>();
    v.perspective = j.at("perspective").get<int>();
    for (const json& s : j.at("seats")) {
      v.seats.push_back({s.at("name").get<std::string>(), s.at("colour").get<std::string>()});
    }
    for (const json& c : j.at("cells")) {
      v.cells.push_back({c.at("id").get<std::string>(), c.at("x").get<double>(),
                         c.at("y").get<double>(), c.at("shade").get<int>(),
                         c.value("territory", -1)});
    }
    for (const json& p : j.at("pieces")) {
      v.pieces.push_back({p.at("cell").get<std::string>(), p.at("seat").get<int>(),
                          p.at("kind").get<std::string>(), p.at("symbol").get<std::string>(),
                          p.at("frozen").get<bool>()});
    }
    v.frozen_seats = j.at("frozen_seats").get<std::vector<int>>();
    v.to_move = j.at("to_move").get<int>();
    v.phase = j.at("phase").get<std::string>();
    v.last_action_cells = j.at("last_action_cells").get<std::vector<std::string>>();
    v.dart_aim = j.at("dart_aim").get<std::string>();
    v.dart_landing = j.at("dart_landing").get<std::string>();
    return v;
  } catch (const json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("board view: ", e.what()));
  }
}

std::string DrawBoardText(const BoardView& view, bool coordinates) {
  // Text grid: square boards one row per unit of y and three characters per unit of x; hex
  // boards one row per 1.5 of y and two characters per half cell width (sqrt(3)/2) of x, so
  // rows stagger by half a cell.
  const bool hex = view.shape == "hex";
  const double row_unit = hex ? 1.5 : 1.0;
  const double col_unit = hex ? std::sqrt(3.0) / 2 : 1.0;
  const size_t pitch = hex ? 2 : 3;  // characters per column: hex columns are half cells
  std::map<std::pair<int, int>, const BoardCell*> at;
  int min_col = 0, max_col = 0;
  bool first = true;
  for (const BoardCell& c : view.cells) {
    const int row = static_cast<int>(std::lround(c.y / row_unit));
    const int col = static_cast<int>(std::lround(c.x / col_unit));
    at[{row, col}] = &c;
    min_col = first ? col : std::min(min_col, col);
    max_col = first ? col : std::max(max_col, col);
    first = false;
  }
  std::map<std::string, const BoardPiece*> piece_at;
  for (const BoardPiece& p : view.pieces) piece_at[p.cell] = &p;
  auto initial = [&](int seat) -> char {
    if (seat < 0 || seat >= static_cast<int>(view.seats.size()) || view.seats[seat].name.empty())
      return '?';
    return static_cast<char>(std::tolower(static_cast<unsigned char>(view.seats[seat].name[0])));
  };

  std::string out;
  int row = at.empty() ? 0 : at.begin()->first.first;
  while (!at.empty()) {
    std::string line(static_cast<size_t>(max_col - min_col) * pitch + 2, ' ');
    std::string first_id, last_id;
    for (auto it = at.lower_bound({row, min_col}); it != at.end() && it->first.first == row; ++it) {
      const BoardCell& c = *it->second;
      const size_t pos = static_cast<size_t>(it->first.second - min_col) * pitch;
      std::string token = "..";
      if (c.territory >= 0) token = {initial(c.territory), '.'};
      if (auto p = piece_at.find(c.id); p != piece_at.end()) {
        char symbol = p->second->symbol.empty() ? '?' : p->second->symbol[0];
        if (p->second->frozen) symbol = static_cast<char>(std::tolower(symbol));
        token = {initial(p->second->seat), symbol};
      }
      line.replace(pos, 2, token);
      if (first_id.empty()) first_id = c.id;
      last_id = c.id;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line;
    if (coordinates) absl::StrAppend(&out, "    ", first_id, " .. ", last_id);
    out += '\n';
    auto next = at.lower_bound({row + 1, min_col});
    if (next == at.end()) break;
    row = next->first.first;
  }
  if (!view.last_action_cells.empty()) {
    absl::StrAppend(&out, "last: ", absl::StrJoin(view.last_action_cells, " -> "), "\n");
  }
  if (!view.dart_aim.empty() || !view.dart_landing.empty()) {
    absl::StrAppend(&out, "dart: aimed ", view.dart_aim.empty() ? "-" : view.dart_aim);
    if (!view.dart_landing.empty()) absl::StrAppend(&out, ", landed ", view.dart_landing);
    out += '\n';
  }
  if (!view.frozen_seats.empty()) {
    std::vector<std::string> names;
    for (int s : view.frozen_seats) {
      names.push_back(s >= 0 && s < static_cast<int>(view.seats.size()) ? view.seats[s].name
                                                                        : absl::StrCat(s));
    }
    absl::StrAppend(&out, "frozen: ", absl::StrJoin(names, ", "), "\n");
  }
  return out;
}

}  // namespace arena::engine
