#include "tools/arenactl/verify.h"

#include <cstdio>

#include "absl/strings/str_cat.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "common/grpc_util.h"
#include "engine/core/game.h"
#include "nlohmann/json.hpp"
#include "services/chance/dart_path.h"
#include "services/chance/fair_rng.h"

namespace arena::arenactl {

using game_state::DrawBytes;
using game_state::FairDraw;

absl::StatusOr<VerifyReport> VerifyRecord(const v1::GameRecord& record) {
  const v1::GameView& view = record.final_view();
  if (view.revealed_seed().empty()) {
    return absl::FailedPreconditionError("the game has not ended: its seed is still secret");
  }
  const engine::Game* game = engine::FindGame(view.engine_game());
  if (game == nullptr)
    return absl::FailedPreconditionError(absl::StrCat("unknown game ", view.engine_game()));
  auto variant = engine::Variant::Parse(view.variant_text());
  if (!variant.ok()) return variant.status();

  VerifyReport report;
  std::string seed;
  if (!game_state::FromHex(view.revealed_seed(), &seed))
    return absl::DataLossError("revealed seed is not hex");
  if (FairDraw::Commitment(seed) != view.seed_commitment()) {
    report.problems.push_back("SHA-256 of the revealed seed differs from the published commitment");
  }
  std::vector<std::string> seat_seeds(record.seat_seeds().begin(), record.seat_seeds().end());
  FairDraw draw(seed, seat_seeds);
  int n = static_cast<int>(seat_seeds.size());
  int leader = -1;
  uint64_t next_counter = 0;
  std::unique_ptr<engine::State> state;
  std::string last_aim;

  auto check_bytes = [&](const nlohmann::json& p, const std::string& purpose, int64_t seq,
                         DrawBytes* out) -> bool {
    uint64_t counter = p.value("counter", uint64_t{0});
    if (counter != next_counter) {
      report.problems.push_back(
          absl::StrCat("event ", seq, ": draw counter ", counter, ", expected ", next_counter));
    }
    next_counter = counter + 1;
    *out = draw.Draw(purpose, counter);
    std::string hex = game_state::ToHex(
        std::string_view(reinterpret_cast<const char*>(out->data()), out->size()));
    report.draws_checked++;
    if (hex != p.value("bytes", std::string())) {
      report.problems.push_back(
          absl::StrCat("event ", seq, ": draw bytes differ from HMAC-SHA256 of the seed"));
      return false;
    }
    return true;
  };

  for (const v1::GameEvent& ev : record.events()) {
    nlohmann::json p =
        nlohmann::json::parse(ev.detail_json().empty() ? "{}" : ev.detail_json(), nullptr, false);
    if (p.is_discarded()) {
      report.problems.push_back(absl::StrCat("event ", ev.sequence(), ": detail is not JSON"));
      continue;
    }
    absl::Status s;
    if (ev.type() == "leader") {
      leader = p.value("leader", -1);
      if (!p.value("fixed", false)) {
        DrawBytes b;
        check_bytes(p, "leader", ev.sequence(), &b);
        int want = game_state::PickUniform(n, game_state::UniformFromBytes(b));
        if (want != leader)
          report.problems.push_back(absl::StrCat("leader ", leader, " but the draw gives ", want));
      }
      auto st = game->NewInitialState(*variant);
      if (!st.ok()) return st.status();
      state = *std::move(st);
    } else if (ev.type() == "settings" && p.value("restart_state", false)) {
      auto v = engine::Variant::Parse(p.value("variant", std::string()));
      if (v.ok()) {
        auto st = game->NewInitialState(*v);
        if (st.ok()) state = *std::move(st);
      }
    } else if (!state) {
      continue;
    } else if (ev.type() == "action") {
      int kind = p.value("kind", 0);
      int es = (ev.seat() - leader + n) % n;
      if (kind == v1::ACTION_KIND_RESIGN) {
        s = state->ApplySeatEvent(es, engine::SeatEvent::kResign);
      } else if (kind == v1::ACTION_KIND_OFFER_DRAW) {
        s = state->ApplySeatEvent(es, engine::SeatEvent::kOfferDraw);
      } else if (kind == v1::ACTION_KIND_ACCEPT_DRAW) {
        s = state->ApplySeatEvent(es, engine::SeatEvent::kAcceptDraw);
      } else if (kind == v1::ACTION_KIND_DECLINE_DRAW) {
        s = state->ApplySeatEvent(es, engine::SeatEvent::kDeclineDraw);
      } else if (kind == v1::ACTION_KIND_FORFEIT_TURN) {
        s = state->ApplySeatEvent(es, engine::SeatEvent::kTimeout);  // arena's early timeout
      } else {
        s = state->Apply(ev.action());
        if (ev.action().rfind("aim ", 0) == 0) last_aim = ev.action();
      }
      report.actions_replayed++;
    } else if (ev.type() == "timeout") {
      s = state->ApplySeatEvent((ev.seat() - leader + n) % n, engine::SeatEvent::kTimeout);
    } else if (ev.type() == "disconnect") {
      s = state->ApplySeatEvent((ev.seat() - leader + n) % n, engine::SeatEvent::kResign);
    } else if (ev.type() == "chance") {
      DrawBytes b;
      check_bytes(p, "chance", ev.sequence(), &b);
      std::vector<engine::ChanceOutcome> outcomes = state->ChanceOutcomes();
      // The path is decided by the node, never by what the log claims: landings go through
      // the dart scatter from the aim, everything else through the inverse CDF.
      std::string want;
      if (auto landing = game_state::DartLandingAction(outcomes, last_aim, b)) {
        want = *landing;
      } else {
        int index = game_state::PickByInverseCdf(outcomes, game_state::UniformFromBytes(b));
        if (index >= 0) want = outcomes[index].action;
      }
      if (want != ev.action()) {
        report.problems.push_back(absl::StrCat("event ", ev.sequence(), ": chance outcome '",
                                               ev.action(), "' but the draw gives '", want, "'"));
      }
      s = state->Apply(ev.action());
    }
    if (!s.ok()) {
      report.problems.push_back(
          absl::StrCat("event ", ev.sequence(), ": replay refused: ", s.message()));
    }
  }
  if (state && view.outcome().reason() != "move-cap" && view.status() == v1::GAME_STATUS_FINISHED) {
    engine::Outcome o = state->GetOutcome();
    if (!o.finished() || o.ResultText() != view.outcome().result_text()) {
      report.problems.push_back(absl::StrCat("replay ends '", o.ResultText(), "', record says '",
                                             view.outcome().result_text(), "'"));
    }
  }
  return report;
}

int RunVerify(const std::string& address, const std::string& game_id, absl::Duration timeout) {
  if (game_id.empty()) {
    std::fprintf(stderr, "usage: arenactl verify GAME_ID\n");
    return 2;
  }
  auto stub = v1::GameStateService::NewStub(common::MakeChannel(address));
  grpc::ClientContext ctx;
  common::SetDeadline(ctx, timeout);
  v1::GetRecordRequest req;
  req.set_game_id(game_id);
  v1::GameRecord record;
  grpc::Status gs = stub->GetRecord(&ctx, req, &record);
  if (!gs.ok()) {
    std::fprintf(stderr, "arenactl verify: GetRecord failed: %s\n", gs.error_message().c_str());
    return 2;
  }
  auto report = VerifyRecord(record);
  if (!report.ok()) {
    std::fprintf(stderr, "arenactl verify: %s\n", std::string(report.status().message()).c_str());
    return 2;
  }
  for (const std::string& p : report->problems) std::printf("MISMATCH %s\n", p.c_str());
  std::printf("%s: %d draws checked, %d actions replayed, seed %s\n",
              report->ok() ? "VERIFIED" : "FAILED", report->draws_checked, report->actions_replayed,
              record.final_view().revealed_seed().c_str());
  return report->ok() ? 0 : 1;
}

}  // namespace arena::arenactl
