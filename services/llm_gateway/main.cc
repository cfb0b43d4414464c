// arena-llm-gateway: asks language models for moves through Abacus.AI RouteLLM. Holds per-game
// keys only in memory; the process is made undumpable before anything else happens.
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netdb.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "arena/v1/gateway.grpc.pb.h"
#include "common/config.h"
#include "common/flags.h"
#include "common/log.h"
#include "engine/core/game.h"
#include "gateway/http_loop.h"
#include "gateway/model_gateway.h"
#include "gateway/secret.h"
#include "services/common/server.h"
#include "services/common/service_auth.h"
#include "services/common/startup.h"
#include "services/llm_gateway/gateway_service.h"

ABSL_FLAG(std::string, abacus_base_url, "https://routellm.abacus.ai/v1",
          "Abacus.AI RouteLLM base URL (enterprise: https://<workspace>.abacus.ai/v1)");
ABSL_FLAG(std::string, abacus_api_key_file, "",
          "file holding the platform's Abacus key (a path, so the key is not in the process "
          "list); empty: only games' own keys can pay");
ABSL_FLAG(int, upstream_max_in_flight, 64, "concurrent HTTP calls to the upstream; more queue");
ABSL_FLAG(int, call_timeout_ms, 60000, "whole-call limit of one HTTP call");
ABSL_FLAG(int, stall_seconds, 20, "an HTTP call that receives no bytes for this long fails");
ABSL_FLAG(int, max_retries, 3, "retries of one prompt after 429, 5xx or transport failures");
ABSL_FLAG(int, retry_base_ms, 250, "first retry delay (doubles, with jitter)");
ABSL_FLAG(int, retry_max_ms, 8000, "longest retry delay, Retry-After included");
ABSL_FLAG(int, default_max_tokens, 1024, "max_tokens of a call before the cost cap narrows it");
ABSL_FLAG(int, models_ttl_seconds, 600, "how long the /v1/models rates are cached");

namespace {

using arena::common::CheckOrDie;

void RaiseOpenFileLimit() {
  rlimit lim;
  if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
  }
}

