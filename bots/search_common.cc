#include "bots/search_common.h"

namespace arena::bots {

int64_t LevelNodeBudget(int level, int seats) {
  if (level <= 1) return 0;
  const int64_t step = seats > 2 ? 5 : 3;
  int64_t n = 1000;
  for (int l = 2; l < level && l < kMaxLevel; ++l) n *= step;
  return n;
}

}  // namespace arena::bots
