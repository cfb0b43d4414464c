#include "bots/chess/stockfish_player.h"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "engine/chess/chess_game.h"
#include "engine/chess/notation.h"
#include "engine/chess/stockfish_process.h"

namespace arena::bots {
namespace {

using engine::chess::StockfishProcess;

// Idle engines, reused by the next request.
class EnginePool {
 public:
  absl::StatusOr<std::unique_ptr<StockfishProcess>> Take() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!idle_.empty()) {
        auto e = std::move(idle_.back());
        idle_.pop_back();
        return e;
      }
    }
    auto e = StockfishProcess::Start(StockfishPath());
    if (!e.ok()) return absl::UnavailableError(e.status().message());
    return e;
  }
  void Give(std::unique_ptr<StockfishProcess> e) {
    std::lock_guard<std::mutex> lock(mu_);
    if (idle_.size() < kMaxIdle) idle_.push_back(std::move(e));
  }

 private:
  static constexpr size_t kMaxIdle = 8;
  std::mutex mu_;
  std::vector<std::unique_ptr<StockfishProcess>> idle_;
};

EnginePool& Pool() {
  static auto* pool = new EnginePool();
  return *pool;
}

// Reads "info ... depth D ... nodes N ... score cp X | score mate M ..." into `a`.
void ParseInfo(const std::string& line, StockfishAnswer& a) {
  std::vector<std::string> w = absl::StrSplit(line, ' ', absl::SkipEmpty());
  for (size_t i = 0; i + 1 < w.size(); ++i) {
    if (w[i] == "depth") (void)absl::SimpleAtoi(w[i + 1], &a.depth);
    if (w[i] == "nodes") (void)absl::SimpleAtoi(w[i + 1], &a.nodes);
    if (w[i] == "score" && i + 2 < w.size()) {
      int v = 0;
      if (!absl::SimpleAtoi(w[i + 2], &v)) continue;
      if (w[i + 1] == "cp") a.score_cp = v;
      if (w[i + 1] == "mate") a.score_cp = v > 0 ? 30000 - v : -30000 - v;
    }
  }
}

absl::StatusOr<StockfishAnswer> Ask(StockfishProcess& e, const StockfishRequest& r) {
  const bool limit = r.elo > 0;
  std::vector<std::string> commands;
  // A depth-limited search starts from an empty hash table: otherwise what earlier searches on
  // this reused process left there changes the search, and the same position at the same depth
  // could get another move or score (the fair-play check needs the same figures on a rerun).
  if (r.depth > 0) commands.push_back("ucinewgame");
  commands.push_back(
      absl::StrCat("setoption name UCI_LimitStrength value ", limit ? "true" : "false"));
  if (limit) commands.push_back(absl::StrCat("setoption name UCI_Elo value ", r.elo));
  commands.push_back(absl::StrCat("position fen ", r.start_fen, r.moves.empty() ? "" : " moves ",
                                  absl::StrJoin(r.moves, " ")));
  commands.push_back(r.depth > 0
                         ? absl::StrCat("go depth ", r.depth)
                         : absl::StrCat("go movetime ", std::max<int64_t>(1, r.movetime_ms)));
  for (const std::string& c : commands) {
    if (absl::Status s = e.Send(c); !s.ok()) return s;
  }
  // Depth-limited searches at low depth are quick; a generous bound catches a hung engine.
  auto lines = e.ReadUntil("bestmove", std::chrono::milliseconds(r.movetime_ms + 30000));
  if (!lines.ok()) return lines.status();
  StockfishAnswer a;
  for (const std::string& line : *lines) {
    if (line.rfind("info ", 0) == 0 && line.find(" score ") != std::string::npos) {
      ParseInfo(line, a);
    }
  }
  std::vector<std::string> best = absl::StrSplit(lines->back(), ' ', absl::SkipEmpty());
  if (best.size() < 2 || best[1] == "(none)") {
    return absl::FailedPreconditionError("stockfish has no move in this position");
  }
  a.move = best[1];
  return a;
}

}  // namespace

std::string StockfishPath() {
  const char* env = std::getenv("ARENA_STOCKFISH");
  return env != nullptr && *env != '\0' ? std::string(env)
                                        : std::string(engine::chess::kDefaultStockfishPath);
}

absl::StatusOr<StockfishAnswer> StockfishMove(const StockfishRequest& request) {
  if (request.elo != 0 && (request.elo < kStockfishMinElo || request.elo > kStockfishMaxElo)) {
    return absl::InvalidArgumentError(absl::StrCat("a Stockfish level is a UCI_Elo in ",
                                                   kStockfishMinElo, "..", kStockfishMaxElo,
                                                   " (or 0 for full strength), not ", request.elo));
  }
  if (request.movetime_ms < 0 || request.depth < 0) {
    return absl::InvalidArgumentError("movetime and depth must not be negative");
  }
  auto engine = Pool().Take();
  if (!engine.ok()) return engine.status();
  auto answer = Ask(**engine, request);
  if (!answer.ok()) {
    if (answer.status().code() == absl::StatusCode::kFailedPrecondition) {
      Pool().Give(*std::move(engine));
      return answer.status();
    }
    // The engine stopped answering: it is dropped (killed and reaped), not reused.
    return absl::UnavailableError(absl::StrCat("stockfish: ", answer.status().message()));
  }
  Pool().Give(*std::move(engine));
  return answer;
}

absl::StatusOr<BotAnswer> StockfishBotMove(const engine::State& state, const BotRequest& req) {
  const auto* chess = dynamic_cast<const engine::chess::ChessState*>(&state);
  if (chess == nullptr) {
    return absl::InvalidArgumentError("Stockfish levels play chess only");
  }
  if (state.IsTerminal()) return absl::FailedPreconditionError("the game is over");
  if (state.ToMove() != req.seat) {
    return absl::FailedPreconditionError(
        absl::StrCat("seat ", req.seat, " is not to move (seat ", state.ToMove(), " is)"));
  }
  StockfishRequest sf;
  sf.start_fen = chess->start_position().Fen();
  for (const engine::chess::Move m : chess->moves()) {
    sf.moves.push_back(engine::chess::MoveToUci(m));
  }
  sf.elo = req.stockfish_elo;
  if (req.time_cap_ms > 0) sf.movetime_ms = std::min<int64_t>(sf.movetime_ms, req.time_cap_ms);
  auto answer = StockfishMove(sf);
  if (!answer.ok()) return answer.status();
  BotAnswer a;
  a.algorithm = req.stockfish_elo > 0 ? absl::StrCat("stockfish-elo-", req.stockfish_elo)
                                      : std::string("stockfish");
  a.result.move = answer->move;
  a.result.score = answer->score_cp;
  a.result.depth = answer->depth;
  a.result.nodes = answer->nodes;
  a.result.pv = {answer->move};
  return a;
}

}  // namespace arena::bots
