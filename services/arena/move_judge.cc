#include "services/arena/move_judge.h"

#include <utility>

#include "arena/v1/bot.grpc.pb.h"
#include "common/log.h"
#include "nlohmann/json.hpp"

namespace arena::service {

MoveJudge::MoveJudge(clients::ServiceClients& clients, common::PgPool& pool,
                     MoveJudgeOptions options)
    : clients_(clients), pool_(pool), options_(options), thread_([this] { Loop(); }) {}

MoveJudge::~MoveJudge() {
  Stop();
}

bool MoveJudge::Judge(JudgeRequest request) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ || queue_.size() >= options_.capacity) {
      if (!stopping_) {
        common::LogWarning("move judge busy; a model move stays unjudged",
                           {{"game_id", request.game_id}, {"turn_seq", request.turn_seq}});
      }
      return false;
    }
    queue_.push_back(std::move(request));
  }
  cv_.notify_one();
  return true;
}

void MoveJudge::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    queue_.clear();
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

int64_t MoveJudge::judged() const {
  std::lock_guard<std::mutex> lock(mu_);
  return judged_;
}

void MoveJudge::Loop() {
  for (;;) {
    JudgeRequest next;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      next = std::move(queue_.front());
      queue_.pop_front();
    }
    JudgeOne(next);
  }
}

void MoveJudge::JudgeOne(const JudgeRequest& r) {
  v1::EvaluateMoveRequest ask;
  ask.set_engine_game(r.engine_game);
  *ask.mutable_variant() = r.variant;
  ask.set_position(r.position);
  ask.set_seat(r.engine_seat);
  ask.set_move(r.move);
  ask.set_level(options_.level);
  ask.set_seed(static_cast<uint64_t>(r.turn_seq));
  v1::EvaluateMoveResponse e;
  grpc::ClientContext ctx;
  clients_.Prepare(ctx, options_.deadline);
  const grpc::Status s = clients_.bot().EvaluateMove(&ctx, ask, &e);
  if (!s.ok()) {
    common::LogWarning("model move not judged", {{"game_id", r.game_id},
                                                 {"turn_seq", r.turn_seq},
                                                 {"code", static_cast<int>(s.error_code())},
                                                 {"error", s.error_message()}});
    return;
  }
  nlohmann::json j = {{"best_move", e.best_move()},
                      {"matched", e.matched()},
                      {"algorithm", e.algorithm()},
                      {"depth", e.depth()},
                      {"nodes", e.nodes()}};
  if (e.has_loss()) {
    j["best_cp"] = e.best_cp();
    j["played_cp"] = e.played_cp();
    j["loss_cp"] = e.loss_cp();
    j["share_lost"] = e.share_lost();
    j["mark"] = e.mark();
  }
  const absl::Status written = pool_.Transact([&](pqxx::transaction_base& txn) -> absl::Status {
    txn.exec_params(
        "UPDATE ai_turns SET evaluation_json = $3 WHERE game_id = $1 AND turn_seq = $2 "
        "AND action_text = $4",
        r.game_id, r.turn_seq, j.dump(), r.move);
    return absl::OkStatus();
  });
  if (!written.ok()) {
    common::LogWarning("model move judgement not written",
                       {{"game_id", r.game_id}, {"error", std::string(written.message())}});
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  ++judged_;
}

}  // namespace arena::service
