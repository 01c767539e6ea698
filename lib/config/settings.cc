#include "lib/config/settings.h"

namespace alignbench {

std::uint64_t AlignedUnit(const std::vector<std::uint64_t>& shifts) {
  std::uint64_t unit = kLogBlockBytes;
  for (std::uint64_t shift : shifts) {
    while (unit <= shift) unit *= 2;
  }
  return unit;
}

LogWorkload WorkloadOf(const Settings& settings, std::uint64_t shift) {
  return settings.log ? *settings.log
                      : DerbyWorkload(shift, AlignedUnit(settings.shifts));
}

LogWorkload WorkloadOf(const Settings& settings) {
  return WorkloadOf(settings,
                    settings.shifts.empty() ? 0 : settings.shifts.front());
}

std::vector<PairSpec> ExpandPlan(const Settings& s) {
  std::vector<PairSpec> plan;
  for (std::uint64_t shift : s.shifts) {
    const LogWorkload workload = WorkloadOf(s, shift);
    for (SyncMethod sync : s.syncs) {
      for (IoMode io : s.ios) {
        for (Layout layout : s.layouts) {
          for (CacheState cache : s.caches) {
            for (std::uint64_t size : s.sizes) {
              plan.push_back(
                  {size, sync, io, layout, cache, shift,
                   WritesFor(workload, Variant::kUnaligned, layout, cache),
                   WritesFor(workload, Variant::kAligned, layout, cache)});
            }
          }
        }
      }
    }
  }
  return plan;
}

}  // namespace alignbench
