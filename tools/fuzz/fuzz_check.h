// ARENA_FUZZ_CHECK(cond): what a fuzz target asserts. It aborts with the condition and its
// place, so libFuzzer and the smoke driver (smoke_driver.cc) both report a crash.
#pragma once

#include <cstdio>
#include <cstdlib>

#define ARENA_FUZZ_CHECK(cond)                                                             \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      std::fprintf(stderr, "fuzz check failed: %s at %s:%d\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                        \
    }                                                                                      \
  } while (0)
