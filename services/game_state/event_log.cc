#include "services/game_state/event_log.h"

#include <set>

#include "common/log.h"

namespace arena::game_state {

std::string GameOfItem(const WriteItem& item) {
  if (!item.game_id.empty() || item.events.empty()) return item.game_id;
  return item.events.front().game_id;
}

GroupCommitLog::~GroupCommitLog() {
  Stop();
}

void GroupCommitLog::Start() {
  writer_ = std::thread([this] { Run(); });
  completer_ = std::thread([this] { RunCompletions(); });
}

void GroupCommitLog::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (writer_.joinable()) writer_.join();
  if (completer_.joinable()) completer_.join();
}

void GroupCommitLog::Enqueue(WriteItem item) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(item));
  }
  cv_.notify_one();
}

void GroupCommitLog::EnqueueAll(std::vector<WriteItem> items) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (WriteItem& item : items) queue_.push_back(std::move(item));
  }
  cv_.notify_one();
}

void GroupCommitLog::Run() {
  constexpr size_t kMaxBatch = 2000;
  for (;;) {
    std::vector<WriteItem> batch;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty() && stop_) {
        lock.unlock();
        std::lock_guard<std::mutex> done_lock(done_mu_);
        writer_done_ = true;
        done_cv_.notify_all();
        return;
      }
      while (!queue_.empty() && batch.size() < kMaxBatch) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    absl::Status status = CommitBatch(batch);
    std::vector<absl::Status> statuses(batch.size(), status);
    if (!status.ok() && batch.size() > 1) {
      common::LogWarning("event batch failed; committing its items one by one",
                         {{"items", batch.size()}, {"error", std::string(status.message())}});
      statuses = CommitOneByOne(batch);
    }
    int64_t failed = 0;
    for (const absl::Status& s : statuses) failed += s.ok() ? 0 : 1;
    if (failed > 0) {
      common::LogError(
          "event items failed",
          {{"items", batch.size()}, {"failed", failed}, {"error", std::string(status.message())}});
    }
    batches_++;
    items_ += static_cast<int64_t>(batch.size());
    std::unique_lock<std::mutex> lock(done_mu_);
    committed_.push_back(Committed{std::move(batch), std::move(statuses)});
    unfinished_batches_++;
    done_cv_.notify_all();
    // A failed item's callback drops its game from memory (it is ahead of the log); let it
    // run before committing more, as when the callbacks ran on this thread.
    if (failed > 0) done_cv_.wait(lock, [&] { return unfinished_batches_ == 0; });
  }
}

std::vector<absl::Status> GroupCommitLog::CommitOneByOne(std::vector<WriteItem>& batch) {
  std::vector<absl::Status> statuses;
  statuses.reserve(batch.size());
  std::set<std::string> failed_games;
  for (WriteItem& item : batch) {
    const std::string game = GameOfItem(item);
    if (!game.empty() && failed_games.count(game) > 0) {
      statuses.push_back(
          absl::AbortedError("an earlier write of this game failed; nothing was recorded"));
      continue;
    }
    std::vector<WriteItem> one;
    one.push_back(std::move(item));
    absl::Status s = CommitBatch(one);
    item = std::move(one.front());
    if (!s.ok() && !game.empty()) failed_games.insert(game);
    statuses.push_back(std::move(s));
  }
  return statuses;
}

void GroupCommitLog::RunCompletions() {
  for (;;) {
    Committed batch;
    {
      std::unique_lock<std::mutex> lock(done_mu_);
      done_cv_.wait(lock, [&] { return writer_done_ || !committed_.empty(); });
      if (committed_.empty()) return;  // and the writer is done: nothing more will come
      batch = std::move(committed_.front());
      committed_.pop_front();
    }
    for (size_t i = 0; i < batch.items.size(); ++i) {
      if (batch.items[i].done) batch.items[i].done(batch.statuses[i]);
    }
    std::lock_guard<std::mutex> lock(done_mu_);
    unfinished_batches_--;
    done_cv_.notify_all();
  }
}

}  // namespace arena::game_state
