#include "lib/pairs/percentiles.h"

#include <cmath>
#include <tuple>

#include "lib/base/text.h"

namespace alignbench {

std::optional<std::string> MostMovedPercentile(const PairResult& base,
                                               const PairResult& next) {
  std::optional<std::string> most;
  double largest = -1;
  const std::tuple<const char*, const VariantResult*, const VariantResult*>
      sides[] = {{"unaligned", &base.unaligned, &next.unaligned},
                 {"aligned", &base.aligned, &next.aligned}};
  for (const auto& [side, b, n] : sides) {
    if (b->repetitions == 0 || n->repetitions == 0) continue;
    for (const PercentileField& p : kTailPercentiles) {
      // Largest by its log ratio, so that halving counts as much as doubling.
      const double ratio = n->total_ns.*p.field / b->total_ns.*p.field;
      if (!std::isfinite(ratio) || ratio <= 0) continue;
      if (std::abs(std::log(ratio)) <= largest) continue;
      largest = std::abs(std::log(ratio));
      most = std::string(side) + " " + p.name + " " +
             Printf("%+.1f%%", (ratio - 1) * 100);
    }
  }
  return most;
}

}  // namespace alignbench
