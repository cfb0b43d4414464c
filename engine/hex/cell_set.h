// A set of cells of a hex grid as a fixed array of 64-bit words: a plain value the games keep
// in their positions (pieces by seat, rows, zones) and walk in cell order.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace arena::engine::hex {

// Cells 0..64*kWords-1 (three words hold the 169 cells of radius 7, four the 217 of radius 8).
template <int kWords>
struct CellSet {
  std::array<uint64_t, kWords> w{};
  void Set(int c) { w[c >> 6] |= uint64_t{1} << (c & 63); }
  void Clear(int c) { w[c >> 6] &= ~(uint64_t{1} << (c & 63)); }
  bool Test(int c) const { return (w[c >> 6] >> (c & 63)) & 1; }
  bool Empty() const {
    uint64_t any = 0;
    for (uint64_t x : w) any |= x;
    return any == 0;
  }
  int Count() const {
    int n = 0;
    for (uint64_t x : w) n += std::popcount(x);
    return n;
  }
  // Calls f(cell) for every cell in the set, in increasing order.
  template <class F>
  void ForEach(F&& f) const {
    for (int i = 0; i < kWords; ++i) {
      for (uint64_t b = w[i]; b; b &= b - 1) f(i * 64 + std::countr_zero(b));
    }
  }
  friend bool operator==(const CellSet&, const CellSet&) = default;
};

}  // namespace arena::engine::hex
