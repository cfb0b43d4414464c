// PgEventLog: the event log in PostgreSQL (schema `game`, deploy/sql/game/), what
// arena-game-state runs.
//
// The group commit (event_log.h) makes each batch one transaction: the items' row changes run
// as their named statements and the events of all items are appended by one statement
// (jsonb_to_recordset), so a batch costs a few round trips whatever its size. A lost connection
// is retried by the pool with the whole batch; any other failure fails the batch, and the
// group commit retries its items one by one. Reads (recovery at start, reload after a failed
// batch) are plain short transactions.
#pragma once

#include <string>
#include <vector>

#include "services/common/pg_pool.h"
#include "services/game_state/event_log.h"

namespace arena::game_state {

class PgEventLog final : public GroupCommitLog {
 public:
  explicit PgEventLog(common::PgPool* pool);
  ~PgEventLog() override;  // drains the queue and the completions, then stops both threads

  absl::StatusOr<std::vector<std::string>> UnfinishedGameIds() override;
  absl::StatusOr<StoredGame> LoadGame(const std::string& game_id) override;
  absl::StatusOr<std::string> GameOfIdempotencyKey(const std::string& scope,
                                                   const std::string& key) override;

 protected:
  absl::Status CommitBatch(const std::vector<WriteItem>& batch) override;

 private:
  common::PgPool* pool_;
};

}  // namespace arena::game_state
