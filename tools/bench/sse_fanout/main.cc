// sse_fanout: 5,000 browsers' worth of Server-Sent Events streams (plain sockets on one Asio
// thread) follow one chess game through a running arena-web while a player submits random
// legal moves straight to arena-game-state. Each delivery's latency is its arrival time minus
// the event's commit timestamp (`at`, same machine). arena-web's resident memory is read from
// /proc before the watchers, once they all stream, halfway and at the end: flat memory means
// the last two agree.
//
//   sse_fanout --web=127.0.0.1:7105 --game_state=127.0.0.1:7101 --arena=127.0.0.1:7100
//   --web_pid=PID
//              --watchers=5000 --moves=60 --interval_ms=200   (one command line)
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "arena/v1/arena.grpc.pb.h"
#include "arena/v1/game_state.grpc.pb.h"
#include "boost/asio/connect.hpp"
#include "boost/asio/io_context.hpp"
#include "boost/asio/ip/tcp.hpp"
#include "boost/asio/write.hpp"
#include "clients/game_state_client.h"
#include "common/grpc_util.h"
#include "engine/core/game.h"

ABSL_FLAG(std::string, web, "127.0.0.1:7105", "arena-web address (host:port)");
ABSL_FLAG(std::string, game_state, "127.0.0.1:7101", "arena-game-state address");
ABSL_FLAG(std::string, arena, "127.0.0.1:7100", "arena address (guests, the table, seats)");
ABSL_FLAG(int, web_pid, 0, "arena-web's process id, for its resident memory (0: not read)");
ABSL_FLAG(int, watchers, 5000, "concurrent event streams");
ABSL_FLAG(int, moves, 60, "moves played while watched");
ABSL_FLAG(int, interval_ms, 200, "pause between moves");
ABSL_FLAG(int, connect_per_ms, 5, "streams opened per millisecond (a gentle ramp)");

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace arena;

