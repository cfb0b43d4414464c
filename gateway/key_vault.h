// The vault of per-game keys. A key registered for one game and seat is held only here, in
// locked memory; the caller gets an opaque random handle that is valid only together with
// that game and seat. Releasing a key (or every key of a game) wipes it; a restart loses
// every key by design. Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/status/statusor.h"
#include "gateway/secret.h"

namespace arena::gateway {

class KeyVault {
 public:
  // INVALID_ARGUMENT for an empty game id, a negative seat or an unusable key.
  absl::StatusOr<std::string> Register(const std::string& game_id, int seat,
                                       std::string_view api_key);
  // The key for `handle`, if it was registered for this game and seat.
  // FAILED_PRECONDITION "key_needed: ..." for an unknown (released, or lost in a restart)
  // handle; PERMISSION_DENIED when the handle belongs to another game or seat.
  absl::StatusOr<std::shared_ptr<const SecretKey>> Lookup(const std::string& handle,
                                                          const std::string& game_id,
                                                          int seat) const;
  // Any registered key, with no game binding: for ListModels by handle.
  absl::StatusOr<std::shared_ptr<const SecretKey>> LookupAny(const std::string& handle) const;
  // Releases one handle; NOT_FOUND when unknown. When `game_id` is given it must match.
  absl::Status Release(const std::string& handle, const std::string& game_id);
  // Releases every key of a game; returns how many.
  int ReleaseGame(const std::string& game_id);
  size_t size() const;

 private:
  struct Entry {
    std::string game_id;
    int seat = 0;
    std::shared_ptr<const SecretKey> key;  // in-flight calls may hold it until they finish
  };
  mutable std::mutex mu_;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace arena::gateway
