// The move judge: arena-bot's evaluation of each model move (BotService.EvaluateMove), kept with
// the model's turn (ai_turns.evaluation_json) so the page shows the best move, what the played
// one gave away and a mark for the bad ones beside the model's reasoning and attempts.
//
// Judging happens after the move is applied and off the table's path: the seat driver hands the
// position before the move to Judge(), which only queues it; one thread asks arena-bot and
// writes the row. A full queue drops the newest (logged): a judgement is commentary, never a
// reason to slow a game down. Turns judged before a restart keep their judgement; the queue is
// not persisted, so turns queued when arena stopped stay unjudged.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "absl/time/time.h"
#include "arena/v1/common.pb.h"
#include "clients/service_clients.h"
#include "services/common/pg_pool.h"

namespace arena::service {

struct JudgeRequest {
  std::string game_id;
  int64_t turn_seq = 0;  // the ai_turns row it belongs to
  std::string engine_game;
  v1::VariantOptions variant;
  std::string position;  // before the move
  int engine_seat = 0;   // the mover, in the engine's seat order
  std::string move;
};

struct MoveJudgeOptions {
  size_t capacity = 256;                        // queued judgements at most
  absl::Duration deadline = absl::Seconds(20);  // per EvaluateMove call
  int level = 0;                                // 0: the evaluator's default (bots/core/evaluate.h)
};

class MoveJudge {
 public:
  MoveJudge(clients::ServiceClients& clients, common::PgPool& pool, MoveJudgeOptions options = {});
  ~MoveJudge();  // Stop()
  MoveJudge(const MoveJudge&) = delete;
  MoveJudge& operator=(const MoveJudge&) = delete;

  // Queues a judgement; false when the queue is full or the judge stopped (then it is dropped).
  bool Judge(JudgeRequest request);
  // Finishes the judgement under way, drops the queued ones, joins the thread.
  void Stop();
  // Judgements written so far (tests and logs).
  int64_t judged() const;

 private:
  void Loop();
  void JudgeOne(const JudgeRequest& request);

  clients::ServiceClients& clients_;
  common::PgPool& pool_;
  const MoveJudgeOptions options_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<JudgeRequest> queue_;
  bool stopping_ = false;
  int64_t judged_ = 0;
  std::thread thread_;
};

}  // namespace arena::service
