// The tail of the write+sync distribution: where a read-modify-write
// or a journal commit shows before it moves the mean. Rows of percentiles per
// pair for `show` and the run's table, and, for `compare`, the percentile that
// moved most between two results. Reads summaries only.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "lib/report/report.h"

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

// The percentiles of pairs [from, to), in ms per write+sync, each variant a
// row; nothing where no variant has a p99.9 (fewer than 1000 writes).
void RenderTailRows(std::ostream& out, const std::vector<PairResult>& pairs,
                    std::size_t from, std::size_t to);

// "aligned p99.9 +41.0%": of both variants' percentiles known in both
// results, the one whose change from base to next is largest either way.
std::optional<std::string> MostMovedPercentile(const PairResult& base,
                                               const PairResult& next);

// One line per pair of BASE that NEW has too: its most moved percentile.
void RenderPercentileMoves(std::ostream& out, const Report& base,
                           const Report& next);

}  // namespace alignbench
