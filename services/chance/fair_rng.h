// FairDraw: the provably-fair random source of one game.
//
// Every random outcome the service decides (the leader, each dart-round start, each dart
// landing) comes from HMAC-SHA256(key = the game's 32-byte secret seed,
// message = seat seeds || purpose || counter), where the seat seeds are each seat's own seed
// in table seat order, each as a 4-byte big-endian length then its bytes, the purpose is a
// short ASCII word ("leader", "chance") followed by a 0 byte, and the counter is the draw's
// index in the game (8 bytes big-endian, from 0). SHA-256 of the seed is published when the
// game is created, the seed itself when it ends, so anyone can recompute every draw
// (arenactl verify). Bytes become outcomes by the inverse CDF below.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.h"

namespace arena::game_state {

using DrawBytes = std::array<uint8_t, 32>;

class FairDraw {
 public:
  FairDraw() = default;
  FairDraw(std::string secret_seed, std::vector<std::string> seat_seeds)
      : seed_(std::move(secret_seed)), seat_seeds_(std::move(seat_seeds)) {}

  // 32 fresh random bytes from the operating system (libsodium).
  static std::string NewSecretSeed();
  // Lower-case hex SHA-256 of the seed: the commitment published at creation.
  static std::string Commitment(std::string_view seed);

  DrawBytes Draw(std::string_view purpose, uint64_t counter) const;

  const std::string& seed() const { return seed_; }
  const std::vector<std::string>& seat_seeds() const { return seat_seeds_; }
  void set_seat_seed(size_t seat, std::string seed) {
    if (seat_seeds_.size() <= seat) seat_seeds_.resize(seat + 1);
    seat_seeds_[seat] = std::move(seed);
  }

 private:
  std::string seed_;
  std::vector<std::string> seat_seeds_;
};

// A uniform double in [0, 1) from the first 8 bytes: (BE64 >> 11) * 2^-53.
double UniformFromBytes(const DrawBytes& bytes);
// Inverse CDF: the first outcome whose running probability sum exceeds u * total (the last
// outcome when rounding leaves u beyond the sum). Returns its index; -1 for an empty list.
int PickByInverseCdf(const std::vector<engine::ChanceOutcome>& outcomes, double u);
// Uniform choice of one of n seats: floor(u * n).
int PickUniform(int n, double u);

std::string ToHex(std::string_view bytes);
// Empty optional-like: returns false when `hex` is not even-length lower/upper hex.
bool FromHex(std::string_view hex, std::string* out);

}  // namespace arena::game_state
