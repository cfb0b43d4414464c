// bot_latency: how long arena-bot takes from a request's arrival to its answer when the
// request carries a time cap, at a given concurrency. Each client thread sends chess requests
// (level 8, unlimited nodes, --cap_ms time cap) back to back; the driver prints the
// distribution of (answer time - cap) as seen by the client, and of the server's queue wait.
//
// Calls are made as the arena service (the only caller arena-bot answers), with its secret
// from --secrets_dir.
//
//   bot_latency --target=127.0.0.1:PORT --secrets_dir=DIR --concurrency=2 --requests=20
//               --cap_ms=100
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "arena/v1/bot.grpc.pb.h"
#include "engine/core/game.h"
#include "grpcpp/grpcpp.h"
#include "services/common/service_auth.h"

int main(int argc, char** argv) {
  std::map<std::string, std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    const size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos)
      args[a.substr(2, eq - 2)] = a.substr(eq + 1);
  }
  const std::string target = args.count("target") ? args["target"] : "127.0.0.1:50051";
  const int concurrency = args.count("concurrency") ? std::atoi(args["concurrency"].c_str()) : 2;
  const int requests = args.count("requests") ? std::atoi(args["requests"].c_str()) : 20;
  const int cap = args.count("cap_ms") ? std::atoi(args["cap_ms"].c_str()) : 100;

  auto identity = arena::common::ServiceIdentity::Load(
      args.count("secrets_dir") ? args["secrets_dir"] : ".arena/secrets", "arena");
  if (!identity.ok()) {
    std::fprintf(stderr, "bot_latency: %s\n", std::string(identity.status().message()).c_str());
    return 2;
  }
  auto channel = grpc::CreateChannel(target, grpc::InsecureChannelCredentials());
  std::mutex mu;
  std::vector<double> over, queued;
  int failures = 0;
  std::vector<std::thread> threads;
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
  };
  for (int t = 0; t < concurrency; ++t) {
    threads.emplace_back([&, t] {
      auto stub = arena::v1::BotService::NewStub(channel);
      for (int i = 0; i < requests; ++i) {
        arena::v1::ChooseMoveRequest req;
        req.set_engine_game(std::string(arena::engine::AllGames().front()->Id()));
        req.set_position(fens[(t + i) % 3]);
        req.set_seat(0);
        req.set_level(8);
        req.set_node_budget(int64_t{1} << 40);
        req.set_time_cap_ms(cap);
        req.set_seed(uint64_t(i));
        grpc::ClientContext ctx;
        ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
        identity->Attach(ctx);
        arena::v1::ChooseMoveResponse resp;
        const auto t0 = std::chrono::steady_clock::now();
        const grpc::Status st = stub->ChooseMove(&ctx, req, &resp);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        std::lock_guard<std::mutex> lock(mu);
        if (!st.ok()) {
          ++failures;
          continue;
        }
        over.push_back(ms - cap);
        queued.push_back(double(resp.queued_ms()));
      }
    });
  }
  for (auto& th : threads) th.join();
  auto pct = [](std::vector<double> v, double p) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5))];
  };
  std::printf("concurrency %d, %zu answers (%d failed), cap %d ms\n", concurrency, over.size(),
              failures, cap);
  std::printf("  answer - cap (ms): p50 %.1f  p90 %.1f  p99 %.1f  max %.1f\n", pct(over, 0.5),
              pct(over, 0.9), pct(over, 0.99), pct(over, 1.0));
  std::printf("  server queue wait (ms): p50 %.0f  p99 %.0f  max %.0f\n", pct(queued, 0.5),
              pct(queued, 0.99), pct(queued, 1.0));
  return 0;
}
