// The tail of the write+sync distribution, as numbers: the percentiles the
// printers show (p50 to p99.99), and, for two results, the percentile that
// moved most between them. Reads summaries only.
#pragma once

#include <optional>
#include <string>

#include "lib/pairs/pair_result.h"

namespace alignbench {

struct PercentileField {
  const char* name;
  double Summary::*field;
};
inline constexpr PercentileField kTailPercentiles[] = {
    {"p50", &Summary::p50},
    {"p90", &Summary::p90},
    {"p99", &Summary::p99},
    {"p99.9", &Summary::p999},
    {"p99.99", &Summary::p9999}};

// "aligned p99.9 +41.0%": of both variants' percentiles known in both
// results, the one whose change from base to next is largest either way.
std::optional<std::string> MostMovedPercentile(const PairResult& base,
                                               const PairResult& next);

}  // namespace alignbench
