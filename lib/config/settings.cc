#include "lib/config/settings.h"

namespace alignbench {

LogWorkload WorkloadOf(const Settings& settings) {
  return settings.log ? *settings.log : DerbyWorkload(settings.shift);
}

std::vector<PairSpec> ExpandPlan(const Settings& s) {
  const LogWorkload workload = WorkloadOf(s);
  std::vector<PairSpec> plan;
  for (SyncMethod sync : s.syncs) {
    for (IoMode io : s.ios) {
      for (Layout layout : s.layouts) {
        for (CacheState cache : s.caches) {
          for (std::uint64_t size : s.sizes) {
            plan.push_back(
                {size, sync, io, layout, cache,
                 WritesFor(workload, Variant::kUnaligned, layout, cache),
                 WritesFor(workload, Variant::kAligned, layout, cache)});
          }
        }
      }
    }
  }
  return plan;
}

}  // namespace alignbench
