// MemoryEventLog: the event log in this process's memory, for the core's unit tests.
//
// It runs the same group commit as PgEventLog (event_log.h) and keeps the same promises as the
// `game` schema: a batch is all or nothing; a game id is inserted once; an idempotency key is
// used once per scope, deleted games included; seats and events need their game; an event's
// sequence number is unique in its game; text holding a NUL byte is refused, as PostgreSQL
// refuses it. event_log_test.cc runs one contract against both implementations. What a user
// runs is PgEventLog; the services' own tests (tests/) run against PostgreSQL.
//
// Tests may make chosen items fail (FailItemsWhere), as a database error would, to exercise
// the core's handling of a write that did not commit.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "services/game_state/event_log.h"

namespace arena::game_state {

class MemoryEventLog final : public GroupCommitLog {
 public:
  MemoryEventLog();
  ~MemoryEventLog() override;

  absl::StatusOr<std::vector<std::string>> UnfinishedGameIds() override;
  absl::StatusOr<StoredGame> LoadGame(const std::string& game_id) override;
  absl::StatusOr<std::string> GameOfIdempotencyKey(const std::string& scope,
                                                   const std::string& key) override;

  // From now on, a batch holding an item for which `fails` is true fails (UNAVAILABLE), as a
  // database error would; nullptr stops it.
  void FailItemsWhere(std::function<bool(const WriteItem&)> fails);
  // Every event committed for the game, deleted games included (for assertions).
  std::vector<StoredEvent> EventsOf(const std::string& game_id);

 protected:
  absl::Status CommitBatch(const std::vector<WriteItem>& batch) override;

 private:
  struct Row {
    StoredGame game;  // seats and events included
    bool deleted = false;
    int64_t created = 0;  // insertion order
  };
  using Rows = std::map<std::string, Row>;
  // Applies the item to `rows` (a staged copy); an error leaves the batch uncommitted.
  absl::Status ApplyItem(const WriteItem& item, Rows& rows);

  std::mutex mu_;
  Rows rows_;
  int64_t next_created_ = 0;
  std::function<bool(const WriteItem&)> fails_;
};

}  // namespace arena::game_state
