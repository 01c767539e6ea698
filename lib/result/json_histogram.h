// A variant's histograms in a result file (schema: $defs/histograms): sparse
// buckets as [lower bound in ns, count] pairs, ascending, with the exact
// count, sum, min and max. Kept apart from json_write.cc and json_read.cc so
// that the layout of the buckets is written and read in one place.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "lib/base/error.h"
#include "lib/pairs/pairs.h"

namespace alignbench {

nlohmann::json HistogramsJson(const VariantHistograms& histograms);

// Reads a "histograms" object back; an error's detail names the key below
// `path` that is wrong. A file's histograms must have this build's layout
// (buckets per power of two): bounds from another layout would not merge.
Result<VariantHistograms> ReadHistograms(const nlohmann::json& object,
                                         const std::string& path);

// `pretty` (nlohmann's dump with an indent) with every array that holds only
// numbers, or arrays of them, on one line: a histogram's buckets, [[lower,
// count], ...], then take one line instead of one or four per bucket, and a
// Derby result shrinks by a quarter (490 KB to 370 KB). Text inside strings is
// left as it is.
std::string OneLineNumberArrays(const std::string& pretty);

}  // namespace alignbench
