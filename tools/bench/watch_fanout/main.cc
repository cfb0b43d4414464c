// watch_fanout: 2,000 watchers (callback-API client streams over a few channels) follow one
// chess game on a running arena-game-state while a player submits random legal moves; each
// delivery's latency is its arrival time minus the event's server timestamp (same machine).
//
//   watch_fanout --address=127.0.0.1:7101 --watchers=2000 --moves=60 --interval_ms=100
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "clients/game_state_client.h"
#include "common/grpc_util.h"
#include "engine/core/game.h"
#include "google/protobuf/util/time_util.h"
#include "services/common/service_auth.h"

ABSL_FLAG(std::string, secrets_dir, ".arena/secrets",
          "where arena.secret is: seats are joined as arena joins them for people");
ABSL_FLAG(std::string, address, "127.0.0.1:7101", "arena-game-state address");
ABSL_FLAG(std::string, game, "", "engine id of the game played (empty: the engine's first game)");
ABSL_FLAG(int, watchers, 2000, "concurrent WatchGame streams");
ABSL_FLAG(int, channels, 16, "client channels the streams are spread over");
ABSL_FLAG(int, moves, 60, "moves played while watched");
ABSL_FLAG(int, interval_ms, 100, "pause between moves");

// The game the benchmark plays: --game, or the first game the engine lists.
static std::string BenchGameId() {
  const std::string flag = absl::GetFlag(FLAGS_game);
  return flag.empty() ? std::string(arena::engine::AllGames().front()->Id()) : flag;
}

// The arena service's credential: game-state joins seats for arena only.
static const arena::common::ServiceIdentity& ArenaIdentity() {
  static const arena::common::ServiceIdentity* id = [] {
    auto loaded = arena::common::ServiceIdentity::Load(absl::GetFlag(FLAGS_secrets_dir), "arena");
    if (!loaded.ok()) {
      std::fprintf(stderr, "%s\n", std::string(loaded.status().message()).c_str());
      std::exit(2);
    }
    return new arena::common::ServiceIdentity(*std::move(loaded));
  }();
  return *id;
}

namespace {

using namespace arena;

struct Latencies {
  std::mutex mu;
  std::vector<double> ms;
  std::atomic<int64_t> delivered{0};
};

class Watcher : public grpc::ClientReadReactor<v1::GameEvent> {
 public:
  Watcher(v1::GameStateService::Stub* stub, const std::string& game, Latencies* out) : out_(out) {
    ctx_.set_deadline(std::chrono::system_clock::now() + std::chrono::minutes(10));
    req_.set_game_id(game);
    stub->async()->WatchGame(&ctx_, &req_, this);
    StartRead(&ev_);
    StartCall();
  }
  void OnReadDone(bool ok) override {
    if (!ok) return;
    if (ev_.type() == "snapshot") started_ = true;
    if (ev_.type() == "action") {
      int64_t at_us = google::protobuf::util::TimeUtil::TimestampToMicroseconds(ev_.at());
      double ms = (absl::ToUnixMicros(absl::Now()) - at_us) / 1000.0;
      local_.push_back(ms);
      out_->delivered++;
    }
    StartRead(&ev_);
  }
  void OnDone(const grpc::Status&) override {
    std::lock_guard<std::mutex> lock(out_->mu);
    out_->ms.insert(out_->ms.end(), local_.begin(), local_.end());
    std::lock_guard<std::mutex> l(done_mu_);
    done_ = true;
    done_cv_.notify_all();
  }
  bool started() const { return started_; }
  void Cancel() { ctx_.TryCancel(); }
  void Await() {
    std::unique_lock<std::mutex> l(done_mu_);
    done_cv_.wait(l, [&] { return done_; });
  }

