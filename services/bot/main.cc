// arena-bot: search players at levels. Stateless and CPU bound; scale by replicas.
//
// Only the arena service may ask (its service credential, see services/common/service_auth.h):
// a search costs up to seconds of a core, so an open port would be a way to burn them.
//
// BotService.ChooseMove is a thin callback-API adapter over BotPool (bot_pool.h): the handler
// only converts the request and submits it; a worker thread searches and finishes the reactor,
// so no gRPC thread ever blocks on a search. BotService.EvaluateMove (a judgement of a move already
// played, bots/core/evaluate.h) runs on the same workers.
#include <algorithm>
#include <cstdio>
#include <thread>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "arena/v1/bot.grpc.pb.h"
#include "bots/core/evaluate.h"
#include "common/config.h"
#include "common/flags.h"
#include "common/grpc_util.h"
#include "engine/core/game.h"
#include "services/bot/bot_pool.h"
#include "services/common/metrics.h"
#include "services/common/server.h"
#include "services/common/service_auth.h"
#include "services/common/startup.h"

ABSL_FLAG(int, bot_workers, 0, "Search threads; 0 = one per core.");

namespace arena::bot_service {
namespace {

std::string VariantText(const v1::VariantOptions& variant) {
  std::vector<std::string> kv;
  for (const auto& [k, v] : variant.options()) kv.push_back(k + "=" + v);
  std::sort(kv.begin(), kv.end());
  return absl::StrJoin(kv, ",");
}

// When a search must stop: at the time cap, and before the caller's deadline with room for the
// answer to travel back (a tenth of the time left, between 20 and 250 ms).
absl::Time StopAt(const grpc::CallbackServerContext& context, absl::Time arrived,
                  int64_t time_cap_ms) {
  absl::Time stop_at = absl::InfiniteFuture();
  if (time_cap_ms > 0) stop_at = arrived + absl::Milliseconds(time_cap_ms);
  const absl::Time deadline = absl::FromChrono(context.deadline());
  if (deadline < absl::InfiniteFuture()) {
    const absl::Duration margin =
        std::clamp((deadline - arrived) / 10, absl::Milliseconds(20), absl::Milliseconds(250));
    stop_at = std::min(stop_at, deadline - margin);
  }
  return stop_at;
}

// Searches as /metrics shows them (docs/operations.md): by game (one this build serves: the
// handlers refuse any other first) and kind ("choose" a move, "evaluate" a played one).
void RecordSearch(const std::string& game, const char* kind, int64_t nodes, absl::Duration queued,
                  bool stopped) {
  static common::Family<common::Counter>& searches = common::MetricsRegistry::Global().Counters(
      "arena_bot_searches_total", "Searches arena-bot ran, by game and kind (choose, evaluate).",
      {"game", "kind"});
  static common::Family<common::Counter>& node_count = common::MetricsRegistry::Global().Counters(
      "arena_bot_search_nodes_total", "Nodes searched, by game.", {"game"});
  static common::Family<common::Counter>& cut = common::MetricsRegistry::Global().Counters(
      "arena_bot_searches_stopped_total",
      "Searches stopped by their time cap or the caller's deadline before their node budget.",
      {"game"});
  static common::Histogram& waited =
      common::MetricsRegistry::Global()
          .Histograms("arena_bot_queue_seconds", "Seconds a search waited for a worker.", {})
          .Get();
  searches.With({game, kind}).Add();
  node_count.With({game}).Add(static_cast<double>(nodes));
  if (stopped) cut.With({game}).Add();
  waited.Observe(absl::ToDoubleSeconds(queued));
}

class BotServiceImpl final : public v1::BotService::CallbackService {
 public:
  BotServiceImpl(BotPool& pool, common::ServiceAuthenticator auth)
      : pool_(pool), auth_(std::move(auth)) {}

  grpc::ServerUnaryReactor* ChooseMove(grpc::CallbackServerContext* context,
                                       const v1::ChooseMoveRequest* request,
                                       v1::ChooseMoveResponse* response) override {
    const absl::Time arrived = absl::Now();
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    if (absl::Status s = Admit(*context, request->engine_game()); !s.ok()) {
      reactor->Finish(common::ToGrpc(s));
      return reactor;
    }
    const std::string& game = request->engine_game();
    if (request->node_budget() < 0 || request->time_cap_ms() < 0) {
      reactor->Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                   "node_budget and time_cap_ms must not be negative"));
      return reactor;
    }
    bots::BotRequest req;
    req.game = game;
    req.variant = VariantText(request->variant());
    req.position = request->position();
    req.seat = request->seat();
    req.level = request->level();
    req.node_budget = request->node_budget();
    req.seed = request->seed();
    req.algorithm = request->algorithm();
    req.stockfish_elo = request->stockfish_elo();
    req.time_cap_ms = request->time_cap_ms();
    const absl::Time stop_at = StopAt(*context, arrived, request->time_cap_ms());
    pool_.Submit(std::move(req), arrived, stop_at, [reactor, response, game](BotJobResult r) {
      RecordSearch(game, "choose", r.answer.ok() ? r.answer->result.nodes : 0, r.queued,
                   r.answer.ok() && r.answer->result.stopped);
      if (!r.answer.ok()) {
        reactor->Finish(common::ToGrpc(r.answer.status()));
        return;
      }
      const bots::SearchResult& s = r.answer->result;
      response->mutable_move()->set_text(s.move);
      response->set_depth(s.depth);
      response->set_nodes(s.nodes);
      response->set_score_cp(s.score);
      for (const std::string& m : s.pv) response->add_principal_variation(m);
      response->set_elapsed_ms(absl::ToInt64Milliseconds(r.elapsed));
      response->set_queued_ms(absl::ToInt64Milliseconds(r.queued));
      response->set_algorithm(r.answer->algorithm);
      response->set_stopped(s.stopped);
      reactor->Finish(grpc::Status::OK);
    });
    return reactor;
  }

