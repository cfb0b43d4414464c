// Starting a game (the leader draw) and resolving chance nodes from the fair source.
#include "services/game_state/live_game.h"

namespace arena::game_state {

// --- Starting, applying, resolving chance -----------------------------------------------------

void GameStateCore::StartGame(Game& g, std::vector<StoredEvent>& events,
                              std::optional<int> fixed_leader) {
  std::vector<std::string> seeds;
  for (const SeatState& s : g.seats) seeds.push_back(s.seed);
  g.draw = FairDraw(g.draw.seed(), seeds);
  StoredEvent e = NewEvent(g, "leader", -1);
  if (fixed_leader) {
    g.leader = *fixed_leader;
    e.payload = {{"leader", g.leader}, {"fixed", true}};
  } else {
    uint64_t counter = g.draw_counter++;
    DrawBytes b = g.draw.Draw("leader", counter);
    double u = UniformFromBytes(b);
    g.leader = PickUniform(g.n(), u);
    e.payload = {
        {"leader", g.leader},
        {"fixed", false},
        {"purpose", "leader"},
        {"counter", counter},
        {"bytes", ToHex(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()))},
        {"u", u}};
  }
  e.seat = g.leader;
  // The draw decides only where the clockwise circuit starts. A game that takes the leader as
  // its `first` key is told so, and every seat keeps its colour and edge (the creator's first
  // seat stays blue); other games make the leader their first seat.
  if (TakesFirstKey(*g.engine_game)) {
    g.variant.Set("first", std::to_string(g.leader));
    g.rotation = 0;
    e.payload["first"] = g.leader;
  } else {
    g.rotation = g.leader;
  }
  auto state = g.engine_game->NewInitialState(g.variant);
  g.state = *std::move(state);  // validated at creation
  g.status = v1::GAME_STATUS_ACTIVE;
  for (auto& seat : g.seats) {
    seat.remaining_ms = g.FischerClock() ? g.settings.clock().initial_ms() : 0;
  }
  nlohmann::json order = nlohmann::json::array();
  for (int i = 0; i < g.n(); ++i) order.push_back(g.TableSeat(i));
  e.payload["engine_order"] = order;
  e.payload["seed_commitment"] = g.commitment;
  e.payload["clocks"] = ClockReadings(g);
  events.push_back(std::move(e));
  (void)ApplyAndResolve(g, events);
}

absl::Status GameStateCore::ApplyAndResolve(Game& g, std::vector<StoredEvent>& events) {
  int guard = 0;
  while (g.state && !g.state->IsTerminal() && g.state->ToMove() == kChanceSeat && guard++ < 64) {
    std::vector<engine::ChanceOutcome> outcomes = g.state->ChanceOutcomes();
    if (outcomes.empty()) return absl::InternalError("chance node without outcomes");
    uint64_t counter = g.draw_counter++;
    DrawBytes b = g.draw.Draw("chance", counter);
    double u = UniformFromBytes(b);
    int index = PickByInverseCdf(outcomes, u);
    std::string path = "inverse-cdf";
    if (auto landing = DartLandingAction(outcomes, g.last_aim, b)) {
      path = "hex-dart";
      for (size_t i = 0; i < outcomes.size(); ++i) {
        if (outcomes[i].action == *landing) index = static_cast<int>(i);
      }
    }
    const engine::ActionFacts facts = FactsOf(*g.state, outcomes[index].action);
    absl::Status s = g.state->Apply(outcomes[index].action);
    if (!s.ok()) return s;
    g.Note(facts);
    StoredEvent e = NewEvent(g, "chance", -1);
    e.action = outcomes[index].action;
    e.payload = {
        {"purpose", "chance"},
        {"counter", counter},
        {"bytes", ToHex(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()))},
        {"u", u},
        {"index", index},
        {"probability", outcomes[index].probability},
        {"path", path}};
    events.push_back(std::move(e));
  }
  return absl::OkStatus();
}

}  // namespace arena::game_state
