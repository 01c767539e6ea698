#include "lib/render/conditions.h"

#include <algorithm>

#include "lib/base/text.h"

namespace alignbench {
namespace {

std::vector<const PairResult*> AllPairs(const Report& report) {
  std::vector<const PairResult*> all;
  for (const PairResult& pair : report.pairs) all.push_back(&pair);
  return all;
}

// Every pair's others' writes from its traced requests.
bool Traced(const Report& report) {
  return !report.pairs.empty() &&
         std::all_of(
             report.pairs.begin(), report.pairs.end(), [](const PairResult& p) {
               return p.unaligned.device_requests && p.aligned.device_requests;
             });
}

bool Sampled(const Report& report) {
  return std::any_of(
      report.pairs.begin(), report.pairs.end(),
      [](const PairResult& p) { return OthersWritesPerSecond(p).has_value(); });
}

}  // namespace

std::optional<double> OthersWritesPerSecond(const PairResult& pair) {
  std::optional<double> rate;
  for (const VariantResult* v : {&pair.unaligned, &pair.aligned}) {
    if (!(v->total_ns.mean > 0)) continue;
    const DevicePerOp* others = v->device_requests ? &v->device_requests->others
                                : v->background    ? &*v->background
                                                   : nullptr;
    if (!others) continue;
    const double r = others->writes / (v->total_ns.mean * 1e-9);
    rate = std::max(rate.value_or(0), r);
  }
  return rate;
}

double BusiestWritesPerSecond(const std::vector<const PairResult*>& pairs) {
  double busiest = 0;
  for (const PairResult* pair : pairs) {
    busiest = std::max(busiest, OthersWritesPerSecond(*pair).value_or(0));
  }
  return busiest;
}

std::optional<double> BusiestCpuShare(
    const std::vector<const PairResult*>& pairs) {
  std::optional<double> busiest;
  for (const PairResult* pair : pairs) {
    if (pair->others_cpu_share) {
      busiest = std::max(busiest.value_or(0), *pair->others_cpu_share);
    }
  }
  return busiest;
}

std::string ConditionsText(const Report& report) {
  const std::vector<const PairResult*> all = AllPairs(report);
  std::string text = "others' writes ";
  if (Sampled(report)) {
    const double writes = BusiestWritesPerSecond(all);
    text += Printf("%.1f", writes) + "/s" + (Traced(report) ? " traced" : "") +
            (writes >= kBusyWritesPerSecond ? " (busy)" : "");
  } else {
    text += "not sampled";
  }
  const std::optional<double> cpus = BusiestCpuShare(all);
  text += ", others' CPU ";
  text += cpus ? Printf("%.0f", 100 * *cpus) + " %" +
                     (*cpus >= kBusyCpuShare ? " (busy)" : "")
               : "not sampled";
  return text;
}

bool BusyConditions(const Report& report) {
  const std::vector<const PairResult*> all = AllPairs(report);
  const std::optional<double> cpus = BusiestCpuShare(all);
  return BusiestWritesPerSecond(all) >= kBusyWritesPerSecond ||
         (cpus && *cpus >= kBusyCpuShare);
}

}  // namespace alignbench