  grpc::ServerUnaryReactor* EvaluateMove(grpc::CallbackServerContext* context,
                                         const v1::EvaluateMoveRequest* request,
                                         v1::EvaluateMoveResponse* response) override {
    const absl::Time arrived = absl::Now();
    grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
    if (absl::Status s = Admit(*context, request->engine_game()); !s.ok()) {
      reactor->Finish(common::ToGrpc(s));
      return reactor;
    }
    if (request->node_budget() < 0 || request->move().empty()) {
      reactor->Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                   "a move is required and node_budget must not be negative"));
      return reactor;
    }
    bots::BotRequest req;
    req.game = request->engine_game();
    req.variant = VariantText(request->variant());
    req.position = request->position();
    req.seat = request->seat();
    req.level = request->level();
    req.node_budget = request->node_budget();
    req.seed = request->seed();
    pool_.SubmitWork(arrived, StopAt(*context, arrived, 0),
                     [reactor, response, req = std::move(req), move = request->move(), arrived](
                         const std::atomic<bool>* stop, absl::Duration queued) mutable {
                       req.stop = stop;
                       absl::StatusOr<bots::MoveEvaluation> e = bots::EvaluateMove(req, move);
                       RecordSearch(req.game, "evaluate", e.ok() ? e->nodes : 0, queued,
                                    e.ok() && e->stopped);
                       if (!e.ok()) {
                         reactor->Finish(common::ToGrpc(e.status()));
                         return;
                       }
                       response->set_best_move(e->best_move);
                       response->set_matched(e->matched);
                       response->set_has_loss(e->has_loss);
                       response->set_best_cp(e->best_cp);
                       response->set_played_cp(e->played_cp);
                       response->set_loss_cp(e->loss_cp);
                       response->set_share_lost(e->share_lost);
                       response->set_mark(e->mark);
                       response->set_algorithm(e->algorithm);
                       response->set_depth(e->depth);
                       response->set_nodes(e->nodes);
                       response->set_elapsed_ms(absl::ToInt64Milliseconds(absl::Now() - arrived));
                       reactor->Finish(grpc::Status::OK);
                     });
    return reactor;
  }

 private:
  // Every search's first checks: only the arena service may ask, and about a game this build
  // serves.
  absl::Status Admit(const grpc::CallbackServerContext& context, const std::string& game) const {
    if (absl::Status s = auth_.Require(context, {"arena"}); !s.ok()) return s;
    if (engine::FindGame(game) == nullptr) {
      return absl::InvalidArgumentError("engine_game names no game this build serves");
    }
    return absl::OkStatus();
  }

  BotPool& pool_;
  const common::ServiceAuthenticator auth_;
};

}  // namespace
}  // namespace arena::bot_service

int main(int argc, char** argv) {
  using namespace arena::common;
  BlockShutdownSignals();
  InitConfig(argc, argv, "arena-bot: search players for every game");
  ServerOptions options = ServerOptionsFromFlags("arena-bot");

  int workers = absl::GetFlag(FLAGS_bot_workers);
  if (workers <= 0) workers = int(std::max(1u, std::thread::hardware_concurrency()));
  // Every known service's secret, so another service's valid credential is told apart
  // (PERMISSION_DENIED) from a wrong one (UNAUTHENTICATED); only "arena" is let through.
  std::vector<std::string> known(std::begin(kKnownServices), std::end(kKnownServices));
  auto auth = ServiceAuthenticator::Load(absl::GetFlag(FLAGS_secrets_dir), known);
  if (!auth.ok()) {
    std::fprintf(stderr, "startup error: %s\n", std::string(auth.status().message()).c_str());
    return 2;
  }
  arena::bot_service::BotPool pool(workers);
  arena::bot_service::BotServiceImpl service(pool, *std::move(auth));
  options.services = {&service};
  for (const arena::engine::Game* g : arena::engine::AllGames()) {
    options.games.emplace_back(g->Id());
  }
  CheckOrDie(RunServer(options));
  return 0;
}