long RssKb(int pid) {
  if (pid <= 0) return -1;
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

struct Totals {
  std::atomic<int> streaming{0};  // got their snapshot
  std::atomic<int> failed{0};
  std::atomic<int64_t> delivered{0};
  std::vector<double> ms;  // only the I/O thread appends
};

// One browser's stream: connect, ask, then read frames until told to stop.
class Watcher : public std::enable_shared_from_this<Watcher> {
 public:
  Watcher(asio::io_context& io, tcp::endpoint ep, std::string request, Totals* t)
      : socket_(io), ep_(ep), request_(std::move(request)), t_(t) {}
  void Start() {
    socket_.async_connect(ep_, [self = shared_from_this()](boost::system::error_code ec) {
      if (ec) return self->Fail();
      asio::async_write(self->socket_, asio::buffer(self->request_),
                        [self](boost::system::error_code ec2, size_t) {
                          if (ec2) return self->Fail();
                          self->Read();
                        });
    });
  }
  void Stop() {
    boost::system::error_code ec;
    socket_.close(ec);
  }

 private:
  void Fail() {
    if (!failed_) t_->failed++;
    failed_ = true;
  }
  void Read() {
    socket_.async_read_some(asio::buffer(buf_),
                            [self = shared_from_this()](boost::system::error_code ec, size_t n) {
                              if (ec) return;  // closed by Stop() or by the server
                              self->pending_.append(self->buf_, n);
                              self->Frames();
                              self->Read();
                            });
  }
  void Frames() {
    size_t end;
    while ((end = pending_.find("\n\n")) != std::string::npos) {
      std::string_view frame(pending_.data(), end);
      if (!streaming_ && frame.find("event: snapshot") != std::string_view::npos) {
        streaming_ = true;
        t_->streaming++;
      }
      if (frame.rfind("event: event", 0) == 0 &&
          frame.find("\"type\":\"action\"") != std::string_view::npos) {
        size_t at = frame.find("\"at\":\"");
        absl::Time when;
        std::string err;
        if (at != std::string_view::npos) {
          size_t q = frame.find('"', at + 6);
          if (absl::ParseTime(absl::RFC3339_full, std::string(frame.substr(at + 6, q - at - 6)),
                              &when, &err)) {
            t_->ms.push_back(absl::ToDoubleMilliseconds(absl::Now() - when));
            t_->delivered++;
          }
        }
      }
      pending_.erase(0, end + 2);
    }
  }

  tcp::socket socket_;
  tcp::endpoint ep_;
  std::string request_;
  Totals* t_;
  char buf_[4096];
  std::string pending_;
  bool streaming_ = false, failed_ = false;
};

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  size_t k = std::min(v.size() - 1, static_cast<size_t>(p * v.size()));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  rlimit nofile;
  if (getrlimit(RLIMIT_NOFILE, &nofile) == 0) {
    nofile.rlim_cur = nofile.rlim_max;
    setrlimit(RLIMIT_NOFILE, &nofile);
  }
  const int n = absl::GetFlag(FLAGS_watchers);
  const int pid = absl::GetFlag(FLAGS_web_pid);
  std::vector<std::string> hp = absl::StrSplit(absl::GetFlag(FLAGS_web), ':');
  int port = 0;
  if (hp.size() != 2 || !absl::SimpleAtoi(hp[1], &port)) {
    std::fprintf(stderr, "--web must be host:port\n");
    return 2;
  }
  const engine::Game* chess = engine::FindGame("chess");
  if (!chess) {
    std::fprintf(stderr, "this build has no chess engine\n");
    return 2;
  }

  // The game: two guests at a public chess table, made and joined through arena (people sit
  // down there); the moves go to game-state with the seats' credentials.
  auto stub = v1::GameStateService::NewStub(common::MakeChannel(absl::GetFlag(FLAGS_game_state)));
  auto front = v1::ArenaService::NewStub(common::MakeChannel(absl::GetFlag(FLAGS_arena)));
  auto call = [&](auto method, const std::string& token, const auto& req, auto* resp,
                  const char* what) {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
    grpc::Status s = ((*front).*method)(&ctx, req, resp);
    if (!s.ok()) std::fprintf(stderr, "%s: %s\n", what, s.error_message().c_str());
    return s.ok();
  };
  std::string guests[2];
  for (int i = 0; i < 2; ++i) {
    v1::GuestTokenRequest g;
    g.set_display_name(i == 0 ? "fanout white" : "fanout black");
    v1::SessionToken t;
    if (!call(&v1::ArenaService::Stub::GuestToken, std::string(), g, &t, "GuestToken")) return 2;
    guests[i] = t.token();
  }
  v1::ArenaCreateTableRequest creq;
  creq.mutable_settings()->set_engine_game("chess");
  creq.mutable_settings()->set_is_public(true);
  creq.add_seats()->mutable_spec()->set_kind(v1::SEAT_KIND_GUEST);
  creq.add_seats()->mutable_spec()->set_kind(v1::SEAT_KIND_GUEST);
  v1::ArenaCreateTableResponse cresp;
  if (!call(&v1::ArenaService::Stub::CreateTable, guests[0], creq, &cresp, "CreateTable")) {
    return 2;
  }
  std::string creds[2];
  for (int i = 0; i < 2; ++i) {
    v1::ArenaJoinTableRequest j;
    j.set_game_id(cresp.game_id());
    j.set_seat(i);
    v1::ArenaJoinTableResponse jr;
    if (!call(&v1::ArenaService::Stub::JoinTable, guests[i], j, &jr, "JoinTable")) return 2;
    creds[i] = jr.seat_credential();
  }

  const long rss_before = RssKb(pid);
  Totals totals;
  asio::io_context io;
  tcp::endpoint ep(asio::ip::make_address(hp[0]), static_cast<unsigned short>(port));
  const std::string request = "GET /api/games/" + cresp.game_id() +
                              "/events HTTP/1.1\r\nHost: " + absl::GetFlag(FLAGS_web) +
                              "\r\nAccept: text/event-stream\r\n\r\n";
  std::vector<std::shared_ptr<Watcher>> watchers;
  watchers.reserve(n);
  auto work = asio::make_work_guard(io);
  std::thread io_thread([&] { io.run(); });
  const absl::Time connect_start = absl::Now();
  for (int i = 0; i < n; ++i) {
    auto w = std::make_shared<Watcher>(io, ep, request, &totals);
    watchers.push_back(w);
    asio::post(io, [w] { w->Start(); });
    if ((i + 1) % std::max(1, absl::GetFlag(FLAGS_connect_per_ms)) == 0) {
      absl::SleepFor(absl::Milliseconds(1));
    }
  }
  absl::Time limit = absl::Now() + absl::Seconds(120);
  while (absl::Now() < limit && totals.streaming + totals.failed < n) {
    absl::SleepFor(absl::Milliseconds(50));
  }
  const double connect_s = absl::ToDoubleSeconds(absl::Now() - connect_start);
  const long rss_streaming = RssKb(pid);

  v1::GetGameRequest g;
  g.set_game_id(cresp.game_id());
  v1::GameView view;
  {
    grpc::ClientContext ctx;
    common::SetDeadline(ctx, absl::Seconds(10));
    if (!stub->GetGame(&ctx, g, &view).ok()) return 2;
  }
  auto state = *chess->NewInitialState(engine::Variant());
  std::mt19937 rng(5);
  const int want_moves = absl::GetFlag(FLAGS_moves);
  int moves = 0;
  long rss_half = -1;
  for (; moves < want_moves && !state->IsTerminal(); ++moves) {
    auto legal = state->LegalActions();
    std::string m = legal[rng() % legal.size()];
    int seat = (view.leader() + state->ToMove()) % 2;
    v1::SubmitActionResponse resp;
    if (!clients::GameStateClient::SubmitOn(
             *stub, clients::SeatAction(cresp.game_id(), seat, m, moves),
             clients::Credentials{.seat = creds[seat]}, absl::Seconds(10), &resp)
             .ok()) {
      break;
    }
    (void)state->Apply(m);
    if (moves == want_moves / 2) rss_half = RssKb(pid);
    absl::SleepFor(absl::Milliseconds(absl::GetFlag(FLAGS_interval_ms)));
  }
  absl::SleepFor(absl::Seconds(3));
  const long rss_end = RssKb(pid);
  asio::post(io, [&] {
    for (auto& w : watchers) w->Stop();
  });
  work.reset();
  io_thread.join();

  const int streaming = totals.streaming.load();
  const int64_t expected = static_cast<int64_t>(moves) * streaming;
  std::printf(
      "sse_fanout: %d watchers (%d streaming, %d failed, all connected in %.1f s), %d "
      "moves, %lld of %lld deliveries\n",
      n, streaming, totals.failed.load(), connect_s, moves,
      static_cast<long long>(totals.delivered.load()), static_cast<long long>(expected));
  std::printf("delivery latency p50 %.2f ms  p99 %.2f ms  max %.2f ms\n",
              Percentile(totals.ms, 0.5), Percentile(totals.ms, 0.99),
              totals.ms.empty() ? 0.0 : *std::max_element(totals.ms.begin(), totals.ms.end()));
  if (pid > 0) {
    std::printf(
        "arena-web RSS: %ld KiB before, %ld KiB with every stream open, %ld KiB halfway, "
        "%ld KiB at the end\n",
        rss_before, rss_streaming, rss_half, rss_end);
  }
  return totals.delivered == expected && streaming == n ? 0 : 1;
}
