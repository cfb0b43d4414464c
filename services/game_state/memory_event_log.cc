#include "services/game_state/memory_event_log.h"

#include <algorithm>
#include <set>
#include <type_traits>
#include <variant>

#include "absl/strings/str_cat.h"

namespace arena::game_state {
namespace {

bool HasNul(const std::string& s) {
  return s.find('\0') != std::string::npos;
}

// PostgreSQL refuses a NUL byte in text and in jsonb; so does this log.
absl::Status CheckText(std::initializer_list<const std::string*> texts) {
  for (const std::string* t : texts) {
    if (HasNul(*t)) return absl::InvalidArgumentError("text holds a NUL byte");
  }
  return absl::OkStatus();
}

std::set<std::string> GamesTouched(const WriteItem& item) {
  std::set<std::string> ids;
  for (const RowChange& c : item.changes) {
    std::visit(
        [&ids](const auto& change) {
          using C = std::decay_t<decltype(change)>;
          if constexpr (std::is_same_v<C, InsertGameRow>) {
            ids.insert(change.game.game_id);
          } else {
            ids.insert(change.game_id);
          }
        },
        c);
  }
  for (const StoredEvent& e : item.events) ids.insert(e.game_id);
  return ids;
}

}  // namespace

MemoryEventLog::MemoryEventLog() {
  Start();
}

MemoryEventLog::~MemoryEventLog() {
  Stop();
}

void MemoryEventLog::FailItemsWhere(std::function<bool(const WriteItem&)> fails) {
  std::lock_guard<std::mutex> lock(mu_);
  fails_ = std::move(fails);
}

absl::Status MemoryEventLog::CommitBatch(const std::vector<WriteItem>& batch) {
  std::lock_guard<std::mutex> lock(mu_);
  if (fails_) {
    for (const WriteItem& item : batch) {
      if (fails_(item)) return absl::UnavailableError("injected write failure");
    }
  }
  // Stage the games the batch touches; commit them back only if every item applies.
  Rows staged;
  for (const WriteItem& item : batch) {
    for (const std::string& id : GamesTouched(item)) {
      auto it = rows_.find(id);
      if (it != rows_.end() && staged.count(id) == 0) staged.emplace(id, it->second);
    }
  }
  for (const WriteItem& item : batch) {
    absl::Status s = ApplyItem(item, staged);
    if (!s.ok()) return s;
  }
  for (auto& [id, row] : staged) rows_[id] = std::move(row);
  return absl::OkStatus();
}

absl::Status MemoryEventLog::ApplyItem(const WriteItem& item, Rows& staged) {
  auto game_row = [&](const std::string& id) -> Row* {
    auto it = staged.find(id);
    return it == staged.end() ? nullptr : &it->second;
  };
  for (const RowChange& change : item.changes) {
    absl::Status s = std::visit(
        [&](const auto& c) -> absl::Status {
          using C = std::decay_t<decltype(c)>;
          if constexpr (std::is_same_v<C, InsertGameRow>) {
            const StoredGame& g = c.game;
            if (absl::Status t =
                    CheckText({&g.game_id, &g.game_kind, &g.variant, &g.settings_json, &g.status,
                               &g.seed_commitment, &g.idempotency_scope, &g.idempotency_key});
                !t.ok()) {
              return t;
            }
            if (game_row(g.game_id) != nullptr || rows_.count(g.game_id) > 0) {
              return absl::AlreadyExistsError(absl::StrCat("game ", g.game_id, " exists"));
            }
            if (!g.idempotency_key.empty()) {
              for (const Rows* rows : {&rows_, &staged}) {
                for (const auto& [id, row] : *rows) {
                  if (row.game.idempotency_scope == g.idempotency_scope &&
                      row.game.idempotency_key == g.idempotency_key) {
                    return absl::AlreadyExistsError("idempotency key used");
                  }
                }
              }
            }
            Row row;
            row.game = g;
            row.game.seats.clear();
            row.game.events.clear();
            row.created = next_created_++;
            staged.emplace(g.game_id, std::move(row));
            return absl::OkStatus();
          } else if constexpr (std::is_same_v<C, UpsertSeatRow>) {
            Row* row = game_row(c.game_id);
            if (row == nullptr) return absl::FailedPreconditionError("seat of no game");
            if (c.seat.seat < 0) return absl::InvalidArgumentError("negative seat");
            if (absl::Status t = CheckText({&c.seat.kind, &c.seat.spec_json, &c.seat.seat_seed});
                !t.ok()) {
              return t;
            }
            auto& seats = row->game.seats;
            for (StoredSeat& s : seats) {
              if (s.seat == c.seat.seat) {
                s = c.seat;
                return absl::OkStatus();
              }
            }
            seats.push_back(c.seat);
            std::sort(seats.begin(), seats.end(),
                      [](const StoredSeat& a, const StoredSeat& b) { return a.seat < b.seat; });
            return absl::OkStatus();
          } else if constexpr (std::is_same_v<C, SetStatusRow>) {
            if (absl::Status t = CheckText({&c.status}); !t.ok()) return t;
            if (Row* row = game_row(c.game_id)) row->game.status = c.status;
            return absl::OkStatus();  // an UPDATE of no row changes nothing
          } else if constexpr (std::is_same_v<C, SetSettingsRow>) {
            if (absl::Status t = CheckText({&c.variant, &c.settings_json}); !t.ok()) return t;
            if (Row* row = game_row(c.game_id)) {
              row->game.variant = c.variant;
              row->game.settings_json = c.settings_json;
            }
            return absl::OkStatus();
          } else {
            static_assert(std::is_same_v<C, DeleteGameRows>);
            if (Row* row = game_row(c.game_id)) {
              row->deleted = true;
              row->game.events.clear();
              row->game.seats.clear();
            }
            return absl::OkStatus();
          }
        },
        change);
    if (!s.ok()) return s;
  }
  for (const StoredEvent& e : item.events) {
    Row* row = game_row(e.game_id);
    if (row == nullptr) return absl::FailedPreconditionError("event of no game");
    if (e.seq < 0) return absl::InvalidArgumentError("negative sequence number");
    if (absl::Status t = CheckText({&e.type, &e.action}); !t.ok()) return t;
    if (e.payload.dump().find("\\u0000") != std::string::npos) {
      return absl::InvalidArgumentError("payload holds a NUL character");
    }
    auto& events = row->game.events;
    for (const StoredEvent& old : events) {
      if (old.seq == e.seq) return absl::AlreadyExistsError("event sequence number used");
    }
    events.push_back(e);
    std::sort(events.begin(), events.end(),
              [](const StoredEvent& a, const StoredEvent& b) { return a.seq < b.seq; });
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> MemoryEventLog::UnfinishedGameIds() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::pair<int64_t, std::string>> found;
  for (const auto& [id, row] : rows_) {
    const std::string& s = row.game.status;
    if (!row.deleted && (s == "waiting" || s == "active")) found.emplace_back(row.created, id);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> ids;
  for (auto& [created, id] : found) ids.push_back(std::move(id));
  return ids;
}

absl::StatusOr<StoredGame> MemoryEventLog::LoadGame(const std::string& game_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = rows_.find(game_id);
  if (it == rows_.end() || it->second.deleted) return absl::NotFoundError("no such game");
  return it->second.game;
}

absl::StatusOr<std::string> MemoryEventLog::GameOfIdempotencyKey(const std::string& scope,
                                                                 const std::string& key) {
  if (key.empty()) return std::string();  // a game without a key is never found by one
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [id, row] : rows_) {
    if (row.game.idempotency_scope == scope && row.game.idempotency_key == key) return id;
  }
  return std::string();
}

std::vector<StoredEvent> MemoryEventLog::EventsOf(const std::string& game_id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = rows_.find(game_id);
  return it == rows_.end() ? std::vector<StoredEvent>{} : it->second.game.events;
}

}  // namespace arena::game_state
