#include "lib/stats/budget.h"

#include <algorithm>
#include <numeric>

namespace alignbench {

SecondStage PlanSecondStage(const std::vector<PairNeed>& needs,
                            double seconds_left) {
  SecondStage stage{std::vector<std::uint64_t>(needs.size(), 0),
                    std::vector<bool>(needs.size(), false)};
  auto extra = [&needs](std::size_t i) {
    return needs[i].blocks_needed > needs[i].blocks_done
               ? needs[i].blocks_needed - needs[i].blocks_done
               : 0;
  };
  auto cost = [&](std::size_t i) {
    return static_cast<double>(extra(i)) * needs[i].seconds_per_block;
  };
  std::vector<std::size_t> order(needs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(
      order.begin(), order.end(),
      [&](std::size_t a, std::size_t b) { return cost(a) < cost(b); });
  for (std::size_t i : order) {
    if (extra(i) == 0) continue;
    if (cost(i) <= seconds_left) {
      stage.extra_blocks[i] = extra(i);
      seconds_left -= cost(i);
    } else {
      stage.out_of_budget[i] = true;
    }
  }
  return stage;
}

}  // namespace alignbench