// Resolves the upstream host once and pins it (CURLOPT_RESOLVE), so no call ever starts a
// resolver thread. IP literals need no pin.
std::vector<std::string> PinUpstream(const std::string& base_url, std::string* unusable) {
  std::vector<std::string> pins;
  CURLU* url = curl_url();
  if (curl_url_set(url, CURLUPART_URL, base_url.c_str(), 0) != CURLUE_OK) {
    std::fprintf(stderr, "startup error: --abacus_base_url=%s is not a URL\n", base_url.c_str());
    std::exit(2);
  }
  char* host = nullptr;
  char* port = nullptr;
  curl_url_get(url, CURLUPART_HOST, &host, 0);
  curl_url_get(url, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT);
  std::string h = host != nullptr ? host : "";
  std::string p = port != nullptr ? port : "";
  curl_free(host);
  curl_free(port);
  curl_url_cleanup(url);
  unsigned char buf[sizeof(in6_addr)];
  std::string bare = h.size() > 2 && h.front() == '[' ? h.substr(1, h.size() - 2) : h;
  if (inet_pton(AF_INET, bare.c_str(), buf) == 1 || inet_pton(AF_INET6, bare.c_str(), buf) == 1) {
    return pins;
  }
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (getaddrinfo(h.c_str(), p.c_str(), &hints, &res) != 0 || res == nullptr) {
    // Keep serving (key registration, health); model calls fail as provider faults until a
    // restart resolves the host.
    *unusable = "the upstream host " + h + " could not be resolved at start-up";
    arena::common::LogWarning("upstream not resolvable; model calls will fail until restart",
                              {{"host", h}});
    return pins;
  }
  char text[INET6_ADDRSTRLEN] = {0};
  if (res->ai_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<sockaddr_in6*>(res->ai_addr)->sin6_addr, text,
              sizeof text);
    pins.push_back(absl::StrCat(h, ":", p, ":[", text, "]"));
  } else {
    inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(res->ai_addr)->sin_addr, text, sizeof text);
    pins.push_back(absl::StrCat(h, ":", p, ":", text));
  }
  freeaddrinfo(res);
  arena::common::LogInfo("upstream pinned", {{"host", h}, {"port", p}, {"address", text}});
  return pins;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace arena::common;
  CheckOrDie(MakeProcessUndumpable());
  BlockShutdownSignals();
  RaiseOpenFileLimit();
  curl_global_init(CURL_GLOBAL_DEFAULT);
  InitConfig(argc, argv, "arena-llm-gateway: language models take their turns");
  ServerOptions options = ServerOptionsFromFlags("arena-llm-gateway");
  if (!arena::gateway::InitSodium()) {
    std::fprintf(stderr, "startup error: libsodium failed to initialise\n");
    return 2;
  }

  std::vector<std::string> all(std::begin(kKnownServices), std::end(kKnownServices));
  auto auth = ServiceAuthenticator::Load(absl::GetFlag(FLAGS_secrets_dir), all);
  if (!auth.ok()) {
    std::fprintf(stderr, "startup error: %s\n", std::string(auth.status().message()).c_str());
    return 2;
  }

  std::shared_ptr<const arena::gateway::SecretKey> platform_key;
  if (std::string path = absl::GetFlag(FLAGS_abacus_api_key_file); !path.empty()) {
    auto key = arena::gateway::SecretKey::ReadFile(path);
    if (!key.ok()) {
      std::fprintf(stderr, "startup error: --abacus_api_key_file: %s\n",
                   std::string(key.status().message()).c_str());
      return 2;
    }
    platform_key = *std::move(key);
  }

  auto positive = [](const char* name, int v) {
    if (v <= 0) {
      std::fprintf(stderr, "startup error: --%s=%d must be positive\n", name, v);
      std::exit(2);
    }
    return v;
  };
  arena::gateway::GatewayOptions gopts;
  gopts.base_url = absl::GetFlag(FLAGS_abacus_base_url);
  while (!gopts.base_url.empty() && gopts.base_url.back() == '/') gopts.base_url.pop_back();
  gopts.max_retries = absl::GetFlag(FLAGS_max_retries);
  if (gopts.max_retries < 0) gopts.max_retries = 0;
  gopts.retry_base =
      absl::Milliseconds(positive("retry_base_ms", absl::GetFlag(FLAGS_retry_base_ms)));
  gopts.retry_max = absl::Milliseconds(positive("retry_max_ms", absl::GetFlag(FLAGS_retry_max_ms)));
  gopts.call_timeout_ms = positive("call_timeout_ms", absl::GetFlag(FLAGS_call_timeout_ms));
  gopts.stall_seconds = positive("stall_seconds", absl::GetFlag(FLAGS_stall_seconds));
  gopts.default_max_tokens =
      positive("default_max_tokens", absl::GetFlag(FLAGS_default_max_tokens));
  gopts.models_ttl =
      absl::Seconds(positive("models_ttl_seconds", absl::GetFlag(FLAGS_models_ttl_seconds)));

  arena::gateway::HttpLoop::Options lopts;
  lopts.max_in_flight =
      positive("upstream_max_in_flight", absl::GetFlag(FLAGS_upstream_max_in_flight));
  lopts.resolve = PinUpstream(gopts.base_url, &lopts.unusable_reason);
  arena::gateway::HttpLoop loop(lopts);
  arena::gateway::ModelGateway gateway(gopts, &loop, platform_key);
  arena::llm_gateway::GatewayService service(&gateway, *std::move(auth));
  LogInfo("gateway configured", {{"upstream", gopts.base_url},
                                 {"platform_key", platform_key != nullptr},
                                 {"max_in_flight", lopts.max_in_flight}});

  options.services = {&service};
  for (const auto* game : arena::engine::AllGames()) options.games.emplace_back(game->Id());
  CheckOrDie(RunServer(options));
  loop.Stop();  // no callback may outlive the gateway and service below
  return 0;
}
