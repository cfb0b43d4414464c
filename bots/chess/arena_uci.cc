// arena-uci: the chess bot as a UCI engine, so any chess GUI or match tool can play it.
//
// Commands: uci, isready, ucinewgame, position startpos|fen <fen> [moves ...],
// go [movetime|wtime|btime|winc|binc|movestogo|depth|nodes|infinite], stop, quit,
// setoption name Hash|Level value <n>. The search runs on its own thread so "stop" and
// "isready" are answered while it thinks; a timer thread sets the stop flag when the time
// allotted to the move runs out. Level 0..8 are the arena's levels (node budgets, see
// docs/bots.md); Level 9 (the default) searches without a node budget, bounded by time.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bots/chess/chess_search.h"
#include "engine/chess/movegen.h"
#include "engine/chess/notation.h"
#include "engine/chess/position.h"

namespace {

using namespace arena::engine::chess;
using arena::bots::ChessSearcher;
using arena::bots::SearchLimits;
using arena::bots::SearchResult;

std::mutex out_mu;
void Say(const std::string& line) {
  std::lock_guard<std::mutex> lock(out_mu);
  std::cout << line << std::endl;
}

std::string ScoreText(int score) {
  if (std::abs(score) >= arena::bots::kMateScore - arena::bots::kMaxPly) {
    const int plies = arena::bots::kMateScore - std::abs(score);
    const int moves = (plies + 1) / 2;
    return "mate " + std::to_string(score > 0 ? moves : -moves);
  }
  return "cp " + std::to_string(score);
}

class UciEngine {
 public:
  UciEngine() : searcher_(16) {}
  ~UciEngine() { StopAndJoin(); }

  void Run() {
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      std::istringstream in(line);
      std::string cmd;
      in >> cmd;
      if (cmd == "uci") {
        Say("id name arena-uci");
        Say("id author Chestonia Arena");
        Say("option name Hash type spin default 16 min 1 max 1024");
        Say("option name Level type spin default 9 min 0 max 9");
        Say("uciok");
      } else if (cmd == "isready") {
        Say("readyok");
      } else if (cmd == "ucinewgame") {
        StopAndJoin();
        searcher_.Clear();
      } else if (cmd == "setoption") {
        SetOption(in);
      } else if (cmd == "position") {
        StopAndJoin();
        SetPosition(in);
      } else if (cmd == "go") {
        StopAndJoin();
        Go(in);
      } else if (cmd == "stop") {
        StopAndJoin();
      } else if (cmd == "quit") {
        break;
      }
    }
    StopAndJoin();
  }

 private:
  void SetOption(std::istringstream& in) {
    std::string word, name, value;
    in >> word;  // "name"
    while (in >> word && word != "value") name += (name.empty() ? "" : " ") + word;
    in >> value;
    int v = 0;
    try {
      v = std::stoi(value);
    } catch (...) {
      return;
    }
    if (name == "Hash") {
      StopAndJoin();
      searcher_.Resize(std::max(1, std::min(v, 1024)));
    } else if (name == "Level") {
      level_ = std::max(0, std::min(v, 9));
    }
  }

  void SetPosition(std::istringstream& in) {
    std::string word;
    in >> word;
    Position pos = Position::StartPosition();
    if (word == "fen") {
      std::string fen, part;
      while (in >> part && part != "moves") fen += (fen.empty() ? "" : " ") + part;
      auto parsed = Position::FromFen(fen);
      if (!parsed.ok()) {
        Say("info string bad fen: " + std::string(parsed.status().message()));
        return;
      }
      pos = *parsed;
      word = part;
    } else {
      in >> word;  // "moves" or nothing
    }
    history_.clear();
    if (word == "moves") {
      std::string mv;
      while (in >> mv) {
        auto m = ParseUci(pos, mv);
        if (!m.ok()) {
          Say("info string illegal move " + mv);
          break;
        }
        history_.push_back(pos.key());
        Position::Undo undo;
        pos.DoMove(*m, undo);
      }
    }
    pos_ = pos;
  }

