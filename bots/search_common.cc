#include "bots/search_common.h"

namespace arena::bots {

int64_t LevelNodeBudget(int level) {
  if (level <= 1) return 0;
  int64_t n = 1000;
  for (int l = 2; l < level && l < kMaxLevel; ++l) n *= 3;
  return n;
}

}  // namespace arena::bots
