// The Google Benchmark glue: one benchmark per (pair, variant) with
// Iterations(writes), UseManualTime and SetIterationTime per write+sync, and a
// display reporter that keeps Google Benchmark's own JSON (context +
// benchmarks) for our result file. The measurement itself is lib/measure;
// nothing here times anything.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lib/config/settings.h"
#include "lib/env/probe.h"
#include "lib/io/error.h"
#include "lib/report/pairs.h"

namespace alignbench {

struct HarnessResult {
  std::vector<CollectedRun> runs;
  nlohmann::json
      benchmark_document;  // {"context": ..., "benchmarks": [...]}, untouched
  std::optional<Error> fatal;  // the error that stopped the remaining runs
  std::vector<PairSpec> unconverged;  // --budget: still wider than --precision
};

// Hands the --benchmark_* flags to Google Benchmark (always adding random
// interleaving unless given); a flag it refuses, or a filter that matches none
// of the plan's benchmarks, is a usage error. Call once, before measuring.
Status InitializeBenchmark(const std::string& argv0,
                           const std::vector<std::string>& benchmark_flags,
                           const Settings& settings);

// Measures every pair of the plan, then, with --budget, more rounds for pairs
// whose interval is still too wide. Progress lines go to stderr when asked.
// Fails only when nothing ran at all.
Result<HarnessResult> RunHarness(const Settings& settings,
                                 const TargetInfo& target, bool progress_lines);

}  // namespace alignbench