 private:
  grpc::ClientContext ctx_;
  v1::WatchGameRequest req_;
  v1::GameEvent ev_;
  Latencies* out_;
  std::vector<double> local_;
  std::atomic<bool> started_{false};
  std::mutex done_mu_;
  std::condition_variable done_cv_;
  bool done_ = false;
};

double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  size_t k = std::min(v.size() - 1, static_cast<size_t>(p * v.size()));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  // The driver shares the cores with the server: spare them abseil's lock-cycle check on
  // every gRPC mutex (see services/game_state/main.cc).
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  const engine::Game* chess = engine::FindGame(BenchGameId());
  if (chess == nullptr) {
    std::fprintf(stderr, "this build has no chess engine\n");
    return 2;
  }
  std::vector<std::unique_ptr<v1::GameStateService::Stub>> stubs;
  for (int i = 0; i < std::max(1, absl::GetFlag(FLAGS_channels)); ++i) {
    grpc::ChannelArguments args;
    args.SetInt("grpc.channel_id", i);
    stubs.push_back(v1::GameStateService::NewStub(grpc::CreateCustomChannel(
        absl::GetFlag(FLAGS_address), grpc::InsecureChannelCredentials(), args)));
  }
  auto& stub = *stubs[0];
  v1::CreateTableRequest creq;
  creq.mutable_settings()->set_engine_game(BenchGameId());
  creq.mutable_settings()->set_is_public(true);
  creq.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
  creq.add_seats()->set_kind(v1::SEAT_KIND_GUEST);
  v1::CreateTableResponse cresp;
  grpc::ClientContext cctx;
  common::SetDeadline(cctx, absl::Seconds(10));
  if (!stub.CreateTable(&cctx, creq, &cresp).ok()) return 2;
  std::string creds[2];
  for (int i = 0; i < 2; ++i) {
    v1::JoinTableRequest j;
    j.set_game_id(cresp.game_id());
    j.set_seat(i);
    v1::JoinTableResponse jr;
    grpc::ClientContext jctx;
    common::SetDeadline(jctx, absl::Seconds(10));
    ArenaIdentity().Attach(jctx);  // only arena joins seats
    if (!stub.JoinTable(&jctx, j, &jr).ok()) return 2;
    creds[i] = jr.seat_credential();
  }
  Latencies lat;
  int n = absl::GetFlag(FLAGS_watchers);
  std::vector<std::unique_ptr<Watcher>> watchers;
  for (int i = 0; i < n; ++i) {
    watchers.push_back(
        std::make_unique<Watcher>(stubs[i % stubs.size()].get(), cresp.game_id(), &lat));
  }
  absl::Time limit = absl::Now() + absl::Seconds(60);
  while (absl::Now() < limit &&
         !std::all_of(watchers.begin(), watchers.end(), [](auto& w) { return w->started(); })) {
    absl::SleepFor(absl::Milliseconds(50));
  }
  int started =
      std::count_if(watchers.begin(), watchers.end(), [](auto& w) { return w->started(); });

  v1::GetGameRequest g;
  g.set_game_id(cresp.game_id());
  v1::GameView view;
  grpc::ClientContext gctx;
  common::SetDeadline(gctx, absl::Seconds(10));
  if (!stub.GetGame(&gctx, g, &view).ok()) return 2;
  auto state = *chess->NewInitialState(engine::Variant());
  std::mt19937 rng(5);
  int moves = 0;
  for (; moves < absl::GetFlag(FLAGS_moves) && !state->IsTerminal(); ++moves) {
    auto legal = state->LegalActions();
    std::string m = legal[rng() % legal.size()];
    int seat = (view.leader() + state->ToMove()) % 2;
    v1::SubmitActionResponse resp;
    if (!clients::GameStateClient::SubmitOn(
             stub, clients::SeatAction(cresp.game_id(), seat, m, moves),
             clients::Credentials{.seat = creds[seat]}, absl::Seconds(10), &resp)
             .ok()) {
      break;
    }
    (void)state->Apply(m);
    absl::SleepFor(absl::Milliseconds(absl::GetFlag(FLAGS_interval_ms)));
  }
  absl::SleepFor(absl::Seconds(2));
  for (auto& w : watchers) w->Cancel();
  for (auto& w : watchers) w->Await();
  std::vector<double> ms = lat.ms;
  int64_t expected = static_cast<int64_t>(moves) * started;
  std::printf("watch_fanout: %d watchers (%d streaming), %d moves, %lld of %lld deliveries\n", n,
              started, moves, static_cast<long long>(lat.delivered.load()),
              static_cast<long long>(expected));
  std::printf("delivery latency p50 %.2f ms  p99 %.2f ms  max %.2f ms\n", Percentile(ms, 0.5),
              Percentile(ms, 0.99), ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()));
  return lat.delivered == expected ? 0 : 1;
}
