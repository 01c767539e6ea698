// The Google Benchmark glue: alignbench draws the order of the runs
// (lib/config/schedule.h) and registers each run as its own benchmark
// instance in that order, with Iterations(writes), Repetitions(1),
// UseManualTime and SetIterationTime per write+sync, so every run is reported
// as soon as it finishes. A display reporter keeps Google Benchmark's own JSON
// (context + benchmarks) for our result file. The measurement itself is
// lib/measure and the budget's arithmetic lib/stats/budget; nothing here times
// a write.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lib/base/error.h"
#include "lib/config/settings.h"
#include "lib/env/probe.h"
#include "lib/report/pairs.h"

namespace alignbench {

// Per directory where it says so, in the order of the directories.
struct HarnessResult {
  // The runs of each directory.
  std::vector<std::vector<CollectedRun>> runs;
  // {"context": ..., "benchmarks": [...]}, untouched
  nlohmann::json benchmark_document;
  // The error that stopped the remaining runs.
  std::optional<Error> fatal;
  std::uint64_t seed = 0;
  // Per directory: the pairs --budget could not bring to --precision.
  std::vector<std::vector<Shortfall>> out_of_budget;
  // When the second stage was planned
  double budget_left_seconds = 0;
};

// Hands the --benchmark_* flags to Google Benchmark, with the order, filter
// and repetitions alignbench owns fixed after them (Google Benchmark also
// reads BENCHMARK_* environment variables). A flag it refuses is a usage
// error. Call once, before measuring.
Status InitializeBenchmark(const std::string& argv0,
                           const std::vector<std::string>& benchmark_flags);

// Measures every pair of the plan in every directory, the blocks of all in one
// shuffled schedule (so that each directory sees the same minutes of machine
// noise), then, with --budget, the second stage. `settings` and `targets` have
// one entry per directory and differ only in it. Progress lines go to stderr
// when asked.
HarnessResult RunHarness(const std::vector<Settings>& settings,
                         const std::vector<TargetInfo>& targets,
                         bool progress_lines);

}  // namespace alignbench
