// ledger_load: drives the real `arena` server over gRPC with concurrent credit transfers
// (SendCredits between players, each with its own idempotency key) and prints transfers per
// second and latency percentiles.
//
//   ledger_load --arena_addr=127.0.0.1:7100 --admin_name=root --admin_password_file=F
//               [--clients=32] [--seconds=20] [--users=64]
//
// It signs up --users fresh players, has the admin grant each of them credits, then runs
// --clients threads for --seconds, each sending small amounts from a player of its own to a
// random other player. Refusals (none are expected) are counted separately.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "arena/v1/arena.grpc.pb.h"
#include "common/config.h"
#include "common/grpc_util.h"

ABSL_FLAG(std::string, arena_addr, "127.0.0.1:7100", "arena address.");
ABSL_FLAG(std::string, admin_name, "root", "An admin account (to grant the players credits).");
ABSL_FLAG(std::string, admin_password_file, "", "File with the admin's password.");
ABSL_FLAG(int, clients, 32, "Concurrent clients.");
ABSL_FLAG(int, users, 64, "Players taking part.");
ABSL_FLAG(int, seconds, 20, "How long to run.");

namespace {

using Stub = arena::v1::ArenaService::Stub;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

[[noreturn]] void Die(const std::string& what, const grpc::Status& s) {
  std::fprintf(stderr, "ledger_load: %s: %s\n", what.c_str(), s.error_message().c_str());
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  arena::common::InitConfig(argc, argv, "ledger_load: credit ledger throughput over gRPC");
  const int clients = absl::GetFlag(FLAGS_clients);
  const int users = std::max(2, absl::GetFlag(FLAGS_users));
  auto channel = arena::common::MakeChannel(absl::GetFlag(FLAGS_arena_addr));
  auto stub = arena::v1::ArenaService::NewStub(channel);
  auto deadline = [](grpc::ClientContext& ctx) {
    arena::common::SetDeadline(ctx, absl::Seconds(30));
  };

  arena::v1::SessionToken admin;
  {
    arena::v1::SignInRequest req;
    req.set_name(absl::GetFlag(FLAGS_admin_name));
    req.set_password(ReadFile(absl::GetFlag(FLAGS_admin_password_file)));
    grpc::ClientContext ctx;
    deadline(ctx);
    grpc::Status s = stub->SignIn(&ctx, req, &admin);
    if (!s.ok()) Die("admin sign-in", s);
  }
  const std::string run = absl::StrCat(absl::ToUnixMillis(absl::Now()) % 100000000);
  std::vector<arena::v1::SessionToken> players(users);
  for (int u = 0; u < users; ++u) {
    arena::v1::SignUpRequest req;
    req.set_name(absl::StrCat("load", run, "-", u));
    req.set_password("load-password");
    grpc::ClientContext ctx;
    deadline(ctx);
    grpc::Status s = stub->SignUp(&ctx, req, &players[u]);
    if (!s.ok()) Die("sign-up", s);
    arena::v1::AdminGrantRequest grant;
    grant.set_account_id(players[u].account_id());
    grant.set_amount_microcredits(1'000'000'000'000);
    grant.set_reason("ledger_load");
    arena::v1::TransferResponse tr;
    grpc::ClientContext gctx;
    deadline(gctx);
    gctx.AddMetadata("authorization", "Bearer " + admin.token());
    s = stub->AdminGrant(&gctx, grant, &tr);
    if (!s.ok()) Die("grant", s);
  }

  std::atomic<bool> stop{false};
  std::atomic<int64_t> refused{0}, failed{0};
  std::vector<std::vector<double>> latencies(clients);
  std::vector<std::thread> threads;
  const auto start = std::chrono::steady_clock::now();
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      std::mt19937 rng(c + 1);
      auto my_stub = arena::v1::ArenaService::NewStub(channel);
      const int me = c % users;
      int64_t seq = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        int to = (me + 1 + rng() % (users - 1)) % users;
        arena::v1::SendCreditsRequest req;
        req.set_to_name(absl::StrCat("load", run, "-", to));
        req.set_amount_microcredits(1 + rng() % 1000);
        req.set_idempotency_key(absl::StrCat("load-", c, "-", seq++));
        arena::v1::TransferResponse resp;
        grpc::ClientContext ctx;
        deadline(ctx);
        ctx.AddMetadata("authorization", "Bearer " + players[me].token());
        auto t0 = std::chrono::steady_clock::now();
        grpc::Status s = my_stub->SendCredits(&ctx, req, &resp);
        auto t1 = std::chrono::steady_clock::now();
        if (s.ok()) {
          latencies[c].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        } else if (s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) {
          ++refused;
        } else {
          ++failed;
        }
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::seconds(absl::GetFlag(FLAGS_seconds)));
  stop = true;
  for (auto& t : threads) t.join();
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::vector<double> all;
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end());
  auto pct = [&](double p) {
    if (all.empty()) return 0.0;
    return all[std::min(all.size() - 1, static_cast<size_t>(p * all.size()))];
  };
  std::printf("%-8s %-10s %-12s %-14s %-10s %-10s %-10s %-8s %s\n", "CLIENTS", "SECONDS",
              "TRANSFERS", "TRANSFERS/S", "P50 MS", "P99 MS", "MAX MS", "REFUSED", "FAILED");
  std::printf("%-8d %-10.1f %-12zu %-14.0f %-10.2f %-10.2f %-10.2f %-8lld %lld\n", clients, elapsed,
              all.size(), all.size() / elapsed, pct(0.50), pct(0.99),
              all.empty() ? 0.0 : all.back(), static_cast<long long>(refused.load()),
              static_cast<long long>(failed.load()));
  return failed.load() == 0 ? 0 : 1;
}