  void Go(std::istringstream& in) {
    std::string word;
    int64_t wtime = -1, btime = -1, winc = 0, binc = 0, movetime = -1, nodes = 0;
    int depth = 64, movestogo = 0;
    bool infinite = false;
    while (in >> word) {
      auto next = [&] {
        int64_t v = 0;
        in >> v;
        return v;
      };
      if (word == "wtime")
        wtime = next();
      else if (word == "btime")
        btime = next();
      else if (word == "winc")
        winc = next();
      else if (word == "binc")
        binc = next();
      else if (word == "movetime")
        movetime = next();
      else if (word == "nodes")
        nodes = next();
      else if (word == "depth")
        depth = int(next());
      else if (word == "movestogo")
        movestogo = int(next());
      else if (word == "infinite")
        infinite = true;
    }
    MoveList legal;
    GenerateLegal(pos_, legal);
    if (legal.empty()) {
      Say("bestmove 0000");
      return;
    }
    // Time for this move: fixed, or a share of the clock.
    int64_t budget_ms = -1;
    if (movetime >= 0) {
      budget_ms = std::max<int64_t>(1, movetime - 5);
    } else if (!infinite) {
      const bool white = pos_.side_to_move() == kWhite;
      const int64_t t = white ? wtime : btime, inc = white ? winc : binc;
      if (t >= 0) {
        const int64_t share = t / (movestogo > 0 ? movestogo + 1 : 30) + inc * 3 / 4;
        budget_ms = std::max<int64_t>(1, std::min(share, t / 2 - 30));
      }
    }
    stop_.store(false);
    SearchLimits limits;
    limits.depth = depth;
    limits.stop = &stop_;
    limits.nodes = nodes > 0 ? nodes
                             : (level_ <= arena::bots::MaxLevel("chess", 2)
                                    ? arena::bots::LevelNodeBudget("chess", level_, 2)
                                    : 0);
    const int level = level_;
    const Position pos = pos_;
    const std::vector<uint64_t> history = history_;
    const auto start = std::chrono::steady_clock::now();
    searching_ = true;
    search_thread_ = std::thread([=, this] {
      std::string best;
      if (level == 0) {
        arena::bots::Rng rng(uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()));
        best = MoveToUci(legal[int(rng.Below(legal.size()))]);
      } else if (level == 1) {
        best = MoveToUci(arena::bots::ChessGreedyMove(pos, 0));
      } else {
        SearchResult r = searcher_.Search(pos, history, limits, [&](const SearchResult& it) {
          const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::steady_clock::now() - start)
                                 .count();
          std::string pv;
          for (const std::string& m : it.pv) pv += " " + m;
          Say("info depth " + std::to_string(it.depth) + " score " + ScoreText(it.score) +
              " nodes " + std::to_string(it.nodes) + " time " + std::to_string(ms) + " nps " +
              std::to_string(ms > 0 ? it.nodes * 1000 / ms : 0) + " pv" + pv);
        });
        best = r.move;
      }
      // With "go infinite" the answer waits for "stop".
      if (infinite) {
        std::unique_lock<std::mutex> lock(timer_mu_);
        timer_cv_.wait(lock, [&] { return stop_.load(); });
      }
      Say("bestmove " + best);
      {
        std::lock_guard<std::mutex> lock(timer_mu_);
        searching_ = false;
      }
      timer_cv_.notify_all();
    });
    if (budget_ms >= 0) {
      timer_thread_ = std::thread([this, budget_ms] {
        std::unique_lock<std::mutex> lock(timer_mu_);
        if (!timer_cv_.wait_for(lock, std::chrono::milliseconds(budget_ms),
                                [&] { return !searching_ || stop_.load(); })) {
          stop_.store(true);
        }
      });
    }
  }

  void StopAndJoin() {
    {
      std::lock_guard<std::mutex> lock(timer_mu_);
      stop_.store(true);
    }
    timer_cv_.notify_all();
    if (search_thread_.joinable()) search_thread_.join();
    if (timer_thread_.joinable()) timer_thread_.join();
  }

  ChessSearcher searcher_;
  Position pos_ = Position::StartPosition();
  std::vector<uint64_t> history_;
  int level_ = 9;
  std::atomic<bool> stop_{false};
  std::mutex timer_mu_;
  std::condition_variable timer_cv_;
  bool searching_ = false;
  std::thread search_thread_;
  std::thread timer_thread_;
};

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  UciEngine engine;
  engine.Run();
  return 0;
}
